// React Native's `UIManager` for its paper renderer (ReactNativeRenderer), backed by a NativeSide: each call is
// translated into the daemon's ops, queued for the commit's batch, and recorded in the trace.
//
// How the calls map (protocol.md, "React Native's renderer"):
//   createView(tag, name, root, props)  → create {tag, component: name, props} + subscribe per handler prop
//   updateView(tag, name, props)        → update {tag, props} (null: back to the default) + (un)subscribe
//   setChildren(tag, children)          → as RCTUIManager: the children inserted at 0…n−1 → setChildren with
//                                         the view's whole new child list
//   manageChildren(tag, moveFrom, moveTo, addTags, addAt, removeAt)
//                                       → setChildren with the new list (moved views keep their state), one per
//                                         parent per batch however many calls moved its children, then delete
//                                         for each removed view (its subtree with it)
//   removeRootView(tag)                 → delete
//   dispatchViewManagerCommand(tag, name, args) → command {tag, name, args}
//   measure*, findSubviewIn             → zeros (bridged has no layout engine)

import { paperNoLayout } from './no-layout.js';
import { commandOp } from '../command-op.js';
import { ChildList } from './child-list.js';
import { NONE, mostGo, usableNatively } from './native-side.js';

/** JSON.stringify's replacer in MessageQueue's message: what JSON cannot show, shown. */
function showUnusable(key, value) {
  if (typeof value === 'function') return '<<Function>>';
  if (typeof value === 'number' && !Number.isFinite(value)) return `<<${value}>>`;
  return value;
}

/**
 * MessageQueue's invariant where a phone in development raises it (a red screen there), or null: `width: NaN` from a
 * size computed from an undefined one, a NaN among `snapToOffsets`. JSON would carry each as `null`, which resets the
 * prop; React Native's jest mocks take any value. `AppError`: the app's own Error (React Native's error dialog reads
 * any other as "Unspecified error"). The commit is refused with it (NativeSide.refuse), not thrown in the render.
 */
function unusableArguments(args, AppError) {
  if (usableNatively(args)) return null;
  const error = new AppError(`${JSON.stringify(args, showUnusable)} is not usable as a native method argument`);
  error.name = 'Invariant Violation';
  return error;
}

// What the UIManager's bookkeeping records to take a change back (NativeSide.onRefused): functions of the record's
// arguments, so that a commit of thousands of views allocates no closure per view.

function restoreParent(parents, child, old) {
  if (old === undefined) parents.delete(child);
  else parents.set(child, old);
}

function reinsert(list, at, child) {
  list.insert(at, child);
}

/** Children removed one after the other at `at` of `list`, back in their order. */
function reinsertRun(list, at, removed) {
  for (let k = removed.length - 1; k >= 0; k--) list.insert(at, removed[k]);
}

/** A deleted view's place in the tree, back. */
function unforget(tree, tag, list, parent) {
  if (list) tree.children.set(tag, list);
  if (parent !== undefined) tree.parents.set(tag, parent);
}

/**
 * A first setChildren of a view that had no children, taken back: its children's parent, and its list the empty
 * one it had (which undo records made before may still change), or none.
 */
function unsetFresh(tree, containerTag, reactTags, before) {
  if (before === undefined) tree.children.delete(containerTag);
  else tree.children.set(containerTag, before);
  for (const child of reactTags) tree.parents.delete(child);
}

/** A setChildren's log, `[index, tag, inserted, old parent]…`, taken back in reverse. */
function unsetChildren(tree, list, log) {
  for (let k = log.length - 4; k >= 0; k -= 4) {
    const child = log[k + 1];
    if (!log[k + 2]) {
      list.insert(log[k], child);
      continue;
    }
    list.removeAt(log[k]);
    restoreParent(tree.parents, child, log[k + 3]);
  }
}

/** A manageChildren's log, `[index, tag, inserted]…`, taken back in reverse. */
function unmanage(list, log) {
  for (let k = log.length - 3; k >= 0; k -= 3) {
    if (log[k + 2]) list.removeAt(log[k]);
    else list.insert(log[k], log[k + 1]);
  }
}

