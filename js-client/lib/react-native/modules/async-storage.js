// RNCAsyncStorage (@react-native-async-storage/async-storage, the storage nearly every app keeps its settings in):
// an in-memory store for the open app, with the native module's callback API (`multiGet(keys, callback(errors,
// pairs))`…). A test reads or seeds it with app.nativeModule('RNCAsyncStorage') like any module, or replaces it
// with app.implementNativeModule.

export const name = 'RNCAsyncStorage';

/** JSON objects merged as the native module merges them (deeply, objects only). */
function merge(target, source) {
  for (const [key, value] of Object.entries(source)) {
    if (value && typeof value === 'object' && !Array.isArray(value) && target[key] && typeof target[key] === 'object') merge(target[key], value);
    else target[key] = value;
  }
  return target;
}

export function create() {
  const store = new Map();
  const done = (callback, ...args) => setImmediate(() => callback?.(...args));
  return {
    multiGet(keys, callback) {
      done(callback, null, keys.map((key) => [key, store.has(key) ? store.get(key) : null]));
    },
    multiSet(pairs, callback) {
      for (const [key, value] of pairs) store.set(key, value);
      done(callback, null);
    },
    multiRemove(keys, callback) {
      for (const key of keys) store.delete(key);
      done(callback, null);
    },
    multiMerge(pairs, callback) {
      for (const [key, value] of pairs) {
        let merged = value;
        try {
          merged = JSON.stringify(merge(JSON.parse(store.get(key) ?? '{}'), JSON.parse(value)));
        } catch {}
        store.set(key, merged);
      }
      done(callback, null);
    },
    getAllKeys(callback) {
      done(callback, null, [...store.keys()]);
    },
    clear(callback) {
      store.clear();
      done(callback, null);
    },
  };
}
