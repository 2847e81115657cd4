import { createConnection } from 'node:net';
import { spawn as spawnProcess } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { BridgeError, ClientErrorCodes, aborted } from './errors.js';
import { checkSocketFolder } from './socket-path.js';

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

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The builds of the repository this client is part of, when it runs from a checkout: the folder above
 * js-client holds Package.swift, and `.build/release/bridged` then `.build/debug/bridged` there.
 */
export function checkoutBuilds(clientDir = dirname(dirname(fileURLToPath(import.meta.url)))) {
  const root = dirname(clientDir);
  if (!existsSync(join(root, 'Package.swift'))) return [];
  return [join(root, '.build', 'release', 'bridged'), join(root, '.build', 'debug', 'bridged')];
}

/** The binary `spawn` starts without `bin`: the checkout's own build (release, then debug), then `PATH`. */
export function findBridged(env = process.env) {
  return checkoutBuilds().find(executable) ?? findOnPath('bridged', env);
}

const NOT_LISTENING = new Set(['ENOENT', 'ECONNREFUSED']);

/**
 * The write ends of the pipes that are the standard input of the daemons this process started (`--exit-with-parent`):
 * held here, never written, until the process ends, when the kernel closes them, however it ends (a `SIGKILL`
 * included), and each daemon reads its end of file. Unreferenced: they never keep the process alive.
 */
const lifelines = new Set();

/** The longest wait between spawns while a daemon stopping on the same socket still holds its lock. */
const MAX_RESPAWN_DELAY_MS = 400;

/**
 * Connects to `socketPath`; with `spawn`, when nothing listens there, starts `bridged --socket <path>`
 * (with `--components` for each of `components`) detached (`bin`, else findBridged()) and polls until it accepts, until `signal` aborts. `timeoutMs` is
 * only named in the message when `signal` is that timeout. With `checkFolder` (the default location's folder),
 * that folder is checked first, and again once a spawn created it (`unsafe_socket_dir`).
 *
 * With `spawn: true` the daemon is started with `--exit-with-parent` and a pipe as its standard input, whose other
 * end this process keeps (unwritten) until it ends: the daemon then stops once no connection is open, so it never
 * outlives this process and whoever else still uses it. `spawn: 'detached'` starts it without: it runs until it is
 * stopped (SIGTERM).
 * @returns {Promise<{socket: import('node:net').Socket, daemonPid: number | null}>}
 */
export async function connectOrSpawn({
  socketPath,
  spawn = false,
  bin,
  components = [],
  signal,
  timeoutMs,
  checkFolder = null,
}) {
  if (signal?.aborted) throw aborted(signal);
  if (spawn !== false && spawn !== true && spawn !== 'detached') {
    throw new BridgeError(
      ClientErrorCodes.CONNECT_FAILED,
      `spawn must be true, false or 'detached', got ${typeof spawn === 'string' ? `'${spawn}'` : String(spawn)}`,
    );
  }
  if (checkFolder) checkSocketFolder(checkFolder);
  for (let delay = 25; ; delay = Math.min(delay * 2, MAX_RESPAWN_DELAY_MS)) {
    try {
      return { socket: await openSocket(socketPath), daemonPid: null };
    } catch (err) {
      if (!spawn || !NOT_LISTENING.has(err.code)) {
        throw new BridgeError(ClientErrorCodes.CONNECT_FAILED, `cannot connect to ${socketPath}: ${err.message}`, {
          cause: err,
        });
      }
    }
    let started = await spawnAndConnect({ socketPath, spawn, bin, components, signal, timeoutMs, checkFolder });
    if (started.flagUnknown) {
      // A bridged older than the flag (one on PATH from an earlier install): it is started as before, and the
      // user is told once that it will outlive this process.
      warnOnce(
        started.binary,
        `${started.binary} does not know --exit-with-parent (it is older than this client): the daemon it started ` +
          `will outlive this process; stop it with SIGTERM, or build or install a newer bridged`,
      );
      started = await spawnAndConnect({ socketPath, spawn: 'detached', bin, components, signal, timeoutMs, checkFolder });
    }
    if (started.socket) return started;
    // The daemon this one would replace still held the socket's lock as it stopped (its last client had just
    // left, or it was sent SIGTERM): it is gone a moment later (within its --shutdown-timeout), so the spawn is
    // tried again until `signal` aborts. Anything else is the daemon's own reason.
    if (!started.lostToStoppingDaemon || !signal) throw started.error;
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      throw signal.reason?.name === 'TimeoutError' ? started.error : aborted(signal, 'connect()');
    }
  }
}

const warned = new Set();

function warnOnce(key, message) {
  if (warned.has(key)) return;
  warned.add(key);
  process.emitWarning(message, { code: 'BRIDGED_OLD_DAEMON' });
}

/**
 * Starts `bridged --socket <socketPath>` detached (`spawn: true` tied to this process with `--exit-with-parent`),
 * its log (stderr) in `<socket>.log`. Returns `{binary, child, state, reason}`: `state` is filled in when it exits
 * (`exited`, an Error; `lostToStoppingDaemon` when another daemon still held the socket's lock, `flagUnknown` when
 * it refused `--exit-with-parent`), `reason()` the log's tail. It does not wait for the daemon to accept.
 */
