// Types of bridged-client. The wire contract is ../protocol.md.
// Self-sufficient: no @types/node and no DOM library needed (`tsc --strict` checks it so in `make test`).
import type { BubblingEvents, BuiltinComponents, BuiltinDirectEvents, PropType } from './builtins.js';

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
  INVALID_PAYLOAD: 'invalid_payload';
  INVALID_SCHEMA: 'invalid_schema';
  CYCLE: 'cycle';
  BATCH_FAILED: 'batch_failed';
  FRAME_TOO_LARGE: 'frame_too_large';
  LIMIT_EXCEEDED: 'limit_exceeded';
  PERMISSION_DENIED: 'permission_denied';
  SESSION_TAKEN_OVER: 'session_taken_over';
  UNKNOWN_SESSION: 'unknown_session';
  LAYOUT_UNAVAILABLE: 'layout_unavailable';
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
  /** The request's `signal` aborted (a timeout included) before its response. */
  ABORTED: 'aborted';
  /** More than `maxQueuedBytes` of requests wait to be written. */
  QUEUE_FULL: 'queue_full';
  /** No response within `requestTimeoutMs` (a request without a `signal` of its own). */
  TIMEOUT: 'timeout';
  /** The default socket's folder is not the user's own directory of mode 0700 (`details.path`: the folder). */
  UNSAFE_SOCKET_DIR: 'unsafe_socket_dir';
}>;

/** A code the daemon sends: exactly the rows of protocol.md's table (a test compares them with `ErrorCodes`). */
export type ProtocolErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
export type ClientErrorCode = (typeof ClientErrorCodes)[keyof typeof ClientErrorCodes];
export type ErrorCode = ProtocolErrorCode | ClientErrorCode;

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

// ---------------------------------------------------------------------------------------------------------
// What the client needs of the platform, declared here so that no @types/node is needed. The global
// AbortSignal (Node's, the DOM's) fits AbortSignalLike.

/** An AbortSignal: `AbortSignal.timeout(ms)`, `new AbortController().signal`, `AbortSignal.any([...])`. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Options every request method takes. */
export interface RequestOptions {
  /**
   * Rejects the request with `aborted` when it aborts first (the daemon may still have done it, if sent). It
   * replaces connect()'s `requestTimeoutMs` for this request.
   */
  signal?: AbortSignalLike;
}

/** The client's own EventEmitter surface (Node's EventEmitter underneath), typed by an event map. */
export interface TypedEmitter<Events> {
  on<K extends keyof Events>(event: K, listener: (arg: Events[K]) => void): this;
  once<K extends keyof Events>(event: K, listener: (arg: Events[K]) => void): this;
  off<K extends keyof Events>(event: K, listener: (arg: Events[K]) => void): this;
  addListener<K extends keyof Events>(event: K, listener: (arg: Events[K]) => void): this;
  removeListener<K extends keyof Events>(event: K, listener: (arg: Events[K]) => void): this;
  prependListener<K extends keyof Events>(event: K, listener: (arg: Events[K]) => void): this;
  removeAllListeners(event?: keyof Events): this;
  listenerCount(event: keyof Events): number;
}

// ---------------------------------------------------------------------------------------------------------
// Errors.

/**
 * One bad value of `invalid_props` / `invalid_args` / `invalid_payload` (from the daemon, or refused by the
 * client before sending).
 */
export interface ValueIssue {
  /** `invalid_props`: the prop. */
  prop?: string;
  /** `invalid_args`: the argument's index. */
  arg?: number;
  /** Where: the prop, parameter or payload field and the steps inside it (`style.insets.top`, `points[2].x`). */
  path: string;
  expected: string;
  got: JsonValue;
  message: string;
  /** On the last entry of a capped list: how many more problems were left out. */
  more?: number;
}

/** The `error` object of a failed response, as sent. */
export interface ProtocolError {
  code: ProtocolErrorCode;
  message: string;
  details?: ValueIssue[];
  index?: number;
  error?: ProtocolError;
}

/** `details` of a View method refused by the client (`unknown_tag`, `session_reset`). */
export interface ViewStateDetails {
  tag: number;
  state: ViewState;
}

