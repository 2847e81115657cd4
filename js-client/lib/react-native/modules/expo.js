// Expo's modules, for an app that has expo-modules-core: those its installed packages declare natively, read
// from their `ios/` sources (expo/declarations.js), served as a device serves them (expo/runtime.js):
// - `NativeModules.NativeUnimoduleProxy` (EXNativeModulesProxy.mm): `modulesConstants`, `exportedMethods`
//   (`{name, argumentsCount, key}` per function) and `viewManagersMetadata` (`{propsNames}`), read at import by
//   expo-modules-core's NativeModulesProxy, and `callMethod(module, nameOrKey, args)`;
// - `globalThis.expo.modules` (the JSI host object of AppContext.swift): each Swift module as an object of its
//   constants and functions, and `NativeModulesProxy` (NativeModulesProxyModule.swift) with the same config.
// A module no installed package declares is absent from both, so `requireNativeModule` fails naming it, as on a
// device. Behaviour where a headless phone has one: expo-font's ExpoFontLoader reads font files, expo-file-system's
// ExponentFileSystem works on real files in a sandbox folder of the app, expo-constants' ExponentConstants answers
// from app.json/app.config.js, expo-asset's ExpoAsset (SDK 50) gives local files back; the rest answer null as
// declared. Every call is recorded (app.nativeCalls(name)) and app.implementNativeModule(name, methods) answers
// first. View managers are `ViewManagerAdapter_<Name>`, served untyped by the daemon (app.unknownComponents()).
// `NativeModules.EXReactNativeEventEmitter` takes the modules' listeners, as on every device.

import { randomUUID } from 'node:crypto';
import { ExpoRuntime, PROXY_MODULE } from './expo/runtime.js';

export const name = 'NativeUnimoduleProxy';

/** App → its ExpoRuntime, made by modules/index.js when an Expo app's modules are served. */
const runtimes = new WeakMap();

/** The Expo modules of `app` (made once): hooks record calls and read a test's implementations. */
export function runtimeFor(app, hooks) {
  if (!runtimes.has(app)) {
    if (!hooks) throw new Error('expo: the app serves no Expo modules (it has no expo-modules-core)');
    runtimes.set(app, new ExpoRuntime(app, hooks));
  }
  return runtimes.get(app);
}

/** `NativeModules.NativeUnimoduleProxy`. */
export function create(app) {
  const runtime = runtimeFor(app);
  return {
    getConstants: () => runtime.proxyConfig(),
    callMethod: (moduleName, methodNameOrKey, args) => runtime.callMethod(moduleName, methodNameOrKey, args),
  };
}

/** The module expo-modules-core's EventEmitter subscribes through (EXReactNativeEventEmitter.m, on every device). */
export const EVENT_EMITTER = 'EXReactNativeEventEmitter';

/**
 * `NativeModules.EXReactNativeEventEmitter`: an Expo module's listeners (`addProxiedListener(module, event)`), each
 * call recorded; its events reach them as device events (`app.emitDeviceEvent(eventName, body)`). An event the
 * module does not declare is logged, as EXLogError does.
 */
export function createEventEmitter(app) {
  const runtime = runtimeFor(app);
  return {
    addProxiedListener(moduleName, eventName) {
      const events = runtime.declaration(moduleName)?.events ?? [];
      if (!events.includes(eventName)) {
        console.error(`\`${eventName}\` is not a supported event type for ${moduleName}. Supported events are: \`${events.join('`, `')}\``);
      }
    },
    removeProxiedListeners() {},
    addListener() {},
    removeListeners() {},
  };
}

/** `globalThis.expo` (and `ExpoModules`): the Swift modules by name, and the classes newer expo-modules-core extends. */
export function expoGlobals(app) {
  const runtime = runtimeFor(app);
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
  // The JSI host object lists the modules of the AppContext: the Swift ones, and NativeModulesProxy.
  const names = () => [...runtime.names().filter((n) => runtime.declaration(n).language === 'swift'), PROXY_MODULE];
  const lookup = (key) => (key === PROXY_MODULE ? runtime.proxyModule() : names().includes(key) ? runtime.module(key) : undefined);
  const modules = new Proxy(
    {},
    {
      get: (_, key) => (typeof key === 'string' ? lookup(key) : undefined),
      has: (_, key) => typeof key === 'string' && names().includes(key),
      ownKeys: () => names(),
      getOwnPropertyDescriptor: (_, key) =>
        typeof key === 'string' && names().includes(key) ? { configurable: true, enumerable: true, value: lookup(key) } : undefined,
    },
  );
  // expo-modules-core 1.11 (SDK 50) asks the runtime for UUIDs (`globalThis.expo.uuidv4`).
  return { expo: { modules, EventEmitter, NativeModule, SharedObject, uuidv4: () => randomUUID() }, ExpoModules: modules };
}
