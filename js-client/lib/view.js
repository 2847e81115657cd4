import { commandOp, emitOp, touchOp } from './command-op.js';
import { BridgeError, ClientErrorCodes, ErrorCodes } from './errors.js';
import { kPlan, kRegistrationNames, kRequest, kSetState, kSubscriptions, kViewsDeleted, tagOf } from './internal.js';

const UNUSABLE = {
  pending: (tag) => `view ${tag} belongs to a transaction that is not committed yet`,
  rolledBack: (tag) => `view ${tag} was never created: its transaction was rolled back`,
  deleted: (tag) => `view ${tag} was deleted`,
  reset: (tag) => `view ${tag} belonged to a session the daemon no longer has (it started a fresh one): rebuild the tree`,
};

/** A handle on one view of the session; created by `bridge.create()` or `tx.create()`. */
export class View {
  #bridge;
  /** @type {'live' | 'pending' | 'rolledBack' | 'deleted' | 'reset'} */
  #state;
  /** Handlers given as props: registration name → {event, phase, registration, fn}. */
  #propHandlers = new Map();

  constructor(bridge, tag, component, state = 'live') {
    this.#bridge = bridge;
    /** The view's tag, allocated by the client. */
    this.tag = tag;
    /** The component name, e.g. `SwiftUIButton`. */
    this.component = component;
    this.#state = state;
  }

  /**
   * `'live'`, `'pending'` (in an uncommitted transaction), `'rolledBack'`, `'deleted'`, or `'reset'` (its
   * session was replaced by a fresh one on a reconnect).
   */
  get state() {
    return this.#state;
  }

  [kSetState](state) {
    this.#state = state;
    if (state !== 'live') this.#propHandlers.clear();
  }

  #unusable() {
    if (this.#state === 'live') return null;
    const code = this.#state === 'reset' ? ClientErrorCodes.SESSION_RESET : ErrorCodes.UNKNOWN_TAG;
    return new BridgeError(code, UNUSABLE[this.#state](this.tag), {
      details: { tag: this.tag, state: this.#state },
    });
  }

  #request(frame, { onResponse, signal } = {}) {
    const err = this.#unusable();
    if (err) return Promise.reject(err);
    return this.#bridge[kRequest](frame, { onResponse, signal });
  }

