// React Native's `nativeFabricUIManager` for its Fabric renderer (ReactFabric), backed by a NativeSide. The
// renderer builds an immutable shadow tree (createNode, clone*, appendChild, child sets) and hands each finished
// tree to native in completeRoot(rootTag, childSet); this module diffs that tree against the one committed
// before and sends the difference as one atomic batch.
//
// How the calls map (protocol.md, "Fabric"):
//   createNode(tag, name, root, payload, handle)  → a node; nothing is sent until a completeRoot holds it
//   cloneNode*(node[, payload])                   → a node of the same tag (the same daemon view): the payload
//                                                   merged into the source's props, children kept or emptied
//   appendChild / createChildSet / appendChildToSet → a node's or a root's children, in React's order
//   completeRoot(rootTag, childSet)                → one batch: create (with parent and index) for each new
//                                                   view, update with the props that differ, setChildren where
//                                                   kept views changed order, delete for each view gone
//   dispatchCommand(node, name, args)              → command {tag, name, args}, never in a commit's batch; none
//                                                   for a view not mounted (as native drops it)
//   registerEventHandler(fn)                       → daemon events reach fn(instanceHandle, topType, event)
//   measure*, findNodeAtPoint                      → zeros / no node (bridged has no layout engine)

import { deepDiffer } from './style.js';
import { commandOp } from '../command-op.js';
import { fabricNoLayout } from './no-layout.js';

/**
 * React Native's `ReactEventPriority` as `unstable_*EventPriority` serialize it
 * (ReactCommon/react/renderer/core/ReactEventPriority.h): the priority React gives updates made while a
 * handler runs.
 */
const DEFAULT_EVENT_PRIORITY = 0;
const DISCRETE_EVENT_PRIORITY = 1;

/**
 * A shadow node: immutable once a completeRoot holds it. A clone keeps its source's tag (the same native view),
 * instance handle and, unless given new ones, its props and child list (the same objects: an unchanged subtree
 * is recognised by identity). `base` and `changed` remember how a clone's child list was built, so that a
 * commit visits only the children that differ (cleared once committed, so old trees are not kept alive).
 */
class ShadowNode {
  /** @type {number} */ tag;
  /** @type {string} */ viewName;
  /** @type {number} */ rootTag;
  /** @type {Record<string, unknown>} */ props;
  /** @type {ShadowNode[]} */ children;
  /** The renderer's instance handle (its fiber), which events are dispatched to. */ handle;
  /** The child list this node's was rebuilt from (its source's), while uncommitted. */ base = null;
  /** Indices where an appended child is not the base list's child at that index. */ changed = null;
  /** The node's id in a recorded trace. */ ref = 0;

  constructor(tag, viewName, rootTag, props, children, handle) {
    this.tag = tag;
    this.viewName = viewName;
    this.rootTag = rootTag;
    this.props = props;
    this.children = children;
    this.handle = handle;
  }
}

/** A root's child set (createChildSet): the root's new children, built like a cloned node's. */
class ChildSet {
  /** @type {ShadowNode[]} */ children = [];
  base = null;
  changed = null;
  ref = 0;
  constructor(base) {
    this.base = base;
  }
}

const NO_PROPS = Object.freeze({});

/** Appends `child` to a node's or a child set's list, noting whether it differs from the base list's child. */
function append(parent, child) {
  const index = parent.children.length;
  parent.children.push(child);
  if (parent.base !== null && parent.base[index] !== child) (parent.changed ??= []).push(index);
}

/** `payload` merged into `props`, as UIManager::cloneNode merges a clone's raw props into its source's. */
function mergeProps(props, payload) {
  if (payload == null) return props;
  let merged = null;
  for (const key of Object.keys(payload)) {
    const value = payload[key] === undefined ? null : payload[key];
    if (props[key] === value) continue;
    merged ??= { ...props };
    merged[key] = value;
  }
  return merged ?? props;
}

/** A value as it stands for "unset": React sends `null` (an undefined prop becomes null in its payloads). */
function unset(value) {
  return value === undefined || value === null;
}