/** `details` of `handler_failed`. */
export interface HandlerFailedDetails {
  event: string;
  seq: number;
  target: number;
}

/** `details` of `unsafe_socket_dir`: the folder that was refused. */
export interface UnsafeSocketDirDetails {
  path: string;
}

/**
 * `details` by code: `invalid_props`/`invalid_args`/`bad_request` a list of bad values; `batch_failed` the
 * inner error object; a View that cannot be used `{tag, state}`; `handler_failed` `{event, seq, target}`;
 * `unsafe_socket_dir` `{path}`.
 */
export type ErrorDetails = ValueIssue[] | ProtocolError | ViewStateDetails | HandlerFailedDetails | UnsafeSocketDirDetails;

/** The one error class: every rejection of the client is a BridgeError (or a TypeError for misuse). */
export class BridgeError extends Error {
  constructor(code: ErrorCode, message: string, extra?: { details?: ErrorDetails; index?: number; cause?: unknown });
  name: 'BridgeError';
  /** A protocol error code, or one of ClientErrorCodes. */
  code: ErrorCode;
  details?: ErrorDetails;
  /** `batch_failed`: index of the failing op in the batch. */
  index?: number;
  /** `batch_failed`: the inner error; `connection_closed`: the socket's error, if any; `aborted`: the reason. */
  cause?: unknown;
  static fromProtocol(error: ProtocolError): BridgeError;
}

// ---------------------------------------------------------------------------------------------------------
// Components: hello's description, and the built-in ones typed precisely.

/** The prop types of protocol.md, "Typed props": generated into builtins.d.ts from hello's `propTypes`. */
export type { PropType } from './builtins.js';

/** What hello's `propTypes` says of a prop type, for clients (protocol.md, "hello"). */
export interface PropTypeInfo {
  /** React Native's native type (`NativeProps` of a view manager config): `NSInteger`, `UIColor`, `CGPoint`, … */
  nativeType: string;
  /** The native type of an array of it, where React Native has its own (`UIColorArray`). */
  nativeArrayType?: string;
  /** Whether React Native's renderer compares its values by their contents (`deepDiffer`). */
  deepDiffs: boolean;
  /** The TypeScript type of a value a client sends (for an enum, array or object: without its parameters). */
  typeScript: string;
  /** The TypeScript type of a value the daemon reports. */
  reportedTypeScript: string;
  /** How a value is written, where its TypeScript type does not say. */
  note?: string;
}

/** A prop (or payload field) as hello describes it; compound types carry more fields. */
export interface PropSpec {
  type: PropType;
  default?: JsonValue;
  values?: Array<string | number>;
  optional?: boolean;
  [more: string]: JsonValue | undefined;
}

export type EventSpec = (
  | { bubbles: true; registrationNames: { bubbled: string; captured: string } }
  | { bubbles: false; registrationName: string }
) & {
  /** The payload's fields and their types. */
  payload?: Record<string, PropSpec>;
};

export interface CommandSpec {
  /** The arguments' types, in order. */
  args: string[];
  /** The arguments' names and types, in order. */
  params?: Array<{ name: string; type: string }>;
}

export interface ComponentSpec {
  props: Record<string, PropSpec>;
  events: Record<string, EventSpec>;
  commands: Record<string, CommandSpec>;
  /** A component a session defined without a spec: it takes any prop (as `mixed`) and may emit any event. */
  untyped?: true;
}

export type Components = Record<string, ComponentSpec>;

/** An `edgeInsets` prop: each side optional. */
export interface EdgeInsets {
  top?: number;
  left?: number;
  bottom?: number;
  right?: number;
}

// The built-in components' props, events and commands: generated from a live daemon's hello into
// builtins.d.ts (`bridged-client types --builtins`; a test fails when it is out of date).
export type { BubblingEvents, BuiltinComponents, BuiltinDirectEvents } from './builtins.js';

export type BuiltinComponentName = keyof BuiltinComponents;

/** Every built-in event with its payload. */
export type BuiltinEvents = BubblingEvents & BuiltinDirectEvents;

