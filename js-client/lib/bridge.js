import { EventEmitter } from 'node:events';
import { Acker } from './client/acker.js';
import { Connection } from './client/connection.js';
import { Dispatcher } from './client/dispatch.js';
import { PendingRequests } from './client/pending.js';
import { FrameReader } from './client/reader.js';
import { Resumer, keptAfterReset } from './client/resume.js';
import { SessionViews } from './client/views.js';
import { BridgeError, ClientErrorCodes, aborted, connectionClosed, protocolError } from './errors.js';
import { EventStream } from './event-stream.js';
import {
  anySignal,
  kAllocateTag,
  kForgetView,
  kPlan,
  kRegistrationNames,
  kRequest,
  kSetState,
  kSubscriptions,
  kPartsOwner,
  kTrackView,
  kUnsentBytes,
  kViewsDeleted,
} from './internal.js';
import { EventCursor, ackOptions, reconnectOptions } from './reconnect.js';
import { connectOrSpawn } from './spawn.js';
import { Transaction } from './transaction.js';
import { requestError } from './values.js';
import { View, createFrame, unwrapBatchError } from './view.js';
import { CLIENT_NAME } from './version.js';

/** The most bytes of requests waiting to be written (backpressure, reconnect) before `queue_full`. */
export const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/** How long a request without a signal of its own waits for its response before `timeout`. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The longest line read from the daemon. No frame of the daemon comes near it (its answers are bounded by what
 * its requests may hold, `--max-frame-bytes`, and by the session's views); it keeps a broken peer from
 * growing the process without limit, and stays under V8's longest string (2^29 - 24 characters).
 */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/** The largest delay setTimeout takes; a longer requestTimeoutMs means no limit. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A request refused before it is written: thrown when the caller asked for it (`refuseSync`), else returned rejected. */
function refused(error, sync) {
  if (sync) throw error;
  return Promise.reject(error);
}

/**
 * Checks connect()'s `requestTimeoutMs`, `maxFrameBytes` and `batchPartBytes` (a TypeError for a bad one) and returns them with
 * their defaults; `requestTimeoutMs` 0 (or Infinity) means no limit.
 */
export function bridgeOptions({
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
  maxFrameBytes = MAX_FRAME_BYTES,
  batchPartBytes = Infinity,
} = {}) {
  if (typeof requestTimeoutMs !== 'number' || !(requestTimeoutMs >= 0)) {
    throw new TypeError('requestTimeoutMs is a number of milliseconds (0 or Infinity: no limit)');
  }
  if (!Number.isSafeInteger(maxFrameBytes) || maxFrameBytes < 1) throw new TypeError('maxFrameBytes is a positive integer');
  if (!(batchPartBytes === Infinity || (Number.isSafeInteger(batchPartBytes) && batchPartBytes >= 1024))) {
    throw new TypeError("batchPartBytes is an integer of at least 1024 (Infinity: the daemon's maxFrameBytes)");
  }
  return { requestTimeoutMs: requestTimeoutMs > MAX_TIMER_MS ? 0 : requestTimeoutMs, maxFrameBytes, batchPartBytes };
}

/**
 * One session with the daemon, over one connection at a time. Emits 'event' (each event frame
 * dispatched), 'error' (socket, protocol and handler errors; only when someone listens, see
 * #reportError), 'reconnecting', 'resumed', 'reset' and 'close'.
 *
 * A composition of the parts in `client/`: the Connection (socket, lines, write queue), the FrameReader (each
 * line read: events told from responses, a response matched to its request), the PendingRequests (ids, limits),
 * the Dispatcher (events to their handlers), the Acker, the Resumer (what a loss does to each request,
 * reconnecting, resuming, the re-sent events) and the SessionViews. The Bridge holds the session's state (its
 * id, token, seq cursor, open/reconnecting/closed) and what an event or a resume's answer does to it.
 */
