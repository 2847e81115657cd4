// What both of React Native's renderers talk to, backed by one Bridge: the renderer's view tags mapped to the
// daemon's, the calls of a commit queued and sent as one atomic batch, handler props turned into
// subscriptions, and the daemon's events handed back to the renderer. The paper UIManager (paper.js) and
// Fabric's nativeFabricUIManager (fabric.js) translate their calls into this one's ops.

import { kAllocateTag, kPartsOwner, kRequest, kUnsentBytes } from '../internal.js';
import { batchInnerError } from '../view.js';
import { VIEW, handlerProps, topLevelType } from './view-configs.js';

/** An empty list shared by every call that has none (no array allocated per call). */
export const NONE = Object.freeze([]);

/**
 * From this many views removed one after the other in a batch, their `delete`s (about 30 bytes each) go out as one
 * sweep instead: a new view made their parent (`setChildren`, a tag each) and deleted with them, so that clearing
 * 50,000 rows is a frame of about 7 bytes a row, within the daemon's default 1 MiB. Below it, the deletes go out as
 * they are.
 */
export const SWEEP_FROM = 512;

/**
 * A commit's ops go out while it is still being built, this many at a time (about 64 KB of a mount's), as parts of
 * its batch, which the daemon parses and runs meanwhile where no one sees it (protocol.md, "A batch in parts"); the
 * rest go out as the last part when the commit is done, and the daemon commits them all as one batch. Paper's
 * renderer creates views as it renders them, so the daemon applies a mount while React still renders it.
 */
export const STREAM_OPS = 1024;
/**
 * A synchronous bridge's parts are smaller: the daemon runs each on the other core while the renderer makes the
 * next, and the test's thread waits only for the last (a 200-row mount: 600 creates).
 */
export const SYNC_STREAM_OPS = 128;
/**
 * The most commits one turn of Node's event loop may send from ops left queued for a microtask (over the jest
 * preset's synchronous bridge, what a commit's own events queued while it was answered: the host sends every other
 * commit as it is made). A layout that never settles is such a chain: a frame calls `onLayout`, which sets state,
 * whose commit lays out a new frame, which calls it again. On a phone it runs a commit a frame and the app goes on;
 * over a synchronous bridge each commit's layout events are delivered as it is answered and the next commit is a
 * microtask away, so the loop would never give the event loop back: no timer, no test timeout, a jest run that never
 * ends. Past this many, layout events are no longer delivered until the turn ends (the app keeps the state of the
 * last one it took), and a warning says why. Over an asynchronous bridge the events of a commit come in a later
 * turn, so the count never drops one. Not an error: a loop between two heights a pixel apart can come from the fonts
 * Pango measures with, which are not the phone's.
 */
export const UNSETTLED_COMMITS = 100;

/**
 * Whether a queued op is as it goes out: not a `setChildren` whose list is filled in when the batch goes
 * (children null), nor a removed view's `delete`, queued as its daemon tag alone and made an op (or part of a
 * sweep) when the batch goes (#sweep).
 */
function isFinal(op) {
  return typeof op !== 'number' && !(op.op === 'setChildren' && op.children === null);
}

/** At most this many rounds of "flush, wait, re-render" in one settled() before it gives up. */
const MAX_SETTLE_ROUNDS = 10_000;

/** The slots of one undo record: the function and its four arguments. */
const UNDO = 5;

/**
 * From this many views forgotten at once, and at least half of those known, a NativeSide's maps are made again of
 * the views that stay instead of deleting each (#forgetUnmapped; a UIManager's own maps likewise: mostGo).
 */
export const REBUILD_FROM = 1024;

/** How deep a made-up host's prop may nest and still be sent (the daemon takes 32 levels). */
const MADE_UP_DEPTH = 30;

/**
 * Whether `value` can go over React Native's bridge, as its MessageQueue checks each native call's arguments in
 * development (enqueueNativeCall's isValidArgument): a number that is finite, no function but as an object's value.
 * With `madeUp` (a Set of the objects on the way down), whether a made-up host's prop (a jest mock's stand-in, which
 * takes any value on React Native's mocks) can be sent: also no React element, no cycle, no deeper nesting than the
 * daemon takes.
 */
export function usableNatively(value, madeUp = null, depth = 0) {
  switch (typeof value) {
    case 'undefined':
    case 'boolean':
    case 'string':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (madeUp !== null) {
        if (depth >= MADE_UP_DEPTH || madeUp.has(value) || value.$$typeof !== undefined) return false;
        madeUp.add(value);
      }
      let usable = true;
      if (Array.isArray(value)) {
        for (const item of value) {
          if (!usableNatively(item, madeUp, depth + 1)) {
            usable = false;
            break;
          }
        }
      } else {
        for (const key in value) {
          if (typeof value[key] !== 'function' && !usableNatively(value[key], madeUp, depth + 1)) {
            usable = false;
            break;
          }
        }
      }
      madeUp?.delete(value);
      return usable;
    }
    default:
      return false;
  }
}