/**
 * The components of your daemon, filled in by the declarations `bridged-client types` writes (they augment
 * this interface): for each, `props`, `direct` (direct events and their payloads) and `commands` (parameter
 * tuples). A component described here takes precedence over a built-in of the same name.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface KnownComponents {}

/** The bubbling events of your daemon's components, with their payloads (filled in by `bridged-client types`). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface KnownBubblingEvents {}

/** What `view.emit` takes for each event of generated declarations (optional payload fields may be left out). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface KnownEventInputs {}

/** The payload `view.emit` takes for event `E`. */
export type EmitPayloadOf<E extends string> = E extends keyof KnownEventInputs ? KnownEventInputs[E] : PayloadOf<E>;

type AllBubblingEvents = Omit<BubblingEvents, keyof KnownBubblingEvents> & KnownBubblingEvents;
type KnownDirectEvents = {
  [C in keyof KnownComponents]: KnownComponents[C] extends { direct: infer D } ? D : never;
}[keyof KnownComponents];
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The payload of event `E`: typed for the built-in events and those of generated declarations, any JSON object otherwise. */
export type PayloadOf<E extends string> = E extends keyof KnownBubblingEvents
  ? KnownBubblingEvents[E]
  : E extends keyof UnionToIntersection<KnownDirectEvents>
    ? UnionToIntersection<KnownDirectEvents>[E]
    : E extends keyof BuiltinEvents
      ? BuiltinEvents[E]
      : JsonObject;

type HandlerProps<Events, Suffix extends string> = {
  [K in keyof Events & string as `on${Capitalize<K>}${Suffix}`]?: EventHandler<Events[K]> | null;
};

type KnownEntry<C extends string> = C extends keyof KnownComponents ? KnownComponents[C] : never;
type EntryProps<E> = E extends { props: infer P } ? P : never;
type EntryDirect<E> = E extends { direct: infer D } ? D : never;
type EntryCommands<E> = E extends { commands: infer K } ? K : never;

/**
 * Props of component `C`: the built-ins' own props and handler props, those of generated declarations
 * (`bridged-client types`); any props for other components.
 */
export type PropsOf<C extends string> = C extends keyof KnownComponents
  ? EntryProps<KnownEntry<C>> &
      HandlerProps<AllBubblingEvents, ''> &
      HandlerProps<AllBubblingEvents, 'Capture'> &
      HandlerProps<EntryDirect<KnownEntry<C>>, ''>
  : C extends BuiltinComponentName
    ? BuiltinComponents[C]['props'] &
        HandlerProps<AllBubblingEvents, ''> &
        HandlerProps<AllBubblingEvents, 'Capture'> &
        HandlerProps<BuiltinComponents[C]['direct'], ''>
    : Props;

/** The commands of component `C`, with their argument types. */
export type CommandsOf<C extends string> = C extends keyof KnownComponents
  ? EntryCommands<KnownEntry<C>>
  : C extends BuiltinComponentName
    ? BuiltinComponents[C]['commands']
    : Record<string, JsonValue[]>;

/** The events a view of component `C` may subscribe to (and emit, for its own events). */
export type EventsOf<C extends string> = C extends keyof KnownComponents
  ? keyof AllBubblingEvents | keyof EntryDirect<KnownEntry<C>>
  : C extends BuiltinComponentName
    ? keyof AllBubblingEvents | keyof BuiltinComponents[C]['direct']
    : string;

// ---------------------------------------------------------------------------------------------------------
// Events.

export type Phase = 'bubble' | 'capture';

export interface PathEntry {
  tag: number;
  phase: Phase;
}

/** An event frame as sent by the daemon (`'event'`, `bridge.events()`). */
export interface EventFrame {
  event: string;
  seq: number;
  target: number;
  payload: JsonObject;
  path: PathEntry[];
}

