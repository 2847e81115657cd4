import { createConnection } from 'node:net';
import { spawn as spawnProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BridgeError, ClientErrorCodes } from './errors.js';

/** Opens a connection to a Unix socket; rejects with the system error (ENOENT, ECONNREFUSED, …). */
export function openSocket(path) {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path });
    const onError = (err) => {
      socket.destroy();
      reject(err);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

/** Finds `name` on `$PATH`, or returns undefined. */
export function findOnPath(name, env = process.env) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const NOT_LISTENING = new Set(['ENOENT', 'ECONNREFUSED']);

/**
 * Connects to `socketPath`; with `spawn`, when nothing listens there, starts `bridged --socket <path>`
 * detached and polls until it accepts, up to `timeoutMs`.
 * @returns {Promise<{socket: import('node:net').Socket, daemonPid: number | null}>}
 */
export async function connectOrSpawn({ socketPath, spawn = false, bin, timeoutMs }) {
  try {
    return { socket: await openSocket(socketPath), daemonPid: null };
  } catch (err) {
    if (!spawn || !NOT_LISTENING.has(err.code)) {
      throw new BridgeError(ClientErrorCodes.CONNECT_FAILED, `cannot connect to ${socketPath}: ${err.message}`, {
        cause: err,
      });
    }
  }

  const binary = bin ?? findOnPath('bridged');
  if (!binary) {
    throw new BridgeError(
      ClientErrorCodes.CONNECT_FAILED,
      `nothing listens on ${socketPath} and no 'bridged' binary is on PATH (pass { bin })`,
    );
  }
  const child = spawnProcess(binary, ['--socket', socketPath], { detached: true, stdio: 'ignore' });
  let exited = null;
  child.once('error', (err) => {
    exited = err;
  });
  child.once('exit', (code, signal) => {
    exited ??= new Error(`it exited (${signal ?? `code ${code}`})`);
  });
  child.unref();

  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      return { socket: await openSocket(socketPath), daemonPid: child.pid ?? null };
    } catch (err) {
      lastError = err;
    }
    // Another daemon may have won the race for the socket; only give up once a last attempt failed.
    if (exited) {
      throw new BridgeError(ClientErrorCodes.CONNECT_FAILED, `started ${binary} but ${exited.message}`, {
        cause: exited,
      });
    }
    if (Date.now() >= deadline) {
      child.kill('SIGTERM');
      throw new BridgeError(
        ClientErrorCodes.CONNECT_FAILED,
        `started ${binary} but ${socketPath} did not accept a connection within ${timeoutMs} ms`,
        { cause: lastError },
      );
    }
    await sleep(25);
  }
}
