import { commandOp, emitOp, touchOp } from './command-op.js';
import { BridgeError, ClientErrorCodes } from './errors.js';
import { kAllocateTag, kForgetView, kPlan, kRequest, kSetState, kTrackView, kViewsDeleted, tagOf } from './internal.js';
import { View, createFrame, isRequestOptions } from './view.js';

/**
 * Ops collected client-side and sent as one atomic `batch` by `commit()`. `index` in a `batch_failed`
 * error is the op's position in that batch: one op per call, plus one `subscribe`/`unsubscribe` per
 * handler prop that needs one, right after the call's own op.
 */
export class Transaction {
  #bridge;
  /**
   * {op: a frame, or null for a client-side-only change;
   *  onSend(request): applied when the batch is sent, returns its undo;
   *  onCommit(result): run when the batch committed}.
   */
  #entries = [];
  #created = [];
  #state = 'open';

  constructor(bridge) {
    this.#bridge = bridge;
  }

  /** `'open'`, `'committing'`, `'committed'` or `'failed'`. */
  get state() {
    return this.#state;
  }

  /** Number of ops the batch will have so far. */
  get size() {
    return this.#entries.filter((e) => e.op).length;
  }

  #assertOpen() {
    if (this.#state !== 'open') {
      throw new BridgeError(ClientErrorCodes.TRANSACTION_CLOSED, `this transaction is ${this.#state}; start another`);
    }
  }

  /** Adds a create; returns the View at once (usable once the commit is sent). */
  create(component, props = {}, { parent, index } = {}) {
    this.#assertOpen();
    const view = new View(this.#bridge, this.#bridge[kAllocateTag](), component, 'pending');
    const plan = view[kPlan](props, { initial: true });
    this.#entries.push({
      op: createFrame(view, plan.props, parent, index),
      onSend: (request) => {
        this.#bridge[kTrackView](view);
        view[kSetState]('live');
        return plan.apply(request);
      },
    });
    for (const op of plan.ops(view.tag)) this.#entries.push({ op });
    this.#created.push(view);
    return view;
  }

  /** Adds an update (handler props as in `view.update`). */
  update(view, props) {
    this.#assertOpen();
    const plan = view[kPlan](props, { initial: false });
    const ops = plan.ops(view.tag);
    const onSend = (request) => plan.apply(request);
    if (ops.length === 0) this.#entries.push({ op: null, onSend });
    ops.forEach((op, i) => this.#entries.push(i === 0 ? { op, onSend } : { op }));
    return this;
  }

  setChildren(view, views) {
    this.#assertOpen();
    this.#entries.push({ op: { op: 'setChildren', tag: tagOf(view), children: [...views].map(tagOf) } });
    return this;
  }

  command(view, name, ...args) {
    this.#assertOpen();
    if (isRequestOptions(args.at(-1))) throw new TypeError('a transaction takes its signal in commit({signal})');
    this.#entries.push({ op: commandOp(tagOf(view), name, args) });
    return this;
  }

  /** The view emits one of its component's events, in the batch (`emit`). */
  emit(view, event, payload) {
    this.#assertOpen();
    this.#entries.push({ op: emitOp(tagOf(view), event, payload) });
    return this;
  }

  /** A finger on the view, in the batch (`touch`): as view.touch(phase, touch). */
  touch(view, phase, touch = {}) {
    this.#assertOpen();
    this.#entries.push({ op: touchOp(tagOf(view), phase, touch) });
    return this;
  }

  delete(view) {
    this.#assertOpen();
    const tag = tagOf(view);
    this.#entries.push({
      op: { op: 'delete', tag },
      onCommit: (result) => this.#bridge[kViewsDeleted](result?.deleted ?? [tag]),
    });
    return this;
  }

  /**
   * Sends the ops as one batch. Resolves `{results}` (one per op sent) after the handlers of the
   * events it caused; rejects with `batch_failed` (`index`, inner error in `details`), after which the
   * views it would have created are unusable.
   */
  async commit({ signal } = {}) {
    this.#assertOpen();
    this.#state = 'committing';
    const ops = this.#entries.filter((e) => e.op).map((e) => e.op);
    const onResponse = (frame) => {
      if (!frame.ok) return;
      this.#state = 'committed';
      const results = frame.result?.results ?? [];
      let r = 0;
      for (const entry of this.#entries) entry.onCommit?.(entry.op ? results[r++] : undefined);
    };
    const request =
      ops.length === 0
        ? Promise.resolve({ results: [] })
        : this.#bridge[kRequest]({ op: 'batch', ops }, { onResponse, signal });
    // Handlers and views are in place before the daemon answers: the batch's events precede its response.
    const undo = this.#entries.map((entry) => entry.onSend?.(request)).filter(Boolean);
    try {
      const result = await request;
      this.#state = 'committed';
      return result;
    } catch (err) {
      this.#state = 'failed';
      for (const revert of undo.reverse()) revert();
      for (const view of this.#created) this.#bridge[kForgetView](view);
      throw err;
    }
  }
}
