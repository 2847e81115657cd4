import { BridgeError, ClientErrorCodes } from './errors.js';
import { kAllocateTag, kPlan, kRequest, kSetState, kTrackView, kViewsDeleted, tagOf } from './internal.js';
import { View, createFrame } from './view.js';

/**
 * Ops collected client-side and sent as one atomic `batch` by `commit()`. `index` in a `batch_failed`
 * error is the op's position in that batch: one op per call, plus one `subscribe`/`unsubscribe` per
 * handler prop that needs one, right after the call's own op.
 */
export class Transaction {
  #bridge;
  /** {op (a frame, or null for a client-side-only change), onCommit(result) run once the batch committed}. */
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

  /** Number of ops collected so far. */
  get size() {
    return this.#entries.filter((e) => e.op).length;
  }

  #push(op, onCommit) {
    this.#entries.push({ op, onCommit });
  }

  #assertOpen() {
    if (this.#state !== 'open') {
      throw new BridgeError(ClientErrorCodes.TRANSACTION_CLOSED, `this transaction is ${this.#state}; start another`);
    }
  }

  /** Adds a create; returns the View at once (usable after a successful commit). */
  create(component, props = {}, { parent, index } = {}) {
    this.#assertOpen();
    const view = new View(this.#bridge, this.#bridge[kAllocateTag](), component, 'pending');
    const plan = view[kPlan](props, { initial: true });
    this.#push(createFrame(view, plan.props, parent, index), () => {
      this.#bridge[kTrackView](view);
      view[kSetState]('live');
      plan.apply();
    });
    for (const op of plan.ops(view.tag)) this.#push(op);
    this.#created.push(view);
    return view;
  }

  /** Adds an update (handler props as in `view.update`). */
  update(view, props) {
    this.#assertOpen();
    const plan = view[kPlan](props, { initial: false });
    const ops = plan.ops(view.tag);
    if (ops.length === 0) {
      // Only handler swaps: nothing for the daemon, applied on commit.
      this.#push(null, () => plan.apply());
      return this;
    }
    ops.forEach((op, i) => this.#push(op, i === ops.length - 1 ? () => plan.apply() : undefined));
    return this;
  }

  setChildren(view, views) {
    this.#assertOpen();
    this.#push({ op: 'setChildren', tag: tagOf(view), children: [...views].map(tagOf) });
    return this;
  }

  command(view, name, ...args) {
    this.#assertOpen();
    const op = { op: 'command', tag: tagOf(view), name };
    if (args.length > 0) op.args = args;
    this.#push(op);
    return this;
  }

  delete(view) {
    this.#assertOpen();
    const tag = tagOf(view);
    this.#push({ op: 'delete', tag }, (result) => this.#bridge[kViewsDeleted](result?.deleted ?? [tag]));
    return this;
  }

  /**
   * Sends the ops as one batch. Resolves `{results}` (one per op sent); rejects with `batch_failed`
   * (`index`, inner error in `details`), after which the views it would have created are unusable.
   */
  async commit() {
    this.#assertOpen();
    this.#state = 'committing';
    const ops = this.#entries.filter((e) => e.op).map((e) => e.op);
    const commit = (results) => {
      this.#state = 'committed';
      let r = 0;
      for (const entry of this.#entries) entry.onCommit?.(entry.op ? results[r++] : undefined);
    };
    if (ops.length === 0) {
      commit([]);
      return { results: [] };
    }
    try {
      return await this.#bridge[kRequest]({ op: 'batch', ops }, (frame) => {
        if (frame.ok) commit(frame.result?.results ?? []);
      });
    } catch (err) {
      this.#state = 'failed';
      for (const view of this.#created) view[kSetState]('rolledBack');
      throw err;
    }
  }
}