/** What a handler receives: one per listener on the path, sharing the propagation state. */
export class SyntheticEvent<P = JsonObject> {
  private constructor();
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

/**
 * A handler may return anything (a function type returning `void` accepts any return value); a returned
 * promise is awaited: the request that caused the event resolves after it settles.
 */
export type EventHandler<P = JsonObject> = (event: SyntheticEvent<P>) => void;

/**
 * Props for create/update of any component: plain values go to the daemon (`null` resets a prop; in
 * update, `undefined` too); functions named like an event's registration name (`onCountChange`,
 * `onCountChangeCapture`, a component's own direct `onCommit`…) are handlers; `null`/`undefined` for a
 * handler name removes the handler. Values JSON cannot carry as they are (NaN, a Date…) are refused.
 */
export type Props = { [name: string]: JsonValue | EventHandler<any> | undefined };

// ---------------------------------------------------------------------------------------------------------
// Views and transactions.

export interface InspectResult<C extends string = string> {
  tag: number;
  component: C;
  props: JsonObject;
  parent: number | null;
  children: number[];
  render: string;
  renders: number;
  /** The view's command log: the commands it was sent with their checked arguments, oldest first (the last 1,000). */
  commands: Array<{ name: keyof CommandsOf<C> & string; args: JsonValue[] }>;
  /** `true` on a view of an untyped component (`define`'s `untyped`: any prop, any event). */
  untyped?: boolean;
  /** With the session's layout on (`layout`): the frame relative to the parent, in points (`onLayout`'s). */
  layout?: Frame;
  /** With the session's layout on: the frame in the window (its ancestors' offsets added; scroll offsets not). */
  layoutInWindow?: Frame;
}

/** A view's frame in points. */
export interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The window a session lays out in (`layout`): its size in points, its scale, its safe-area insets. */
export interface LayoutWindow {
  width: number;
  height: number;
  scale: number;
  /** The user's text size: a text that allows font scaling is measured this much larger (default 1). */
  fontScale: number;
  insets: { top: number; right: number; bottom: number; left: number };
}

/** The options of `bridge.layout()`. */
export interface LayoutOptions extends RequestOptions {
  /** The path of React Native's `ReactCommon/yoga` (the app's own package's): the daemon builds and loads it. */
  yoga?: string;
  /** The window; each field defaults to the current one (first: 390 × 844 at scale 3, iPhone 14's insets). */
  window?: Partial<Omit<LayoutWindow, 'insets'>> & { insets?: Partial<LayoutWindow['insets']> };
}

/** `layout`'s answer: the session's layout, or, off, whether a compiler is there to build Yoga. */
export type LayoutResult =
  | { enabled: true; yoga: { hash: string; library: string; compiled: boolean }; window: LayoutWindow }
  | { enabled: false; compiler: string | null; reason?: string };

/** `screenshot`'s answer on the wire: the window drawn, a PNG of `width` × `height` pixels in base64. */
export interface ScreenshotWire {
  width: number;
  height: number;
  scale: number;
  png: string;
  /** With `frames: true`: every laid-out view's frame in the window, `[tag, x, y, width, height]`, by tag. */
  frames?: number[][];
}

/** `bridge.screenshot()`'s answer: the PNG's bytes. */
export interface Screenshot {
  width: number;
  height: number;
  scale: number;
  png: Uint8Array;
}

/** Options of `bridge.create`. */
export type CreateOptions = PlaceOptions & RequestOptions;

export interface PlaceOptions {
  /** Parent view (or tag); the new view is inserted among its children. */
  parent?: View | number;
  /** Position among the parent's children; default: appended. */
  index?: number;
}

/** `reset`: its session was replaced by a fresh one on a reconnect (the Bridge emitted 'reset'). */
export type ViewState = 'live' | 'pending' | 'rolledBack' | 'deleted' | 'reset';

/** The phase of a `touch`: a finger down, moving, up, or taken by the system. */
export type TouchPhase = 'start' | 'move' | 'end' | 'cancel';

/** A touch's fields (each optional: 0, and `identifier` 1, when left out). `identifier` is 0…20. */
export interface TouchPoint {
  identifier?: number;
  pageX?: number;
  pageY?: number;
  locationX?: number;
  locationY?: number;
  timestamp?: number;
}

/** A command's arguments, optionally followed by `{signal}`. */
type CommandArgs<A extends JsonValue[]> = A | [...A, RequestOptions];

/**
 * A handle on one view of component `C`. Methods of a view that is not `live` reject with code
 * `unknown_tag`, or `session_reset` for a view of a session that was reset.
 */
export class View<C extends string = string> {
  private constructor();
  readonly tag: number;
  readonly component: C;
  readonly state: ViewState;
  update(props: PropsOf<C>, options?: RequestOptions): Promise<{ changed: string[] }>;
  setChildren(views: Iterable<View | number>, options?: RequestOptions): Promise<{ children: number[] }>;
  /** Resolves after every handler of the events the command caused has settled. A last `{signal}` is its options. */
  command<N extends keyof CommandsOf<C> & string>(
    name: N,
    ...args: CommandArgs<CommandsOf<C>[N] extends JsonValue[] ? CommandsOf<C>[N] : JsonValue[]>
  ): Promise<Record<string, never>>;
  inspect(options?: RequestOptions): Promise<InspectResult<C>>;
  /**
   * Makes the view emit one of its component's events as native code would (`emit`): dispatched to the
   * handlers like any event, before this resolves. A payload that does not fit is `invalid_payload`.
   */
  emit<E extends EventsOf<C>>(
    event: E,
    payload?: EmitPayloadOf<E & string>,
    options?: RequestOptions,
  ): Promise<Record<string, never>>;
  /**
   * A finger on the view, as iOS's touch handler reports it (`touch`): the view emits `touchStart`, `touchMove`,
   * `touchEnd` or `touchCancel` to the views on its path that subscribed, before this resolves.
   */
  touch(phase: TouchPhase, touch?: TouchPoint, options?: RequestOptions): Promise<Record<string, never>>;
  delete(options?: RequestOptions): Promise<{ deleted: number[] }>;
  /** Resolves, once subscribed, to a function that removes this handler (and unsubscribes the last one). */
  on<E extends EventsOf<C>>(
    event: E,
    handler: EventHandler<PayloadOf<E & string>>,
    options?: { capture?: boolean; signal?: AbortSignalLike },
  ): Promise<(options?: RequestOptions) => Promise<void>>;
  toJSON(): { tag: number; component: C };
}

/** Ops collected client-side, committed as one atomic batch. */
export class Transaction {
  private constructor();
  readonly state: 'open' | 'committing' | 'committed' | 'failed';
  /** Number of ops the batch will have. */
  readonly size: number;
  /** The View is returned at once, with its tag; it is usable after a successful commit. */
  create<C extends string>(component: C, props?: PropsOf<C>, options?: PlaceOptions): View<C>;
  update<C extends string>(view: View<C>, props: PropsOf<C>): this;
  update(view: number, props: Props): this;
  setChildren(view: View | number, views: Iterable<View | number>): this;
  command<C extends string, N extends keyof CommandsOf<C> & string>(
    view: View<C>,
    name: N,
    ...args: CommandsOf<C>[N] extends JsonValue[] ? CommandsOf<C>[N] : JsonValue[]
  ): this;
  command(view: number, name: string, ...args: JsonValue[]): this;
  /** The view emits one of its component's events, in the batch. */
  emit<C extends string, E extends EventsOf<C>>(view: View<C>, event: E, payload?: EmitPayloadOf<E & string>): this;
  emit(view: number, event: string, payload?: JsonValue): this;
  /** A finger on the view, in the batch. */
  touch(view: View | number, phase: TouchPhase, touch?: TouchPoint): this;
  delete(view: View | number): this;
  /** Rejects with `batch_failed` (`index`, inner error in `details`); created views become `rolledBack`. */
  commit(options?: RequestOptions): Promise<{ results: JsonObject[] }>;
}

// ---------------------------------------------------------------------------------------------------------
// The Bridge.

export interface HelloResult {
  protocol: 1;
  server: string;
  session: string;
  /** The session's resume token: a resume presents it (protocol.md, "Resume and acknowledgements"). */
  token: string;
  /** The daemon's session limits by name (protocol.md, "hello"): a recording's meta record has the same. */
  limits: Record<string, number>;
  /** The longest line the daemon reads (`--max-frame-bytes`): a longer batch goes in parts (protocol.md, "A batch in parts"). */
  maxFrameBytes?: number;
  components: Components;
  /** Every prop type, by name: what clients need of it (React Native's native type, deep-diffing, TypeScript types). */
  propTypes: { [name in PropType]: PropTypeInfo };
  /** With `resume`: whether the session was re-attached. */
  resumed?: boolean;
  /** With `resume` and `resumed: false`: why a fresh session was started. */
  reason?: ResetReason;
  /** With `resume`: the last event seq written in the (resumed or fresh) session. */
  seq?: number;
}

/** `define`'s result (protocol.md, "define"). */
export interface DefineResult {
  /** The components the request added to this session, described as hello describes components. */
  components: Components;
  /** The request's components this session had already, described the same: left as they were. */
  unchanged: string[];
  /** The schema's modules that are not components (`NativeModule`). */
  skipped: string[];
}

/** The options of `bridge.define()`. */
export interface DefineOptions extends RequestOptions {
  /** Names of components served without a spec: a View that takes any prop and may emit any event. */
  untyped?: string[];
}

export interface StatsResult {
  sessions: number;
  views: number;
  sessionViews: number;
  seq: number;
}

/** One session as `sessions` lists it (protocol.md, "Observing sessions"). */
export interface SessionSummary {
  session: string;
  /** hello's `client`, if it sent one. */
  client: string | null;
  /** Whether a connection is attached (`false`: detached, waiting for a resume). */
  connected: boolean;
  views: number;
  /** Its last event's seq. */
  seq: number;
  /** How many connections observe it. */
  observers: number;
}

/** A view in an `observe` snapshot: `inspect`'s fields, its listeners (event → phases) and whether it is stale. */
export interface ObservedView extends InspectResult {
  listeners: Record<string, Phase[]>;
  /** Its props changed since its last render. */
  stale: boolean;
}

/** `observe`'s answer: a snapshot of the session; change frames follow (protocol.md, "Observing sessions"). */
export interface ObserveSnapshot {
  session: string;
  client: string | null;
  connected: boolean;
  seq: number;
  acked: number;
  views: ObservedView[];
  /** The session's recent event frames, oldest first. */
  events: EventFrame[];
}

// BEGIN generated from `bridged ops` (node js-client/scripts/generate.js --bin .build/debug/bridged): do not edit.
/** The result of each op, for `request()`: one key per op of lib/ops.js, in its order. */
export interface RequestResults {
  hello: HelloResult;
  create: { tag: number };
  update: { changed: string[] };
  setChildren: { children: number[] };
  delete: { deleted: number[] };
  subscribe: Record<string, never>;
  unsubscribe: Record<string, never>;
  command: Record<string, never>;
  emit: Record<string, never>;
  touch: Record<string, never>;
  define: DefineResult;
  components: { components: Components };
  inspect: InspectResult;
  layout: LayoutResult;
  screenshot: ScreenshotWire;
  batch: { results: JsonObject[] } | { staged: number };
  ack: { acked: number; retained: number };
  ping: Record<string, never>;
  stats: StatsResult;
  sessions: { sessions: SessionSummary[] };
  observe: ObserveSnapshot;
  unobserve: Record<string, never>;
  bye: Record<string, never>;
}
// END generated

/** A raw request: an op and its fields (protocol.md, "Operations"); the client assigns the `id`. */
export interface RequestFrame<O extends string = string> {
  op: O;
  [field: string]: JsonValue | undefined;
}

/** Why the daemon started a fresh session instead of resuming (protocol.md, "Resume and acknowledgements"). */
export type ResetReason = 'unknown_session' | 'expired' | 'overflow' | 'components_changed' | 'evicted';

/** A recorded-session record, as passed to the `record` option. */
export type SessionRecord =
  | { dir: 'in'; frame: JsonObject }
  | { dir: 'out'; frame: JsonObject }
  /** The connection was lost; what follows was sent on a new one (a reconnect). */
  | { dir: 'meta'; connection: 'closed' };

export interface ReconnectOptions {
  /** The wait before the first attempt; doubled for each next one. Default 100. */
  initialDelayMs?: number;
  /** The longest wait between attempts. Default 5000. Each wait is jittered between half and all of it. */
  maxDelayMs?: number;
  /** Attempts before giving up ('close' with reason `gave_up`). Default Infinity. */
  maxAttempts?: number;
  /** How long a request made (or to be re-sent) while reconnecting waits, then `connection_closed`. Default 30000. */
  requestTimeoutMs?: number;
}

export interface AckOptions {
  /** Ack at once when this many dispatched events are unacknowledged. Default 256. */
  everyEvents?: number;
  /** Otherwise ack this long after the read that dispatched the first unacknowledged event. Default 100. */
  delayMs?: number;
}

export interface ConnectOptions {
  /**
   * Socket path; default as the daemon's: $BRIDGED_SOCKET, $XDG_RUNTIME_DIR/bridged/bridged.sock, /tmp/bridged-<uid>/bridged.sock.
   * The folder of the last two must be the user's own, mode 0700, else connect() rejects with `unsafe_socket_dir`.
   */
  socket?: string;
  /**
   * Start `bridged --socket <path>` when nothing listens: `true` ties it to this process (`--exit-with-parent`: it
   * ends when this process ends, or after, with the last client of another process that uses it); `'detached'`
   * starts one that stays until it is stopped.
   */
  spawn?: boolean | 'detached';
  /** The bridged binary for `spawn`; default: this checkout's .build/release, then .build/debug, then PATH. */
  bin?: string;
  /**
   * React Native codegen schemas (a file or a folder of `*.json`, or a list) the daemon `spawn` starts
   * loads (`--components`). Without `socket`, such a daemon gets a socket of its own per set of schemas.
   */
  components?: string | string[];
  /** Limit for spawning + connecting + hello, for each reconnection attempt, and for close()'s bye. Default 10000. */
  timeoutMs?: number;
  /** Aborts connect() (rejects with `aborted`). */
  signal?: AbortSignalLike;
  /** Called with every frame written and read, in recorded-session form. */
  record?: (record: SessionRecord) => void;
  /**
   * Reconnect when the connection is lost (not after `close()`), with exponential back-off and jitter,
   * and resume the session. Default false: a lost connection closes the Bridge.
   */
  reconnect?: boolean | ReconnectOptions;
  /** Acknowledge dispatched events (cumulative `ack`, batched). Default true; false sends none. */
  ack?: boolean | AckOptions;
  /** The most bytes of requests waiting to be written (backpressure, reconnect); beyond, `queue_full`. Default 8 MiB. */
  maxQueuedBytes?: number;
  /**
   * How long a request without a `signal` of its own waits for its response before it rejects with `timeout`.
   * Default 30000; `0` or `Infinity`: no limit. A request's `signal` replaces it for that request. While the
   * Bridge reconnects, `reconnect.requestTimeoutMs` applies instead; a request sent again after it starts anew.
   */
  requestTimeoutMs?: number;
  /** The longest line accepted from the daemon; a longer one is a `protocol_error` and ends the connection. Default 256 MiB. */
  maxFrameBytes?: number;
  /**
   * A batch (a transaction, a React Native commit) whose line is longer goes in parts of at most this many bytes
   * (at least 1024), applied by the daemon as one batch. Default: the daemon's `maxFrameBytes`, from hello.
   */
  batchPartBytes?: number;
}

export type BridgeState = 'open' | 'reconnecting' | 'closed';

/**
 * Why a Bridge closed: `closed` (close()), `lost` (connection lost, no reconnect), `session_taken_over`
 * (another connection resumed the session; never reconnects), `gave_up` (reconnect attempts exhausted, or the
 * daemon refused the resume).
 */
export interface CloseInfo {
  reason: 'closed' | 'lost' | 'session_taken_over' | 'gave_up';
  /** `lost`: `connection_closed` (`cause`: the socket's error); `session_taken_over`: the daemon's error; `gave_up`: the last attempt's error. */
  error?: BridgeError;
}

export interface ReconnectingInfo {
  /** 1 for the first attempt after the loss. */
  attempt: number;
  /** The wait before this attempt. */
  delayMs: number;
  /** Why the previous connection or attempt failed. */
  error: BridgeError;
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

/** The Bridge's events and what their listeners receive. */
export interface BridgeEventMap {
  event: EventFrame;
  /** Socket errors (`connection_closed`, `cause` the system error), `handler_failed`, `protocol_error`. */
  error: BridgeError;
  close: CloseInfo;
  reconnecting: ReconnectingInfo;
  resumed: ResumedInfo;
  reset: ResetInfo;
}

export interface CloseOptions {
  /**
   * Keep the session on the daemon (for `--session-ttl`) to resume it later; default false: `bye` ends it
   * at once, views and all.
   */
  keepSession?: boolean;
  /** Stop waiting for `bye`'s answer and cut the connection; at most `timeoutMs` of connect() anyway. */
  signal?: AbortSignalLike;
}

/** The async iterator of `bridge.events()`. */
export interface EventStream extends AsyncIterableIterator<EventFrame> {
  next(): Promise<IteratorResult<EventFrame, undefined>>;
  return(): Promise<IteratorResult<EventFrame, undefined>>;
}

/**
 * One session with the daemon. Events ('event', 'error', 'close', 'reconnecting', 'resumed', 'reset') as
 * in BridgeEventMap; an 'error' nobody listens for is never an unhandled 'error': see README, "Errors".
 */
export class Bridge {
  private constructor();
  readonly socketPath: string;
  /** The pid of the daemon that `connect({spawn: true})` started, else null. */
  readonly daemonPid: number | null;
  /** hello's result.session; a new one after a 'reset'. */
  readonly session: string;
  /** hello's result.server. */
  readonly server: string;
  /** hello's result.components. */
  readonly components: Components;
  /** hello's result.propTypes: each prop type's facts for clients, by name. */
  readonly propTypes: { [name in PropType]: PropTypeInfo };
  /** True once closed for good (not while reconnecting). */
  readonly closed: boolean;
  readonly state: BridgeState;
  /** The last event seq dispatched in this session (0 after a reset). */
  readonly lastSeq: number;
  /** The highest seq the daemon confirmed acknowledged in this session. */
  readonly ackedSeq: number;
  /** @internal The current socket; tests cut the connection with `bridge._socket.destroy()`. */
  readonly _socket: { destroy(): void };
  /**
   * Creates a view (and its handler subscriptions, atomically). A handler prop may use the View this very
   * call returns when its body is a block (`async (e) => { await button.update(…); }`): TypeScript cannot
   * type a `const` whose initializer's arrow returns an expression that uses it (TS7022).
   */
  create<C extends string>(component: C, props?: PropsOf<C>, options?: CreateOptions): Promise<View<C>>;
  /**
   * Adds components to this session alone (`define`): those of a React Native codegen schema (an object, as a
   * `--components` file holds), and `untyped` names. `components` then describes them too.
   */
  define(schema?: JsonObject, options?: DefineOptions): Promise<DefineResult>;
  transaction(): Transaction;
  /** `ping`: resolves once the daemon answered (a liveness check). */
  ping(options?: RequestOptions): Promise<RequestResults['ping']>;
  /** `stats`: the daemon's counters. */
  stats(options?: RequestOptions): Promise<StatsResult>;
  /**
   * `layout`: turns this session's layout on (`yoga`: React Native's `ReactCommon/yoga`, built and cached by the
   * daemon), changes its window, or, with neither, says whether it is on.
   */
  layout(options?: LayoutOptions): Promise<LayoutResult>;
  /**
   * `screenshot`: this session's window drawn with Cairo and Pango as the phone shows it (layout on), a PNG of the
   * window's points times `scale` (by default the window's).
   */
  screenshot(options?: RequestOptions & { scale?: number }): Promise<Screenshot>;
  /** `sessions`: every session of the daemon (this one too), as the DevTools' picker lists them. */
  sessions(options?: RequestOptions): Promise<RequestResults['sessions']>;
  /** Sends a raw request (an id is assigned); resolves its result. Tags of raw creates are not tracked. */
  request<O extends keyof RequestResults>(frame: RequestFrame<O>, options?: RequestOptions): Promise<RequestResults[O]>;
  request(frame: RequestFrame, options?: RequestOptions): Promise<unknown>;
  /** The live View this client created with `tag`. */
  view(tag: number): View | undefined;
  /** The event frames dispatched from now on; ends on `signal`, `break` or close(), throws if the Bridge ends otherwise. */
  events(options?: { signal?: AbortSignalLike }): EventStream;
  /** Ends the session (`bye`) and closes; `{keepSession: true}` keeps the session for a later resume. */
  close(options?: CloseOptions): Promise<void>;
}
export interface Bridge extends TypedEmitter<BridgeEventMap> {}

export function connect(options?: ConnectOptions): Promise<Bridge>;

/** The daemon's default socket path for `env`. */
export function defaultSocketPath(env?: Record<string, string | undefined>): string;