export class Bridge extends EventEmitter {
  /** @type {Connection} */
  #connection;
  #pending;
  #dispatch = new Dispatcher({
    emit: (frame) => this.emit('event', frame),
    report: (err) => this.#reportError(err),
  });
  #acker;
  /** The socket's error, if it had one, for the requests and the 'close' it ends. */
  #socketError = null;
  /** 'open', 'reconnecting' or 'closed'. */
  #state = 'open';
  /** Set by close(): the end of the socket is the end of the Bridge. */
  #closing = false;
  /** The session_taken_over error, once the daemon sent it. */
  #takenOver = null;
  #closedPromise;
  #resolveClosed;
  #record;
  /** The React Native attachment whose commit has parts out on this connection (native-side.js), if any. */
  [kPartsOwner] = undefined;
  #views = new SessionViews();
  #cursor = new EventCursor();
  #connectOptions;
  /** Reconnecting and resuming (client/resume.js). */
  #resumer;
  /** hello's `token`, the secret a resume presents (a daemon that sends none needs none). */
  #token;
  /** The components this session defined (`define`), described: kept in `components` across a resume. */
  #defined = {};
  /** A request without a signal of its own fails with `timeout` after this long (0: never). */
  #requestTimeoutMs;
  #maxFrameBytes;
  /** connect()'s `batchPartBytes` (Infinity: the daemon's `maxFrameBytes`). */
  #batchPartBytes;

  /** @internal Use `connect()`. */
  constructor(
    socket,
    {
      socketPath,
      daemonPid = null,
      record,
      reconnect,
      ack,
      spawn = false,
      bin,
      components,
      timeoutMs = 10_000,
      maxQueuedBytes,
      requestTimeoutMs,
      maxFrameBytes,
      batchPartBytes,
      checkFolder = null,
    } = {},
  ) {
    super();
    this.#record = record;
    const checked = bridgeOptions({ requestTimeoutMs, maxFrameBytes, batchPartBytes });
    this.#requestTimeoutMs = checked.requestTimeoutMs;
    this.#maxFrameBytes = checked.maxFrameBytes;
    this.#batchPartBytes = checked.batchPartBytes;
    this.#pending = new PendingRequests({
      maxQueuedBytes: maxQueuedBytes ?? MAX_QUEUED_BYTES,
      isWaiting: () => this.#state === 'reconnecting',
    });
    this.#acker = new Acker(ackOptions(ack), {
      last: () => this.#cursor.last,
      canSend: () => this.#state === 'open' && !this.#closing,
      send: (seq) => this[kRequest]({ op: 'ack', seq }, { internal: 'ack' }),
    });
    this.#connectOptions = { socketPath, spawn, bin, components, timeoutMs, checkFolder };
    this.#resumer = new Resumer(reconnectOptions(reconnect), timeoutMs, this.#resumeHost());
    this.socketPath = socketPath;
    this.daemonPid = daemonPid;
    this.session = null;
    this.server = null;
    this.components = {};
    this.propTypes = {};
    this.#closedPromise = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.#attach(socket);
  }

  /** True once the Bridge is closed for good (not while it reconnects). */
  get closed() {
    return this.#state === 'closed';
  }

  /** `'open'`, `'reconnecting'` (requests wait) or `'closed'`. */
  get state() {
    return this.#state;
  }

  /** The last event seq dispatched in this session. */
  get lastSeq() {
    return this.#cursor.last;
  }

  /** The highest seq the daemon confirmed as acknowledged in this session. */
  get ackedSeq() {
    return this.#acker.acked;
  }

  /** @internal The current socket, for tests that cut the connection (`bridge._socket.destroy()`). */
  get _socket() {
    return this.#connection.socket;
  }

  /** @internal Performs hello; called by `connect()`. */
  async hello({ signal } = {}) {
    const result = await this.request({ op: 'hello', protocol: 1, client: CLIENT_NAME }, { signal });
    this.session = result.session;
    this.#token = result.token;
    this.server = result.server;
    this.#frameOf(result);
    this.components = result.components ?? {};
    this.propTypes = result.propTypes ?? {};
    this.#views.describe(this.components);
    this.#cursor.reset(result.session);
    return result;
  }

  /**
   * Sends a raw request (an id is assigned) and resolves its `result`, or rejects with a BridgeError.
   * With `signal`, rejects with `aborted` when it aborts first; without, with `timeout` after `requestTimeoutMs`.
   */
  request(frame, { signal } = {}) {
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) {
      return Promise.reject(new TypeError('a request is an object with an op'));
    }
    return this[kRequest](frame, { signal });
  }

  /**
   * Adds components to this session alone (`define`): a codegen schema's, and `untyped` names served without a
   * spec. Resolves `define`'s result; `components` then describes them too, so their handler props subscribe.
   */
  async define(schema, { untyped, signal } = {}) {
    const frame = { op: 'define' };
    if (schema !== undefined) frame.schema = schema;
    if (untyped !== undefined) frame.untyped = untyped;
    const result = await this[kRequest](frame, { signal });
    this.#defined = { ...this.#defined, ...result.components };
    this.components = { ...this.components, ...result.components };
    this.#views.describe(this.components);
    return result;
  }

  /** Creates a view; function props named like events subscribe, in one atomic batch. */
  async create(component, props = {}, { parent, index, signal } = {}) {
    const view = new View(this, this[kAllocateTag](), component, 'pending');
    const plan = view[kPlan](props, { initial: true });
    const create = createFrame(view, plan.props, parent, index);
    const ops = [create, ...plan.ops(view.tag)];
    const request =
      ops.length === 1
        ? this[kRequest](create, { signal })
        : this[kRequest]({ op: 'batch', ops }, { signal }).catch(unwrapBatchError);
    this[kTrackView](view);
    view[kSetState]('live');
    const revert = plan.apply(request);
    try {
      await request;
    } catch (error) {
      revert();
      this[kForgetView](view);
      throw error;
    }
    return view;
  }

  /** Asks the daemon for an answer and nothing else (`ping`): resolves `{}` once it answered. */
  ping({ signal } = {}) {
    return this[kRequest]({ op: 'ping' }, { signal });
  }

  /** The daemon's counters (`stats`): `{sessions, views, sessionViews, seq}`. */
  stats({ signal } = {}) {
    return this[kRequest]({ op: 'stats' }, { signal });
  }

  /**
   * This session's layout (`layout`): `yoga`, the path of React Native's `ReactCommon/yoga`, turns it on (the
   * daemon builds Yoga once and caches it); `window` changes the window; neither only asks.
   */
  layout({ yoga, window, signal } = {}) {
    const frame = { op: 'layout' };
    if (yoga !== undefined) frame.yoga = yoga;
    if (window !== undefined) frame.window = window;
    return this[kRequest](frame, { signal });
  }

  /**
   * This session's window drawn as the phone shows it (`screenshot`; layout on): `{width, height, scale, png}`, the
   * PNG's bytes in a Buffer. `scale` asks for another than the window's.
   */
  async screenshot({ scale, signal } = {}) {
    const frame = { op: 'screenshot' };
    if (scale !== undefined) frame.scale = scale;
    const result = await this[kRequest](frame, { signal });
    return { width: result.width, height: result.height, scale: result.scale, png: Buffer.from(result.png, 'base64') };
  }

  /** The daemon's sessions (`sessions`): `{sessions: [{session, client, connected, views, seq, observers}]}`. */
  sessions({ signal } = {}) {
    return this[kRequest]({ op: 'sessions' }, { signal });
  }

  /** Starts a transaction: ops collected client-side, sent as one atomic batch by `commit()`. */
  transaction() {
    return new Transaction(this);
  }

  /** The live View with `tag` that this client created, or undefined. */
  view(tag) {
    return this.#views.get(tag);
  }

  /**
   * The event frames dispatched from now on, as an async iterator (`for await (const e of bridge.events())`).
   * It ends when `signal` aborts, on `break`, or on `close()`; it throws when the Bridge ends otherwise
   * (its 'close' error) or the daemon breaks the protocol (`protocol_error`).
   */
  events({ signal } = {}) {
    const streams = this.#dispatch.streams;
    const stream = new EventStream({ signal, onEnd: () => streams.delete(stream) });
    if (this.#state === 'closed') stream.end();
    else streams.add(stream);
    return stream;
  }

  /**
   * Ends the Bridge. By default it sends `bye`, which ends the session at once (its views are deleted, no
   * resume), waits for its answer (so the requests sent before it are answered too), and closes the
   * connection. With `keepSession: true` it only closes the connection: the daemon keeps the session
   * for `--session-ttl`, to be resumed with `resume: {session, token}`. `bye` is waited for until
   * `signal` aborts, at most `timeoutMs` of connect(); then the connection is cut. Requests made after
   * close() reject with `connection_closed`; so do those still pending when the connection closes.
   */
  close({ keepSession = false, signal } = {}) {
    if (this.#state === 'closed' || this.#closing) return this.#closedPromise;
    this.#closing = true;
    if (this.#state === 'reconnecting') {
      this.#connection?.destroy();
      this.#finish({ reason: 'closed' });
    } else if (keepSession || this.session === null) {
      this.#connection.end();
    } else {
      const limit = anySignal([signal, AbortSignal.timeout(this.#connectOptions.timeoutMs)]);
      const connection = this.#connection;
      this[kRequest]({ op: 'bye' }, { internal: 'bye', signal: limit }).then(
        () => connection.end(),
        (err) => {
          // A daemon without `bye` (unknown_op) keeps the session until its TTL; no answer: cut the connection.
          if (err?.code === ClientErrorCodes.ABORTED) connection.destroy();
          else connection.end();
        },
      );
    }
    return this.#closedPromise;
  }

  /** @internal Closes at once (connect() failed). */
  destroy() {
    this.#closing = true;
    if (this.#state === 'reconnecting') this.#finish({ reason: 'closed' });
    this.#connection.destroy();
    return this.#closedPromise;
  }

  [kAllocateTag]() {
    return this.#views.allocateTag();
  }

  [kUnsentBytes]() {
    return this.#pending.unsentBytes;
  }

  get [kSubscriptions]() {
    return this.#views.subscriptions;
  }

  get [kRegistrationNames]() {
    return this.#views.names;
  }

  [kTrackView](view) {
    this.#views.track(view);
  }

  /** A view that never came to be (its create failed or its transaction rolled back). */
  [kForgetView](view) {
    this.#views.forget(view);
  }

  [kViewsDeleted](tags) {
    this.#views.deleted(tags);
  }

  /**
   * Sends `frame` with a fresh id. `onResponse(frame)` runs as soon as the response frame is read,
   * before any later frame; the promise settles after the handlers of the events that preceded it.
   * While the Bridge reconnects, the request waits and is sent once the session is resumed. Values JSON
   * cannot carry are refused before anything is sent (values.js); `signal` aborts the request. Without a
   * signal, it fails with `timeout` when no response came within `requestTimeoutMs` of the call.
   * `internal` ('hello', 'ack', 'bye') marks the client's own requests. `restOfBatch`: the request ends a batch whose
   * parts went already, and is not refused for the requests waiting to be written (`queue_full` would leave the
   * parts held, the batch unfinished). `refuseSync`: a request refused before it is written (closed, aborted, a
   * value JSON cannot carry, a full queue) throws the error instead of returning it rejected, so that the caller
   * knows at once that nothing went.
   */
  [kRequest](frame, { onResponse, internal = null, signal, restOfBatch = false, refuseSync = false } = {}) {
    if (this.#state === 'closed' || (this.#closing && internal === null)) {
      return refused(connectionClosed(this.#closing ? 'close() was called' : undefined), refuseSync);
    }
    if (signal?.aborted) return refused(aborted(signal), refuseSync);
    // What JSON would change or drop is refused here, as the daemon refuses what it cannot take.
    const invalid = requestError(frame, (op) => this.#paramsOf(op));
    if (invalid) return refused(invalid, refuseSync);
    // A signal of the caller's own is the whole limit: it may wait longer than requestTimeoutMs, or not at all.
    const timeoutMs = signal === undefined && internal !== 'hello' ? this.#requestTimeoutMs : 0;
    let entry;
    try {
      entry = this.#pending.add(frame, { onResponse, internal, signal, timeoutMs, queueExempt: restOfBatch });
    } catch (err) {
      return refused(err, refuseSync);
    }
    if (internal === 'hello') this.#connection.write(entry);
    else if (this.#state === 'open') this.#connection.send(entry);
    else this.#waitForReconnect(entry);
    return entry.promise;
  }

  /** The parameters hello describes for a command op on a view this client created, else undefined. */
  #paramsOf(op) {
    if (op.op !== 'command') return undefined;
    const component = this.#views.get(op.tag)?.component;
    return this.components[component]?.commands?.[op.name]?.params;
  }

  #waitForReconnect(entry) {
    this.#pending.waitForReconnect(entry, this.#resumer.waitMs);
  }

  #attach(socket) {
    this.#socketError = null;
    const reader = new FrameReader({
      pending: this.#pending,
      dispatch: this.#dispatch,
      report: (err) => this.#reportError(err),
      record: this.#record,
      onEvent: (frame) => this.#onEvent(frame),
      // A change frame of an observed session (this one's own, for openApp's live tree): as it is read.
      onChange: (frame) => this.emit('change', frame),
      onTakenOver: (error) => {
        this.#takenOver = error;
        this.#connection.destroy();
      },
      // The retained events of a resume come before any other response.
      beforeResponse: () => this.#resumer.endReplay(),
    });
    const connection = new Connection(socket, {
      maxFrameBytes: this.#maxFrameBytes,
      onLine: (line) => {
        if (connection === this.#connection && !this.#takenOver) reader.read(line);
      },
      onLineTooLong: (tooLong) => {
        if (connection === this.#connection && !this.#takenOver) this.#lineTooLong(socket, tooLong);
      },
      onRead: () => this.#acker.schedule(),
      onWrite: (entry) => {
        this.#pending.markSent(entry);
        if (this.#record) for (const line of entry.line.split('\n')) this.#record({ dir: 'in', frame: JSON.parse(line) });
      },
      writable: (entry) => this.#state === 'open' && !entry.sent && this.#pending.holds(entry),
      onError: (err) => {
        // 'close' follows: the error becomes the cause of what the loss rejects, and of 'close'.
        if (connection !== this.#connection) return;
        this.#socketError = err;
        const failed = connectionClosed(`the connection to bridged failed: ${err.message}`, err);
        if (this.listenerCount('error') > 0) this.emit('error', failed);
      },
      onClose: () => this.#onConnectionClose(connection),
    });
    this.#connection = connection;
  }

  /**
   * A line longer than maxFrameBytes: the client cannot tell what it answered, and the responses after it
   * would be matched to the wrong requests. A protocol_error, and the connection ends (as a loss: pending
   * requests fail with connection_closed, whose cause is this error; with `reconnect`, it reconnects).
   */
  #lineTooLong(socket, { maxBytes }) {
    const err = protocolError(
      `the daemon sent a line longer than ${maxBytes} bytes (maxFrameBytes); closing the connection`,
    );
    this.#reportError(err);
    this.#socketError ??= err;
    socket.destroy();
  }

  #onEvent(frame) {
    // De-duplication: a seq at or before the last one dispatched in this session was dispatched already.
    if (!this.#cursor.admit(frame.seq)) return;
    // A re-sent event belongs to no request of this connection.
    const replaying = this.#resumer.replays(frame.seq);
    this.#dispatch.dispatch(frame, this.#views.subscriptions, !replaying);
    if (replaying) this.#resumer.replayed(frame.seq);
  }

  /**
   * A failed handler or a protocol error: emitted as 'error' to its listeners, and thrown by every open
   * events() iterator (a protocol error ends them). When neither listens, it becomes a process warning:
   * never dropped, never an unhandled 'error' that would end the process.
   */
  #reportError(err) {
    let heard = false;
    if (this.listenerCount('error') > 0) {
      this.emit('error', err);
      heard = true;
    }
    if (err?.code === ClientErrorCodes.PROTOCOL_ERROR) {
      for (const stream of [...this.#dispatch.streams]) {
        stream.end(err);
        heard = true;
      }
    }
    if (!heard) process.emitWarning(err);
  }

  // Losing the connection, reconnecting, resuming.

  #onConnectionClose(connection) {
    if (connection !== this.#connection || this.#state === 'closed') return;
    if (this.#state === 'reconnecting') {
      // A reconnection attempt's socket closed before hello was answered: that attempt failed.
      const message = 'the connection closed before hello was answered';
      this.#pending.dropInternal('hello', connectionClosed(message, this.#socketError ?? undefined));
      return;
    }
    if (this.#closing) this.#finish({ reason: 'closed' });
    else if (this.#takenOver) this.#finish({ reason: 'session_taken_over', error: this.#takenOver });
    else if (!this.#resumer.enabled || this.session === null) this.#finish({ reason: 'lost', error: this.#lostError() });
    else this.#lost();
  }

  /** `connection_closed` for a lost connection, with the socket's error (ECONNRESET, EPIPE…) as `cause`. */
  #lostError() {
    const cause = this.#socketError ?? undefined;
    const message = cause ? `the connection to bridged was lost: ${cause.message}` : 'the connection to bridged was lost';
    return connectionClosed(message, cause);
  }

  /** The connection dropped: keep what may be repeated, fail the rest, and start reconnecting (client/resume.js). */
  #lost() {
    this.#record?.({ dir: 'meta', connection: 'closed' });
    this.#state = 'reconnecting';
    this.#dispatch.clearWindow();
    this.#acker.stop();
    this.#connection.clear();
    this.#resumer.lost(this.#lostError(), this.#socketError ?? undefined);
  }

  /** What the Resumer reaches of this session. */
  #resumeHost() {
    return {
      pending: this.#pending,
      connect: () => {
        const signal = AbortSignal.timeout(this.#connectOptions.timeoutMs);
        return connectOrSpawn({ ...this.#connectOptions, signal });
      },
      attach: (socket, daemonPid) => {
        if (this.#state !== 'reconnecting') {
          socket.destroy();
          return false;
        }
        if (daemonPid !== null) this.daemonPid = daemonPid;
        this.#attach(socket);
        return true;
      },
      request: (frame, options) => this[kRequest](frame, options),
      drop: () => this.#connection.destroy(),
      session: () => this.session,
      token: () => this.#token,
      lastSeq: () => this.#cursor.last,
      reattached: (result, outcome, asked) => this.#onReattached(result, outcome, asked),
      emit: (name, info) => this.emit(name, info),
      gaveUp: (error) => this.#finish({ reason: 'gave_up', error }),
    };
  }

  /**
   * hello's `maxFrameBytes`, the daemon's longest line: a batch whose line is longer goes in parts no longer than
   * it (or than `batchPartBytes`), any other longer request is refused before it is sent (`frame_too_large`). A
   * daemon that does not say holds no parts either: its batches stay one line, and its frame_too_large is its own.
   */
  #frameOf(result) {
    const frame = result.maxFrameBytes;
    const known = Number.isSafeInteger(frame) && frame > 0;
    this.#pending.batchPartBytes = known ? Math.min(frame, this.#batchPartBytes) : Infinity;
    this.#pending.maxLineBytes = known ? frame : Infinity;
  }

  /** Runs synchronously on hello's response to a resume, before the retained events that follow it. */
  #onReattached(result, outcome, { previous, ack }) {
    this.server = result.server ?? this.server;
    this.#frameOf(result);
    // A resumed session keeps the components it defined; a fresh one has none.
    if (!outcome.resumed) this.#defined = {};
    if (result.propTypes) this.propTypes = result.propTypes;
    if (result.components) {
      this.components = { ...result.components, ...this.#defined };
      this.#views.describe(this.components);
    }
    if (outcome.resumed) {
      this.#state = 'open';
      this.#acker.resumed(ack);
      this.#flush(() => true);
      return;
    }
    // A fresh session: the old one's views and subscriptions are gone with it.
    const { reason } = outcome;
    this.session = result.session;
    this.#token = result.token;
    this.#cursor.reset(result.session);
    this.#acker.reset();
    this.#views.reset();
    this.#state = 'open';
    const message = `the daemon started a fresh session (${reason}); this request was for session ${previous}`;
    this.#flush(keptAfterReset, () => new BridgeError(ClientErrorCodes.SESSION_RESET, message));
    this.emit('reset', { reason, previousSession: previous, session: result.session });
  }

  /** Sends the requests that waited for the connection (`keep`), rejects the others with `error()`. */
  #flush(keep, error) {
    for (const [, entry] of this.#pending) {
      if (entry.sent || entry.internal) continue;
      if (keep(entry)) {
        this.#pending.armTimeout(entry);
        this.#connection.send(entry);
      } else {
        this.#pending.drop(entry);
        entry.reject(error());
      }
    }
  }

  /** The end of the Bridge: every request still pending fails with `connection_closed`. */
  #finish({ reason, error }) {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#resumer.stop();
    this.#acker.stop();
    this.#connection?.clear();
    const message =
      reason === 'session_taken_over'
        ? 'another connection resumed this session (session_taken_over) before the response'
        : 'the connection to bridged closed before the response';
    this.#pending.failAll(() => connectionClosed(message, error));
    this.#dispatch.endStreams(reason === 'closed' ? null : error ?? connectionClosed());
    this.emit('close', error === undefined ? { reason } : { reason, error });
    this.#resolveClosed();
  }
}
