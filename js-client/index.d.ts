// Types of bridged-client. The wire contract is ../protocol.md.
import { EventEmitter } from 'node:events';

/** The client's version (package.json); hello sends `client: "bridged-client/<version>"`. */
export const VERSION: string;

/** The protocol's error codes (protocol.md, "Error codes"). */
export const ErrorCodes: Readonly<{
  BAD_JSON: 'bad_json';
  BAD_REQUEST: 'bad_request';
  UNKNOWN_OP: 'unknown_op';
  HELLO_REQUIRED: 'hello_required';
  UNSUPPORTED_PROTOCOL: 'unsupported_protocol';
  UNKNOWN_COMPONENT: 'unknown_component';
  UNKNOWN_TAG: 'unknown_tag';
  TAG_IN_USE: 'tag_in_use';
  INVALID_PROPS: 'invalid_props';
  UNKNOWN_EVENT: 'unknown_event';
  UNKNOWN_COMMAND: 'unknown_command';
  INVALID_ARGS: 'invalid_args';
  CYCLE: 'cycle';
  BATCH_FAILED: 'batch_failed';
  FRAME_TOO_LARGE: 'frame_too_large';
  LIMIT_EXCEEDED: 'limit_exceeded';
  PERMISSION_DENIED: 'permission_denied';
  SESSION_TAKEN_OVER: 'session_taken_over';
  UNKNOWN_SESSION: 'unknown_session';
}>;

/** Codes the client itself produces. */
export const ClientErrorCodes: Readonly<{
  CONNECTION_CLOSED: 'connection_closed';
  CONNECT_FAILED: 'connect_failed';
  TRANSACTION_CLOSED: 'transaction_closed';
  HANDLER_FAILED: 'handler_failed';
  PROTOCOL_ERROR: 'protocol_error';
  /** A View (or a request queued for it) of a session the daemon replaced with a fresh one on a reconnect. */
  SESSION_RESET: 'session_reset';
}>;

export type ProtocolErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
export type ClientErrorCode = (typeof ClientErrorCodes)[keyof typeof ClientErrorCodes];
export type ErrorCode = ProtocolErrorCode | ClientErrorCode;

/** One entry of `invalid_props` / `invalid_args` details. */
export interface InvalidValueDetail {
  prop?: string;
  arg?: number;
  expected: string;
  got: unknown;
  message: string;
}

/** The `error` object of a failed response, as sent. */
export interface ProtocolError {
  code: ProtocolErrorCode;
  message: string;
  details?: unknown;
  index?: number;
  error?: ProtocolError;
}

