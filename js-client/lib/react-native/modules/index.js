// The native modules an app's react-native package asks for, one file each (system.js holds the small ones),
// served through `global.nativeModuleProxy` as a bridgeless app's are: a module is made the first time it is
// asked for, and every call of its methods is recorded for app.nativeCalls(name). A module nobody serves is
// absent (what TurboModuleRegistry.get answers null for, as several core modules expect); getEnforcing then
// fails with React Native's own message naming it.

import * as asyncStorage from './async-storage.js';
import * as deviceInfo from './device-info.js';
import * as exceptionsManager from './exceptions-manager.js';
import * as imageLoader from './image-loader.js';
import * as keyboardObserver from './keyboard-observer.js';
import * as linkingManager from './linking-manager.js';
import * as nativeAnimated from './native-animated.js';
import * as platformConstants from './platform-constants.js';
import * as safeAreaContext from './safe-area-context.js';
import * as sourceCode from './source-code.js';
import { modules as systemModules } from './system.js';
import * as uiManager from './ui-manager.js';
import { createSpecModule, unknownMethods } from './spec-module.js';
import * as expo from './expo.js';

/**
 * Modules whose calls are not recorded: UIManager's calls are the commits, which the daemon holds (and its
 * recording keeps); recording them would grow with every render.
 */
const UNRECORDED = new Set(['UIManager']);
/** The most calls kept per module: the oldest go first. */
export const MAX_RECORDED_CALLS = 10_000;

const FILES = [uiManager, platformConstants, deviceInfo, keyboardObserver, sourceCode, imageLoader, linkingManager, nativeAnimated, exceptionsManager, safeAreaContext, asyncStorage];

/** Module name → (app) => the module's methods and constants. */
export const NATIVE_MODULES = Object.freeze({
  ...Object.fromEntries(FILES.map((file) => [file.name, file.create])),
  ...systemModules,
});

/** The modules of one open app, made on first use, their calls recorded. */
export class NativeModules {
  #app;
  #made = new Map();
  #calls = new Map();
  #extra = new Map();
  /** Name → the TurboModule spec (codegen schema) of a module the app's dependencies declare. */
  #specs = new Map();
  /** Name → the methods a test implemented, read at each call. */
  #implementations = new Map();
  /** An Expo app's modules (expo/runtime.js), or null. */
  #expo = null;

  constructor(app) {
    this.#app = app;
  }

  /** The modules the app's specs declare (name → spec): each is served from its spec when nobody else serves it. */
  addSpecs(specs) {
    for (const [name, spec] of Object.entries(specs)) this.#specs.set(name, spec);
  }

