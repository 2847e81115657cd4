// One daemon for the whole jest run (jest's globalSetup, in jest's own process): started here on a socket of
// its own (BRIDGED_BIN, else `bridged` on PATH, else this checkout's build), shared by every worker (each test file
// is a session of its own), stopped by global-teardown.js. It was started with --exit-with-parent: should jest
// itself die, the daemon ends once its last worker's connection is gone; it is never left behind.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '../../index.js';

export default async function globalSetup() {
  if (process.env.BRIDGED_JEST_SOCKET) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'bridged-jest-'));
  const socket = path.join(dir, 'bridged.sock');
  const bridge = await connect({ spawn: true, socket, bin: process.env.BRIDGED_BIN || undefined, client: 'bridged-client/jest' });
  process.env.BRIDGED_JEST_SOCKET = socket;
  process.env.BRIDGED_JEST_DIR = dir;
  if (bridge.daemonPid != null) process.env.BRIDGED_JEST_DAEMON_PID = String(bridge.daemonPid);
  await bridge.close();
}
