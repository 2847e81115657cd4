// Errors of the client: one base class with a `code`, like undici's lib/core/errors.js.

/** The error codes of the protocol (protocol.md, "Error codes"), as the daemon sends them. */
export const ErrorCodes = Object.freeze({
  BAD_JSON: 'bad_json',
  BAD_REQUEST: 'bad_request',
  UNKNOWN_OP: 'unknown_op',
  HELLO_REQUIRED: 'hello_required',
  UNSUPPORTED_PROTOCOL: 'unsupported_protocol',
  UNKNOWN_COMPONENT: 'unknown_component',
  UNKNOWN_TAG: 'unknown_tag',
  TAG_IN_USE: 'tag_in_use',
  INVALID_PROPS: 'invalid_props',
  UNKNOWN_EVENT: 'unknown_event',
  UNKNOWN_COMMAND: 'unknown_command',
  INVALID_ARGS: 'invalid_args',
  INVALID_PAYLOAD: 'invalid_payload',
  INVALID_SCHEMA: 'invalid_schema',
  CYCLE: 'cycle',
  BATCH_FAILED: 'batch_failed',
  FRAME_TOO_LARGE: 'frame_too_large',
  LIMIT_EXCEEDED: 'limit_exceeded',
  PERMISSION_DENIED: 'permission_denied',
  SESSION_TAKEN_OVER: 'session_taken_over',
  UNKNOWN_SESSION: 'unknown_session',
  LAYOUT_UNAVAILABLE: 'layout_unavailable',
});

/** Codes the client itself uses; they never come from the daemon. */
export const ClientErrorCodes = Object.freeze({
  /** The connection closed (or was lost) while the request was pending, or before it was sent. */
  CONNECTION_CLOSED: 'connection_closed',
  /** `connect()` could not reach a daemon (nothing listening, spawn failed, or `timeoutMs` passed). */
  CONNECT_FAILED: 'connect_failed',
  /** A transaction was used after `commit()`. */
  TRANSACTION_CLOSED: 'transaction_closed',
  /** An event handler threw or rejected (emitted as the Bridge's 'error' event). */
  HANDLER_FAILED: 'handler_failed',
  /** The daemon sent a line that is not a frame of the protocol. */
  PROTOCOL_ERROR: 'protocol_error',
  /**
   * The daemon started a fresh session on a reconnect (the old one was unknown, expired or overflowed):
   * Views of the old session, and requests queued for it, are unusable.
   */
  SESSION_RESET: 'session_reset',
  /** The request's `signal` aborted (AbortSignal.timeout included) before its response; `cause` is the reason. */
  ABORTED: 'aborted',
  /** More bytes of requests wait to be written (socket backpressure, or a reconnect) than `maxQueuedBytes`. */
  QUEUE_FULL: 'queue_full',
  /** No response within `requestTimeoutMs` (a request without a `signal` of its own). */
  TIMEOUT: 'timeout',
  /**
   * The default socket's folder is not safe to connect through: not a directory of the user's own, or open to
   * group or others (not mode 0700). Another user could serve a daemon of their own there.
   */
  UNSAFE_SOCKET_DIR: 'unsafe_socket_dir',
});

/** The one error class of the client: `code` is a protocol error code or one of `ClientErrorCodes`. */
export class BridgeError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {{details?: unknown, index?: number, cause?: unknown}} [extra]
   */
  constructor(code, message, extra = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'BridgeError';
    this.code = code;
    if (extra.details !== undefined) this.details = extra.details;
    if (extra.index !== undefined) this.index = extra.index;
  }

  /**
   * Builds the error for a protocol `error` object. For `batch_failed`, `index` is the failing op's
   * index and `details` the inner error object as sent (`cause` is that inner error as a BridgeError).
   */
  static fromProtocol(error) {
    if (error === null || typeof error !== 'object' || typeof error.code !== 'string') {
      return new BridgeError(ClientErrorCodes.PROTOCOL_ERROR, `malformed error: ${JSON.stringify(error)}`);
    }
    const message = typeof error.message === 'string' ? error.message : error.code;
    if (error.code === ErrorCodes.BATCH_FAILED) {
      const inner = error.error === undefined ? undefined : BridgeError.fromProtocol(error.error);
      return new BridgeError(error.code, message, { index: error.index, details: error.error, cause: inner });
    }
    return new BridgeError(error.code, message, { details: error.details, index: error.index });
  }
}

export function protocolError(message, extra) {
  return new BridgeError(ClientErrorCodes.PROTOCOL_ERROR, message, extra);
}

export function connectionClosed(message = 'the connection to bridged closed', cause = undefined) {
  return new BridgeError(ClientErrorCodes.CONNECTION_CLOSED, message, { cause });
}

/** The error of a request whose `signal` aborted; a timeout (AbortSignal.timeout) says so. */
export function aborted(signal, what = 'the request') {
  const reason = signal?.reason;
  const timedOut = reason?.name === 'TimeoutError';
  const message = timedOut ? `${what} timed out (its signal's timeout passed)` : `${what} was aborted by its signal`;
  return new BridgeError(ClientErrorCodes.ABORTED, message, { cause: reason });
}

