import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { userInfo } from 'node:os';
import { BridgeError, ClientErrorCodes } from './errors.js';

/**
 * The socket path the daemon uses by default: `$BRIDGED_SOCKET`, else
 * `$XDG_RUNTIME_DIR/bridged/bridged.sock`, else `/tmp/bridged-<uid>/bridged.sock`.
 */
export function defaultSocketPath(env = process.env) {
  if (env.BRIDGED_SOCKET) return env.BRIDGED_SOCKET;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'bridged', 'bridged.sock');
  return `/tmp/bridged-${currentUid()}/bridged.sock`;
}

function currentUid() {
  return typeof process.getuid === 'function' ? process.getuid() : userInfo().uid;
}

/**
 * The folder of the default socket when it is one of the default locations (`$XDG_RUNTIME_DIR/bridged`,
 * `/tmp/bridged-<uid>`), else null: `$BRIDGED_SOCKET`, like an explicit path, is the caller's choice.
 */
export function defaultSocketFolder(env = process.env) {
  return env.BRIDGED_SOCKET ? null : dirname(defaultSocketPath(env));
}

/**
 * Throws `unsafe_socket_dir` unless `folder` is a directory (not a link to one) of the current user's, with no
 * group or other permission bits (0700): in a folder anyone else can use or made, another user could serve a
 * daemon of their own on the socket. A folder that does not exist passes (there is nothing to connect to; a
 * spawn creates it 0700).
 */
export function checkSocketFolder(folder) {
  let stat;
  try {
    stat = lstatSync(folder);
  } catch (err) {
    if (err.code === 'ENOENT') return;
    throw unsafe(folder, `cannot check it: ${err.message}`, err);
  }
  const uid = currentUid();
  if (!stat.isDirectory()) throw unsafe(folder, 'it is not a directory (a symbolic link or another file)');
  if (stat.uid !== uid) throw unsafe(folder, `it belongs to uid ${stat.uid}, not to you (uid ${uid})`);
  if ((stat.mode & 0o077) !== 0) {
    const mode = `0${(stat.mode & 0o777).toString(8)}`;
    throw unsafe(folder, `its mode is ${mode}: group or others may use it (chmod 700 ${folder})`);
  }
}

function unsafe(folder, why, cause) {
  const message = `refusing to connect through the default socket folder ${folder}: ${why}`;
  return new BridgeError(ClientErrorCodes.UNSAFE_SOCKET_DIR, message, { details: { path: folder }, cause });
}

/** `components` (one path or a list, each a schema file or a folder of them) as absolute paths. */
export function componentPaths(components) {
  if (components === undefined || components === null) return [];
  const list = Array.isArray(components) ? components : [components];
  for (const path of list) {
    if (typeof path !== 'string' || path === '') throw new TypeError('components must be a path or an array of paths');
  }
  return list.map((path) => resolvePath(path));
}

/**
 * The socket of a daemon spawned for these schema paths: beside the default socket, named by their hash, so
 * that a daemon serving other components (the default socket's) is never mistaken for it.
 */
export function componentsSocketPath(paths, env = process.env) {
  const hash = createHash('sha256').update(paths.join('\0')).digest('hex').slice(0, 16);
  return join(dirname(defaultSocketPath(env)), `components-${hash}.sock`);
}
