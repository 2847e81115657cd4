// One daemon for the whole jest run (jest's globalSetup, in jest's own process): started here on a socket of
// its own (BRIDGED_BIN, else `bridged` on PATH, else this checkout's build), shared by every worker (each test file
// is a session of its own), stopped by global-teardown.js. It was started with --exit-with-parent: should jest
// itself die, the daemon ends once its last worker's connection is gone; it is never left behind.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectOrSpawn } from '../spawn.js';

export default async function globalSetup() {
  if (process.env.BRIDGED_JEST_SOCKET) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'bridged-jest-'));
  const socket = path.join(dir, 'bridged.sock');
  // Started and accepting; each test file's session says hello (sync-bridge.js), so this process loads only the
  // spawning code, not the whole client.
  const bin = process.env.BRIDGED_BIN || undefined;
  const { socket: connection, daemonPid } = await connectOrSpawn({ socketPath: socket, spawn: true, bin });
  connection.destroy();
  process.env.BRIDGED_JEST_SOCKET = socket;
  process.env.BRIDGED_JEST_DIR = dir;
  if (daemonPid != null) process.env.BRIDGED_JEST_DAEMON_PID = String(daemonPid);
}