/** One child moved from `from` to `to` in `list`, taken back. */
function unmove(list, to, from, child) {
  list.removeAt(to);
  list.insert(from, child);
}

/**
 * The single moves of a run in one list (the renderer's appendChild and insertBefore: reversing 50,000 siblings is
 * 50,000 of them), as `to, from, child` in a growable Int32Array: 12 bytes a move, off V8's heap, where a record of
 * its own took 40 and its share of the log's growth.
 */
class Moves {
  data = new Int32Array(96);
  length = 0;

  push(to, from, child) {
    if (this.length + 3 > this.data.length) {
      const data = new Int32Array(this.data.length * 2);
      data.set(this.data);
      this.data = data;
    }
    const data = this.data;
    data[this.length] = to;
    data[this.length + 1] = from;
    data[this.length + 2] = child;
    this.length += 3;
  }
}

const newMoves = () => new Moves();

/** A run of moves in `list`, taken back last first. */
function unmoveRun(list, _, moves) {
  const data = moves.data;
  for (let i = moves.length - 3; i >= 0; i -= 3) {
    list.removeAt(data[i]);
    list.insert(data[i + 1], data[i + 2]);
  }
}

/** Whether a Moves run holds `n` as it is (an int32: indices always are, a renderer's tag in practice). */
const fitsInt32 = (n) => (n | 0) === n;

/**
 * The paper UIManager of `native`. Every call that queues ops is guarded (NativeSide.guard): one that throws takes
 * its whole commit back. Its bookkeeping's undo is a log of what each call changed, taken back in reverse should
 * the daemon refuse the batch: O(1) per child moved, added or removed, never a copy of a list. `Error`: the app's
 * (its global's), for the errors it refuses a commit with (a call's arguments a phone's bridge would not carry).
 */