export function launchDaemon({ socketPath, spawn = true, bin, components = [], checkFolder = null }) {
  const binary = bin ?? findBridged();
  if (!binary) {
    throw new BridgeError(
      ClientErrorCodes.CONNECT_FAILED,
      `nothing listens on ${socketPath}, and no 'bridged' binary is built in this checkout or on PATH (pass { bin })`,
    );
  }
  const tied = spawn === true;
  const args = ['--socket', socketPath];
  for (const path of components) args.push('--components', path);
  if (tied) args.push('--exit-with-parent');
  // The daemon's log (stderr) goes to `<socket>.log`: a schema it refuses stops it at once, and the reason
  // is there for the error below.
  const logPath = `${socketPath}.log`;
  let log = 'ignore';
  try {
    mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
  } catch {
    // the daemon says why
  }
  if (checkFolder) checkSocketFolder(checkFolder);
  try {
    log = openSync(logPath, 'w', 0o600);
  } catch {
    // no log then
  }
  const child = spawnProcess(binary, args, { detached: true, stdio: [tied ? 'pipe' : 'ignore', 'ignore', log] });
  if (typeof log === 'number') closeSync(log);
  if (tied && child.stdin) {
    const lifeline = child.stdin;
    lifeline.on('error', () => {}); // the daemon gone: nothing was to be written anyway
    lifeline.unref?.();
    lifelines.add(lifeline);
    child.once('exit', () => {
      lifelines.delete(lifeline);
      lifeline.destroy();
    });
  }
  const reason = () => daemonLog(logPath);
  const state = { exited: null, lostToStoppingDaemon: false, flagUnknown: false };
  child.once('error', (err) => {
    state.exited = err;
  });
  child.once('exit', (code, signal) => {
    const why = reason();
    state.lostToStoppingDaemon = code === 1 && why.includes('is already serving on');
    state.flagUnknown = tied && code === 64 && why.includes("'--exit-with-parent'");
    state.exited ??= new Error(`it exited (${signal ?? `code ${code}`})${why}`);
  });
  child.unref();
  return { binary, child, state, reason };
}

/** `: <the tail of a daemon's log>`, or '' when there is none. */
function daemonLog(logPath) {
  try {
    const text = readFileSync(logPath, 'utf8').trim();
    return text ? `: ${text.slice(-2000)}` : '';
  } catch {
    return '';
  }
}

/** Whether process `pid` runs (one that exited and was not reaped yet, a zombie, does not). */
function processLives(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true; // no /proc: kill(0) said it lives
  }
}

/**
 * Opens `socketPath` once it accepts, polled at 1 ms, then less often (at most every 25 ms): a daemon accepts some
 * 10-40 ms after its start. After each failed attempt `ended(error)` may end the wait: what it returns, when not
 * undefined, is `{ended}`. Once `signal` aborts, `{aborted: true, lastError}`: the last attempt's error.
 * @returns {Promise<{socket: import('node:net').Socket} | {ended: any} | {aborted: true, lastError?: Error}>}
 */
async function pollSocket(socketPath, ended, signal) {
  let lastError;
  for (let pause = 1; ; pause = Math.min(25, pause * 2)) {
    try {
      return { socket: await openSocket(socketPath) };
    } catch (error) {
      lastError = error;
      const value = ended(error);
      if (value !== undefined) return { ended: value };
    }
    try {
      await sleep(pause, undefined, { signal });
    } catch {
      return { aborted: true, lastError };
    }
  }
}

/**
 * Connects to a daemon started elsewhere (launchDaemon, in another process) once it accepts on `socketPath`, while
 * its process `pid` lives. Rejects (`connect_failed`) with the reason in its log (`<socket>.log`) when it exited
 * first, or after `timeoutMs`.
 * @returns {Promise<import('node:net').Socket>}
 */
export async function connectWhenAccepting({ socketPath, pid, timeoutMs = 60_000 }) {
  const failed = (message, cause) => new BridgeError(ClientErrorCodes.CONNECT_FAILED, message, { cause });
  const polled = await pollSocket(
    socketPath,
    (error) => {
      if (!NOT_LISTENING.has(error.code)) return failed(`cannot connect to ${socketPath}: ${error.message}`, error);
      if (!processLives(pid)) {
        return failed(`bridged (pid ${pid}) exited before it accepted on ${socketPath}${daemonLog(`${socketPath}.log`)}`, error);
      }
      return undefined;
    },
    AbortSignal.timeout(timeoutMs),
  );
  if (polled.aborted) throw failed(`bridged (pid ${pid}) did not accept on ${socketPath} within ${timeoutMs} ms`, polled.lastError);
  if (polled.ended) throw polled.ended;
  return polled.socket;
}

/**
 * Starts the daemon and polls its socket: `{socket, daemonPid}` once it accepts, else `{error}` (with
 * `lostToStoppingDaemon` when it exited because another daemon still held the socket's lock, `flagUnknown` when it
 * refused `--exit-with-parent`).
 */
async function spawnAndConnect({ socketPath, spawn, bin, components, signal, timeoutMs, checkFolder }) {
  const { binary, child, state } = launchDaemon({ socketPath, spawn, bin, components, checkFolder });
  // Another daemon may have won the race for the socket; only give up once a last attempt failed.
  const polled = await pollSocket(socketPath, () => (state.exited ? true : undefined), signal);
  if (polled.aborted) {
    child.kill('SIGTERM');
    if (signal.reason?.name !== 'TimeoutError') throw aborted(signal, 'connect()');
    const within = timeoutMs ? ` within ${timeoutMs} ms` : ' in time';
    throw new BridgeError(ClientErrorCodes.CONNECT_FAILED, `started ${binary} but ${socketPath} did not accept a connection${within}`, {
      cause: polled.lastError,
    });
  }
  if (polled.socket) return { socket: polled.socket, daemonPid: child.pid ?? null };
  const error = new BridgeError(ClientErrorCodes.CONNECT_FAILED, `started ${binary} but ${state.exited.message}`, {
    cause: state.exited,
  });
  return { error, lostToStoppingDaemon: state.lostToStoppingDaemon, flagUnknown: state.flagUnknown, binary };
}
