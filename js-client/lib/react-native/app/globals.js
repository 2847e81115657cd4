// The globals React Native's JavaScript reads, set while an app is open and removed by close(): what
// InitializeCore and jest's React Native setup give it, less what Node already has (timers, promises,
// `performance`, `fetch`).

/** The names set, for the README and for close(). */
export const APP_GLOBALS = [
  '__DEV__',
  'window',
  'self',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'nativeModuleProxy',
  'nativeCallSyncHook',
  'ErrorUtils',
  'regeneratorRuntime',
  '__fbBatchedBridge',
  'nativeFabricUIManager',
  'expo',
  'ExpoModules',
  'alert',
  'navigator',
];

let owner = null;

/** Sets the globals for `app`; one app may be open per process at a time. */
export function installGlobals(
  app,
  { nativeModuleProxy, nativeFabricUIManager, expo, dev = true, target = globalThis },
) {
  if (target !== globalThis) return installOn(target, { nativeModuleProxy, nativeFabricUIManager, expo, dev });
  if (owner !== null && owner !== app) {
    throw new Error(
      'openApp: another app is open in this process; close it first (app.close()): React Native reads one set of ' +
        'globals',
    );
  }
  owner = app;
  const found = new Set(Object.getOwnPropertyNames(globalThis));
  const remove = installOn(globalThis, { nativeModuleProxy, nativeFabricUIManager, expo, dev });
  return function removeGlobals() {
    remove();
    // What the app's own code added to the process's global goes too, so that the next app finds the global as this
    // one did: React Navigation keeps its contexts in one (`__react_navigation__elements_contexts`), made with this
    // app's React, which another app's renderer would otherwise be given.
    for (const name of Object.getOwnPropertyNames(globalThis)) {
      if (!found.has(name)) Reflect.deleteProperty(globalThis, name);
    }
    if (owner === app) owner = null;
  };
}

/** Sets the globals on `target` (a jest test file's own global holds one app at a time by construction). */
function installOn(target, { nativeModuleProxy, nativeFabricUIManager, expo, dev }) {
  const saved = new Map();
  for (const name of APP_GLOBALS) saved.set(name, Object.getOwnPropertyDescriptor(target, name));
  const set = (name, value) =>
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
  set('__DEV__', dev);
  set('window', target);
  set('self', target);
  const frames = new Map();
  let next = 1;
  set('requestAnimationFrame', (callback) => {
    const id = next++;
    // The app's own timers (jest's fake ones under its preset): an animation frame is virtual time too.
    frames.set(id, target.setTimeout(() => {
      frames.delete(id);
      callback(performance.now());
    }, 16));
    return id;
  });
  set('cancelAnimationFrame', (id) => {
    target.clearTimeout(frames.get(id));
    frames.delete(id);
  });
  set('nativeModuleProxy', nativeModuleProxy);
  // What a phone's bridge (JSIExecutor) installs beside the proxy: its presence tells React Native it runs on a device
  // and not in a remote debugger (DebugEnvironment.isAsyncDebugging, which had Appearance answer 'light' whatever the
  // module said). It calls the modules of a bridge configuration, which bridged gives none: every module is on the
  // proxy.
  set('nativeCallSyncHook', (moduleID, methodID) => {
    throw new Error(
      `nativeCallSyncHook(${moduleID}, ${methodID}): bridged serves its native modules on nativeModuleProxy, by name`,
    );
  });
  // Fabric only: React Native's ReactFabric reads it when it loads.
  if (nativeFabricUIManager) set('nativeFabricUIManager', nativeFabricUIManager);
  // An Expo app only: its modules by name (globalThis.expo.modules, and ExpoModules before it).
  if (expo) for (const [name, value] of Object.entries(expo)) set(name, value);
  return function removeGlobals({ keep = false } = {}) {
    for (const timer of frames.values()) target.clearTimeout(timer);
    if (keep) return;
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(target, name, descriptor);
      else delete target[name];
    }
  };
}

/** Sets a global the app's own modules provide (ErrorUtils, regeneratorRuntime) while the app is open. */
export function setAppGlobal(name, value, target = globalThis) {
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
}
