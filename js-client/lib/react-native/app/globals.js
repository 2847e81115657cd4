// The globals React Native's JavaScript reads, set while an app is open and removed by close(): what
// InitializeCore and jest's React Native setup give it, less what Node already has (timers, promises,
// `performance`, `fetch`).

/** The names set, for the README and for close(). */
export const APP_GLOBALS = ['__DEV__', 'window', 'self', 'requestAnimationFrame', 'cancelAnimationFrame', 'nativeModuleProxy', 'ErrorUtils', 'regeneratorRuntime', '__fbBatchedBridge', 'nativeFabricUIManager', 'expo', 'ExpoModules'];

let owner = null;

/** Sets the globals for `app`; one app may be open per process at a time. */
export function installGlobals(app, { nativeModuleProxy, nativeFabricUIManager, expo, dev = true }) {
  if (owner !== null && owner !== app) {
    throw new Error('openApp: another app is open in this process; close it first (app.close()): React Native reads one set of globals');
  }
  owner = app;
  const saved = new Map();
  for (const name of APP_GLOBALS) saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
  const set = (name, value) => Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  set('__DEV__', dev);
  set('window', globalThis);
  set('self', globalThis);
  const frames = new Map();
  let next = 1;
  set('requestAnimationFrame', (callback) => {
    const id = next++;
    frames.set(id, setTimeout(() => {
      frames.delete(id);
      callback(performance.now());
    }, 16));
    return id;
  });
  set('cancelAnimationFrame', (id) => {
    clearTimeout(frames.get(id));
    frames.delete(id);
  });
  set('nativeModuleProxy', nativeModuleProxy);
  // Fabric only: React Native's ReactFabric reads it when it loads.
  if (nativeFabricUIManager) set('nativeFabricUIManager', nativeFabricUIManager);
  // An Expo app only: its modules by name (globalThis.expo.modules, and ExpoModules before it).
  if (expo) for (const [name, value] of Object.entries(expo)) set(name, value);
  return function removeGlobals() {
    for (const timer of frames.values()) clearTimeout(timer);
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete globalThis[name];
    }
    if (owner === app) owner = null;
  };
}

/** Sets a global the app's own modules provide (ErrorUtils, regeneratorRuntime) while the app is open. */
export function setAppGlobal(name, value) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}
