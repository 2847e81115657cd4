// bridged-client: the Node side of the bridged protocol (see ../protocol.md and README.md).
import { Bridge } from './lib/bridge.js';
import { connectOrSpawn } from './lib/spawn.js';
import { defaultSocketPath } from './lib/socket-path.js';
import { BridgeError, ClientErrorCodes } from './lib/errors.js';
import { ackOptions, reconnectOptions } from './lib/reconnect.js';

export { Bridge } from './lib/bridge.js';
export { View } from './lib/view.js';
export { Transaction } from './lib/transaction.js';
export { SyntheticEvent } from './lib/events.js';
export { BridgeError, ErrorCodes, ClientErrorCodes } from './lib/errors.js';
export { defaultSocketPath } from './lib/socket-path.js';
export { VERSION } from './lib/version.js';

/**
 * Connects to bridged and performs hello. With `spawn: true` and nothing listening, starts
 * `bridged --socket <path>` (from PATH or `bin`) detached and waits for it, up to `timeoutMs`.
 * With `reconnect`, a lost connection is re-established and the session resumed (README, "Reconnecting").
 */
export async function connect(options = {}) {
  const socketPath = options.socket ?? defaultSocketPath();
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Checked before connecting: a bad option throws a TypeError and opens nothing.
  reconnectOptions(options.reconnect);
  ackOptions(options.ack);
  const spawn = options.spawn ?? false;
  const { socket, daemonPid } = await connectOrSpawn({ socketPath, spawn, bin: options.bin, timeoutMs });
  const bridge = new Bridge(socket, {
    socketPath,
    daemonPid,
    record: options.record,
    reconnect: options.reconnect,
    ack: options.ack,
    spawn,
    bin: options.bin,
    timeoutMs,
  });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new BridgeError(ClientErrorCodes.CONNECT_FAILED, `no answer to hello within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([bridge.hello(), timeout]);
  } catch (err) {
    await bridge.destroy();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return bridge;
}
