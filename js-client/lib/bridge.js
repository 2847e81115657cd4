import { EventEmitter } from 'node:events';
import { BridgeError, ClientErrorCodes, ErrorCodes, aborted, connectionClosed, protocolError } from './errors.js';
import { EventStream } from './event-stream.js';
import { RegistrationNames, SubscriptionTable, SyntheticEvent } from './events.js';
import { eventProblem, frameKind, responseProblem } from './frames.js';
import {
  anySignal,
  kAllocateTag,
  kForgetView,
  kPlan,
  kRegistrationNames,
  kRequest,
  kSetState,
  kSubscriptions,
  kTrackView,
  kViewsDeleted,
} from './internal.js';
import { LineSplitter, LineTooLong } from './lines.js';
import { EventCursor, SAFE_TO_REPEAT, SESSION_FREE, ackOptions, backoffDelay, reconnectOptions } from './reconnect.js';
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

/**
 * Checks connect()'s `requestTimeoutMs` and `maxFrameBytes` (a TypeError for a bad one) and returns them with
 * their defaults; `requestTimeoutMs` 0 (or Infinity) means no limit.
 */
export function bridgeOptions({ requestTimeoutMs = REQUEST_TIMEOUT_MS, maxFrameBytes = MAX_FRAME_BYTES } = {}) {
  if (typeof requestTimeoutMs !== 'number' || !(requestTimeoutMs >= 0)) {
    throw new TypeError('requestTimeoutMs is a number of milliseconds (0 or Infinity: no limit)');
  }
  if (!Number.isSafeInteger(maxFrameBytes) || maxFrameBytes < 1) throw new TypeError('maxFrameBytes is a positive integer');
  return { requestTimeoutMs: requestTimeoutMs > MAX_TIMER_MS ? 0 : requestTimeoutMs, maxFrameBytes };
}

/** A line quoted in an error message, cut short when long. */
function abbreviate(line) {
  return line.length > 300 ? `${line.slice(0, 300)}… (${line.length} characters)` : line;
}

/**
 * One session with the daemon, over one connection at a time. Emits 'event' (each event frame
 * dispatched), 'error' (socket, protocol and handler errors; only when someone listens, see
 * #reportError), 'reconnecting', 'resumed', 'reset' and 'close'.
 */