  /** Serves the Expo modules the app's packages declare (an Expo app: modules/expo.js). */
  serveExpo() {
    this.#expo = expo.runtimeFor(this.#app, {
      record: (name, method, args) => this.#record(name, method, args),
      implementation: (name) => this.#implementations.get(name),
    });
  }

  /** An Expo module the app's packages declare, as its JavaScript holds it; an error naming one they do not. */
  expo(name) {
    if (!this.#expo) throw new Error(`no Expo module '${name}': the app has no expo-modules-core`);
    return this.#expo.module(name);
  }

  /**
   * Gives a module methods of its own, checked against its spec (a method the spec does not declare is an error);
   * the module answers with them from then on, also where the app already holds the module.
   */
  implement(name, methods) {
    const spec = this.#specs.get(name);
    // A module an Expo app's packages declare in their native sources (modules/expo.js), checked as a spec is.
    const declared = !spec && !this.has(name) ? this.#expo?.declaration(name) : undefined;
    if (!spec && !this.has(name) && !declared) {
      if (this.#expo) throw this.#expo.missing(name, 'implementNativeModule');
      throw new Error(`implementNativeModule: no native module '${name}' is declared by a spec of the app's dependencies or served by bridged; give it with openApp(bridge, { nativeModules: { ${name}: {...} } })`);
    }
    if (declared) {
      const functions = new Set(declared.functions.map((f) => f.name));
      const unknown = Object.keys(methods).filter((m) => m !== 'getConstants' && !functions.has(m));
      if (unknown.length > 0) {
        throw new Error(`implementNativeModule('${name}'): ${declared.package}'s native source declares no function ${unknown.map((m) => `'${m}'`).join(', ')}`);
      }
    }
    if (spec) {
      const unknown = unknownMethods(spec, methods);
      if (unknown.length > 0) {
        throw new Error(`implementNativeModule('${name}'): its spec declares no method ${unknown.map((m) => `'${m}'`).join(', ')}`);
      }
    }
    this.#implementations.set(name, { ...(this.#implementations.get(name) ?? {}), ...methods });
  }

  /** Serves `name` with `methods` (an object, or `(app) => object`) in place of, or beside, the built-in ones. */
  provide(name, methods) {
    this.#extra.set(name, methods);
    this.#made.delete(name);
  }

  /** The app's end, as on a phone: what a module made for it keeps running (a native animation's timer) stops. */
  end() {
    for (const module of this.#made.values()) module._source?._end?.();
  }

  has(name) {
    return this.#extra.has(name) || Object.hasOwn(NATIVE_MODULES, name) || this.#specs.has(name) || (this.#expo !== null && (name === expo.name || name === expo.EVENT_EMITTER));
  }

  /** The module `name` (made once), or undefined when nobody serves it. */
  get(name) {
    if (this.#made.has(name)) return this.#made.get(name);
    const extra = this.#extra.get(name);
    let source = typeof extra === 'function' ? extra(this.#app) : extra ?? (Object.hasOwn(NATIVE_MODULES, name) ? NATIVE_MODULES[name](this.#app) : undefined);
    if (!source && this.#expo && name === expo.name) source = expo.create(this.#app);
    if (!source && this.#expo && name === expo.EVENT_EMITTER) source = expo.createEventEmitter(this.#app);
    if (!source && this.#specs.has(name)) source = createSpecModule(this.#specs.get(name));
    if (!source) return undefined;
    const implementations = this.#implementations;
    const modules = this;
    const module = {};
    for (const key of Object.keys(source)) {
      const value = source[key];
      if (typeof value !== 'function' || key === 'getConstants' || key.startsWith('_') || UNRECORDED.has(name)) {
        module[key] = typeof value === 'function' ? value.bind(source) : value;
        continue;
      }
      module[key] = function recorded(...args) {
        modules.#record(name, key, args);
        const implemented = implementations.get(name)?.[key];
        return typeof implemented === 'function' ? implemented.apply(source, args) : value.apply(source, args);
      };
      Object.defineProperty(module[key], 'length', { value: value.length });
    }
    // What `getConstants()` gives is also readable as the module's fields (NativeModules' legacy constants).
    if (typeof source.getConstants === 'function') {
      const getConstants = () => (implementations.get(name)?.getConstants ?? source.getConstants).call(source);
      Object.assign(module, getConstants(), { getConstants });
    }
    Object.defineProperty(module, '_source', { value: source });
    this.#made.set(name, module);
    return module;
  }

  /** Records a call of `name`'s `method`; past twice the cap, the older half goes at once (not a shift a call). */
  #record(name, method, args) {
    let calls = this.#calls.get(name);
    if (!calls) {
      calls = [];
      this.#calls.set(name, calls);
    }
    calls.push({ method, args });
    if (calls.length === 2 * MAX_RECORDED_CALLS) calls.splice(0, MAX_RECORDED_CALLS);
  }

  /** What JavaScript asked of `name`, in order, the last MAX_RECORDED_CALLS: `[{method, args}]` (a copy). */
  calls(name) {
    return (this.#calls.get(name) ?? []).slice(-MAX_RECORDED_CALLS).map((c) => ({ method: c.method, args: [...c.args] }));
  }

  /**
   * `global.nativeModuleProxy`: every served module by name; absent ones are undefined. What the app's code (a
   * test's setup: `NativeModules.MyModule = {…}` in a jest.mock of react-native) sets on it is kept and read first,
   * a served module's name too (`NativeModules.SettingsManager = {settings: {AppleLocale: 'en_US'}}`, as tests of
   * localized apps set it).
   */
  proxy() {
    const modules = this;
    const own = (target, key) => Object.prototype.hasOwnProperty.call(target, key);
    return new Proxy(
      {},
      {
        get: (target, key) => (own(target, key) ? target[key] : typeof key === 'string' ? modules.get(key) : undefined),
        // An assignment is a plain property of the app's, set again by the next (a test's beforeEach per locale);
        // without this trap the served module's descriptor made the first one read-only (a `value` alone defined).
        set: (target, key, value) => {
          Object.defineProperty(target, key, { configurable: true, enumerable: true, writable: true, value });
          return true;
        },
        has: (target, key) => own(target, key) || (typeof key === 'string' && modules.has(key)),
        ownKeys: (target) => [...new Set([...Reflect.ownKeys(target), ...Object.keys(NATIVE_MODULES), ...modules.#extra.keys(), ...modules.#specs.keys()])],
        getOwnPropertyDescriptor: (target, key) => {
          if (own(target, key)) return Reflect.getOwnPropertyDescriptor(target, key);
          return typeof key === 'string' && modules.has(key) ? { configurable: true, enumerable: true, writable: true, value: modules.get(key) } : undefined;
        },
      },
    );
  }
}
