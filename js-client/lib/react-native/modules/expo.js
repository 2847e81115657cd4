// Expo's modules, for an app that has expo-modules-core. They have no codegen specs: they reach native through
// `NativeModules.NativeUnimoduleProxy` (its `modulesConstants`, `exportedMethods` and `viewManagersMetadata`, read
// at import) and, in newer Expo, `globalThis.expo.modules` (and `globalThis.ExpoModules` before it). Served here:
// every module an app asks for by name exists, each method answers nothing (undefined, or a promise of null
// through the legacy proxy) and is recorded (app.nativeCalls(name)), and a test gives behaviour with
// app.implementNativeModule(name, methods); every view manager is known (`ViewManagerAdapter_<Name>`, served
// untyped by the daemon: the app lists them in unknownComponents()).

export const name = 'NativeUnimoduleProxy';

/** A record that answers every name with `make(name)`, made once. */
function everything(make) {
  const made = new Map();
  return new Proxy(
    {},
    {
      get: (_, key) => {
        if (typeof key !== 'string' || key === 'then' || key === 'toJSON') return undefined;
        if (!made.has(key)) made.set(key, make(key));
        return made.get(key);
      },
      has: (_, key) => typeof key === 'string',
      ownKeys: () => [...made.keys()],
      getOwnPropertyDescriptor: (_, key) => (made.has(key) ? { configurable: true, enumerable: true, value: made.get(key) } : undefined),
    },
  );
}

export function create(app) {
  return {
    getConstants: () => ({
      modulesConstants: everything(() => ({})),
      exportedMethods: {},
      viewManagersMetadata: everything(() => ({ propsNames: [] })),
    }),
    callMethod: async (moduleName, methodName, args) => {
      app.expoModule(moduleName)[methodName]?.(...(args ?? []));
      return null;
    },
  };
}

/** `globalThis.expo` (and `ExpoModules`): the modules by name, and the classes newer expo-modules-core extends. */
export function expoGlobals(app) {
  class EventEmitter {
    #listeners = new Map();
    addListener(eventName, listener) {
      if (!this.#listeners.has(eventName)) this.#listeners.set(eventName, new Set());
      this.#listeners.get(eventName).add(listener);
      return { remove: () => this.removeListener(eventName, listener) };
    }
    removeListener(eventName, listener) {
      this.#listeners.get(eventName)?.delete(listener);
    }
    removeAllListeners(eventName) {
      this.#listeners.delete(eventName);
    }
    emit(eventName, ...args) {
      for (const listener of [...(this.#listeners.get(eventName) ?? [])]) listener(...args);
    }
    listenerCount(eventName) {
      return this.#listeners.get(eventName)?.size ?? 0;
    }
  }
  class NativeModule extends EventEmitter {}
  class SharedObject extends EventEmitter {
    release() {}
  }
  const modules = everything((moduleName) => app.expoModule(moduleName));
  return { expo: { modules, EventEmitter, NativeModule, SharedObject }, ExpoModules: modules };
}

/** The module an Expo app asks for by name: every method recorded, answering what a test implemented, else nothing. */
export function expoModule(moduleName, record, implementation) {
  const methods = new Map();
  return new Proxy(
    {},
    {
      get: (_, key) => {
        if (typeof key !== 'string' || key === 'then' || key === 'toJSON' || key === '$$typeof') return undefined;
        if (!methods.has(key)) {
          methods.set(key, (...args) => {
            record(key, args);
            const given = implementation()?.[key];
            return typeof given === 'function' ? given(...args) : undefined;
          });
        }
        return methods.get(key);
      },
    },
  );
}
