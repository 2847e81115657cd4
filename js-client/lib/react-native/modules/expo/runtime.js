// The Expo modules of one open app, as its device has them: those its installed packages declare
// (declarations.js), each function with its declared arity, its constants, answering with bridged's behaviour
// where a headless phone has one (fonts, files, the app's config), else as its declaration says (null), every call
// recorded (app.nativeCalls(name)) and a test's implementation (app.implementNativeModule) answering first.

import { readDeclarations } from './declarations.js';
import * as asset from './asset.js';
import * as constants from './constants.js';
import * as fileSystem from './file-system.js';
import * as fontLoader from './font-loader.js';

/** Module name → (context) => its behaviour: methods, and `getConstants`. */
const BEHAVIOURS = new Map([asset, constants, fileSystem, fontLoader].map((file) => [file.name, file.create]));

/** The module expo-modules-core itself registers (NativeModulesProxyModule.swift): the legacy proxy's config. */
export const PROXY_MODULE = 'NativeModulesProxy';

function codedError(code, message) {
  return Object.assign(new Error(message), { code });
}

export class ExpoRuntime {
  #app;
  #record;
  #implementation;
  #declarations;
  #behaviours = new Map();
  #objects = new Map();
  #sandbox = null;
  /** Family → the font file it was loaded from (ExpoFontLoader.loadAsync). */
  fonts = new Map();

  /**
   * @param app the App (its `root`, `window`)
   * @param {{ record: (module, method, args) => void, implementation: (module) => object|undefined }} hooks
   */
  constructor(app, { record, implementation }) {
    this.#app = app;
    this.#record = record;
    this.#implementation = implementation;
    this.#declarations = readDeclarations(app.root);
  }

  /** The packages read: `[{ name, dir, modules }]`. */
  get packages() {
    return this.#declarations.packages;
  }

  /** The names of the modules the app's packages declare. */
  names() {
    return [...this.#declarations.modules.keys()];
  }

  has(name) {
    return this.#declarations.modules.has(name);
  }

  declaration(name) {
    return this.#declarations.modules.get(name);
  }

  /** The error for a module no installed package declares, naming it and those that are. */
  missing(name, asker = 'bridged') {
    const error = new Error(
      `${asker}: no installed package of the app declares the Expo native module '${name}' (its ios/ sources: a Swift ` +
        `ModuleDefinition's Name, or EX_EXPORT_MODULE), so a device has none; declared: ${this.names().join(', ') || 'none'}. ` +
        'Install the package that provides it (or add it as a local module in the app\'s modules/ folder)',
    );
    error.code = 'unknown_native_module';
    error.module = name;
    return error;
  }

  /** The app's sandbox (made on first use): `{ folder, documents, caches }`. */
  sandbox() {
    this.#sandbox ??= fileSystem.makeSandbox(this.#app.root);
    return this.#sandbox;
  }

  #behaviour(name) {
    if (!this.#behaviours.has(name)) {
      const make = BEHAVIOURS.get(name);
      const app = this.#app;
      const context = { root: app.root, bundle: app.root, window: app.window, fonts: this.fonts, sandbox: () => this.sandbox() };
      // A font loaded is the daemon's too (layout's `fonts`), for its texts measured and drawn, when layout is on.
      context.layoutFont = (family, path) =>
        app._layoutState?.enabled ? app.bridge.request({ op: 'layout', fonts: { [family]: path } }) : Promise.resolve();
      this.#behaviours.set(name, make ? make(context) : null);
    }
    return this.#behaviours.get(name);
  }

  /** The module's constants: its declared keys (null where the source computes them), then bridged's values. */
  constants(name) {
    const declaration = this.declaration(name);
    const implemented = this.#implementation(name)?.getConstants;
    const behaviour = this.#behaviour(name);
    return {
      ...(declaration?.constants ?? {}),
      ...(behaviour?.getConstants?.() ?? {}),
      ...(typeof implemented === 'function' ? implemented() : {}),
    };
  }

