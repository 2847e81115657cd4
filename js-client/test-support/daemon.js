// Test support (kept out of test/, where node --test would run it as a test file): starts a real
// bridged daemon on a temporary socket for one test file.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSocket } from '../lib/spawn.js';

/** The daemon under test: $BRIDGED_BIN, else ../.build/debug/bridged relative to js-client. */
export const BRIDGED_BIN =
  process.env.BRIDGED_BIN ?? fileURLToPath(new URL('../../.build/debug/bridged', import.meta.url));

/** The CLI under test. */
export const CLI = fileURLToPath(new URL('../bin/bridged-client.js', import.meta.url));

export async function tempDir() {
  return mkdtemp(join(tmpdir(), 'bridged-client-'));
}

/** Waits until `socketPath` accepts a connection (or the process exits). */
export async function waitForSocket(socketPath, child) {
  for (let attempt = 0; ; attempt++) {
    if (child && child.exitCode !== null) throw new Error(`bridged exited early (code ${child.exitCode})`);
    try {
      const socket = await openSocket(socketPath);
      socket.destroy();
      return;
    } catch (err) {
      if (attempt > 1200) throw new Error(`bridged never accepted on ${socketPath}: ${err.message}`);
    }
    await sleep(25);
  }
}

/**
 * Starts `bridged --socket <tmpdir>/b.sock [args]` in the foreground and waits until it accepts.
 * Returns {socket, dir, child, stop()}; stop() sends SIGTERM, waits for the exit and removes the dir.
 */
export async function startDaemon(args = []) {
  if (!existsSync(BRIDGED_BIN)) throw new Error(`no bridged binary at ${BRIDGED_BIN} (run swift build, or set BRIDGED_BIN)`);
  const dir = await tempDir();
  const socket = join(dir, 'b.sock');
  const child = spawn(BRIDGED_BIN, ['--socket', socket, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s) => {
    stderr += s;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await waitForSocket(socket, child);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${err.message}\n${stderr}`);
  }
  return {
    socket,
    dir,
    child,
    get stderr() {
      return stderr;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A recorder of handler calls. */
export function calls() {
  const list = [];
  return { list, push: (...entry) => list.push(entry) };
}
