// One daemon for the whole jest run (jest's globalSetup, in jest's own process): started here on a socket of
// its own (BRIDGED_BIN, else this checkout's build, else `bridged` on PATH: spawn.js findBridged), shared by every worker (each test file
// is a session of its own), stopped by global-teardown.js. It was started with --exit-with-parent: should jest
// itself die, the daemon ends once its last worker's connection is gone; it is never left behind.
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchDaemon } from '../spawn.js';

export default async function globalSetup() {
  if (process.env.BRIDGED_JEST_SOCKET) return;
  const root = runFolderRoot();
  removeLeftFolders(root);
  const dir = mkdtempSync(path.join(root, 'bridged-jest-'));
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

/** The longest path a Unix socket can have (`sun_path` holds 108 bytes with its terminating zero). */
const MAX_SOCKET_PATH = 107;

/**
 * Where the run's folder is made: the system's temporary folder (TMPDIR), unless the socket's path in it would be
 * longer than a Unix socket's can be (a deep TMPDIR, as some CI runners set: the daemon could not listen there), then
 * /tmp.
 */
function runFolderRoot() {
  const root = tmpdir();
  return Buffer.byteLength(path.join(root, 'bridged-jest-XXXXXX', 'bridged.sock')) <= MAX_SOCKET_PATH ? root : '/tmp';
}

/** A run's folder, as mkdtempSync names it. */
const FOLDER = /^bridged-jest-[A-Za-z0-9]{6}$/;
/** What a run's folder holds: the daemon's socket, its lock, its log and its state file. */
const ENTRY = /^bridged\.sock(\.lock|\.log|\.state)?$/;

/**
 * Removes the folders earlier runs left: jest itself killed runs no globalTeardown, so its daemon ends with its
 * workers (--exit-with-parent) and its folder stays, with the daemon's log. Only a folder of this user, named as
 * this file names them, holding nothing but what the daemon writes, untouched for a minute (a run starting beside
 * this one has its folder before its daemon listens), whose daemon is gone: no socket (a daemon removes it as it
 * stops), or one whose lock names a process that no longer runs.
 */
function removeLeftFolders(root) {
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const entry of entries) {
    if (!entry.isDirectory() || !FOLDER.test(entry.name)) continue;
    const dir = path.join(root, entry.name);
    try {
      const stat = lstatSync(dir);
      if ((uid !== undefined && stat.uid !== uid) || Date.now() - stat.mtimeMs < 60_000) continue;
      if (!readdirSync(dir).every((name) => ENTRY.test(name)) || daemonRuns(dir)) continue;
      rmSync(dir, { recursive: true, force: true });
    } catch {}
  }
}

/** Whether the daemon of a run's folder still runs: its socket is there and its lock's process lives. */
function daemonRuns(dir) {
  const socket = path.join(dir, 'bridged.sock');
  if (!existsSync(socket)) return false;
  try {
    const pid = Number(readFileSync(`${socket}.lock`, 'utf8').trim());
    if (!(pid > 0)) return true;
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error?.code !== 'ESRCH';
  }
}