/**
 * Text props React Native's JavaScript sends that iOS's text view managers do not export, so that a phone ignores
 * whatever value they carry (RCTComponentData sets nothing for a prop its manager lacks): `disabled` (Text.js hands
 * a touchable's on, a `<Button disabled={errorMessage}>`'s string too), and Android's `textBreakStrategy`,
 * `android_hyphenationFrequency` and `dataDetectorType`. The daemon types them (React Native's view config), so a
 * value of another type would be refused where a phone renders: such a value goes as one of its type (`disabled`
 * by its truthiness) or not at all (an enum's unknown name).
 */
const TEXT_COMPONENTS_OF_IOS = new Set(['RCTText', 'RCTVirtualText']);
const TEXT_ENUMS_IOS_IGNORES = {
  textBreakStrategy: ['simple', 'highQuality', 'balanced'],
  android_hyphenationFrequency: ['none', 'normal', 'full'],
  dataDetectorType: ['phoneNumber', 'link', 'email', 'none', 'all'],
};
export function textPropsAsIOSTakesThem(component, props) {
  if (!TEXT_COMPONENTS_OF_IOS.has(component) || props === null || typeof props !== 'object') return props;
  let out = props;
  const disabled = props.disabled;
  if (disabled !== undefined && disabled !== null && typeof disabled !== 'boolean') out = { ...out, disabled: Boolean(disabled) };
  for (const key in TEXT_ENUMS_IOS_IGNORES) {
    const value = props[key];
    if (value !== undefined && value !== null && !TEXT_ENUMS_IOS_IGNORES[key].includes(value)) {
      if (out === props) out = { ...props };
      delete out[key];
    }
  }
  return out;
}

/**
 * A made-up host's props as they can be sent natively: a prop no native view could take (a React element, a
 * function's list, a symbol, a cycle, a value nested deeper than the daemon takes) stays the element's and is not
 * sent, as React Native's mocks take any value (`jest.mock('ui-kit', () => ({ Header: 'Header' }))` given
 * `rightComponent={<Text>Edit</Text>}`); the props themselves when all can be.
 */
export function madeUpProps(props) {
  if (props === null || typeof props !== 'object') return props;
  let kept = null;
  const keys = Object.keys(props);
  for (let i = 0; i < keys.length; i++) {
    const value = props[keys[i]];
    if (typeof value === 'function' || usableNatively(value, new Set(), 1)) {
      if (kept !== null) kept[keys[i]] = value;
    } else if (kept === null) {
      kept = {};
      for (let k = 0; k < i; k++) kept[keys[k]] = props[keys[k]];
    }
  }
  return kept ?? props;
}

/**
 * Whether forgetting `count` entries of a map of `size` makes it again of those that stay: deleting entry by entry,
 * V8 shrinks the map's table again and again on the way down, a new table each time (9 MB of them to clear 50,000
 * views).
 */
export function mostGo(count, size) {
  return count >= REBUILD_FROM && 2 * count >= size;
}

/** The last argument of a run's undo record (undoRun), which no other record passes. */
const RUN = Symbol('run');

/** Runs a log of undo records (NativeSide's #undo), last first. */
function takeBack(undo) {
  for (let i = undo.length - UNDO; i >= 0; i -= UNDO) undo[i](undo[i + 1], undo[i + 2], undo[i + 3], undo[i + 4]);
}

/** A run of one item per call (onRefusedRun). */
const newArray = () => [];