  /**
   * Applies props; handler props (registration names) subscribe, and `null`/`undefined` for them
   * unsubscribes. Resolves `{changed}`. Atomic: if anything fails, nothing changes.
   */
  async update(props, { signal } = {}) {
    const err = this.#unusable();
    if (err) throw err;
    const plan = this[kPlan](props, { initial: false });
    const ops = plan.ops(this.tag);
    if (ops.length === 0) {
      plan.apply(Promise.resolve());
      return { changed: [] };
    }
    const request =
      ops.length === 1 && plan.props
        ? this.#bridge[kRequest](ops[0], { signal })
        : this.#bridge[kRequest]({ op: 'batch', ops }, { signal }).then(
            (result) => (plan.props ? result.results[0] : { changed: [] }),
            unwrapBatchError,
          );
    const revert = plan.apply(request);
    try {
      return await request;
    } catch (error) {
      revert();
      throw error;
    }
  }

  /** Replaces the children, in order. Resolves `{children}`. */
  setChildren(views, { signal } = {}) {
    return this.#request({ op: 'setChildren', tag: this.tag, children: [...views].map(tagOf) }, { signal });
  }

  /**
   * Runs a command; resolves after every handler of the events it caused has settled. A last argument
   * `{signal}` (an object whose only key is `signal`, an AbortSignal) is the request's options, not an arg.
   */
  command(name, ...args) {
    const { signal } = isRequestOptions(args.at(-1)) ? args.pop() : {};
    return this.#request(commandOp(this.tag, name, args), { signal });
  }

  /**
   * Makes the view emit one of its component's events as native code would (user input, a timer): the
   * daemon dispatches it to the subscribed handlers before it answers, and this resolves after they settled.
   * A payload that does not fit the event's type is `invalid_payload` (with paths in `details`).
   */
  emit(event, payload, { signal } = {}) {
    return this.#request(emitOp(this.tag, event, payload), { signal });
  }

  /**
   * A finger on the view, as iOS's touch handler reports it (`touch`): `phase` is `'start'`, `'move'`, `'end'` or
   * `'cancel'`, and `touch` its `{identifier, pageX, pageY, locationX, locationY, timestamp}` (each optional). The
   * view emits `touchStart`… to the views on its path that subscribed; resolves after their handlers settled.
   */
  touch(phase, touch = {}, { signal } = {}) {
    return this.#request(touchOp(this.tag, phase, touch), { signal });
  }

  /** Resolves `{tag, component, props, parent, children, render, renders, commands}` (`commands`: the log). */
  inspect({ signal } = {}) {
    return this.#request({ op: 'inspect', tag: this.tag }, { signal });
  }

  /** Deletes the view and its subtree. Resolves `{deleted}`. */
  delete({ signal } = {}) {
    const onResponse = (frame) => {
      if (frame.ok) this.#bridge[kViewsDeleted](frame.result?.deleted ?? [this.tag]);
    };
    return this.#request({ op: 'delete', tag: this.tag }, { onResponse, signal });
  }

  /**
   * Adds an event handler; resolves, once the daemon subscribed, to a function that removes it.
   * Handlers on the same (view, event, phase) share one daemon subscription.
   */
  async on(event, handler, options = {}) {
    if (typeof handler !== 'function') throw new TypeError('handler must be a function');
    const err = this.#unusable();
    if (err) throw err;
    const phase = options.capture ? 'capture' : 'bubble';
    const { signal } = options;
    const table = this.#bridge[kSubscriptions];
    const registration = { handler };
    const { entry, isNew } = table.add(this.tag, event, phase, registration);
    if (isNew) {
      entry.ready = this.#bridge[kRequest](subscribeFrame('subscribe', this.tag, event, phase), { signal }).then(() => {});
      entry.ready.catch(() => {});
    }
    try {
      await entry.ready;
    } catch (error) {
      table.remove(this.tag, event, phase, registration);
      throw error;
    }
    let removed = false;
    return async ({ signal: offSignal } = {}) => {
      if (removed) return;
      removed = true;
      if (!table.remove(this.tag, event, phase, registration)) return;
      if (this.#state !== 'live' || this.#bridge.closed) return;
      await this.#bridge[kRequest](subscribeFrame('unsubscribe', this.tag, event, phase), { signal: offSignal });
    };
  }

  /**
   * Splits `props` into plain props and handler changes against the current subscriptions.
   * `apply(request)` records the handler changes client-side and returns their undo.
   */
  [kPlan](props = {}, { initial }) {
    if (props === null || typeof props !== 'object') throw new TypeError('props must be an object');
    const names = this.#bridge[kRegistrationNames];
    const table = this.#bridge[kSubscriptions];
    const plain = {};
    let hasPlain = false;
    const subscribe = []; // {name, event, phase, fn, op}
    const unsubscribe = []; // {name, current, op}
    const swap = []; // {current, fn}
    const seenKeys = new Set();

    for (const [name, value] of Object.entries(props)) {
      const reg = names.lookup(this.component, name);
      if (typeof value === 'function') {
        if (!reg) {
          // Not a registration name: a plain prop, which the request refuses (invalid_props naming it).
          plain[name] = value;
          hasPlain = true;
          continue;
        }
        const current = this.#propHandlers.get(name);
        if (current) {
          swap.push({ current, fn: value });
          continue;
        }
        const key = `${reg.event}\u0000${reg.phase}`;
        const needsOp = initial || (!table.get(this.tag, reg.event, reg.phase) && !seenKeys.has(key));
        seenKeys.add(key);
        subscribe.push({ name, ...reg, fn: value, op: needsOp });
      } else if (reg && (value === null || value === undefined)) {
        const current = this.#propHandlers.get(name);
        if (!current) continue;
        const entry = table.get(this.tag, current.event, current.phase);
        const last = !entry || (entry.handlers.size === 1 && entry.handlers.has(current.registration));
        unsubscribe.push({ name, current, op: last });
      } else if (value === undefined) {
        // JSX semantics: a prop given as undefined is absent, i.e. its default.
        if (!initial) {
          plain[name] = null;
          hasPlain = true;
        }
      } else {
        plain[name] = value;
        hasPlain = true;
      }
    }

    const view = this;
    return {
      props: hasPlain ? plain : null,
      /** Frames for the daemon: the props op first, then subscribes, then unsubscribes. */
      ops(tag) {
        const ops = [];
        if (hasPlain && !initial) ops.push({ op: 'update', tag, props: plain });
        for (const s of subscribe) if (s.op) ops.push(subscribeFrame('subscribe', tag, s.event, s.phase));
        for (const u of unsubscribe) {
          if (u.op) ops.push(subscribeFrame('unsubscribe', tag, u.current.event, u.current.phase));
        }
        return ops;
      },
      /**
       * Records the handler changes client-side, before the daemon answers (a transaction's commands
       * emit their events before its response); `ready` is the request. Returns the undo.
       */
      apply(ready) {
        const settled = Promise.resolve(ready).then(() => {});
        settled.catch(() => {});
        const swapped = swap.map(({ current, fn }) => {
          const old = current.fn;
          current.fn = fn;
          return () => {
            current.fn = old;
          };
        });
        for (const { name, current } of unsubscribe) {
          table.remove(view.tag, current.event, current.phase, current.registration);
          view.#propHandlers.delete(name);
        }
        const added = subscribe.map(({ name, event, phase, fn }) => {
          const current = { event, phase, fn, registration: null };
          current.registration = { handler: (e) => current.fn(e) };
          table.add(view.tag, event, phase, current.registration, settled);
          view.#propHandlers.set(name, current);
          return { name, current };
        });
        return () => {
          for (const { name, current } of added) {
            table.remove(view.tag, current.event, current.phase, current.registration);
            view.#propHandlers.delete(name);
          }
          for (const { name, current } of unsubscribe) {
            table.add(view.tag, current.event, current.phase, current.registration);
            view.#propHandlers.set(name, current);
          }
          for (const undo of swapped) undo();
        };
      },
    };
  }

  toJSON() {
    return { tag: this.tag, component: this.component };
  }
}

