// What bench/react-native-app.mjs and react-native-nav.mjs share: where the shared React Native packages and the
// daemon are, a median, and the floor's UIManager (React Native's constants, so the same view configs, and every
// call a no-op: what jest's mocked native modules cost), with `calls` overriding some of its methods.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { create } from '../js-client/lib/react-native/modules/ui-manager.js';

const repository = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED = process.env.BRIDGED_RN_NODE_MODULES ?? path.join(repository, '..', 'shared', 'react-native-0.72.6', 'node_modules');
export const BIN = process.env.BRIDGED_BIN ?? path.join(repository, '.build', 'release', 'bridged');

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
