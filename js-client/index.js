// bridged-client: the Node side of the bridged protocol (see ../protocol.md and README.md).
import { Bridge, bridgeOptions } from './lib/bridge.js';
import { connectOrSpawn } from './lib/spawn.js';
import { componentPaths, componentsSocketPath, defaultSocketFolder, defaultSocketPath } from './lib/socket-path.js';
import { BridgeError, ClientErrorCodes, aborted } from './lib/errors.js';
import { anySignal } from './lib/internal.js';
import { ackOptions, reconnectOptions } from './lib/reconnect.js';

export { Bridge } from './lib/bridge.js';
export { View } from './lib/view.js';
export { Transaction } from './lib/transaction.js';
export { SyntheticEvent } from './lib/events.js';
export { BridgeError, ErrorCodes, ClientErrorCodes } from './lib/errors.js';
export { defaultSocketPath } from './lib/socket-path.js';
export { VERSION } from './lib/version.js';

/**
 * Connects to bridged and performs hello. With `spawn: true` and nothing listening, starts `bridged
 * --socket <path>` detached (`bin`, else this checkout's own build, else `bridged` on PATH) and waits for
 * it. All of it within `timeoutMs` and until `signal` aborts. With `reconnect`, a lost connection is
 * re-established and the session resumed (README, "Reconnecting").
 */
export async function connect(options = {}) {
  const components = componentPaths(options.components);
  // A daemon for these schemas has a socket of its own, so that a daemon serving other components (the
  // default socket's) is never mistaken for it.
  const socketPath = options.socket ?? (components.length ? componentsSocketPath(components) : defaultSocketPath());
  // The default location's folder must be the user's own (unsafe_socket_dir); a path the caller gave is theirs.
  const checkFolder = options.socket === undefined ? defaultSocketFolder() : null;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Checked before connecting: a bad option throws a TypeError and opens nothing.
  reconnectOptions(options.reconnect);
  ackOptions(options.ack);
  bridgeOptions(options);
  if (options.signal?.aborted) throw aborted(options.signal, 'connect()');
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = anySignal([options.signal, timeout]);
  const spawn = options.spawn ?? false;
  const { bin } = options;
  const { socket, daemonPid } = await connectOrSpawn({ socketPath, spawn, bin, components, signal, timeoutMs, checkFolder });
  const bridge = new Bridge(socket, {
    socketPath,
    daemonPid,
    record: options.record,
    reconnect: options.reconnect,
    ack: options.ack,
    spawn,
    bin: options.bin,
    components,
    timeoutMs,
    maxQueuedBytes: options.maxQueuedBytes,
    requestTimeoutMs: options.requestTimeoutMs,
    maxFrameBytes: options.maxFrameBytes,
    batchPartBytes: options.batchPartBytes,
    checkFolder,
  });
  try {
    await bridge.hello({ signal });
  } catch (err) {
    await bridge.destroy();
    if (err?.code !== ClientErrorCodes.ABORTED) throw err;
    if (options.signal?.aborted) throw aborted(options.signal, 'connect()');
    throw new BridgeError(ClientErrorCodes.CONNECT_FAILED, `no answer to hello within ${timeoutMs} ms`, { cause: err });
  }
  return bridge;
}