/** The one error class: every rejection of the client is a BridgeError (or a TypeError for misuse). */
export class BridgeError extends Error {
  constructor(code: ErrorCode | string, message: string, extra?: { details?: unknown; index?: number; cause?: unknown });
  name: 'BridgeError';
  /** A protocol error code, or one of ClientErrorCodes. */
  code: ErrorCode | string;
  /**
   * `invalid_props`/`invalid_args`: the list of bad values. `batch_failed`: the inner error object.
   * Views that cannot be used (`unknown_tag` or `session_reset` from the client): `{tag, state}`.
   * `handler_failed`: `{event, seq, target}`.
   */
  details?: unknown;
  /** `batch_failed`: index of the failing op in the batch. */
  index?: number;
  /** `batch_failed`: the inner error; errors of views' internal batches: the batch error. */
  cause?: unknown;
  static fromProtocol(error: ProtocolError): BridgeError;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type PropType = 'int' | 'double' | 'bool' | 'string' | 'enum' | 'color';

export interface PropSpec {
  type: PropType;
  default: JsonValue;
  values?: string[];
}

export type EventSpec =
  | { bubbles: true; registrationNames: { bubbled: string; captured: string } }
  | { bubbles: false; registrationName: string };

export interface ComponentSpec {
  props: Record<string, PropSpec>;
  events: Record<string, EventSpec>;
  commands: Record<string, { args: string[] }>;
}

export type Components = Record<string, ComponentSpec>;

export interface HelloResult {
  protocol: 1;
  server: string;
  session: string;
  components: Components;
  /** With `resume`: whether the session was re-attached. */
  resumed?: boolean;
  /** With `resume` and `resumed: false`: why a fresh session was started. */
  reason?: ResetReason;
  /** With `resume`: the last event seq written in the (resumed or fresh) session. */
  seq?: number;
}

/** Why the daemon started a fresh session instead of resuming (protocol.md, "Resume and acknowledgements"). */
export type ResetReason = 'unknown_session' | 'expired' | 'overflow';

export type Phase = 'bubble' | 'capture';

/** An event frame as sent by the daemon. */
export interface EventFrame {
  event: string;
  seq: number;
  target: number;
  payload: Record<string, JsonValue>;
  path: Array<{ tag: number; phase: Phase }>;
}

/** What a handler receives: one per listener on the path, sharing the propagation state. */
export interface SyntheticEvent<P = Record<string, JsonValue>> {
  /** The event name, e.g. `countChange`. */
  readonly type: string;
  /** Tag of the view that emitted the event. */
  readonly target: number;
  /** Tag of the view whose handler is running. */
  readonly currentTarget: number;
  readonly phase: Phase;
  readonly payload: P;
  /** The same object as `payload`. */
  readonly nativeEvent: P;
  readonly seq: number;
  /** No listener of a later view on the path runs (the current view's other handlers still do). */
  stopPropagation(): void;
  isPropagationStopped(): boolean;
}
export const SyntheticEvent: {
  prototype: SyntheticEvent;
};

/** A handler may return a promise: the request that caused the event resolves after it settles. */
export type EventHandler<P = Record<string, JsonValue>> = (event: SyntheticEvent<P>) => void | Promise<unknown>;

/**
 * Props for create/update: plain values go to the daemon (`null` resets a prop; in update,
 * `undefined` too); functions named like an event's registration name (`onCountChange`,
 * `onCountChangeCapture`, a component's own direct `onCommit`…) are handlers; `null`/`undefined`
 * for a handler name removes the handler.
 */
export type Props = Record<string, JsonValue | EventHandler<any> | undefined>;

export interface InspectResult {
  tag: number;
  component: string;
  props: Record<string, JsonValue>;
  parent: number | null;
  children: number[];
  render: string;
  renders: number;
}

export interface PlaceOptions {
  /** Parent view (or tag); the new view is inserted among its children. */
  parent?: View | number;
  /** Position among the parent's children; default: appended. */
  index?: number;
}

/** `reset`: its session was replaced by a fresh one on a reconnect (the Bridge emitted 'reset'). */
export type ViewState = 'live' | 'pending' | 'rolledBack' | 'deleted' | 'reset';

/**
 * A handle on one view. Methods of a view that is not `live` reject with code `unknown_tag`, or
 * `session_reset` for a view of a session that was reset.
 */
export class View {
  private constructor();
  readonly tag: number;
  readonly component: string;
  readonly state: ViewState;
  update(props: Props): Promise<{ changed: string[] }>;
  setChildren(views: Iterable<View | number>): Promise<{ children: number[] }>;
  /** Resolves after every handler of the events the command caused has settled. */
  command(name: string, ...args: JsonValue[]): Promise<Record<string, never>>;
  inspect(): Promise<InspectResult>;
  delete(): Promise<{ deleted: number[] }>;
  /** Resolves, once subscribed, to a function that removes this handler (and unsubscribes the last one). */
  on<P = Record<string, JsonValue>>(
    event: string,
    handler: EventHandler<P>,
    options?: { capture?: boolean },
  ): Promise<() => Promise<void>>;
  toJSON(): { tag: number; component: string };
}

/** Ops collected client-side, committed as one atomic batch. */
export class Transaction {
  private constructor();
  readonly state: 'open' | 'committing' | 'committed' | 'failed';
  /** Number of ops the batch will have. */
  readonly size: number;
  /** The View is returned at once, with its tag; it is usable after a successful commit. */
  create(component: string, props?: Props, options?: PlaceOptions): View;
  update(view: View | number, props: Props): this;
  setChildren(view: View | number, views: Iterable<View | number>): this;
  command(view: View | number, name: string, ...args: JsonValue[]): this;
  delete(view: View | number): this;
  /** Rejects with `batch_failed` (`index`, inner error in `details`); created views become `rolledBack`. */
  commit(): Promise<{ results: unknown[] }>;
}

/** A recorded-session record, as passed to the `record` option. */
export type SessionRecord =
  | { dir: 'in'; frame: Record<string, JsonValue> }
  | { dir: 'out'; frame: Record<string, JsonValue> }
  /** The connection was lost; what follows was sent on a new one (a reconnect). */
  | { dir: 'meta'; connection: 'closed' };

export interface ReconnectOptions {
  /** The wait before the first attempt; doubled for each next one. Default 100. */
  initialDelayMs?: number;
  /** The longest wait between attempts. Default 5000. Each wait is jittered between half and all of it. */
  maxDelayMs?: number;
  /** Attempts before giving up ('close' with reason `gave_up`). Default Infinity. */
  maxAttempts?: number;
}

export interface AckOptions {
  /** Ack at once when this many dispatched events are unacknowledged. Default 256. */
  everyEvents?: number;
  /** Otherwise ack this long after the read that dispatched the first unacknowledged event. Default 100. */
  delayMs?: number;
}

export interface ConnectOptions {
  /** Socket path; default as the daemon's: $BRIDGED_SOCKET, $XDG_RUNTIME_DIR/bridged/bridged.sock, /tmp/bridged-<uid>/bridged.sock. */
  socket?: string;
  /** Start `bridged --socket <path>` (detached) when nothing listens. */
  spawn?: boolean;
  /** The bridged binary for `spawn`; default: `bridged` on PATH. */
  bin?: string;
  /** Limit for spawning + connecting, and for hello's answer. Default 10000. */
  timeoutMs?: number;
  /** Called with every frame written and read, in recorded-session form. */
  record?: (record: SessionRecord) => void;
  /**
   * Reconnect when the connection is lost (not after `close()`), with exponential back-off and jitter,
   * and resume the session. Default false: a lost connection closes the Bridge.
   */
  reconnect?: boolean | ReconnectOptions;
  /** Acknowledge dispatched events (cumulative `ack`, batched). Default true; false sends none. */
  ack?: boolean | AckOptions;
}

export type BridgeState = 'open' | 'reconnecting' | 'closed';

/**
 * Why a Bridge closed: `closed` (close()), `lost` (connection lost, no reconnect), `session_taken_over`
 * (another connection resumed the session; never reconnects), `gave_up` (reconnect attempts exhausted, or the
 * daemon refused the resume).
 */
export interface CloseInfo {
  reason: 'closed' | 'lost' | 'session_taken_over' | 'gave_up';
  /** `session_taken_over`: the daemon's error; `gave_up`: the last attempt's error. */
  error?: BridgeError;
}

export interface ReconnectingInfo {
  /** 1 for the first attempt after the loss. */
  attempt: number;
  /** The wait before this attempt. */
  delayMs: number;
  /** Why the previous connection or attempt failed. */
  error: Error;
}

export interface ResumedInfo {
  session: string;
  /** Events re-sent by the daemon and dispatched (they had been written but not received before the loss). */
  replayed: number;
}

export interface ResetInfo {
  reason: ResetReason;
  previousSession: string;
  session: string;
}

/**
 * One session with the daemon. Events: 'event' (every event frame dispatched), 'error' (socket errors,
 * failed handlers with code `handler_failed`; emitted only while someone listens), 'reconnecting',
 * 'resumed', 'reset' (rebuild the tree), 'close'.
 */
export class Bridge extends EventEmitter {
  private constructor();
  on(event: 'event', listener: (frame: EventFrame) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'close', listener: (info: CloseInfo) => void): this;
  on(event: 'reconnecting', listener: (info: ReconnectingInfo) => void): this;
  on(event: 'resumed', listener: (info: ResumedInfo) => void): this;
  on(event: 'reset', listener: (info: ResetInfo) => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
  once(event: 'event', listener: (frame: EventFrame) => void): this;
  once(event: 'error', listener: (error: Error) => void): this;
  once(event: 'close', listener: (info: CloseInfo) => void): this;
  once(event: 'reconnecting', listener: (info: ReconnectingInfo) => void): this;
  once(event: 'resumed', listener: (info: ResumedInfo) => void): this;
  once(event: 'reset', listener: (info: ResetInfo) => void): this;
  once(event: string | symbol, listener: (...args: any[]) => void): this;
  readonly socketPath: string;
  /** The pid of the daemon that `connect({spawn: true})` started, else null. */
  readonly daemonPid: number | null;
  /** hello's result.session; a new one after a 'reset'. */
  readonly session: string;
  /** hello's result.server. */
  readonly server: string;
  /** hello's result.components. */
  readonly components: Components;
  /** True once closed for good (not while reconnecting). */
  readonly closed: boolean;
  readonly state: BridgeState;
  /** The last event seq dispatched in this session (0 after a reset). */
  readonly lastSeq: number;
  /** The highest seq the daemon confirmed acknowledged in this session. */
  readonly ackedSeq: number;
  /** @internal The current socket; tests cut the connection with `bridge._socket.destroy()`. */
  readonly _socket: import('node:net').Socket;
  /** Creates a view (and its handler subscriptions, atomically). */
  create(component: string, props?: Props, options?: PlaceOptions): Promise<View>;
  transaction(): Transaction;
  /** Sends a raw request (an id is assigned); resolves its result. Tags of raw creates are not tracked. */
  request<R = any>(frame: { op: string; [field: string]: unknown }): Promise<R>;
  /** The live View this client created with `tag`. */
  view(tag: number): View | undefined;
  close(): Promise<void>;
}

export function connect(options?: ConnectOptions): Promise<Bridge>;

/** The daemon's default socket path for `env`. */
export function defaultSocketPath(env?: Record<string, string | undefined>): string;