export class Bridge extends EventEmitter {
  #socket;
  #splitter = new LineSplitter();
  /**
   * Requests by id, in the order they were made: {op, line, bytes, sent, aborted, internal, resolve, reject,
   * onResponse}. `sent` is false while a request waits to be written (the socket's buffer is full) or for a
   * reconnection; `aborted` once its signal aborted after it was sent (its response is then ignored).
   */
  #pending = new Map();
  /** Requests to write once the socket drains, in order (some may have been aborted meanwhile). */
  #queue = [];
  /** True from a write() that returned false until 'drain'. */
  #blocked = false;
  /** Bytes of the pending requests not written yet. */
  #unsentBytes = 0;
  #maxQueuedBytes;
  /** The open iterators of events(). */
  #streams = new Set();
  /** The socket's error, if it had one, for the requests and the 'close' it ends. */
  #socketError = null;
  #nextId = 1;
  #nextTag = 1;
  /** 'open', 'reconnecting' or 'closed'. */
  #state = 'open';
  /** Set by close(): the end of the socket is the end of the Bridge. */
  #closing = false;
  /** The session_taken_over error, once the daemon sent it. */
  #takenOver = null;
  #closedPromise;
  #resolveClosed;
  /** Handler promises of the events received since the last response. */
  #window = [];
  #record;
  /** @type {Map<number, View>} */
  #views = new Map();
  #subscriptions = new SubscriptionTable();
  #names = new RegistrationNames();
  #cursor = new EventCursor();
  #connectOptions;
  #reconnect;
  #reconnectTimer = null;
  #wakeReconnect = null;
  /** While a resume's retained events are re-sent: {session, until, replayed}. */
  #replay = null;
  #ack;
  #ackSupported = true;
  #ackTimer = null;
  #ackInFlight = false;
  /** The last seq sent in an ack (or a resume) in this session. */
  #ackSent = 0;
  #ackedSeq = 0;
  /** hello's `token`, the secret a resume presents (a daemon that sends none needs none). */
  #token;
  /** A request without a signal of its own fails with `timeout` after this long (0: never). */
  #requestTimeoutMs;
  #maxFrameBytes;

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
      checkFolder = null,
    } = {},
  ) {
    super();
    this.#record = record;
    this.#maxQueuedBytes = maxQueuedBytes ?? MAX_QUEUED_BYTES;
    this.#reconnect = reconnectOptions(reconnect);
    this.#ack = ackOptions(ack);
    const checked = bridgeOptions({ requestTimeoutMs, maxFrameBytes });
    this.#requestTimeoutMs = checked.requestTimeoutMs;
    this.#maxFrameBytes = checked.maxFrameBytes;
    this.#connectOptions = { socketPath, spawn, bin, components, timeoutMs, checkFolder };
    this.socketPath = socketPath;
    this.daemonPid = daemonPid;
    this.session = null;
    this.server = null;
    this.components = {};
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
    return this.#ackedSeq;
  }

  /** @internal The current socket, for tests that cut the connection (`bridge._socket.destroy()`). */
  get _socket() {
    return this.#socket;
  }

  /** @internal Performs hello; called by `connect()`. */
  async hello({ signal } = {}) {
    const result = await this.request({ op: 'hello', protocol: 1, client: CLIENT_NAME }, { signal });
    this.session = result.session;
    this.#token = result.token;
    this.server = result.server;
    this.components = result.components ?? {};
    this.#names = new RegistrationNames(this.components);
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
    const stream = new EventStream({ signal, onEnd: () => this.#streams.delete(stream) });
    if (this.#state === 'closed') stream.end();
    else this.#streams.add(stream);
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
      this.#socket?.destroy();
      this.#finish({ reason: 'closed' });
    } else if (keepSession || this.session === null) {
      this.#socket.end();
    } else {
      const limit = anySignal([signal, AbortSignal.timeout(this.#connectOptions.timeoutMs)]);
      const socket = this.#socket;
      this[kRequest]({ op: 'bye' }, { internal: 'bye', signal: limit }).then(
        () => socket.end(),
        (err) => {
          // A daemon without `bye` (unknown_op) keeps the session until its TTL; no answer: cut the connection.
          if (err?.code === ClientErrorCodes.ABORTED) socket.destroy();
          else socket.end();
        },
      );
    }
    return this.#closedPromise;
  }

  /** @internal Closes at once (connect() failed). */
  destroy() {
    this.#closing = true;
    if (this.#state === 'reconnecting') this.#finish({ reason: 'closed' });
    this.#socket.destroy();
    return this.#closedPromise;
  }

  [kAllocateTag]() {
    return this.#nextTag++;
  }

  get [kSubscriptions]() {
    return this.#subscriptions;
  }

  get [kRegistrationNames]() {
    return this.#names;
  }

  [kTrackView](view) {
    this.#views.set(view.tag, view);
  }

  /** A view that never came to be (its create failed or its transaction rolled back). */
  [kForgetView](view) {
    view[kSetState]('rolledBack');
    this.#subscriptions.dropTag(view.tag);
    if (this.#views.get(view.tag) === view) this.#views.delete(view.tag);
  }

  [kViewsDeleted](tags) {
    for (const tag of tags) {
      this.#subscriptions.dropTag(tag);
      this.#views.get(tag)?.[kSetState]('deleted');
      this.#views.delete(tag);
    }
  }

  /**
   * Sends `frame` with a fresh id. `onResponse(frame)` runs as soon as the response frame is read,
   * before any later frame; the promise settles after the handlers of the events that preceded it.
   * While the Bridge reconnects, the request waits and is sent once the session is resumed. Values JSON
   * cannot carry are refused before anything is sent (values.js); `signal` aborts the request. Without a
   * signal, it fails with `timeout` when no response came within `requestTimeoutMs` of the call.
   * `internal` ('hello', 'ack', 'bye') marks the client's own requests.
   */
  [kRequest](frame, { onResponse, internal = null, signal } = {}) {
    if (this.#state === 'closed' || (this.#closing && internal === null)) {
      return Promise.reject(connectionClosed(this.#closing ? 'close() was called' : undefined));
    }
    if (signal?.aborted) return Promise.reject(aborted(signal));
    // What JSON would change or drop is refused here, as the daemon refuses what it cannot take.
    const invalid = requestError(frame, (op) => this.#paramsOf(op));
    if (invalid) return Promise.reject(invalid);
    const id = this.#nextId++;
    const out = { id, ...frame };
    out.id = id; // the client's id wins over one in `frame`, and stays first
    let line;
    try {
      line = JSON.stringify(out);
    } catch (err) {
      return Promise.reject(new BridgeError(ErrorCodes.BAD_REQUEST, `the request cannot be sent: ${err.message}`, { cause: err }));
    }
    const bytes = Buffer.byteLength(line) + 1;
    if (internal === null && this.#unsentBytes > 0 && this.#unsentBytes + bytes > this.#maxQueuedBytes) {
      const message = `${this.#unsentBytes} bytes of requests already wait to be written (maxQueuedBytes ${this.#maxQueuedBytes})`;
      return Promise.reject(new BridgeError(ClientErrorCodes.QUEUE_FULL, message));
    }
    // A signal of the caller's own is the whole limit: it may wait longer than requestTimeoutMs, or not at all.
    const timeoutMs = signal === undefined && internal !== 'hello' ? this.#requestTimeoutMs : 0;
    return new Promise((resolve, reject) => {
      const onAbort = () => this.#abort(id, signal);
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        clearTimeout(entry.timer);
      };
      const entry = {
        id,
        op: out.op,
        line,
        bytes,
        sent: false,
        aborted: false,
        internal,
        onResponse,
        timeoutMs,
        timer: null,
        resolve: (value) => {
          done();
          resolve(value);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#armTimeout(entry);
      this.#pending.set(id, entry);
      this.#unsentBytes += bytes;
      if (internal === 'hello') this.#write(entry);
      else if (this.#state === 'open') this.#send(entry);
      else this.#waitForReconnect(id, entry);
    });
  }

  /** The parameters hello describes for a command op on a view this client created, else undefined. */
  #paramsOf(op) {
    if (op.op !== 'command') return undefined;
    const component = this.#views.get(op.tag)?.component;
    return this.components[component]?.commands?.[op.name]?.params;
  }

  /** The request's signal aborted: unsent, it is dropped; sent, its response will be ignored. */
  #abort(id, signal) {
    this.#giveUp(id, () => aborted(signal));
  }

  /**
   * Starts (or starts again) the request's requestTimeoutMs. While the request waits for a reconnection,
   * `reconnect.requestTimeoutMs` governs it instead (connection_closed); once the session is back and it is sent,
   * its requestTimeoutMs starts again.
   */
  #armTimeout(entry) {
    clearTimeout(entry.timer);
    if (entry.timeoutMs <= 0) return;
    entry.timer = setTimeout(() => {
      if (this.#pending.get(entry.id) !== entry || (this.#state === 'reconnecting' && !entry.sent)) return;
      const message = `no response to ${entry.op} within ${entry.timeoutMs} ms (requestTimeoutMs)`;
      this.#giveUp(entry.id, () => new BridgeError(ClientErrorCodes.TIMEOUT, message));
    }, entry.timeoutMs);
  }

  #giveUp(id, error) {
    const entry = this.#pending.get(id);
    if (!entry || entry.aborted) return;
    if (entry.sent) {
      entry.aborted = true;
      entry.line = null; // never sent again: a loss drops it
    } else {
      this.#drop(id, entry);
    }
    entry.reject(error(entry));
  }

  /** Forgets a pending request (the caller settles it). */
  #drop(id, entry) {
    this.#pending.delete(id);
    if (!entry.sent) this.#unsentBytes -= entry.bytes;
  }

  /** Writes now, or after 'drain' if the socket's buffer is full (requests keep their order). */
  #send(entry) {
    if (this.#blocked || this.#queue.length > 0) this.#queue.push(entry);
    else this.#write(entry);
  }

  #write(entry) {
    entry.sent = true;
    this.#unsentBytes -= entry.bytes;
    this.#record?.({ dir: 'in', frame: JSON.parse(entry.line) });
    if (!this.#socket.write(`${entry.line}\n`)) this.#blocked = true;
  }

  /** 'drain': write what waited, until the buffer is full again. */
  #drained() {
    this.#blocked = false;
    while (!this.#blocked && this.#queue.length > 0 && this.#state === 'open') {
      const entry = this.#queue.shift();
      if (!entry.sent && this.#pending.get(entry.id) === entry) this.#write(entry);
    }
  }

  /**
   * A request that waits for the connection to come back waits at most `reconnect.requestTimeoutMs`, then
   * rejects with `connection_closed`; its own signal can end the wait sooner.
   */
  #waitForReconnect(id, entry) {
    const ms = this.#reconnect?.requestTimeoutMs ?? 0;
    const limit = AbortSignal.timeout(ms);
    entry.waiting = limit; // a later loss starts a wait of its own
    limit.addEventListener(
      'abort',
      () => {
        if (this.#pending.get(id) !== entry || entry.sent || entry.waiting !== limit) return;
        this.#drop(id, entry);
        entry.reject(connectionClosed(`the connection to bridged was not back within ${ms} ms (reconnect.requestTimeoutMs)`, limit.reason));
      },
      { once: true },
    );
  }

  #attach(socket) {
    this.#socket = socket;
    this.#splitter = new LineSplitter({ maxBytes: this.#maxFrameBytes });
    this.#blocked = false;
    this.#socketError = null;
    socket.on('data', (chunk) => {
      for (const line of this.#splitter.push(chunk)) {
        if (socket !== this.#socket || this.#takenOver || socket.destroyed) return;
        if (line instanceof LineTooLong) this.#lineTooLong(socket, line);
        else this.#onLine(line);
      }
      this.#scheduleAck();
    });
    socket.on('drain', () => {
      if (socket === this.#socket) this.#drained();
    });
    socket.on('error', (err) => {
      // 'close' follows: the error becomes the cause of what the loss rejects, and of 'close'.
      if (socket !== this.#socket) return;
      this.#socketError = err;
      const failed = connectionClosed(`the connection to bridged failed: ${err.message}`, err);
      if (this.listenerCount('error') > 0) this.emit('error', failed);
    });
    socket.on('close', () => this.#onSocketClose(socket));
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

  #onLine(line) {
    if (line === '') return;
    let frame;
    try {
      frame = JSON.parse(line);
    } catch {
      this.#reportError(protocolError(`the daemon sent a line that is not JSON: ${abbreviate(line)}`));
      return;
    }
    this.#record?.({ dir: 'out', frame });
    const kind = frameKind(frame);
    if (kind === 'event') {
      const problem = eventProblem(frame);
      if (problem) this.#reportError(protocolError(`the daemon sent an event frame whose ${problem}: ${abbreviate(line)}`));
      else this.#onEvent(frame);
    } else if (kind === 'response' && frame.id === null && frame.error?.code === ErrorCodes.SESSION_TAKEN_OVER) {
      // Another connection resumed this session: it is theirs now. No reconnect.
      this.#takenOver = BridgeError.fromProtocol(frame.error);
      this.#socket.destroy();
    } else if (kind === 'response') {
      this.#onResponse(frame, line);
    } else {
      const message = `the daemon sent a line that is neither a response nor an event: ${abbreviate(line)}`;
      this.#reportError(protocolError(message));
    }
  }

  /** The oldest request written and not answered yet (a Map keeps the order requests were made in). */
  #oldestSent() {
    for (const [id, entry] of this.#pending) if (entry.sent) return id;
    return undefined;
  }

  #onResponse(frame, line) {
    // The retained events of a resume come before any other response.
    if (this.#replay) this.#endReplay();
    const waits = this.#window;
    this.#window = [];
    const problem = responseProblem(frame);
    if (problem && frame.id !== null && this.#pending.get(frame.id)?.sent !== true) {
      this.#reportError(protocolError(`the daemon sent a response whose ${problem}: ${abbreviate(line)}`));
      return;
    }
    // Responses come in request order; one with a null id (frame_too_large: the daemon did not read the line's
    // id) answers the oldest request sent. Any other id must be one the client sent and has no answer for.
    const id = frame.id === null ? this.#oldestSent() : frame.id;
    const pending = id === undefined ? undefined : this.#pending.get(id);
    if (!pending?.sent) {
      const message = `the daemon sent a response to no request of this client (id ${JSON.stringify(frame.id)})`;
      this.#reportError(protocolError(`${message}: ${abbreviate(line)}`));
      return;
    }
    this.#pending.delete(id);
    if (problem) {
      // The request it answers fails with the same protocol_error, rather than waiting for an answer that came.
      const err = protocolError(`the daemon sent a response whose ${problem}: ${abbreviate(line)}`);
      this.#reportError(err);
      if (!pending.aborted) pending.reject(err);
      return;
    }
    try {
      pending.onResponse?.(frame);
    } catch (err) {
      // The client's own bookkeeping of an answer (deleted tags, a batch's results) found it of another shape.
      const message = `the daemon's answer to ${pending.op} could not be used: ${err?.message ?? err}`;
      this.#reportError(err instanceof BridgeError ? err : protocolError(message, { cause: err }));
    }
    if (pending.aborted) return; // rejected when its signal aborted; the client's own state is updated above
    const settle = () => {
      if (frame.ok) pending.resolve(frame.result);
      else pending.reject(BridgeError.fromProtocol(frame.error));
    };
    if (waits.length === 0) settle();
    else Promise.all(waits).then(settle);
  }

  #onEvent(frame) {
    // De-duplication: a seq at or before the last one dispatched in this session was dispatched already.
    if (!this.#cursor.admit(frame.seq)) return;
    const replaying = this.#replay !== null && frame.seq <= this.#replay.until;
    this.emit('event', frame);
    for (const stream of this.#streams) stream.push(frame);
    const propagation = { stopped: false };
    const running = [];
    for (const entry of Array.isArray(frame.path) ? frame.path : []) {
      if (propagation.stopped) break;
      for (const { handler } of this.#subscriptions.handlers(entry.tag, frame.event, entry.phase)) {
        const event = new SyntheticEvent(frame, entry, propagation);
        try {
          const returned = handler(event);
          if (returned && typeof returned.then === 'function') {
            running.push(Promise.resolve(returned).then(undefined, (err) => this.#handlerFailed(err, frame)));
          }
        } catch (err) {
          this.#handlerFailed(err, frame);
        }
      }
    }
    if (replaying) {
      // A re-sent event belongs to no request of this connection.
      this.#replay.replayed++;
      if (frame.seq >= this.#replay.until) this.#endReplay();
    } else if (running.length > 0) {
      this.#window.push(Promise.all(running));
    }
  }

  #handlerFailed(cause, frame) {
    const message = `a ${frame.event} handler failed: ${cause instanceof Error ? cause.message : String(cause)}`;
    const err = new BridgeError(ClientErrorCodes.HANDLER_FAILED, message, {
      cause,
      details: { event: frame.event, seq: frame.seq, target: frame.target },
    });
    this.#reportError(err);
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
      for (const stream of [...this.#streams]) {
        stream.end(err);
        heard = true;
      }
    }
    if (!heard) process.emitWarning(err);
  }

  // Acknowledgements: cumulative, at most one in flight, never in the way of dispatch.

  /** After each read from the socket: ack now if `everyEvents` are unacked, else within `delayMs`. */
  #scheduleAck() {
    if (!this.#ack || !this.#ackSupported || this.#state !== 'open' || this.#closing || this.#ackInFlight) return;
    const unacked = this.#cursor.last - this.#ackSent;
    if (unacked <= 0) return;
    if (unacked >= this.#ack.everyEvents) {
      this.#sendAck();
    } else if (this.#ackTimer === null) {
      this.#ackTimer = setTimeout(() => this.#sendAck(), this.#ack.delayMs);
      this.#ackTimer.unref?.();
    }
  }

  #sendAck() {
    clearTimeout(this.#ackTimer);
    this.#ackTimer = null;
    if (this.#state !== 'open' || this.#closing || this.#ackInFlight) return;
    const seq = this.#cursor.last;
    if (seq <= this.#ackSent) return;
    const session = this.session;
    this.#ackInFlight = true;
    this.#ackSent = seq;
    this[kRequest]({ op: 'ack', seq }, { internal: 'ack' })
      .then(
        (result) => {
          if (session === this.session) this.#ackedSeq = Math.max(this.#ackedSeq, result?.acked ?? seq);
        },
        (err) => {
          // A daemon without resume support: stop acking. Anything else: the next ack covers it.
          if (err?.code === ErrorCodes.UNKNOWN_OP) this.#ackSupported = false;
        },
      )
      .finally(() => {
        this.#ackInFlight = false;
        this.#scheduleAck();
      });
  }

  // Losing the connection, reconnecting, resuming.

  #onSocketClose(socket) {
    if (socket !== this.#socket || this.#state === 'closed') return;
    if (this.#state === 'reconnecting') {
      // A reconnection attempt's socket closed before hello was answered: that attempt failed.
      this.#dropInternal('hello', connectionClosed('the connection closed before hello was answered', this.#socketError ?? undefined));
      return;
    }
    if (this.#closing) this.#finish({ reason: 'closed' });
    else if (this.#takenOver) this.#finish({ reason: 'session_taken_over', error: this.#takenOver });
    else if (!this.#reconnect || this.session === null) this.#finish({ reason: 'lost', error: this.#lostError() });
    else this.#lost();
  }

  /** `connection_closed` for a lost connection, with the socket's error (ECONNRESET, EPIPE…) as `cause`. */
  #lostError() {
    const cause = this.#socketError ?? undefined;
    const message = cause ? `the connection to bridged was lost: ${cause.message}` : 'the connection to bridged was lost';
    return connectionClosed(message, cause);
  }

  /** The connection dropped: keep what may be repeated, fail the rest, and start reconnecting. */
  #lost() {
    this.#record?.({ dir: 'meta', connection: 'closed' });
    this.#state = 'reconnecting';
    this.#window = [];
    this.#replay = null;
    clearTimeout(this.#ackTimer);
    this.#ackTimer = null;
    this.#ackInFlight = false;
    this.#queue = [];
    const cause = this.#socketError ?? undefined;
    for (const [id, entry] of this.#pending) {
      if (!entry.sent && entry.internal === null) {
        this.#waitForReconnect(id, entry); // not written yet: waits for the next connection
        continue;
      }
      if (entry.aborted) {
        this.#drop(id, entry); // rejected already
        continue;
      }
      if (entry.internal === null && SAFE_TO_REPEAT.has(entry.op)) {
        entry.sent = false; // sent again on the next connection
        this.#unsentBytes += entry.bytes;
        this.#waitForReconnect(id, entry);
        continue;
      }
      this.#drop(id, entry);
      entry.reject(
        connectionClosed(
          'the connection to bridged was lost before the response; the request may or may not have taken effect',
          cause,
        ),
      );
    }
    this.#reconnectLoop();
  }

  async #reconnectLoop() {
    let lastError = this.#lostError();
    for (let attempt = 1; attempt <= this.#reconnect.maxAttempts; attempt++) {
      const delayMs = backoffDelay(attempt, this.#reconnect);
      this.emit('reconnecting', { attempt, delayMs, error: lastError });
      await new Promise((resolve) => {
        this.#wakeReconnect = resolve;
        this.#reconnectTimer = setTimeout(resolve, delayMs);
      });
      this.#reconnectTimer = null;
      this.#wakeReconnect = null;
      if (this.#state !== 'reconnecting') return;
      try {
        const signal = AbortSignal.timeout(this.#connectOptions.timeoutMs);
        const { socket, daemonPid } = await connectOrSpawn({ ...this.#connectOptions, signal });
        if (this.#state !== 'reconnecting') {
          socket.destroy();
          return;
        }
        if (daemonPid !== null) this.daemonPid = daemonPid;
        this.#attach(socket);
        await this.#resumeHello();
        return;
      } catch (err) {
        lastError = err;
        if (this.#state !== 'reconnecting') return;
        this.#dropInternal('hello', err);
        this.#socket.destroy();
        const transient = err?.code === ClientErrorCodes.CONNECTION_CLOSED || err?.code === ClientErrorCodes.CONNECT_FAILED;
        if (!transient) break; // the daemon refused the resume itself: trying again would not help
      }
    }
    this.#finish({ reason: 'gave_up', error: lastError });
  }

  /** hello with resume, on the new socket; the outcome is applied as soon as the response is read. */
  #resumeHello() {
    const previous = this.session;
    const ack = this.#cursor.last;
    const resume = this.#token === undefined ? { session: previous, ack } : { session: previous, token: this.#token, ack };
    const frame = { op: 'hello', protocol: 1, client: CLIENT_NAME, resume };
    const timeoutMs = this.#connectOptions.timeoutMs;
    const onResponse = (response) => {
      if (response.ok) this.#onReattached(response.result ?? {}, previous, ack);
    };
    return this[kRequest](frame, { onResponse, internal: 'hello', signal: AbortSignal.timeout(timeoutMs) }).catch((err) => {
      if (err?.code !== ClientErrorCodes.ABORTED) throw err;
      throw new BridgeError(ClientErrorCodes.CONNECT_FAILED, `no answer to hello within ${timeoutMs} ms`, { cause: err });
    });
  }

  /** Runs synchronously on hello's response, before the retained events that follow it. */
  #onReattached(result, previous, ack) {
    this.server = result.server ?? this.server;
    if (result.components) {
      this.components = result.components;
      this.#names = new RegistrationNames(this.components);
    }
    if (result.resumed === true && result.session === previous) {
      this.#state = 'open';
      this.#ackSent = Math.max(this.#ackSent, ack);
      this.#ackedSeq = Math.max(this.#ackedSeq, ack);
      const until = typeof result.seq === 'number' ? result.seq : ack;
      this.#replay = until > this.#cursor.last ? { session: previous, until, replayed: 0 } : null;
      this.#flush(() => true);
      if (!this.#replay) this.emit('resumed', { session: previous, replayed: 0 });
      return;
    }
    // A fresh session: the old one's views and subscriptions are gone with it.
    const reason = result.reason ?? 'unknown_session';
    this.session = result.session;
    this.#token = result.token;
    this.#cursor.reset(result.session);
    this.#ackSent = 0;
    this.#ackedSeq = 0;
    for (const view of this.#views.values()) view[kSetState]('reset');
    this.#views.clear();
    this.#subscriptions = new SubscriptionTable();
    this.#state = 'open';
    const message = `the daemon started a fresh session (${reason}); this request was for session ${previous}`;
    this.#flush((entry) => SESSION_FREE.has(entry.op), () => new BridgeError(ClientErrorCodes.SESSION_RESET, message));
    this.emit('reset', { reason, previousSession: previous, session: result.session });
  }

  #endReplay() {
    const { session, replayed } = this.#replay;
    this.#replay = null;
    this.emit('resumed', { session, replayed });
  }

  /** Sends the requests that waited for the connection (`keep`), rejects the others with `error()`. */
  #flush(keep, error) {
    for (const [id, entry] of this.#pending) {
      if (entry.sent || entry.internal) continue;
      if (keep(entry)) {
        this.#armTimeout(entry);
        this.#send(entry);
      } else {
        this.#drop(id, entry);
        entry.reject(error());
      }
    }
  }

  #dropInternal(kind, error) {
    for (const [id, entry] of this.#pending) {
      if (entry.internal !== kind) continue;
      this.#drop(id, entry);
      entry.reject(error);
    }
  }

  /** The end of the Bridge: every request still pending fails with `connection_closed`. */
  #finish({ reason, error }) {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    clearTimeout(this.#reconnectTimer);
    this.#wakeReconnect?.();
    clearTimeout(this.#ackTimer);
    this.#ackTimer = null;
    this.#replay = null;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#queue = [];
    this.#unsentBytes = 0;
    const message =
      reason === 'session_taken_over'
        ? 'another connection resumed this session (session_taken_over) before the response'
        : 'the connection to bridged closed before the response';
    for (const { reject } of pending) reject(connectionClosed(message, error));
    for (const stream of [...this.#streams]) stream.end(reason === 'closed' ? null : error ?? connectionClosed());
    this.emit('close', error === undefined ? { reason } : { reason, error });
    this.#resolveClosed();
  }
}
