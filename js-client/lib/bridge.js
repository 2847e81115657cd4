import { EventEmitter } from 'node:events';
import { BridgeError, ClientErrorCodes, connectionClosed } from './errors.js';
import { RegistrationNames, SubscriptionTable, SyntheticEvent } from './events.js';
import {
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
import { LineSplitter } from './lines.js';
import { Transaction } from './transaction.js';
import { View, createFrame, unwrapBatchError } from './view.js';
import { CLIENT_NAME } from './version.js';

/**
 * One session with the daemon. Emits 'event' (each event frame), 'error' (socket errors and failed
 * handlers; only when someone listens) and 'close'.
 */
export class Bridge extends EventEmitter {
  #socket;
  #splitter = new LineSplitter();
  /** Pending requests by id, oldest first: {resolve, reject, onResponse}. */
  #pending = new Map();
  #nextId = 1;
  #nextTag = 1;
  #closed = false;
  #closedPromise;
  /** Handler promises of the events received since the last response. */
  #window = [];
  #record;
  /** @type {Map<number, View>} */
  #views = new Map();
  #subscriptions = new SubscriptionTable();
  #names = new RegistrationNames();

  /** @internal Use `connect()`. */
  constructor(socket, { socketPath, daemonPid = null, record } = {}) {
    super();
    this.#socket = socket;
    this.#record = record;
    this.socketPath = socketPath;
    this.daemonPid = daemonPid;
    this.session = null;
    this.server = null;
    this.components = {};
    this.#closedPromise = new Promise((resolve) => {
      socket.on('close', () => {
        this.#onClose();
        resolve();
      });
    });
    socket.on('data', (chunk) => {
      for (const line of this.#splitter.push(chunk)) this.#onLine(line);
    });
    socket.on('error', (err) => this.#emitError(err));
  }

  /** True once the connection is closed. */
  get closed() {
    return this.#closed;
  }

  /** @internal Performs hello; called by `connect()`. */
  async hello() {
    const result = await this.request({ op: 'hello', protocol: 1, client: CLIENT_NAME });
    this.session = result.session;
    this.server = result.server;
    this.components = result.components ?? {};
    this.#names = new RegistrationNames(this.components);
    return result;
  }

  /** Sends a raw request (an id is assigned) and resolves its `result`, or rejects with a BridgeError. */
  request(frame) {
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) {
      return Promise.reject(new TypeError('a request is an object with an op'));
    }
    return this[kRequest](frame);
  }

  /** Creates a view; function props named like events subscribe, in one atomic batch. */
  async create(component, props = {}, { parent, index } = {}) {
    const view = new View(this, this[kAllocateTag](), component, 'pending');
    const plan = view[kPlan](props, { initial: true });
    const create = createFrame(view, plan.props, parent, index);
    const ops = [create, ...plan.ops(view.tag)];
    const request =
      ops.length === 1 ? this[kRequest](create) : this[kRequest]({ op: 'batch', ops }).catch(unwrapBatchError);
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

  /** Closes the connection; pending requests fail with `connection_closed`. */
  close() {
    if (!this.#closed) this.#socket.end();
    return this.#closedPromise;
  }

  /** @internal Closes at once (connect() failed). */
  destroy() {
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
   */
  [kRequest](frame, onResponse) {
    if (this.#closed) return Promise.reject(connectionClosed());
    const id = this.#nextId++;
    const out = { id, ...frame };
    out.id = id; // the client's id wins over one in `frame`, and stays first
    let line;
    try {
      line = JSON.stringify(out);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onResponse });
      this.#record?.({ dir: 'in', frame: JSON.parse(line) });
      this.#socket.write(`${line}\n`);
    });
  }

  #onLine(line) {
    if (line === '') return;
    let frame;
    try {
      frame = JSON.parse(line);
    } catch {
      this.#emitError(new BridgeError(ClientErrorCodes.PROTOCOL_ERROR, `the daemon sent a line that is not JSON: ${line}`));
      return;
    }
    this.#record?.({ dir: 'out', frame });
    if (frame === null || typeof frame !== 'object') {
      this.#emitError(new BridgeError(ClientErrorCodes.PROTOCOL_ERROR, `unexpected frame: ${line}`));
    } else if (typeof frame.event === 'string' && !('ok' in frame)) {
      this.#onEvent(frame);
    } else if (typeof frame.ok === 'boolean') {
      this.#onResponse(frame);
    } else {
      this.#emitError(new BridgeError(ClientErrorCodes.PROTOCOL_ERROR, `unexpected frame: ${line}`));
    }
  }

  #onResponse(frame) {
    // Responses come in request order; one without a usable id (frame_too_large) answers the oldest.
    let id = frame.id;
    if (!this.#pending.has(id)) id = this.#pending.keys().next().value;
    const pending = this.#pending.get(id);
    const waits = this.#window;
    this.#window = [];
    if (!pending) {
      this.#emitError(new BridgeError(ClientErrorCodes.PROTOCOL_ERROR, `a response for no request: ${JSON.stringify(frame)}`));
      return;
    }
    this.#pending.delete(id);
    try {
      pending.onResponse?.(frame);
    } catch (err) {
      this.#emitError(err);
    }
    const settle = () => {
      if (frame.ok) pending.resolve(frame.result);
      else pending.reject(BridgeError.fromProtocol(frame.error));
    };
    if (waits.length === 0) settle();
    else Promise.all(waits).then(settle);
  }

  #onEvent(frame) {
    this.emit('event', frame);
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
    if (running.length > 0) this.#window.push(Promise.all(running));
  }

  #handlerFailed(cause, frame) {
    const message = `a ${frame.event} handler failed: ${cause instanceof Error ? cause.message : String(cause)}`;
    const err = new BridgeError(ClientErrorCodes.HANDLER_FAILED, message, {
      cause,
      details: { event: frame.event, seq: frame.seq, target: frame.target },
    });
    if (this.listenerCount('error') > 0) this.emit('error', err);
    else process.emitWarning(err);
  }

  #emitError(err) {
    if (this.listenerCount('error') > 0) this.emit('error', err);
  }

  #onClose() {
    if (this.#closed) return;
    this.#closed = true;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const { reject } of pending) reject(connectionClosed('the connection to bridged closed before the response'));
    this.emit('close');
  }
}