/** `{signal}` as the last argument of `command(name, ...args)`: nothing JSON could carry looks like it. */
export function isRequestOptions(value) {
  return (
    value !== null &&
    typeof value === 'object' &&
    Object.keys(value).length === 1 &&
    typeof AbortSignal !== 'undefined' &&
    value.signal instanceof AbortSignal
  );
}

function subscribeFrame(op, tag, event, phase) {
  const frame = { op, tag, event };
  if (phase === 'capture') frame.phase = 'capture';
  return frame;
}

/**
 * For batches the client builds itself (a transaction's, a React Native commit's): the error of the op the daemon
 * refused, keeping the batch error as `cause`; any other error as it is.
 */
export function batchInnerError(err) {
  if (err instanceof BridgeError && err.code === ErrorCodes.BATCH_FAILED && err.details) {
    const inner = BridgeError.fromProtocol(err.details);
    return new BridgeError(inner.code, inner.message, { details: inner.details, cause: err });
  }
  return err;
}

/** Throws batchInnerError(err). */
export function unwrapBatchError(err) {
  throw batchInnerError(err);
}

export function createFrame(view, props, parent, index) {
  const frame = { op: 'create', tag: view.tag, component: view.component };
  if (props) frame.props = props;
  if (parent !== undefined && parent !== null) frame.parent = tagOf(parent);
  if (index !== undefined && index !== null) frame.index = index;
  return frame;
}
