// What bench/react-native-app.mjs, -nav.mjs, -fabric.mjs and -scale.mjs share: where the shared React Native packages and the
// daemon are, a median, and the floor's UIManager (React Native's constants, so the same view configs, and every
// call a no-op: what jest's mocked native modules cost), with `calls` overriding some of its methods.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kAllocateTag } from '../js-client/lib/internal.js';
import { create } from '../js-client/lib/react-native/modules/ui-manager.js';

const repository = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED = process.env.BRIDGED_RN_NODE_MODULES ?? path.join(repository, '..', 'shared', 'react-native-0.72.6', 'node_modules');
export const BIN = process.env.BRIDGED_BIN ?? path.join(repository, '.build', 'release', 'bridged');

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The floor's stand-in for a Bridge: the components `real` (a connected Bridge) describes, so that the view configs
 * are a real run's, and every request answered at once without the daemon (a batch with no results), but for the
 * ops named in `forward`, which `real` sends (the `define` of an app's specs, which describes components).
 */
export function floorBridge(real, { forward = [] } = {}) {
  let next = 2;
  return {
    components: real.components,
    request: async (frame) => (forward.includes(frame.op) ? real.request(frame) : frame.op === 'batch' ? { results: [] } : frame.op === 'components' ? { components: {} } : {}),
    on() {},
    off() {},
    [kAllocateTag]: () => next++,
  };
}

/** The floor's UIManager, as openApp's `nativeModules` takes it: `(app) => methods`. */
export function floorUIManager(calls = {}) {
  return (app) => {
    const real = create(app);
    const manager = {};
    for (const key of Object.keys(real)) manager[key] = () => {};
    for (const key of ['getConstants', 'getViewManagerConfig', 'hasViewManagerConfig', 'getConstantsForViewManager', 'getDefaultEventTypes']) manager[key] = real[key];
    manager.measure = (tag, callback) => setImmediate(() => callback(0, 0, 0, 0, 0, 0));
    return Object.assign(manager, calls);
  };
}

/** A nativeFabricUIManager that only builds its nodes: React's own cost, the floor of any native side. */
export function fabricFloorManager() {
  let handler = null;
  const node = (tag, viewName, props, children) => ({ tag, viewName, props, children });
  const merged = (n, payload) => (payload ? { ...n.props, ...payload } : n.props);
  return {
    createNode: (tag, viewName, rootTag, props) => node(tag, viewName, props ?? {}, []),
    cloneNode: (n) => node(n.tag, n.viewName, n.props, n.children),
    cloneNodeWithNewChildren: (n) => node(n.tag, n.viewName, n.props, []),
    cloneNodeWithNewProps: (n, p) => node(n.tag, n.viewName, merged(n, p), n.children),
    cloneNodeWithNewChildrenAndProps: (n, p) => node(n.tag, n.viewName, merged(n, p), []),
    appendChild: (parent, child) => void parent.children.push(child),
    createChildSet: () => [],
    appendChildToSet: (set, child) => void set.push(child),
    completeRoot() {},
    stopSurface() {},
    registerEventHandler: (fn) => (handler = fn),
    unstable_DefaultEventPriority: 0,
    unstable_DiscreteEventPriority: 1,
    unstable_getCurrentEventPriority: () => 0,
    dispatchCommand() {},
    setIsJSResponder() {},
    sendAccessibilityEvent() {},
    measure() {},
    measureInWindow() {},
    measureLayout() {},
    findNodeAtPoint() {},
    get handler() {
      return handler;
    },
  };
}