export class NativeSide {
  /** @type {import('../bridge.js').Bridge} */
  bridge;
  /** hello's components. */
  components;
  /** hello's prop types, by name (lib/prop-types.js). */
  propTypes;
  /** Handler prop name → {event, phase, direct}. */
  handlers;
  /**
   * Renderer tag → daemon tag, and back. A view the queued ops delete has its daemon tag negated here until the
   * daemon applied them (#unmapped): no longer live for the calls that follow, put back as it was should the daemon
   * refuse them.
   */
  #toDaemon = new Map();
  #toRenderer = new Map();
  /** Renderer tag → component name. */
  #components = new Map();
  #queue = [];
  /**
   * How many removed views' deletes (enqueueDelete) are in the queue, each as its daemon tag alone (a number, not
   * an op object: a clear of 50,000 siblings makes no object per view), for #sweep.
   */
  #removals = 0;
  /**
   * How to take back the bookkeeping of the queued ops, should the daemon refuse their batch: entries of UNDO
   * slots, `[fn, a, b, c, d]`, run last first as `fn(a, b, c, d)` (takeBack). A record, not a closure: a commit
   * of thousands of views keeps one per view until the daemon answers, and records are a fraction of the garbage.
   */
  #undo = [];
  /** The renderer tags mapped for the queued ops: unmapped again should the daemon refuse their batch. */
  #mapped = [];
  /**
   * The renderer tags of the views the queued ops delete (unmapWhenApplied), forgotten once the daemon applied
   * them: nothing needs taking back should it refuse the batch, so a removed view costs a slot here instead of undo
   * records for its tags and its place in the tree (a clear of 50,000 siblings made 20 MB of undo logs).
   */
  #unmapped = [];
  /**
   * Told the renderer tags forgotten once their deletes were applied, `(tags) => void` (a UIManager's own record of
   * the tree; `known()` no longer finds them).
   */
  onForgotten = null;
  /** How many ops at the front of the queue went out already, as parts of its batch (STREAM_OPS). */
  #streamed = 0;
  /** The requests of those parts, answered `{staged}`. */
  #parts = [];
  /** Set when an op that is not final (isFinal) stopped the parts: the rest of the batch goes out with its end. */
  #streamStopped = false;
  /** The parts a synchronous bridge wrote ahead (sendAhead), each's answer known once the batch's end is read. */
  #ahead = [];
  /** Whether the commit's ops go out in parts as it is built (`streamOps`, attachReactNative's option). */
  streamOps = STREAM_OPS;
  #scheduled = false;
  /** The commits sent from queued ops in this turn of the event loop (UNSETTLED_COMMITS), and whether past it. */
  #turnCommits = 0;
  #unsettled = false;
  /**
   * Set from a call that threw until the synchronous work it was part of ends: the commit being built failed, so
   * what that work queues after it (React's own answer to the error, e.g. the root's children unmounted) is held
   * back instead of sent, and goes out at the front of the next batch that has new ops.
   */
  #held = false;
  /** Which failed turn #held is for: a microtask left from one that endFailedTurn() ended does not end the next. */
  #heldTurn = 0;
  /**
   * The error a call of the commit being built refused it with, without throwing (refuse()): the batch goes out as
   * nothing, refused with it.
   */
  #refusal = null;
  /** The ops held back since a failed commit, with their bookkeeping's undo and mapped tags. */
  #deferred = null;
  /** The batches sent and not answered yet. */
  #inflight = new Set();
  /** Errors nobody was given yet: refused commits, exceptions in handlers and renders. */
  #errors = [];
  /** Errors already given to someone. */
  #reported = new WeakSet();
  /** The trace being recorded (an array of steps), if any. */
  trace;
  /** Called when the queued ops are about to go out (or be held), to fill in what a UIManager left open. */
  #beforeSend = [];
  /** Told the ops of each batch the daemon applied: `(ops) => void`. */
  onApplied = null;
  /** Delivers a daemon event to the renderer: (rendererTag, topLevelType, nativeEvent) => void. */
  deliver = null;
  #onEvent;

  /**
   * Whether a handler prop no component's event answers (`onLayout: true`, `onTextLayout: true`) is left out, as
   * a native side without that event ignores it; otherwise it is sent as a prop (and refused as unknown).
   */
  ignoreUnservedHandlers;

  /**
   * When set, `(component, prop) => void`: a prop the component does not declare (nor View) is left out and
   * reported here, instead of being sent (and refused as unknown): what an app of another React Native version
   * may send. Unset, every prop is sent and the daemon checks it.
   */
  onUnknownProp;
  /** Component name → the names of the props it takes (its own and View's), for onUnknownProp. */
  #accepted = new Map();