  /**
   * Calls `method` of module `name` with `args` as the device would: checked against the declared arity, recorded,
   * answered by a test's implementation, else bridged's behaviour, else null. An async function's answer is a
   * promise (a rejection for a wrong call); a sync one's is the value (a throw).
   */
  call(name, method, args) {
    const declaration = this.declaration(name);
    if (!declaration) throw this.missing(name);
    const fn = declaration.functions.find((f) => f.name === method);
    const fail = (error) => {
      if (fn?.async === false) throw error;
      return Promise.reject(error);
    };
    if (!fn) return fail(codedError('E_NO_METHOD', `Module '${name}' does not export method '${method}'.`));
    const count = args.length;
    if (declaration.language === 'objc' && count !== fn.argumentsCount) {
      const s = fn.argumentsCount === 1 ? 'argument' : 'arguments';
      return fail(codedError('ERR_INVALID_ARGS_NUMBER', `Native method ${name}.${method} expects ${fn.argumentsCount} ${s} but received ${count}`));
    }
    if (declaration.language === 'swift' && !fn.arityUnknown && (count < fn.requiredArgumentsCount || count > fn.argumentsCount)) {
      const required = fn.requiredArgumentsCount < fn.argumentsCount ? ` and at least ${fn.requiredArgumentsCount} is required` : '';
      return fail(
        codedError(
          'ERR_INVALID_ARGS_NUMBER',
          `Call to function '${name}.${method}' has been rejected.\n→ Caused by: Received ${count} arguments, but ${fn.argumentsCount} was expected${required}`,
        ),
      );
    }
    this.#record(name, method, args);
    const implemented = this.#implementation(name)?.[method];
    const behaviour = this.#behaviour(name);
    const given = typeof implemented === 'function' ? implemented : behaviour?.[method];
    if (!fn.async) return typeof given === 'function' ? (given.apply(behaviour, args) ?? null) : null;
    try {
      return Promise.resolve(typeof given === 'function' ? given.apply(behaviour, args) : null).then((value) => value ?? null);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The module as JavaScript holds it (the JSI object of `globalThis.expo.modules`): its constants as fields,
   * each function with its declared arity as `length`, `__expo_module_name__`. Made once.
   */
  module(name) {
    if (!this.has(name)) throw this.missing(name);
    if (!this.#objects.has(name)) {
      const runtime = this;
      const object = {};
      Object.defineProperty(object, '__expo_module_name__', { value: name, enumerable: false });
      Object.assign(object, this.constants(name));
      for (const fn of this.declaration(name).functions) {
        const call = {
          [fn.name](...args) {
            return runtime.call(name, fn.name, args);
          },
        }[fn.name];
        Object.defineProperty(call, 'length', { value: fn.argumentsCount });
        object[fn.name] = call;
      }
      this.#objects.set(name, object);
    }
    return this.#objects.get(name);
  }

  /**
   * What EXNativeModulesProxy.mm and AppContext.swift export to JavaScript: every module's constants, its
   * functions as `{ name, argumentsCount, key }` (an Objective-C one's key its index, a Swift one's its name) and
   * the view managers' props.
   */
  proxyConfig() {
    const modulesConstants = {};
    const exportedMethods = {};
    const viewManagersMetadata = {};
    for (const [name, declaration] of this.#declarations.modules) {
      modulesConstants[name] = this.constants(name);
      exportedMethods[name] = declaration.functions.map((fn, index) => ({
        name: fn.name,
        argumentsCount: fn.argumentsCount,
        key: declaration.language === 'objc' ? index : fn.name,
      }));
      if (declaration.view) viewManagersMetadata[name] = { propsNames: [...declaration.view.propsNames] };
    }
    return { modulesConstants, exportedMethods, viewManagersMetadata };
  }

  /** `callMethod(moduleName, methodNameOrKey, args)` of both proxies: a promise, as the native ones answer. */
  callMethod(moduleName, methodNameOrKey, args) {
    const declaration = this.declaration(moduleName);
    if (!declaration) {
      const message = `No exported module was found for name '${moduleName}'. Are you sure all the packages are linked correctly?`;
      return Promise.reject(codedError('E_NO_MODULE', message));
    }
    const method = typeof methodNameOrKey === 'number' ? declaration.functions[methodNameOrKey]?.name : methodNameOrKey;
    if (typeof method !== 'string') return Promise.reject(codedError('E_NO_METHOD', 'No method key or name provided'));
    try {
      return Promise.resolve(this.call(moduleName, method, Array.isArray(args) ? args : []));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `globalThis.expo.modules.NativeModulesProxy` (NativeModulesProxyModule.swift): the config, and callMethod. */
  proxyModule() {
    if (!this.#objects.has(PROXY_MODULE)) {
      const runtime = this;
      const object = { ...this.proxyConfig() };
      Object.defineProperty(object, '__expo_module_name__', { value: PROXY_MODULE, enumerable: false });
      object.callMethod = function callMethod(moduleName, methodName, args) {
        return runtime.callMethod(moduleName, methodName, args);
      };
      this.#objects.set(PROXY_MODULE, object);
    }
    return this.#objects.get(PROXY_MODULE);
  }
}
