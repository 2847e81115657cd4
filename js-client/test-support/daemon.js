// Test support (kept out of test/, where node --test would run it as a test file): starts a real
// bridged daemon on a temporary socket for one test file.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSocket } from '../lib/spawn.js';
import { connect } from '../index.js';

/** The daemon under test: $BRIDGED_BIN, else ../.build/debug/bridged relative to js-client. */
export const BRIDGED_BIN =
  process.env.BRIDGED_BIN ?? fileURLToPath(new URL('../../.build/debug/bridged', import.meta.url));

/** The CLI under test. */
export const CLI = fileURLToPath(new URL('../bin/bridged-client.js', import.meta.url));

/** The folders tempDir made in this process: removed when it exits, whatever its tests removed themselves. */
const made = new Set();
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'bridged-client-'));
  made.add(dir);
  return dir;
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

/** Resolves once the process is in state T (stopped), as /proc shows it: SIGSTOP is not synchronous. */
export async function stopped(pid) {
  for (;;) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    await sleep(5);
  }
}

/**
 * Resolves once process `pid` has exited (gone, or a zombie). A daemon being stopped writes its state file
 * beside its socket: remove that directory only after this.
 */
export async function exited(pid) {
  for (;;) {
    let stat;
    try {
      stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return;
    }
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return;
    await sleep(10);
  }
}

/** Whether `bridged --help` lists `flag` (e.g. `--state-file`): the daemon under test supports it. */
export function daemonHasFlag(flag) {
  if (!existsSync(BRIDGED_BIN)) return false;
  const help = spawnSync(BRIDGED_BIN, ['serve', '--help'], { encoding: 'utf8' });
  return `${help.stdout}${help.stderr}`.includes(flag);
}

/** Starts the daemon on `socket` and waits until it accepts; returns {child, exited, stderr()}. */
async function launch(socket, args) {
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
  return { child, exited, stderr: () => stderr };
}

/**
 * Starts `bridged --socket <tmpdir>/b.sock [args]` in the foreground and waits until it accepts.
 * Returns {socket, dir, child, stderr, stop(), restart(args?)}: stop() sends SIGTERM, waits for the exit
 * and removes the dir; restart() sends SIGTERM, waits, and starts a new daemon on the same socket.
 */
export async function startDaemon(args = []) {
  if (!existsSync(BRIDGED_BIN)) throw new Error(`no bridged binary at ${BRIDGED_BIN} (run swift build, or set BRIDGED_BIN)`);
  const dir = await tempDir();
  const socket = join(dir, 'b.sock');
  let current = await launch(socket, args);
  const terminate = async () => {
    const { child, exited } = current;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return {
    socket,
    dir,
    get child() {
      return current.child;
    },
    get stderr() {
      return current.stderr();
    },
    async restart(newArgs = args) {
      await terminate();
      current = await launch(socket, newArgs);
    },
    async stop() {
      await terminate();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A daemon and one Bridge connected to it, for the tests of a file: `({ daemon, bridge } = await …)`. */
export async function startDaemonWithBridge(args = []) {
  const daemon = await startDaemon(args);
  return { daemon, bridge: await connect({ socket: daemon.socket }) };
}

/** Closes what startDaemonWithBridge() opened (either may be missing if before() failed). */
export async function stopDaemonWithBridge({ daemon, bridge }) {
  await bridge?.close();
  await daemon?.stop();
}

/** A recorder of handler calls. */
export function calls() {
  const list = [];
  return { list, push: (...entry) => list.push(entry) };
}
