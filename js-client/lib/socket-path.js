import { join } from 'node:path';
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