function sameValue(a, b) {
  if (a === b) return true;
  if (unset(a) && unset(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return !deepDiffer(a, b);
}

/** The props of `next` that differ from `prev`'s (`null`: back to the default), or null when none does. */
function changedProps(prev, next) {
  let out = null;
  for (const key of Object.keys(next)) {
    if (sameValue(prev[key], next[key])) continue;
    (out ??= {})[key] = unset(next[key]) ? null : next[key];
  }
  for (const key of Object.keys(prev)) {
    if (Object.hasOwn(next, key) || unset(prev[key])) continue;
    (out ??= {})[key] = null;
  }
  return out;
}

/** A new view's props: what is set (a `null` is the default already); usually the props themselves. */
function initialProps(props) {
  for (const key in props) {
    if (!unset(props[key])) continue;
    const out = {};
    for (const k in props) if (!unset(props[k])) out[k] = props[k];
    return out;
  }
  return props;
}

/**
 * The `nativeFabricUIManager` of one attachment, over `native` (a NativeSide). Extra to React Native's
 * methods: `stopSurface(rootTag)`, which deletes a root view once the renderer emptied it (React Native's
 * native `UIManager::stopSurface`), `committed(rootTag)`, the root's children as last committed, and `looked()`,
 * how many nodes the last completeRoot's diff looked at.
 * With `send: false` a completeRoot only queues its ops (a trace's playback sends them at its flush steps).
 */
export function createFabricUIManager(native, { send = true } = {}) {
  /** Sends what is queued now, as one batch; a refusal reaches render()/settled() through the NativeSide. */
  const flush = () => {
    if (send) native.flush().catch(() => {});
  };
  /** rootTag → the root's children as last committed (the tree the daemon holds). */
  const roots = new Map();
  /** Renderer tag → the instance handle of the committed view, for events. */
  const handles = new Map();
  let eventHandler = null;
  let eventPriority = DEFAULT_EVENT_PRIORITY;
  let nextRef = 0;
  let looked = 0;
  /** The tags whose handles this commit set, and the [tag, handle] pairs it removed. */
  let handled = [];
  let unhandled = [];

  const tracing = () => native.trace !== undefined;
  function refOf(nodeOrSet) {
    if (nodeOrSet.ref === 0) nodeOrSet.ref = ++nextRef;
    return nodeOrSet.ref;
  }
  function recordNode(call, args, node) {
    if (tracing()) native.record({ call, args, node: refOf(node) });
    return node;
  }
  const nodeArg = (node) => ({ node: refOf(node) });

  function daemonTag(node, call) {
    return native.require(node.tag, call);
  }

  function clone(node, props, children) {
    const copy = new ShadowNode(node.tag, node.viewName, node.rootTag, props, children, node.handle);
    if (children !== node.children) copy.base = node.children;
    return copy;
  }

  // ---- the diff: one committed tree against the next -------------------------------------------------------

  /**
   * Creates a view and its subtree, in pre-order; with `parent`, inserted there at `index` (default: appended).
   * Iterative (an explicit stack, children pushed last first): a tree of any depth, the same ops in the same order.
   */
  function create(root, parent, index) {
    const stack = [{ node: root, parent, index }];
    while (stack.length > 0) {
      const { node, parent: into, index: at } = stack.pop();
      looked++;
      const tag = native.mapTag(node.tag, node.viewName);
      const { props, subscriptions } = native.propOps(tag, node.viewName, initialProps(node.props), { create: true });
      const op = { op: 'create', tag, component: node.viewName };
      if (props) op.props = props;
      if (into !== undefined) op.parent = into;
      if (at !== undefined) op.index = at;
      native.enqueue(op);
      for (const s of subscriptions) native.enqueue(s);
      // A clone has its source's instance handle: a tag's handle is set once, when its view is created.
      handles.set(node.tag, node.handle);
      handled.push(node.tag);
      committed(node);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i], parent: tag, index: undefined });
    }
  }

  /** Forgets how a node was built, once it is committed (so that it does not keep older trees alive). */
  function committed(node) {
    node.base = null;
    node.changed = null;
  }

  /**
   * Starts a commit's record of the handles it sets and removes, and registers how to take them back should the
   * commit be refused or fail part way (the record is filled as the diff runs).
   */
  function recordHandles() {
    const set = (handled = []);
    const removed = (unhandled = []);
    native.onRefused(() => {
      for (const tag of set) handles.delete(tag);
      for (const [tag, handle] of removed) handles.set(tag, handle);
    });
  }

  /** Deletes a view (the daemon deletes its subtree) and forgets the subtree's tags. */
  function remove(node) {
    native.enqueueDelete(daemonTag(node, 'completeRoot'));
    forget(node);
  }

  /** Forgets a deleted subtree: its handles now, its tags once the daemon applied the delete. */
  function forget(node) {
    const stack = [node];
    while (stack.length > 0) {
      const gone = stack.pop();
      const handle = handles.get(gone.tag);
      if (handle !== undefined) unhandled.push([gone.tag, handle]);
      handles.delete(gone.tag);
      native.unmapWhenApplied(gone.tag);
      for (const child of gone.children) stack.push(child);
    }
  }

  /**
   * Runs a commit's diff: each step may return the steps that follow it (its children's), which run before the steps
   * after it, in order. An explicit stack instead of recursion: a tree of any depth, the ops in the same order.
   */
  function diff(first) {
    const stack = [first];
    while (stack.length > 0) {
      const next = stack.pop()();
      if (next) for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
    }
  }

  /** The ops that turn committed node `prev` into `next`, a node of the same tag; the steps for its children. */
  function update(prev, next) {
    if (prev === next) return undefined;
    looked++;
    if (prev.props !== next.props) {
      const changed = changedProps(prev.props, next.props);
      if (changed) {
        const tag = daemonTag(next, 'completeRoot');
        const { props, subscriptions } = native.propOps(tag, next.viewName, changed);
        if (props) native.enqueue({ op: 'update', tag, props });
        for (const s of subscriptions) native.enqueue(s);
      }
    }
    const done = () => committed(next);
    if (prev.children === next.children) return [done];
    return [...reconcile(() => daemonTag(next, 'completeRoot'), prev.children, next), done];
  }

  /**
   * The steps that turn a parent's committed children `before` into `after.children`. When `after` was built from
   * `before` (a clone's or a child set's base) with the same length and tags, only the changed indices are
   * visited; otherwise the lists are matched by tag.
   */
  function reconcile(parentTag, before, after) {
    const list = after.children;
    if (after.base === before && list.length === before.length) {
      const changed = after.changed ?? [];
      if (changed.every((i) => list[i].tag === before[i].tag)) return changed.map((i) => () => update(before[i], list[i]));
    }
    return matchByTag(parentTag, before, list);
  }

  /**
   * Matches two child lists by tag. A tag is one parent's child only: React never moves a host node to another
   * parent (a reparented element is a new node), so a tag not in `before` is a new view. Deletes are sent at
   * once; the steps for the kept and new children are returned.
   */
  function matchByTag(parentTag, before, after) {
    looked += before.length + after.length;
    const previous = new Map();
    for (const node of before) previous.set(node.tag, node);
    const kept = new Set();
    for (const node of after) if (previous.has(node.tag)) kept.add(node.tag);
    // The kept views' order, before and after: if it is the same, inserts and deletes are enough.
    let reordered = false;
    let k = 0;
    const keptBefore = before.filter((node) => kept.has(node.tag));
    for (const node of after) {
      if (!kept.has(node.tag)) continue;
      if (keptBefore[k++].tag !== node.tag) {
        reordered = true;
        break;
      }
    }
    for (const node of before) if (!kept.has(node.tag)) remove(node);
    const tag = parentTag();
    if (reordered) {
      const steps = after.map((node) => (kept.has(node.tag) ? () => update(previous.get(node.tag), node) : () => create(node)));
      steps.push(() => {
        native.enqueue({ op: 'setChildren', tag, children: after.map((node) => daemonTag(node, 'completeRoot')) });
      });
      return steps;
    }
    // After the deletes the parent holds the kept views in order; each new one goes in at its final index.
    let count = kept.size;
    return after.map((node, index) => {
      if (kept.has(node.tag)) return () => update(previous.get(node.tag), node);
      const at = index < count ? index : undefined;
      count++;
      return () => create(node, tag, at);
    });
  }

  // ---- React Native's nativeFabricUIManager (UIManagerBinding.cpp's methods) -------------------------------

  const manager = {
    createNode(reactTag, viewName, rootTag, props, instanceHandle) {
      // The payload is the renderer's own new object (its diff of the props against none), never changed after.
      const node = new ShadowNode(reactTag, viewName, rootTag, props ?? NO_PROPS, [], instanceHandle);
      return recordNode('createNode', [reactTag, viewName, rootTag, props], node);
    },

    /** The same props, the same children. */
    cloneNode(node) {
      return recordNode('cloneNode', [nodeArg(node)], clone(node, node.props, node.children));
    },

    /** The same props, no children (the renderer appends them). */
    cloneNodeWithNewChildren(node) {
      return recordNode('cloneNodeWithNewChildren', [nodeArg(node)], clone(node, node.props, []));
    },

    /** The payload merged into the props, the same children. */
    cloneNodeWithNewProps(node, payload) {
      const copy = clone(node, mergeProps(node.props, payload), node.children);
      return recordNode('cloneNodeWithNewProps', [nodeArg(node), payload], copy);
    },

    cloneNodeWithNewChildrenAndProps(node, payload) {
      const copy = clone(node, mergeProps(node.props, payload), []);
      return recordNode('cloneNodeWithNewChildrenAndProps', [nodeArg(node), payload], copy);
    },

    appendChild(parent, child) {
      if (tracing()) native.record({ call: 'appendChild', args: [nodeArg(parent), nodeArg(child)] });
      append(parent, child);
    },

    createChildSet(rootTag) {
      const set = new ChildSet(roots.get(rootTag) ?? null);
      if (tracing()) native.record({ call: 'createChildSet', args: [rootTag], set: refOf(set) });
      return set;
    },

    appendChildToSet(set, child) {
      if (tracing()) native.record({ call: 'appendChildToSet', args: [{ set: refOf(set) }, nodeArg(child)] });
      append(set, child);
    },

    /** The renderer's finished tree for a root: the difference from the committed one goes out as one batch. */
    completeRoot(rootTag, set) {
      // What was queued before (commands, a root view) goes first, in a batch of its own.
      flush();
      if (tracing()) native.record({ call: 'completeRoot', args: [rootTag, { set: refOf(set) }] });
      const before = roots.get(rootTag) ?? [];
      looked = 0;
      recordHandles();
      // Should the diff throw part way, the guard takes back what it queued and recorded (NativeSide.abort).
      diff(() => reconcile(() => native.require(rootTag, 'completeRoot'), before, set));
      roots.set(rootTag, set.children);
      native.onRefused(() => roots.set(rootTag, before));
      set.base = null;
      set.changed = null;
      flush();
    },

    /** Deletes a root view the renderer emptied (bridged's stand-in for native's UIManager::stopSurface). */
    stopSurface(rootTag) {
      native.record({ call: 'stopSurface', args: [rootTag] });
      const tag = native.daemonTag(rootTag);
      if (tag === undefined) return;
      // Deleting the root view deletes its subtree.
      const before = roots.get(rootTag);
      recordHandles();
      for (const node of before ?? []) forget(node);
      roots.delete(rootTag);
      native.onRefused(() => before && roots.set(rootTag, before));
      native.enqueue({ op: 'delete', tag });
      native.unmapTag(rootTag);
      flush();
    },

    /**
     * How many nodes the last completeRoot's diff looked at: each node it created or compared, and each child of
     * a list it had to match by tag. A measure of its cost that needs no clock.
     */
    looked() {
      return looked;
    },

    /** The children of a root as last committed (what the daemon holds). */
    committed(rootTag) {
      return roots.get(rootTag) ?? [];
    },

    registerEventHandler(handler) {
      eventHandler = handler;
      native.deliver = (rendererTag, type, nativeEvent) => {
        const handle = handles.get(rendererTag);
        if (handle === undefined || eventHandler === null) return;
        // EventQueueProcessor.cpp: an event outside a continuous gesture is dispatched at discrete priority.
        eventPriority = DISCRETE_EVENT_PRIORITY;
        try {
          eventHandler(handle, type, nativeEvent);
        } finally {
          eventPriority = DEFAULT_EVENT_PRIORITY;
        }
      };
    },

    unstable_DefaultEventPriority: DEFAULT_EVENT_PRIORITY,
    unstable_DiscreteEventPriority: DISCRETE_EVENT_PRIORITY,
    unstable_getCurrentEventPriority() {
      return eventPriority;
    },

    /**
     * The commands of one turn go out together once it ends, never in a commit's batch: a refused command takes
     * no commit with it.
     */
    dispatchCommand(node, commandName, commandArgs) {
      if (tracing()) native.record({ call: 'dispatchCommand', args: [nodeArg(node), commandName, commandArgs] });
      // A view not mounted (deleted by a commit, as a focused TextInput's blur() on unmount finds it, or not yet
      // committed) takes nothing: RCTMountingManager finds no component view for its tag.
      const tag = native.daemonTag(node.tag);
      if (tag === undefined) return;
      native.enqueue(commandOp(tag, String(commandName), commandArgs));
    },

    /** Props set on the view directly, outside a commit (React Native 0.72's setNativeProps under Fabric). */
    setNativeProps(node, payload) {
      if (tracing()) native.record({ call: 'setNativeProps', args: [nodeArg(node), payload] });
      const tag = daemonTag(node, 'setNativeProps');
      const { props, subscriptions } = native.propOps(tag, node.viewName, payload ?? {});
      if (props) native.enqueue({ op: 'update', tag, props });
      for (const s of subscriptions) native.enqueue(s);
    },

    // Frames are the daemon's once the session's layout is on (native.frameOf, app/layout.js), else zeros; no node
    // is at a point (protocol.md).
    ...fabricNoLayout(
      (node) => native.frameOf?.(node?.tag),
      () => !native.detached,
    ),
  };
  // A call that queues ops and throws part way takes its whole commit back (NativeSide.guard).
  for (const name of ['completeRoot', 'stopSurface']) manager[name] = native.guard(manager[name]);
  return manager;
}

/**
 * The calls of a recorded trace whose arguments are nodes or child sets (`{node: n}`, `{set: n}`), by position;
 * the calls that return one name it in the step (`node`, `set`).
 */
export const TRACE_REFERENCES = {
  createNode: [],
  cloneNode: [0],
  cloneNodeWithNewChildren: [0],
  cloneNodeWithNewProps: [0],
  cloneNodeWithNewChildrenAndProps: [0],
  appendChild: [0, 1],
  createChildSet: [],
  appendChildToSet: [0, 1],
  completeRoot: [1],
  stopSurface: [],
  dispatchCommand: [0],
  setNativeProps: [0],
};