  constructor(bridge, { trace, ignoreUnservedHandlers = false, onUnknownProp } = {}) {
    this.bridge = bridge;
    this.ignoreUnservedHandlers = ignoreUnservedHandlers;
    this.onUnknownProp = onUnknownProp;
    this.components = bridge.components ?? {};
    this.propTypes = bridge.propTypes ?? {};
    this.handlers = handlerProps(this.components);
    this.trace = trace;
    this.#onEvent = (frame) => this.#event(frame);
    bridge.on('event', this.#onEvent);
    // A synchronous bridge (the jest preset's) writes parts ahead and reads their answers with the batch's end.
    if (typeof bridge.requestSync === 'function') this.streamOps = SYNC_STREAM_OPS;
  }

  /** Stops hearing the bridge's events; the app is gone (`detached`): no native call of its is answered after. */
  detach() {
    this.detached = true;
    this.bridge.off('event', this.#onEvent);
  }

  /** The daemon tag of a renderer tag, if the view is live. */
  daemonTag(rendererTag) {
    const tag = this.#toDaemon.get(rendererTag);
    return tag > 0 ? tag : undefined;
  }

  /** The renderer's tag of a daemon tag, if the view is one of this attachment's, and live. */
  rendererTag(daemonTag) {
    const rendererTag = this.#toRenderer.get(daemonTag);
    return rendererTag !== undefined && this.#toDaemon.get(rendererTag) > 0 ? rendererTag : undefined;
  }

  componentOf(rendererTag) {
    return this.#components.get(rendererTag);
  }

  /** The daemon tag of a renderer tag, or an error naming the call that used an unknown tag. */
  require(rendererTag, call) {
    const tag = this.#toDaemon.get(rendererTag);
    if (!(tag > 0)) throw new Error(`UIManager.${call}: no view with tag ${rendererTag}`);
    return tag;
  }

  /**
   * The daemon tag of a renderer tag for an op already queued in the batch being sent: also a view whose delete
   * this batch queued after that op (a parent's pending setChildren, whose subtree a later commit of the same
   * batch removed).
   */
  requireInBatch(rendererTag, call) {
    const tag = this.#toDaemon.get(rendererTag);
    if (tag > 0) return tag;
    if (tag < 0) return -tag;
    throw new Error(`UIManager.${call}: no view with tag ${rendererTag}`);
  }

  /** Maps a new renderer tag to a fresh daemon tag (from the bridge's own, so views never collide). */
  mapTag(rendererTag, component) {
    const tag = this.bridge[kAllocateTag]();
    this.#toDaemon.set(rendererTag, tag);
    this.#toRenderer.set(tag, rendererTag);
    this.#components.set(rendererTag, component);
    this.#mapped.push(rendererTag);
    return tag;
  }

  /** Forgets a mapping with no way back (a view whose create was refused); returns its daemon tag, if it had one. */
  #forgetTag(rendererTag) {
    let tag = this.#toDaemon.get(rendererTag);
    if (tag === undefined) return undefined;
    if (tag < 0) tag = -tag;
    this.#toDaemon.delete(rendererTag);
    this.#toRenderer.delete(tag);
    this.#components.delete(rendererTag);
    return tag;
  }

  /**
   * A view the queued ops delete: no longer live (daemonTag, require and events no longer find it), and forgotten
   * once the daemon applied them (onForgotten told); live again should it refuse them, or the commit fail.
   */
  unmapWhenApplied(rendererTag) {
    const tag = this.#toDaemon.get(rendererTag);
    if (!(tag > 0)) return;
    this.#toDaemon.set(rendererTag, -tag);
    this.#unmapped.push(rendererTag);
  }

  /** The views of #unmapped forgotten: their deletes were applied. */
  #forgetUnmapped(unmapped) {
    if (unmapped.length === 0) return;
    if (!mostGo(unmapped.length, this.#toDaemon.size)) {
      for (const rendererTag of unmapped) this.#forgetTag(rendererTag);
    } else {
      // Most of the views go: the maps are made again of those that stay.
      const toDaemon = this.#toDaemon;
      for (const rendererTag of unmapped) toDaemon.set(rendererTag, 0);
      const kept = new Map();
      const back = new Map();
      const components = new Map();
      const before = this.#components;
      // forEach: no entry array per view.
      toDaemon.forEach((tag, rendererTag) => {
        if (tag === 0) return;
        kept.set(rendererTag, tag);
        back.set(tag < 0 ? -tag : tag, rendererTag);
        components.set(rendererTag, before.get(rendererTag));
      });
      this.#toDaemon = kept;
      this.#toRenderer = back;
      this.#components = components;
    }
    this.onForgotten?.(unmapped);
  }

  /** Whether the attachment knows the view of `rendererTag`: live, or deleted by ops not applied yet. */
  known(rendererTag) {
    return this.#toDaemon.has(rendererTag);
  }

  /** The views of #unmapped live again: their deletes were refused, or never sent. */
  #restoreUnmapped(unmapped) {
    for (const rendererTag of unmapped) {
      const tag = this.#toDaemon.get(rendererTag);
      if (tag < 0) this.#toDaemon.set(rendererTag, -tag);
    }
  }

  /** Forgets a mapping (a deleted view) now, with how to put it back should the batch be refused. */
  unmapTag(rendererTag) {
    const component = this.#components.get(rendererTag);
    const tag = this.#forgetTag(rendererTag);
    if (tag !== undefined) this.#undo.push(NativeSide.#remap, this, rendererTag, tag, component);
  }

