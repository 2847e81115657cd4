import { createHash } from 'node:crypto';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { userInfo } from 'node:os';

/**
 * The socket path the daemon uses by default: `$BRIDGED_SOCKET`, else
 * `$XDG_RUNTIME_DIR/bridged/bridged.sock`, else `/tmp/bridged-<uid>/bridged.sock`.
 */
export function defaultSocketPath(env = process.env) {
  if (env.BRIDGED_SOCKET) return env.BRIDGED_SOCKET;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'bridged', 'bridged.sock');
  const uid = typeof process.getuid === 'function' ? process.getuid() : userInfo().uid;
  return `/tmp/bridged-${uid}/bridged.sock`;
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
