// Options of reconnecting and acknowledging, and the rules that do not need a socket.
import { opsWhere } from './ops.js';

/** Ops that may be sent again after the connection was lost before their response (ops.js `safeToRepeat`). */
export const SAFE_TO_REPEAT = opsWhere('safeToRepeat');

/** Ops that do not depend on the session's views: still sent after a reset (ops.js `sessionFree`). */
export const SESSION_FREE = opsWhere('sessionFree');

export const RECONNECT_DEFAULTS = Object.freeze({
  initialDelayMs: 100,
  maxDelayMs: 5_000,
  maxAttempts: Infinity,
  /** How long a request waits for the connection to come back before it rejects with `connection_closed`. */
  requestTimeoutMs: 30_000,
});
export const ACK_DEFAULTS = Object.freeze({ everyEvents: 256, delayMs: 100 });

/** `reconnect` option → null (off) or {initialDelayMs, maxDelayMs, maxAttempts, requestTimeoutMs}. */
export function reconnectOptions(option) {
  if (option === undefined || option === false || option === null) return null;
  if (option === true) return { ...RECONNECT_DEFAULTS };
  if (typeof option !== 'object') {
    throw new TypeError('reconnect is a boolean or {initialDelayMs, maxDelayMs, maxAttempts, requestTimeoutMs}');
  }
  const options = { ...RECONNECT_DEFAULTS, ...option };
  for (const key of ['initialDelayMs', 'maxDelayMs', 'requestTimeoutMs']) {
    if (!(options[key] >= 0)) throw new TypeError(`reconnect.${key} is a number of milliseconds`);
  }
  if (!(options.maxAttempts >= 1)) throw new TypeError('reconnect.maxAttempts is at least 1');
  return options;
}

/** `ack` option → null (off) or {everyEvents, delayMs}. */
export function ackOptions(option) {
  if (option === false || option === null) return null;
  if (option === undefined || option === true) return { ...ACK_DEFAULTS };
  if (typeof option !== 'object') throw new TypeError('ack is a boolean or {everyEvents, delayMs}');
  const options = { ...ACK_DEFAULTS, ...option };
  if (!(options.everyEvents >= 1)) throw new TypeError('ack.everyEvents is at least 1');
  if (!(options.delayMs >= 0)) throw new TypeError('ack.delayMs is a number of milliseconds');
  return options;
}

/**
 * The wait before reconnection attempt `attempt` (1, 2, …): exponential from `initialDelayMs`, capped at
 * `maxDelayMs`, with "equal jitter" (between half and all of it) so that many clients of one daemon
 * do not come back in step. `random` is injectable for tests.
 */
export function backoffDelay(attempt, { initialDelayMs, maxDelayMs }, random = Math.random) {
  const base = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(base / 2 + (random() * base) / 2);
}

/**
 * De-duplication by `seq` within a session (the epoch): an event is dispatched only if its `seq` is past
 * the last one dispatched in the same session.
 */
export class EventCursor {
  session = null;
  /** The last seq dispatched in `session`. */
  last = 0;

  /** A new epoch: nothing of it dispatched yet. */
  reset(session) {
    this.session = session;
    this.last = 0;
  }

  /** Whether an event with `seq` is new; if so it becomes the last dispatched. Frames without a seq pass. */
  admit(seq) {
    if (typeof seq !== 'number') return true;
    if (seq <= this.last) return false;
    this.last = seq;
    return true;
  }
}