  static #remap(native, rendererTag, tag, component) {
    native.#toDaemon.set(rendererTag, tag);
    native.#toRenderer.set(tag, rendererTag);
    native.#components.set(rendererTag, component);
  }

  /** A new root view (React Native's root container, `rootTag` 1, 11, 21…) for the next commit; its daemon tag. */
  createRoot(rootTag) {
    const tag = this.mapTag(rootTag, VIEW);
    this.record({ root: rootTag });
    this.enqueue({ op: 'create', tag, component: VIEW });
    return tag;
  }

  /**
   * Records how to take back a bookkeeping change if the batch it belongs to is refused: `undo(a, b, c, d)`.
   * Where a commit makes one per view, pass a function that needs no closure and its arguments.
   */
  onRefused(undo, a, b, c, d) {
    this.#undo.push(undo, a, b, c, d);
  }

  /**
   * Records `item` as one more of a run: consecutive calls with the same `undo`, `a` and `b` make one record,
   * `undo(a, b, items)`, and a slot per call (a clear of 50,000 siblings removes each at index 0 of one list: one
   * record, not 50,000).
   */
  onRefusedRun(undo, a, b, item) {
    this.undoRun(undo, a, b, newArray).push(item);
  }

  /**
   * The run of the last undo record when it is `undo(a, b, run)`'s; otherwise a new run, `newRun()`, recorded last.
   * What a run holds, and how, is its maker's: consecutive changes of one kind share one record.
   */
  undoRun(undo, a, b, newRun) {
    const log = this.#undo;
    const n = log.length;
    if (n > 0 && log[n - 1] === RUN && log[n - UNDO] === undo && log[n - UNDO + 1] === a && log[n - UNDO + 2] === b) return log[n - UNDO + 3];
    const run = newRun();
    log.push(undo, a, b, run, RUN);
    return run;
  }

  /**
   * The ops for a view's props as the renderer sends them: handler props (`onCountChange: true`, or null
   * when removed) become subscribe/unsubscribe ops; the rest are the props, `null` resetting one to its
   * default. A direct event is subscribed only on a view whose component declares it.
   */
  propOps(tag, component, payload, { create = false } = {}) {
    if (this.components[component]?.madeUp) payload = madeUpProps(payload);
    else payload = textPropsAsIOSTakesThem(component, payload);
    // The common case: no handler prop, nothing undefined: the renderer's payload is sent as it is.
    let plain = true;
    let any = false;
    const accepted = this.onUnknownProp ? this.#acceptedBy(component) : null;
    for (const key in payload) {
      any = true;
      if (payload[key] === undefined || this.handlers.has(key) || (this.ignoreUnservedHandlers && isHandlerName(key)) || (accepted !== null && !accepted.has(key))) {
        plain = false;
        break;
      }
    }
    if (plain) return { props: any ? payload : undefined, subscriptions: NONE };
    const props = {};
    any = false;
    const subscriptions = [];
    for (const key of Object.keys(payload ?? {})) {
      const value = payload[key];
      if (value === undefined) continue;
      const handler = this.handlers.get(key);
      if (handler) {
        if (handler.direct && !this.components[component]?.events?.[handler.event]) continue;
        const on = value !== null && value !== false;
        if (!on && create) continue;
        const op = { op: on ? 'subscribe' : 'unsubscribe', tag, event: handler.event };
        if (handler.phase === 'capture') op.phase = 'capture';
        subscriptions.push(op);
        continue;
      }
      if (this.ignoreUnservedHandlers && isHandlerName(key) && (value === true || value === false || value === null)) continue;
      if (accepted !== null && !accepted.has(key)) {
        this.onUnknownProp(component, key);
        continue;
      }
      props[key] = value;
      any = true;
    }
    return { props: any ? props : undefined, subscriptions };
  }

  /**
   * Adds components to those the attachment knows (a session's `define`d ones, described as hello describes
   * components): their handler props become subscriptions too.
   */
  addComponents(descriptions) {
    this.components = { ...this.components, ...descriptions };
    this.handlers = handlerProps(this.components);
    this.#accepted.clear();
  }

  #acceptedBy(component) {
    if (this.components[component]?.untyped) return null;
    let names = this.#accepted.get(component);
    if (!names) {
      names = new Set([...Object.keys(this.components[component]?.props ?? {}), ...Object.keys(this.components[VIEW]?.props ?? {})]);
      this.#accepted.set(component, names);
    }
    return names;
  }

  /**
   * Takes back the commit being built because building it threw (`error`: any exception of a renderer's call into
   * this native side): its queued ops are dropped, never sent, and their bookkeeping (tags, mirrors) undone, so the
   * daemon's tree and the attachment's record of it stay what the last batch left. The rest of the turn is held
   * back (see #held). Recorded in the trace as `{aborted: n}`, the number of ops dropped.
   */
  abort(error, { replay = false } = {}) {
    this.#refusal = null;
    const undo = this.#undo;
    const mapped = this.#mapped;
    const dropped = this.#queue.length;
    this.#dropParts();
    this.#queue = [];
    this.#removals = 0;
    this.#undo = [];
    this.#mapped = [];
    this.#restoreUnmapped(this.#unmapped);
    this.#unmapped = [];
    takeBack(undo);
    for (const rendererTag of mapped) this.#forgetTag(rendererTag);
    this.record({ aborted: dropped });
    if (replay) return;
    if (!this.#held) {
      this.#held = true;
      // The synchronous work the failed commit was part of ends before this runs (React's answer to the error
      // included), unless endFailedTurn() said so before.
      const turn = ++this.#heldTurn;
      queueMicrotask(() => {
        if (turn === this.#heldTurn) this.endFailedTurn();
      });
    }
    this.fail(error);
  }

  /**
   * The synchronous work a failed commit was part of is over (a microtask after it, or, over the jest preset's
   * synchronous bridge, where a test goes on in the same turn, the act it failed in has returned or thrown): what
   * it queued since is held for the next batch, and the next commit goes out as usual.
   */
  endFailedTurn() {
    if (!this.#held) return;
    this.hold();
    this.#held = false;
    this.#heldTurn++;
  }

  /**
   * Holds what is queued back for the front of the next batch that has new ops (the rest of a turn in which a
   * commit failed); recorded as `{held: n}`.
   */
  hold() {
    if (this.#queue.length === 0) return;
    this.#finish();
    const deferred = (this.#deferred ??= { ops: [], undo: [], mapped: [], unmapped: [] });
    for (const op of this.#queue) deferred.ops.push(op);
    for (const u of this.#undo) deferred.undo.push(u);
    for (const t of this.#mapped) deferred.mapped.push(t);
    for (const t of this.#unmapped) deferred.unmapped.push(t);
    this.record({ held: this.#queue.length });
    this.#queue = [];
    this.#undo = [];
    this.#mapped = [];
    this.#unmapped = [];
  }

  /**
   * `method` of a UIManager, calling `abort` before it rethrows what it throws: a call that fails part way takes
   * the whole commit back (paper's and Fabric's managers wrap each method that builds a commit with it).
   */
  guard(method) {
    const native = this;
    // Six parameters, the most a UIManager method takes (manageChildren): no rest array per call.
    return function guarded(a, b, c, d, e, f) {
      try {
        return method.call(this, a, b, c, d, e, f);
      } catch (error) {
        native.abort(error);
        throw error;
      }
    };
  }

  /** Runs `fill()` whenever the queued ops are about to go out or be held (a UIManager's ops left open). */
  beforeSend(fill) {
    this.#beforeSend.push(fill);
  }

  /** Makes the queued ops ready to go out: what a UIManager left open filled in (beforeSend), deletes swept. */
  #finish() {
    if (this.#queue.length === 0) return;
    for (const fill of this.#beforeSend) fill();
    this.#sweep();
  }

  /** Queues the `delete` of a view a commit removed (its subtree with it); many of them go out as a sweep. */
  enqueueDelete(tag) {
    this.#removals++;
    this.enqueue(tag);
  }

  /**
   * Makes the removed views' deletes ops. Each run of SWEEP_FROM or more of them, with no other op between them,
   * goes out as one sweep in its place: `create` a view, `setChildren` it the deleted views (each leaves its
   * parent), `delete` it with them. The same tree after the run, the same views deleted, and every other op where
   * it was.
   */
  #sweep() {
    const removals = this.#removals;
    this.#removals = 0;
    if (removals === 0) return;
    const queue = this.#queue;
    if (removals < SWEEP_FROM) {
      for (let i = 0; i < queue.length; i++) if (typeof queue[i] === 'number') queue[i] = { op: 'delete', tag: queue[i] };
      return;
    }
    const out = [];
    for (let i = 0; i < queue.length; ) {
      let end = i;
      while (end < queue.length && typeof queue[end] === 'number') end++;
      if (end - i >= SWEEP_FROM) {
        const trash = this.bridge[kAllocateTag]();
        out.push({ op: 'create', tag: trash, component: VIEW }, { op: 'setChildren', tag: trash, children: queue.slice(i, end) }, { op: 'delete', tag: trash });
        i = end;
      } else if (end > i) {
        for (let k = i; k < end; k++) out.push({ op: 'delete', tag: queue[k] });
        i = end;
      } else {
        out.push(queue[i++]);
      }
    }
    this.#queue = out;
  }

  /** How many ops are queued: the place the next op takes. */
  queued() {
    return this.#queue.length;
  }

  /** Queues an op of the current commit; the commit's ops go out together once the renderer's call returns. */
  enqueue(op) {
    this.#queue.push(op);
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => this.#flushQueued());
    }
    if (this.#queue.length - this.#streamed >= this.streamOps && !this.#streamStopped) this.#stream();
  }

  /** flush() of the ops a commit queued, counted against UNSETTLED_COMMITS for this turn of the event loop. */
  #flushQueued() {
    if (this.#queue.length > 0 && this.#turnCommits++ === 0) {
      setImmediate(() => {
        this.#turnCommits = 0;
        this.#unsettled = false;
      });
    }
    if (this.#turnCommits > UNSETTLED_COMMITS && !this.#unsettled) {
      this.#unsettled = true;
      console.warn(
        `bridged: the app's layout did not settle: ${UNSETTLED_COMMITS} commits in a row, each made by the last ` +
          "one's layout events (an onLayout that sets state whose commit lays out a new frame); the layout events " +
          'of this turn of the event loop are dropped',
      );
    }
    return this.flush();
  }

  /**
   * Sends the queued ops that are final, from the first not sent yet, as a part of the batch (`more`, `at`), when
   * there are streamOps of them: the daemon commits it with the last part (flush). Not while a failed
   * commit's rest is held back or a held batch is to go first (those ops would no longer be the batch's front).
   */
  #stream() {
    // Not while requests wait to be written (the daemon reads no further while it parses a part): the rest go
    // with the batch's end, and nothing is refused for a full queue.
    if (this.#held || this.#deferred !== null || this.#refusal !== null || this.bridge[kUnsentBytes]?.() > 0) return;
    // Another attachment on this Bridge has a commit's parts out (two roots rendered in one turn): this commit
    // goes whole, so as not to drop them.
    const owner = this.bridge[kPartsOwner];
    if (owner !== undefined && owner !== this) return;
    const queue = this.#queue;
    const from = this.#streamed;
    let end = from;
    while (end < queue.length && isFinal(queue[end])) end++;
    if (end < queue.length) this.#streamStopped = true;
    if (end - from < this.streamOps) return;
    let request;
    try {
      const part = { op: 'batch', more: true, at: from, ops: queue.slice(from, end) };
      if (typeof this.bridge.sendAhead === 'function') {
        const ahead = this.bridge.sendAhead(part);
        this.#ahead.push(ahead);
        request = ahead.promise;
      } else {
        request = this.bridge[kRequest](part, { refuseSync: true });
      }
    } catch {
      // Not written (a value JSON cannot carry, the connection closing): its ops go with the batch's end, which
      // reports what is wrong with them.
      this.#streamStopped = true;
      return;
    }
    request.catch(() => {});
    this.bridge[kPartsOwner] = this;
    this.#streamed = end;
    this.#parts.push(request);
  }

  /** Drops the parts already sent of the batch being built (a failed commit). */
  #dropParts() {
    this.#streamStopped = false;
    if (this.#streamed === 0) return;
    this.#streamed = 0;
    this.bridge[kPartsOwner] = undefined;
    this.#parts = [];
    this.#ahead = [];
    this.#sendDrop();
  }

  /** Has the daemon drop the parts it holds: a new, empty batch replaces them (a first part drops an unfinished one). */
  #sendDrop() {
    this.bridge.request({ op: 'batch', at: 0, ops: [] }).catch(() => {});
  }

  /**
   * Sends `frame` (a `command` or an `emit` on a view of this attachment, by its daemon tag) as a user or
   * native code would cause it, recorded in the trace with the renderer's tag so that a playback sends it
   * again; resolves when the daemon answered and the events it caused were delivered.
   */
  async stimulate(frame) {
    const rendererTag = this.rendererTag(frame.tag);
    if (rendererTag === undefined) throw new Error(`no view with daemon tag ${frame.tag} in this attachment`);
    await this.flush();
    this.record({ native: { ...frame, tag: rendererTag } });
    return this.bridge.request(frame);
  }

  /** Records a step of the trace, when one is recorded. */
  record(step) {
    this.trace?.push(step);
  }

  /**
   * Sends the queued ops as one atomic batch. Resolves when the daemon applied it; rejects with the daemon's
   * error for the op it refused (`code`, `message`, `details` with paths, and `index`, the op's place in the
   * batch, and `op`): the batch changed nothing then, and the bookkeeping of its ops is taken back.
   */
  flush() {
    this.#scheduled = false;
    this.#finish();
    // A commit of this turn failed: what the turn queued after it waits for the next commit.
    if (this.#held) this.hold();
    // Nothing queued: wait for what is in flight; its error, if any, is reported by settled() or commit().
    if (this.#queue.length === 0) return Promise.all([...this.#inflight]).then(() => undefined);
    let ops = this.#queue;
    let undo = this.#undo;
    let mapped = this.#mapped;
    let unmapped = this.#unmapped;
    if (this.#deferred !== null) {
      ops = [...this.#deferred.ops, ...ops];
      undo = [...this.#deferred.undo, ...undo];
      mapped = [...this.#deferred.mapped, ...mapped];
      unmapped = [...this.#deferred.unmapped, ...unmapped];
      this.#deferred = null;
    }
    this.#queue = [];
    this.#undo = [];
    this.#mapped = [];
    this.#unmapped = [];
    const step = { flush: ops.length };
    this.record(step);
    // Ops that went out as parts are at the front (no held batch went first: #stream() waits for none).
    const streamed = this.#streamed;
    const parts = this.#parts;
    const ahead = this.#ahead;
    this.#streamed = 0;
    this.#parts = [];
    this.#ahead = [];
    this.#streamStopped = false;
    if (streamed > 0) this.bridge[kPartsOwner] = undefined;
    const applied = () => {
      this.#forgetUnmapped(unmapped);
      this.onApplied?.(ops);
    };
    const refused = (err) => {
      this.#restoreUnmapped(unmapped);
      takeBack(undo);
      for (const rendererTag of mapped) this.#forgetTag(rendererTag);
      const error = commitError(err, ops);
      step.refused = error.code;
      this.#errors.push(error);
      return error;
    };
    if (this.#refusal !== null) {
      const error = this.#refusal;
      this.#refusal = null;
      if (streamed > 0) this.#sendDrop();
      const failed = Promise.reject(refused(error));
      failed.catch(() => {});
      return failed;
    }
    if (typeof this.bridge.requestSync === 'function') {
      // A synchronous bridge (the jest preset's): the batch is applied, and its bookkeeping done, before this returns.
      // Its parts written ahead are answered before its end; a part refused is the batch's error (the end is then
      // refused only for the parts it misses).
      try {
        this.bridge.requestSync(streamed === 0 ? { op: 'batch', ops } : { op: 'batch', at: streamed, ops: ops.slice(streamed) });
      } catch (err) {
        const error = refused(ahead.find((part) => part.answer?.ok === false)?.answer.error ?? err);
        const failed = Promise.reject(error);
        failed.catch(() => {});
        return failed;
      }
      applied();
      return Promise.resolve();
    }
    let request;
    try {
      request =
        streamed === 0
          ? this.bridge.request({ op: 'batch', ops })
          : this.bridge[kRequest]({ op: 'batch', at: streamed, ops: ops.slice(streamed) }, { restOfBatch: true, refuseSync: true });
    } catch (error) {
      // The batch's end could not be written (a value JSON cannot carry, named by its place in the whole batch):
      // the parts sent before it are dropped, at once, before any other batch can start.
      if (streamed > 0) this.#sendDrop();
      request = Promise.reject(error);
    }
    // A part the daemon refused is the batch's error (the last part is then refused for the parts it misses).
    if (parts.length > 0) request = Promise.all([...parts, request]).then((answers) => answers[answers.length - 1]);
    const sent = request.then(applied, (err) => {
      throw refused(err);
    });
    const tracked = sent.catch(() => {});
    this.#inflight.add(tracked);
    tracked.then(() => this.#inflight.delete(tracked));
    return sent;
  }

  /**
   * Waits for the batch of what was just queued, and rejects with its error (which settled() then no longer
   * reports), or with an exception the renderer or a handler threw meanwhile.
   */
  async commit() {
    const sent = this.flush();
    try {
      await sent;
    } catch (error) {
      this.#errors = this.#errors.filter((e) => e !== error);
      if (error !== null && typeof error === 'object') this.#reported.add(error);
      throw error;
    }
    this.throwPending();
  }

  /**
   * Keeps an exception of a handler or a render for the next commit() or settled(); the same error is kept
   * once (React both reports an uncaught render error and rethrows it).
   */
  fail(error) {
    if (this.#reported.has(error) || this.#errors.includes(error)) return;
    this.#errors.push(error);
  }

  /**
   * Throws what the app's synchronous work threw (`error`), or in its place the oldest error not reported yet: what
   * React throws after a native call failed in its render (an error boundary's commit into a root whose creation
   * was taken back with the failed call's commit) follows from that call. Every error kept is reported with it.
   */
  throwCause(error) {
    const cause = this.#errors.length > 0 ? this.#errors[0] : error;
    for (const kept of this.#errors) if (kept !== null && typeof kept === 'object') this.#reported.add(kept);
    this.#errors = [];
    if (error !== null && typeof error === 'object') this.#reported.add(error);
    throw cause;
  }

  /**
   * Refuses the commit being built with `error` once it would go out (the first such error): none of its ops is
   * sent, the parts already sent are dropped, and it is refused as the daemon refuses a batch, its bookkeeping taken
   * back, while the renderer goes on as if the call had gone through (paper's MessageQueue check: a throw in the
   * middle of a render would leave the views React goes on creating for its siblings with no commit to attach them).
   */
  refuse(error) {
    this.#refusal ??= error;
  }

  /** Throws the oldest error not reported yet. */
  throwPending() {
    if (this.#errors.length === 0) return;
    const error = this.#errors.shift();
    if (error !== null && typeof error === 'object') this.#reported.add(error);
    throw error;
  }

  /**
   * Resolves once every queued call is applied, every event delivered and the work it caused (state updates,
   * effects, their commits) applied too; rejects with the first error not reported yet.
   */
  async settled(scheduler) {
    for (let round = 0; ; round++) {
      if (round === MAX_SETTLE_ROUNDS) throw new Error(`settled(): still busy after ${MAX_SETTLE_ROUNDS} rounds (a loop of updates?)`);
      await Promise.resolve();
      this.flush();
      if (this.#inflight.size > 0) {
        await Promise.all([...this.#inflight]);
        continue;
      }
      await idle(scheduler);
      if (this.#queue.length !== 0 || this.#inflight.size !== 0) continue;
      // Quiet: confirmed a turn later. A render a native event scheduled can run after the scheduler's idle task
      // (seen on Fabric under load: an image's onLoad, its state's commit sent one turn after settled() returned).
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#queue.length === 0 && this.#inflight.size === 0) break;
    }
    this.throwPending();
  }

  #event(frame) {
    const target = this.rendererTag(frame.target);
    if (target === undefined || typeof frame.event !== 'string' || this.deliver === null) return;
    const payload = frame.payload !== null && typeof frame.payload === 'object' ? frame.payload : {};
    // `target` is the view's tag as findNodeHandle() gives it (the daemon's), as on a device.
    const nativeEvent = { ...payload, target: frame.target };
    const type = topLevelType(frame.event);
    if (this.#unsettled && type === 'topLayout') return;
    if (this.trace) this.record({ event: { target, type, nativeEvent: structuredClone(nativeEvent) } });
    try {
      this.deliver(target, type, nativeEvent);
    } catch (error) {
      this.fail(error);
    }
  }
}

/** `onLayout`, `onTextLayout`: the name of an event handler prop. */
function isHandlerName(key) {
  return key.length > 2 && key.charCodeAt(0) === 111 && key.charCodeAt(1) === 110 && key.charCodeAt(2) >= 65 && key.charCodeAt(2) <= 90;
}

/** Waits until the scheduler ran everything it had queued (an idle-priority task runs last), then a turn more. */
function idle(scheduler) {
  return new Promise((resolve) => {
    const done = () => setImmediate(resolve);
    if (scheduler?.unstable_scheduleCallback) scheduler.unstable_scheduleCallback(scheduler.unstable_IdlePriority, done);
    else done();
  });
}

/** The error of a refused commit: the inner error of the op the daemon refused, with its index and op. */
function commitError(err, ops) {
  const error = batchInnerError(err);
  if (error === err) return err;
  const index = typeof err.index === 'number' ? err.index : err.details?.index;
  if (typeof index === 'number') {
    error.index = index;
    error.op = ops[index];
  }
  return error;
}
