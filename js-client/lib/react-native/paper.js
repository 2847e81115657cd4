// React Native's `UIManager` for its paper renderer (ReactNativeRenderer), backed by a NativeSide: each call is
// translated into the daemon's ops, queued for the commit's batch, and recorded in the trace.
//
// How the calls map (protocol.md, "React Native's renderer"):
//   createView(tag, name, root, props)  → create {tag, component: name, props} + subscribe per handler prop
//   updateView(tag, name, props)        → update {tag, props} (null: back to the default) + (un)subscribe
//   setChildren(tag, children)          → as RCTUIManager: the children inserted at 0…n−1 → setChildren with
//                                         the view's whole new child list
//   manageChildren(tag, moveFrom, moveTo, addTags, addAt, removeAt)
//                                       → setChildren with the new list (moved views keep their state), then
//                                         delete for each removed view (its subtree with it)
//   removeRootView(tag)                 → delete
//   dispatchViewManagerCommand(tag, name, args) → command {tag, name, args}
//   measure*, findSubviewIn             → zeros (bridged has no layout engine)

/** What the paper UIManager keeps of the tree: each view's children, in renderer tags, to compute indices. */
class Mirror {
  children = new Map();
  parent = new Map();
}

import { measurements } from './no-layout.js';
import { commandOp } from './native-side.js';

export function createPaperUIManager(native) {
  const mirror = new Mirror();

  function childrenOf(tag) {
    let list = mirror.children.get(tag);
    if (!list) {
      list = [];
      mirror.children.set(tag, list);
    }
    return list;
  }

  /** Replaces a view's child list, with how to put the old one back. */
  function setList(tag, list) {
    const old = mirror.children.get(tag);
    const oldParents = list.map((child) => [child, mirror.parent.get(child)]);
    mirror.children.set(tag, list);
    for (const child of list) mirror.parent.set(child, tag);
    native.onRefused(() => {
      if (old) mirror.children.set(tag, old);
      else mirror.children.delete(tag);
      for (const [child, parent] of oldParents) {
        if (parent === undefined) mirror.parent.delete(child);
        else mirror.parent.set(child, parent);
      }
    });
  }

  /** Takes a child out of its current parent's list (RN's native side does, when a view is inserted elsewhere). */
  function detach(child, except) {
    const parent = mirror.parent.get(child);
    if (parent === undefined || parent === except) return;
    const list = (mirror.children.get(parent) ?? []).filter((t) => t !== child);
    setList(parent, list);
    native.enqueue({ op: 'setChildren', tag: native.require(parent, 'setChildren'), children: list.map((t) => native.require(t, 'setChildren')) });
  }

  /** Forgets a deleted subtree. */
  function forget(tag) {
    const stack = [tag];
    while (stack.length > 0) {
      const t = stack.pop();
      const kids = mirror.children.get(t) ?? [];
      const parent = mirror.parent.get(t);
      stack.push(...kids);
      mirror.children.delete(t);
      mirror.parent.delete(t);
      native.unmapTag(t);
      native.onRefused(() => {
        if (kids.length > 0) mirror.children.set(t, kids);
        if (parent !== undefined) mirror.parent.set(t, parent);
      });
    }
  }

  function sendChildren(tag, list, call) {
    native.enqueue({ op: 'setChildren', tag: native.require(tag, call), children: list.map((t) => native.require(t, call)) });
  }

  const UIManager = {
    createView(reactTag, viewName, rootTag, props) {
      if (native.trace) native.record({ call: 'createView', args: [reactTag, viewName, rootTag, props] });
      const tag = native.mapTag(reactTag, viewName);
      const { props: initial, subscriptions } = native.propOps(tag, viewName, props, { create: true });
      const op = { op: 'create', tag, component: viewName };
      if (initial) op.props = initial;
      native.enqueue(op);
      for (const s of subscriptions) native.enqueue(s);
    },

    updateView(reactTag, viewName, props) {
      if (native.trace) native.record({ call: 'updateView', args: [reactTag, viewName, props] });
      const tag = native.require(reactTag, 'updateView');
      const component = native.componentOf(reactTag) ?? viewName;
      const { props: changed, subscriptions } = native.propOps(tag, component, props);
      if (changed) native.enqueue({ op: 'update', tag, props: changed });
      for (const s of subscriptions) native.enqueue(s);
    },

    setChildren(containerTag, reactTags) {
      if (native.trace) native.record({ call: 'setChildren', args: [containerTag, reactTags] });
      const list = childrenOf(containerTag).slice();
      reactTags.forEach((child, index) => {
        detach(child, containerTag);
        const at = list.indexOf(child);
        if (at >= 0) list.splice(at, 1);
        list.splice(Math.min(index, list.length), 0, child);
      });
      setList(containerTag, list);
      sendChildren(containerTag, list, 'setChildren');
    },

    manageChildren(containerTag, moveFromIndices, moveToIndices, addChildReactTags, addAtIndices, removeAtIndices) {
      if (native.trace) {
        native.record({
          call: 'manageChildren',
          args: [containerTag, moveFromIndices, moveToIndices, addChildReactTags, addAtIndices, removeAtIndices],
        });
      }
      const current = childrenOf(containerTag);
      const moveFrom = moveFromIndices ?? [];
      const removeAt = removeAtIndices ?? [];
      const removed = removeAt.map((i) => current[i]);
      const moved = moveFrom.map((i) => current[i]);
      const gone = new Set([...moveFrom, ...removeAt]);
      const list = current.filter((_, i) => !gone.has(i));
      const inserts = [
        ...moved.map((tag, k) => ({ tag, at: moveToIndices[k] })),
        ...(addChildReactTags ?? []).map((tag, k) => ({ tag, at: addAtIndices[k] })),
      ].sort((a, b) => a.at - b.at);
      for (const { tag, at } of inserts) {
        detach(tag, containerTag);
        list.splice(Math.min(at, list.length), 0, tag);
      }
      setList(containerTag, list);
      // Only removals: each delete takes its view out of the parent, so the list need not be sent.
      if (inserts.length > 0) sendChildren(containerTag, list, 'manageChildren');
      for (const tag of removed) {
        if (tag === undefined) continue;
        native.enqueue({ op: 'delete', tag: native.require(tag, 'manageChildren') });
        forget(tag);
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
      native.enqueue(commandOp(native.require(reactTag, 'dispatchViewManagerCommand'), commandName, commandArgs));
    },

    // bridged has no layout engine: every measurement is zeros (protocol.md).
    ...measurements(),
    findSubviewIn(reactTag, point, callback) {
      setImmediate(() => callback(reactTag, 0, 0, 0, 0));
    },
    setJSResponder() {},
    clearJSResponder() {},
    sendAccessibilityEvent() {},
    focus() {},
    blur() {},
    setLayoutAnimationEnabledExperimental() {},
    configureNextLayoutAnimation() {},
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
  return UIManager;
}