export function createPaperUIManager(native, { Error: AppError = Error } = {}) {
  /** What the UIManager keeps of the tree: each view's children (renderer tags), and each view's parent. */
  const children = new Map();
  const parents = new Map();
  const tree = { children, parents };
  /**
   * Parent → the `setChildren` op queued for it in this batch, whose list is filled in when the batch goes out:
   * each parent's moves and inserts of one batch are one `setChildren`, not one per call. Only while it is the
   * last op of the batch that sets that parent's children.
   */
  const pending = new Map();
  /** Renderer tag → how many ops were queued (native.queued()) when its create was: its place in the batch. */
  const createdAt = new Map();

  const requireForManage = (t) => native.requireInBatch(t, 'manageChildren');
  native.beforeSend(() => {
    for (const [tag, op] of pending) op.children = children.get(tag)?.map(requireForManage) ?? [];
    pending.clear();
    createdAt.clear();
  });

  /** Whether any of `added` was created after the op at `at` in the batch. */
  function createdAfter(added, at) {
    for (const child of added) if ((createdAt.get(child) ?? -1) > at) return true;
    return false;
  }

  function noneHasParent(reactTags) {
    for (let i = 0; i < reactTags.length; i++) if (parents.get(reactTags[i]) !== undefined) return false;
    return true;
  }

  function unpend(tag, op) {
    if (pending.get(tag) === op) pending.delete(tag);
  }

  function childrenOf(tag) {
    let list = children.get(tag);
    if (!list) {
      list = new ChildList();
      children.set(tag, list);
    }
    return list;
  }

  /** Sets a view's parent, with how to put the old one back. */
  function setParent(child, parent) {
    const old = parents.get(child);
    if (old === parent) return;
    parents.set(child, parent);
    native.onRefused(restoreParent, parents, child, old);
  }

  /**
   * Takes a child out of its current parent's list (RN's native side does, when a view is inserted elsewhere): in
   * the daemon, the new parent's setChildren moves it.
   */
  function detach(child, except) {
    const parent = parents.get(child);
    if (parent === undefined || parent === except) return;
    const list = childrenOf(parent);
    const at = list.indexOf(child);
    if (at < 0) return;
    list.removeAt(at);
    native.onRefused(reinsert, list, at, child);
  }

  /** `visit(t, list)` for `tag` and each view below it, with its list of children (undefined for a leaf). */
  function eachInSubtree(tag, visit) {
    if (!children.has(tag)) {
      // A view without children (most of them): no walk.
      visit(tag, undefined);
      return;
    }
    const stack = [tag];
    while (stack.length > 0) {
      const t = stack.pop();
      const list = children.get(t);
      if (list) for (const block of list.blocks) for (const kid of block) stack.push(kid);
      visit(t, list);
    }
  }

  const unmapWhenApplied = (t) => native.unmapWhenApplied(t);

  /**
   * A subtree the queued ops delete: its views no longer live now, forgotten (here too: onForgotten) once the
   * daemon applied the ops. Nothing to take back should it refuse them, and a slot per view.
   */
  function forgetWhenApplied(tag) {
    eachInSubtree(tag, unmapWhenApplied);
  }
  native.onForgotten = (tags) => {
    if (!mostGo(tags.length, parents.size)) {
      for (const tag of tags) {
        children.delete(tag);
        parents.delete(tag);
      }
      return;
    }
    // Most of the tree goes: its maps made again of what stays, as NativeSide's are.
    for (const map of [parents, children]) {
      const kept = [];
      map.forEach((value, tag) => {
        if (native.known(tag)) kept.push(tag, value);
      });
      map.clear();
      for (let i = 0; i < kept.length; i += 2) map.set(kept[i], kept[i + 1]);
    }
  };

  /** Forgets a deleted subtree now, with how to take it back should the batch be refused (a root view). */
  function forget(tag) {
    eachInSubtree(tag, (t, list) => {
      const parent = parents.get(t);
      children.delete(t);
      parents.delete(t);
      native.unmapTag(t);
      native.onRefused(unforget, tree, t, list, parent);
    });
  }

  /** Queues a `setChildren` with `tag`'s whole list as it is now (the op ends any pending one for `tag`). */
  function sendChildren(tag, call) {
    pending.delete(tag);
    native.enqueue({ op: 'setChildren', tag: native.require(tag, call), children: childrenOf(tag).map((t) => native.require(t, call)) });
  }

  /**
   * Makes sure a `setChildren` for `tag` is queued after the creates of `added`, its list to be filled when the
   * batch goes out. A pending one is kept unless a view added now was created after it (in a later commit of
   * the same batch): then it is closed with the views of the list as it is now that existed at its place in the
   * batch, and a new one queued.
   */
  function pendChildren(tag, added) {
    let op = pending.get(tag);
    if (op !== undefined && added.length > 0 && createdAfter(added, op.at)) {
      const at = op.at;
      op.children = childrenOf(tag)
        .toArray()
        .filter((t) => (createdAt.get(t) ?? -1) < at)
        .map((t) => native.require(t, 'manageChildren'));
      pending.delete(tag);
      op = undefined;
    }
    if (op !== undefined) return;
    op = { op: 'setChildren', tag: native.require(tag, 'manageChildren'), children: null };
    Object.defineProperty(op, 'at', { value: native.queued(), enumerable: false });
    pending.set(tag, op);
    native.onRefused(unpend, tag, op);
    native.enqueue(op);
  }

  const UIManager = {
    createView(reactTag, viewName, rootTag, props) {
      if (native.trace) native.record({ call: 'createView', args: [reactTag, viewName, rootTag, props] });
      // A made-up host's props are any value, as on React Native's mocks: propOps leaves out what cannot be sent.
      if (!native.components[viewName]?.madeUp) {
        const unusable = unusableArguments([reactTag, viewName, rootTag, props], AppError);
        if (unusable) native.refuse(unusable);
      }
      const tag = native.mapTag(reactTag, viewName);
      const { props: initial, subscriptions } = native.propOps(tag, viewName, props, { create: true });
      const op = { op: 'create', tag, component: viewName };
      if (initial) op.props = initial;
      // Only needed against a pending setChildren: a view created before any is before all of them.
      if (pending.size > 0) createdAt.set(reactTag, native.queued());
      native.enqueue(op);
      for (const s of subscriptions) native.enqueue(s);
    },

    updateView(reactTag, viewName, props) {
      if (native.trace) native.record({ call: 'updateView', args: [reactTag, viewName, props] });
      const component = native.componentOf(reactTag) ?? viewName;
      if (!native.components[component]?.madeUp) {
        const unusable = unusableArguments([reactTag, viewName, props], AppError);
        if (unusable) native.refuse(unusable);
      }
      const tag = native.require(reactTag, 'updateView');
      const { props: changed, subscriptions } = native.propOps(tag, component, props);
      if (changed) native.enqueue({ op: 'update', tag, props: changed });
      for (const s of subscriptions) native.enqueue(s);
    },

    setChildren(containerTag, reactTags) {
      if (native.trace) native.record({ call: 'setChildren', args: [containerTag, reactTags] });
      const before = children.get(containerTag);
      if ((before?.length ?? 0) === 0 && noneHasParent(reactTags)) {
        // The common case, a view's first children as the renderer completes it: new views, no moves.
        for (const child of reactTags) parents.set(child, containerTag);
        children.set(containerTag, ChildList.of(reactTags));
        native.onRefused(unsetFresh, tree, containerTag, reactTags, before);
        sendChildren(containerTag, 'setChildren');
        return;
      }
      const list = childrenOf(containerTag);
      // What changed, undone in reverse should the batch be refused: [index, tag, inserted, old parent]…
      const log = [];
      for (let index = 0; index < reactTags.length; index++) {
        const child = reactTags[index];
        const parent = parents.get(child);
        if (parent === containerTag) {
          const at = list.indexOf(child);
          if (at >= 0) log.push(at, list.removeAt(at), false, parent);
        } else if (parent !== undefined) {
          detach(child, containerTag);
        }
        const at = Math.min(index, list.length);
        list.insert(at, child);
        log.push(at, child, true, parent);
        parents.set(child, containerTag);
      }
      native.onRefused(unsetChildren, tree, list, log);
      sendChildren(containerTag, 'setChildren');
    },

    /**
     * React Native's native order of work: the moved and the removed taken out (by their indices now), then the
     * moved and the added inserted by ascending index. The parent's new order goes out as one `setChildren` per
     * batch (pendChildren), the removed views as `delete`s.
     */
    manageChildren(containerTag, moveFromIndices, moveToIndices, addChildReactTags, addAtIndices, removeAtIndices) {
      if (native.trace) {
        native.record({
          call: 'manageChildren',
          args: [containerTag, moveFromIndices, moveToIndices, addChildReactTags, addAtIndices, removeAtIndices],
        });
      }
      const list = childrenOf(containerTag);
      // The renderer passes null for what a call does not do: one shared empty list, not one per call.
      const moveFrom = moveFromIndices ?? NONE;
      const removeAt = removeAtIndices ?? NONE;
      const added = addChildReactTags ?? NONE;
      if (moveFrom.length === 1 && removeAt.length === 0 && added.length === 0) {
        // The renderer's appendChild or insertBefore of a child this parent holds: one move, as below, allocating
        // nothing per call (reversing N siblings is N of these).
        const from = moveFrom[0];
        if (from < 0 || from >= list.length) return;
        const child = list.removeAt(from);
        const to = Math.min(moveToIndices[0], list.length);
        list.insert(to, child);
        if (fitsInt32(child)) native.undoRun(unmoveRun, list, null, newMoves).push(to, from, child);
        else native.onRefused(unmove, list, to, from, child);
        pendChildren(containerTag, added);
        return;
      }
      if (removeAt.length === 1 && moveFrom.length === 0 && added.length === 0) {
        // The renderer's removeChild: one child and its subtree deleted (clearing N siblings is N of these).
        const at = removeAt[0];
        if (at < 0 || at >= list.length) return;
        const tag = native.require(list.at(at), 'manageChildren');
        const child = list.removeAt(at);
        native.onRefusedRun(reinsertRun, list, at, child);
        native.enqueueDelete(tag);
        forgetWhenApplied(child);
        return;
      }
      const moved = moveFrom.map((i) => list.at(i));
      const removed = removeAt.map((i) => list.at(i));
      // Taken out from the highest index down, so that each index is still the one the call named.
      const out = [...moveFrom, ...removeAt].filter((i) => i >= 0 && i < list.length).sort((a, b) => b - a);
      const log = [];
      let last = -1;
      for (const i of out) {
        if (i === last) continue;
        last = i;
        log.push(i, list.removeAt(i), false);
      }
      const inserts = [];
      for (let k = 0; k < moved.length; k++) if (moved[k] !== undefined) inserts.push({ tag: moved[k], at: moveToIndices[k] });
      for (let k = 0; k < added.length; k++) inserts.push({ tag: added[k], at: addAtIndices[k] });
      if (inserts.length > 1) inserts.sort((a, b) => a.at - b.at);
      for (const { tag, at } of inserts) {
        detach(tag, containerTag);
        const index = Math.min(at, list.length);
        list.insert(index, tag);
        log.push(index, tag, true);
        setParent(tag, containerTag);
      }
      if (log.length > 0) native.onRefused(unmanage, list, log);
      // Only removals: each delete takes its view out of the parent, so the list need not be sent.
      if (inserts.length > 0) pendChildren(containerTag, added);
      for (const tag of removed) {
        if (tag === undefined) continue;
        native.enqueueDelete(native.require(tag, 'manageChildren'));
        forgetWhenApplied(tag);
      }
    },

    removeRootView(rootTag) {
      if (native.trace) native.record({ call: 'removeRootView', args: [rootTag] });
      const tag = native.daemonTag(rootTag);
      if (tag === undefined) return;
      native.enqueue({ op: 'delete', tag });
      forget(rootTag);
    },

    dispatchViewManagerCommand(reactTag, commandName, commandArgs) {
      if (native.trace) native.record({ call: 'dispatchViewManagerCommand', args: [reactTag, commandName, commandArgs] });
      const unusable = unusableArguments([reactTag, commandName, commandArgs], AppError);
      if (unusable) native.refuse(unusable);
      native.enqueue(commandOp(native.require(reactTag, 'dispatchViewManagerCommand'), String(commandName), commandArgs));
    },

    // Frames are the daemon's once the session's layout is on (native.frameOf, app/layout.js), else zeros.
    ...paperNoLayout(
      (reactTag) => native.frameOf?.(reactTag),
      () => !native.detached,
    ),
    getConstants() {
      return {};
    },
    getViewManagerConfig(name) {
      const description = native.components[name];
      if (!description) return null;
      return { Commands: Object.fromEntries(Object.keys(description.commands ?? {}).map((c) => [c, c])) };
    },
    hasViewManagerConfig(name) {
      return Object.hasOwn(native.components, name);
    },
  };
  for (const name of ['createView', 'updateView', 'setChildren', 'manageChildren', 'removeRootView']) {
    UIManager[name] = native.guard(UIManager[name]);
  }
  // React updates only views it made and has not removed: an updateView of a view that is gone is the app's own call
  // (UIManager.updateView, setNativeProps on a ref kept past its unmount, in an effect, a timer). It throws, and is
  // all that is refused: the commit being built (React's, already applied in React, whose views the call may be made
  // from the layout effects of) is not taken back with it.
  const updateView = UIManager.updateView;
  UIManager.updateView = function updateViewOfALiveView(reactTag, viewName, props) {
    if (native.daemonTag(reactTag) === undefined) {
      // Not in the trace: it changed nothing, and is nothing to play back.
      throw new AppError(`UIManager.updateView: no view with tag ${reactTag}`);
    }
    return updateView.call(this, reactTag, viewName, props);
  };
  return UIManager;
}
