// One daemon for the whole jest run (jest's globalSetup, in jest's own process): started here on a socket of
// its own (BRIDGED_BIN, else `bridged` on PATH, else this checkout's build), shared by every worker (each test file
// is a session of its own), stopped by global-teardown.js. It was started with --exit-with-parent: should jest
// itself die, the daemon ends once its last worker's connection is gone; it is never left behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchDaemon } from '../spawn.js';

export default async function globalSetup() {
  if (process.env.BRIDGED_JEST_SOCKET) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'bridged-jest-'));
  const socket = path.join(dir, 'bridged.sock');
  // Started, not waited for: it comes up (some 25 ms) while jest loads the first test file's environment, which
  // waits for it to accept (environment.js), or says why it exited (its log, beside the socket).
  try {
    const { child } = launchDaemon({ socketPath: socket, spawn: true, bin: process.env.BRIDGED_BIN || undefined });
    await new Promise((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => reject(new Error(`preset: 'bridged-client' could not start bridged: ${error.message}`)));
    });
    process.env.BRIDGED_JEST_DAEMON_PID = String(child.pid);
  } catch (error) {
    // jest runs no teardown after a failed setup: nothing is left behind.
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  process.env.BRIDGED_JEST_SOCKET = socket;
  process.env.BRIDGED_JEST_DIR = dir;
}
