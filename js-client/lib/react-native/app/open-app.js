// openApp: an app's own code, unchanged, with bridged as its native side. The app's modules load through a
// require hook scoped to its root (require-hook.js), its react-native package finds its native modules on
// `nativeModuleProxy` (../modules/), its paper renderer commits into the daemon through a NativeSide, and a test
// drives it as a phone is driven (../testing/actions.js) and queries the daemon's native tree
// (../testing/queries.js, ../testing/screen.js).

import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { commandOp, emitOp } from '../../command-op.js';
import { NativeSide } from '../native-side.js';
import { appArchitecture } from '../architecture.js';
import { createFabricUIManager } from '../fabric.js';
import { NO_FRAME } from '../no-layout.js';
import { NativeModules } from '../modules/index.js';
import { fileOf } from '../modules/image-loader.js';
import { windowMetrics } from '../modules/safe-area-context.js';
import { Keyboard } from '../modules/keyboard-observer.js';
import { TEXT_INPUT_COMPONENTS } from '../testing/queries.js';
import { expoGlobals } from '../modules/expo.js';
import { imageSize } from './assets.js';
import { installGlobals, setAppGlobal } from './globals.js';
import { RequireHook } from './require-hook.js';
import { TransformCache, defaultCacheDirectory } from './transform-cache.js';
import { buildSchema, findSpecs, splitSchema } from './codegen.js';
import { createTransformer } from './transformer.js';
import { enableLayout } from './layout.js';
import { Actions } from '../testing/actions.js';
import { LiveTree } from '../testing/live-tree.js';
import { Screen } from '../testing/screen.js';

/** The daemon's touch events, subscribed on every root as iOS's RCTTouchHandler is attached to the root view. */
const TOUCH_EVENTS = ['touchStart', 'touchMove', 'touchEnd', 'touchCancel'];
/** An iPhone 14's window: its size, scale and safe-area insets. */
const DEFAULT_WINDOW = Object.freeze({ width: 390, height: 844, scale: 3, fontScale: 1, insets: Object.freeze({ top: 47, right: 0, bottom: 34, left: 0 }) });

/** Where in node_modules a file is: the package's name, or null for the app's own files. */
export function packageOf(file) {
  const parts = file.split(/[\\/]node_modules[\\/]/);
  if (parts.length < 2) return null;
  const rest = parts[parts.length - 1].split(/[\\/]/);
  return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

/**
 * Opens the app at `root` against `bridge`. Resolves once React Native's package is loaded and its renderer
 * attached; `app.render(element)` then mounts a screen.
 *
 * @param {import('../../bridge.js').Bridge} bridge
 * @param {object} [options]
 * @param {string} [options.root] the app's folder (its package.json, node_modules): default process.cwd()
 * @param {'ios'} [options.platform] the platform files are resolved for (`Foo.ios.js`): default 'ios'
 * @param {{width?: number, height?: number, scale?: number, fontScale?: number}} [options.window] Dimensions
 * @param {string|false} [options.cache] where transforms are kept (default: $BRIDGED_CACHE_DIR, else
 *   $XDG_CACHE_HOME/bridged, else ~/.cache/bridged); false keeps none
 * @param {Record<string, object>} [options.nativeModules] more native modules, by name
 * @param {boolean} [options.rendererAsShipped] paper: load the package's renderer file untouched (default false)
 * @param {'virtual'|'real'} [options.time] how the actions' waits pass: 'virtual' (default) runs the timers the app
 *   started for a touch (Pressability's long-press and press-out timers) when the hold or the press-out is due,
 *   without sleeping; 'real' sleeps as a finger would
 * @param {boolean} [options.defaultIncludeHiddenElements] whether queries find what is hidden from accessibility
 *   (a covered screen of a navigator, …) unless a query says: default false, as React Native Testing Library 12's
 */
export async function openApp(bridge, options = {}) {
  if (!bridge || typeof bridge.request !== 'function') throw new TypeError('openApp(bridge): bridge is a connected Bridge');
  const platform = options.platform ?? 'ios';
  const architecture = options.architecture === 'auto' ? appArchitecture(options.root ?? process.cwd()) : (options.architecture ?? 'paper');
  if (architecture !== 'paper' && architecture !== 'fabric') {
    throw new Error(`openApp: architecture '${options.architecture}' is not one of 'paper', 'fabric', 'auto'`);
  }
  if (platform !== 'ios') throw new Error(`openApp: platform '${platform}' is not served; bridged plays iOS's native side ('ios')`);
  const app = new App(bridge, { ...options, platform, architecture });
  try {
    await app._describeNative();
    await enableLayout(app, options);
    app._open();
  } catch (error) {
    app._teardown();
    throw error;
  }
  return app;
}

export class App {
  /** Whether the daemon takes `define` (an older one answers unknown_op). */
  #canDefine = true;
  /** The app's folder (real path). */
  root;
  platform;
  /** 'paper' or 'fabric': which of the package's renderers commits into the daemon. */
  architecture;
  window;
  /** The NativeSide every renderer call and native event goes through. */
  native;
  /** The reactTag of the view that holds the JS responder, or null. */
  responder = null;
  #bridge;
  #options;
  #hook = null;
  /** How the app's modules load: `{require, resolve}` (the require hook's, or jest's registry's). */
  #loader = null;
  /** The global object the app's code sees (globalThis, or a jest test file's context). */
  global;
  #modules;
  #removeGlobals = null;
  #eventEmitter = null;
  #deviceEmitter = null;
  /** The software keyboard, shown while a text input has the focus. */
  #keyboard;
  #scheduler = null;
  #AppRegistry = null;
  #React = null;
  #nextRoot = 1;
  #screens = new Map();
  /** Native reactions owed after the current commit (an image to load, a modal to present). */
  #componentCallers = new Map();
  #unserved = [];
  /** Alerts shown and not answered: {args, callback}. */
  #alerts = [];
  /** The components served untyped (asked for by name, with no spec). */
  #untyped = new Set();
  /** Paper: the modals presented, renderer tag → their `identifier` (what RCTModalManager's `modalDismissed` names). */
  #modals = new Map();
  /** Component → the props the app sent that the daemon's component does not declare (left out). */
  #unknownProps = new Map();
  #closed = false;
  /** Fabric: the nativeFabricUIManager, and the renderer's event dispatch it handed over. */
  #fabric = null;
  #fabricDeliver = null;
  #deliverEvent = null;
  #disposeTransformer = null;
  #onChange;
  #rejections = [];
  #onRejection = null;
  #actions;
  #waiters = new Set();
  /** Timers the app started while a native event was being delivered (Pressability's press-out timer). */
  #capturing = null;
  reactNativeVersion = { major: 0, minor: 0, patch: 0, prerelease: null };

  constructor(bridge, options) {
    this.#bridge = bridge;
    this.#options = options;
    this.root = realpathSync(path.resolve(options.root ?? process.cwd()));
    this.platform = options.platform;
    this.architecture = options.architecture;
    this.defaultIncludeHiddenElements = options.defaultIncludeHiddenElements === true;
    if (options.time !== undefined && options.time !== 'virtual' && options.time !== 'real') {
      throw new TypeError(`openApp: time '${options.time}' is not 'virtual' or 'real'`);
    }
    /** How the actions' waits pass: 'virtual' (the touch's own timers run when due, no sleeping) or 'real'. */
    this.time = options.time ?? 'virtual';
    /** How many of the app's timers the actions ran when due in virtual time, rather than sleeping for them. */
    this.timersRunEarly = 0;
    this.global = options.global ?? globalThis;
    this.window = { ...DEFAULT_WINDOW, ...(options.window ?? {}), insets: { ...DEFAULT_WINDOW.insets, ...(options.window?.insets ?? {}) } };
    this.#keyboard = new Keyboard(
      this.window,
      (name, body) => this.#deviceEmitter?.emit(name, body),
      (rendererTag) => this.native.daemonTag(rendererTag) !== undefined,
    );
    this.native = new NativeSide(bridge, {
      ignoreUnservedHandlers: true,
      onUnknownProp: (component, prop) => {
        let props = this.#unknownProps.get(component);
        if (!props) this.#unknownProps.set(component, (props = new Set()));
        props.add(prop);
      },
    });
    this.#modules = new NativeModules(this);
    /** The daemon's views the screens read: this session observed, each change frame applied as it is read. */
    this._liveTree = new LiveTree();
    this.#onChange = (frame) => this._liveTree.apply(frame);
    bridge.on('change', this.#onChange);
    this.native.onApplied = (ops) => this.#afterCommit(ops);
    for (const [name, methods] of Object.entries(options.nativeModules ?? {})) this.#modules.provide(name, methods);
    this.#actions = new Actions(this);
  }

  get bridge() {
    return this.#bridge;
  }

  /**
   * Reads the specs of the app and its dependencies (codegen), serves their native modules from them, and adds their
   * components to this session of the daemon (`define`), so that the app's view configs and the daemon agree.
   */
  async _describeNative() {
    // The live tree starts from the session's snapshot (empty for a new session; a resumed one's views).
    this._liveTree.reset(await this.#bridge.request({ op: 'observe', session: this.#bridge.session }));
    const cache = this.#options.cache === false ? undefined : path.dirname(this.#options.cache ?? defaultCacheDirectory());
    // What this session already has (a resumed one), and whether the daemon takes `define` at all.
    try {
      const { components } = await this.#bridge.request({ op: 'components' });
      this.native.addComponents(components ?? {});
    } catch (error) {
      if (error?.code !== 'unknown_op') throw error;
      this.#canDefine = false;
      this.specsSkipped = 'the daemon has no define op (an older bridged): components from specs are not served';
    }
    const packages = findSpecs(this.root);
    this.specPackages = packages.map((p) => ({ name: p.name, files: p.files.length, ...(p.undeclared ? { undeclared: true, neededBy: p.neededBy } : {}) }));
    for (const p of packages.filter((p) => p.undeclared)) {
      // Served all the same (its components would otherwise be untyped, and a provider waiting for its native
      // event would never render its children), but a device build would not link it: said once, at open.
      console.warn(
        `openApp: ${p.name} (needed by ${p.neededBy}) is not in the app's package.json; a device build would not link it ` +
          `(autolinking reads the app's own dependencies). bridged serves it from its spec all the same.`,
      );
    }
    if (packages.length === 0) return;
    const schema = buildSchema(this.root, packages.flatMap((p) => p.files), { cacheDir: cache });
    if (!schema) {
      this.specsSkipped = "the app has no @react-native/codegen to read its dependencies' specs with";
      return;
    }
    const { components, modules } = splitSchema(schema);
    this.#modules.addSpecs(modules);
    if (Object.keys(components).length === 0 || !this.#canDefine) return;
    const componentModules = Object.fromEntries(Object.entries(schema.modules).filter(([, m]) => m?.type === 'Component'));
    try {
      const result = await this.#bridge.request({ op: 'define', schema: { modules: componentModules } });
      this.native.addComponents(result.components ?? {});
    } catch (error) {
      error.message = `openApp: the daemon refused the components of the app's specs: ${error.message}`;
      throw error;
    }
  }

  /** Loads React Native's package of the app with its native modules and hooks the renderer's events. */
  _open() {
    const transformer = createTransformer({ root: this.root, platform: this.platform });
    this.#disposeTransformer = transformer.dispose ?? null;
    const cache = new TransformCache(this.#options.cache ?? undefined);
    this.transformer = transformer.kind;
    this.#hook = new RequireHook({ root: this.root, platform: this.platform, transformer, cache, rendererAsShipped: this.#options.rendererAsShipped === true });
    this.transformCache = cache;
    const hook = this.#hook;
    this.#onRejection = (reason) => this.#rejected(reason);
    process.on('unhandledRejection', this.#onRejection);
    this._load({ require: (id) => hook.require(id), resolve: (id) => hook.resolveFromRoot(id) }, () => hook.install());
  }

  /**
   * Loads the app's React Native through `loader` (`require(id)`, `resolve(id)` from the app's root: openApp's require
   * hook, or jest's module registry under the bridged-client preset); `install()` runs once the package is found.
   * @internal
   */
  _load(loader, install = () => {}) {
    this.#loader = loader;
    try {
      loader.resolve('react-native');
    } catch {
      throw new Error(`openApp: the app at ${this.root} has no react-native package (node_modules/react-native): install it, or pass { root } of an app that has one`);
    }
    try {
      const manifest = JSON.parse(readFileSync(path.join(path.dirname(loader.resolve('react-native/package.json')), 'package.json'), 'utf8'));
      const [major, minor, patch] = manifest.version.split(/[.-]/).map(Number);
      this.reactNativeVersion = { major, minor, patch, prerelease: manifest.version.includes('-') ? manifest.version.split('-')[1] : null };
    } catch {}
    install();
    if (this.architecture === 'fabric') {
      // The package's ReactFabric commits through this manager; each view it creates is checked first.
      const manager = createFabricUIManager(this.native);
      const createNode = manager.createNode;
      const app = this;
      manager.createNode = function (tag, viewName, ...rest) {
        app._beforeCreate(viewName);
        return createNode.call(this, tag, viewName, ...rest);
      };
      this.#fabric = manager;
      // ReactFabric registers its event handler with the manager, which hands it to the NativeSide as `deliver`:
      // kept here, so that touches are shaped for Fabric first.
      Object.defineProperty(this.native, 'deliver', {
        configurable: true,
        get: () => this.#deliverEvent,
        set: (fabricDeliver) => (this.#fabricDeliver = fabricDeliver),
      });
    }
    // An Expo app (expo-modules-core in its node_modules): the modules its packages declare (modules/expo.js).
    let expo;
    try {
      this.#loader.resolve('expo-modules-core/package.json');
      this.isExpo = true;
    } catch {
      this.isExpo = false;
    }
    if (this.isExpo) {
      this.#modules.serveExpo();
      expo = expoGlobals(this);
    }
    this.#removeGlobals = installGlobals(this, { nativeModuleProxy: this.#modules.proxy(), nativeFabricUIManager: this.#fabric ?? undefined, expo, target: this.global });
    this.#optional('@react-native/js-polyfills/error-guard');
    const regenerator = this.#optional('regenerator-runtime/runtime');
    if (regenerator && this.global.regeneratorRuntime === undefined) setAppGlobal('regeneratorRuntime', regenerator, this.global);
    // Core components use their static view configs (what the package itself declares); the ones React Native
    // builds with codegenNativeComponent ask UIManager, which answers from hello.
    const registry = this.#optional('react-native/Libraries/NativeComponent/NativeComponentRegistry');
    registry?.setRuntimeConfigProvider?.(() => ({ native: false, strict: false, verify: false }));
    this.#wrapRequireNativeComponent();
    this.#explainMissingModules();
    this.#React = this.require('react');
    this.#scheduler = this.require('scheduler');
    this.#AppRegistry = this.require('react-native/Libraries/ReactNative/AppRegistry');
    // Loading the renderer registers its RCTEventEmitter with the app's BatchedBridge.
    this.require('react-native/Libraries/Renderer/shims/ReactNative');
    const BatchedBridge = this.require('react-native/Libraries/BatchedBridge/BatchedBridge');
    this.#eventEmitter = BatchedBridge.getCallableModule('RCTEventEmitter');
    this.#deviceEmitter = interop(this.require('react-native/Libraries/EventEmitter/RCTDeviceEventEmitter'));
    if (!this.#eventEmitter) throw new Error("openApp: the app's React Native renderer registered no RCTEventEmitter");
    this.#deliverEvent = (target, type, nativeEvent) => this.#deliver(target, type, nativeEvent);
    if (this.architecture === 'paper') this.native.deliver = this.#deliverEvent;
    this.#initializeCore();
  }

  /**
   * What React Native's InitializeCore sets that applies headless (it is not run: it needs a packager), as it sets
   * it: `alert(text)` (setUpAlert: Alert.alert('Alert', text)), `navigator.product` (setUpNavigator), the global
   * error handler reporting to ExceptionsManager (setUpErrorHandling). Node's own timers, promises and fetch serve.
   * Removed by close() with the other globals.
   */
  #initializeCore() {
    const global = this.global;
    const Alert = interop(this.#optional('react-native/Libraries/Alert/Alert'));
    if (Alert && typeof Alert.alert === 'function') {
      setAppGlobal('alert', function alert(text) {
        Alert.alert('Alert', '' + text);
      }, global);
    }
    if (global.navigator === undefined) setAppGlobal('navigator', { product: 'ReactNative' }, global);
    else if (global.navigator?.product !== 'ReactNative') {
      try {
        Object.defineProperty(global.navigator, 'product', { value: 'ReactNative', configurable: true });
      } catch {}
    }
    const ErrorUtils = global.ErrorUtils;
    const ExceptionsManager = this.#optional('react-native/Libraries/Core/ExceptionsManager');
    if (ErrorUtils?.setGlobalHandler && ExceptionsManager?.handleException) {
      ErrorUtils.setGlobalHandler((error, isFatal) => ExceptionsManager.handleException(error, isFatal));
    }
  }

  /**
   * An unhandled promise rejection while the app is open, treated as React Native's development mode treats one
   * (its Promise's rejection tracking): a warning with the stack, kept for `unhandledRejections()`; the process
   * lives on. With openApp's `{ unhandledRejections: 'fail' }` it also fails the next render(), action or settled().
   */
  #rejected(reason) {
    const id = this.#rejections.length;
    const stack = reason instanceof Error ? (reason.stack ?? String(reason)) : String(reason);
    this.#rejections.push({ id, reason, message: reason?.message ?? String(reason), stack });
    this.global.console.warn(`Possible Unhandled Promise Rejection (id: ${id}):\n${stack}`);
    if (this.#options.unhandledRejections === 'fail') this.native.fail(reason instanceof Error ? reason : new Error(String(reason)));
  }

  /** The promise rejections nobody handled while the app was open: `{id, reason, message, stack}`, oldest first. */
  unhandledRejections() {
    return [...this.#rejections];
  }

  #optional(id) {
    try {
      return this.#loader.require(id);
    } catch (error) {
      if (error?.code === 'MODULE_NOT_FOUND' && String(error.message).includes(id)) return undefined;
      throw error;
    }
  }

  /**
   * The events a root listens to: the touches, and every bubbling event. iOS sends a bubbling event (a text
   * field's `topFocus`, a switch's `topChange`) to JavaScript whether or not a prop asked for it, and React
   * dispatches it through its own tree; a direct event goes only where a handler prop subscribed it.
   */
  #rootEvents() {
    const events = new Set(TOUCH_EVENTS);
    for (const description of Object.values(this.native.components)) {
      for (const [name, spec] of Object.entries(description.events ?? {})) if (spec.bubbles) events.add(name);
    }
    return [...events];
  }

  /** TurboModuleRegistry.getEnforcing's error for a module nobody serves names it and says how to serve it. */
  #explainMissingModules() {
    const registry = this.#optional('react-native/Libraries/TurboModule/TurboModuleRegistry');
    if (!registry || typeof registry.getEnforcing !== 'function') return;
    const original = registry.getEnforcing;
    const modules = this.#modules;
    try {
      registry.getEnforcing = function getEnforcing(name) {
        if (!modules.has(name)) {
          const caller = callerFile(new Error().stack, null);
          const pkg = caller ? packageOf(caller) : null;
          const error = new Error(
            `bridged serves no native module '${name}'${pkg ? ` (asked for by the package '${pkg}')` : ''}, and no spec of the app's ` +
              `dependencies declares it: give it with openApp(bridge, { nativeModules: { ${name}: { …its methods } } }), or add its spec ` +
              "to its package (package.json's codegenConfig.jsSrcsDir)",
          );
          error.code = 'unknown_native_module';
          error.module = name;
          throw error;
        }
        return original.apply(this, arguments);
      };
    } catch {
      // A module whose exports cannot be replaced keeps React Native's own message.
    }
  }

  /** Remembers which file asked for each native component by name, to name it when the daemon serves none. */
  #wrapRequireNativeComponent() {
    let file;
    try {
      file = this.#loader.resolve('react-native/Libraries/ReactNative/requireNativeComponent');
    } catch {
      return;
    }
    const module = this.#loader.require('react-native/Libraries/ReactNative/requireNativeComponent');
    const callers = this.#componentCallers;
    const app = this;
    const wrap = (original) =>
      function requireNativeComponent(name) {
        if (!callers.has(name)) callers.set(name, callerFile(new Error().stack, file));
        if (typeof name === 'string' && !Object.hasOwn(app.native.components, name) && app.#canDefine) return app.#serveUntyped(name);
        return original.apply(this, arguments);
      };
    // An ES module compiled to CommonJS: its importers read `.default` when they call it, so the wrapper is seen.
    if (module && typeof module.default === 'function') module.default = wrap(module.default);
  }

  /** Whether the daemon takes `define` (an older one does not: then an unknown component is an error). */

  /**
   * A component asked for by name that no spec describes (an older package's `requireNativeComponent('Foo')`):
   * served as a View that takes any prop, untyped (`define` with `untyped`), its view config accepting every
   * attribute (style flattened as a View's). Its events cannot be told apart from their names, so none reach it.
   */
  #serveUntyped(name) {
    const description = { props: {}, events: {}, commands: {}, untyped: true };
    this.native.addComponents({ [name]: description });
    const registry = this.require('react-native/Libraries/Renderer/shims/ReactNativeViewConfigRegistry');
    const styleAttributes = interop(this.require('react-native/Libraries/Components/View/ReactNativeStyleAttributes'));
    // Every prop but React's `children` and the handlers: a native component is never sent its React children.
    const validAttributes = new Proxy(
      {},
      {
        get: (_, key) =>
          key === 'style' ? styleAttributes : typeof key === 'string' && key !== 'children' && !/^on[A-Z]/.test(key) ? true : undefined,
      },
    );
    registry.register(name, () => ({ uiViewClassName: name, validAttributes, bubblingEventTypes: {}, directEventTypes: {} }));
    return name;
  }

  /** The native components served untyped (no spec): they take any prop, and nothing checks them. */
  untypedComponents() {
    return [...this.#untyped];
  }

  /**
   * AlertManager.alertWithArgs: the alert is kept until a test presses one of its buttons. With none, iOS gives it
   * its own (RCTAlertManager): `OK` for an alert, `OK` and `Cancel` for a prompt.
   */
  _alertShown(args, callback) {
    const alert = { ...(args ?? {}) };
    if (!Array.isArray(alert.buttons) || alert.buttons.length === 0) {
      alert.buttons = !alert.type || alert.type === 'default' ? [{ 0: 'OK' }] : [{ 0: 'OK' }, { 1: 'Cancel' }];
    }
    this.#alerts.push({ args: alert, callback });
  }

  /**
   * ActionSheetManager.showActionSheetWithOptions: iOS presents it as an alert in the sheet style, kept until a test
   * presses one of its buttons; the callback is given the button's index.
   */
  _actionSheetShown(options, callback) {
    const buttons = (options?.options ?? []).map((text, index) => ({ [index]: String(text) }));
    const args = { title: options?.title ?? '', message: options?.message ?? undefined, buttons, style: 'actionSheet' };
    this.#alerts.push({ args, callback });
  }

  /**
   * The alerts on screen (Alert.alert, Alert.prompt; ActionSheetIOS's sheets with `style: 'actionSheet'`), oldest
   * first: `[{ title, message, buttons: [text…] }]`.
   */
  alerts() {
    return this.#alerts.map(({ args }) => ({
      title: args.title ?? '',
      message: args.message ?? null,
      buttons: args.buttons.map((button) => Object.values(button)[0]),
      ...(args.style ? { style: args.style } : {}),
    }));
  }

  /**
   * Presses the button `text` of the newest alert that has one, as iOS's alert does (its `onPress` runs, the alert
   * goes); resolves once the app settled. For a prompt, `value` is what was typed into it: a string, or `{ login,
   * password }` for a `login-password` one (default: the prompt's `defaultValue`, else empty).
   */
  async pressAlertButton(text, { value } = {}) {
    for (let i = this.#alerts.length - 1; i >= 0; i--) {
      const { args, callback } = this.#alerts[i];
      const button = args.buttons.find((b) => Object.values(b)[0] === text);
      if (!button) continue;
      this.#alerts.splice(i, 1);
      try {
        callback?.(Number(Object.keys(button)[0]), promptValue(args, value));
      } catch (error) {
        this.native.fail(error);
      }
      return this.settled();
    }
    throw new Error(`app.pressAlertButton(): no alert has a button '${text}' (alerts: ${JSON.stringify(this.alerts())})`);
  }

  /** An Expo module by name, as `requireNativeModule(name)` reaches it in an Expo app. */
  expoModule(name) {
    return this.#modules.expo(name);
  }

  /** The native module `name` as the app's JavaScript reaches it (served, from a spec, an Expo module, or given). */
  nativeModule(name) {
    const module = this.#modules.get(name) ?? (this.isExpo ? this.#modules.expo(name) : undefined);
    if (!module) throw new Error(`app.nativeModule('${name}'): no native module of that name is served or declared by a spec of the app's dependencies`);
    return module;
  }

  /** Gives a native module methods of its own, checked against its spec's method names. */
  implementNativeModule(name, methods) {
    this.#modules.implement(name, methods);
  }

  /** Emits `eventName` with `body` as module `name`'s native side does (RCTDeviceEventEmitter.emit): NativeEventEmitter listeners hear it. */
  emitNativeModuleEvent(name, eventName, body) {
    if (!this.#modules.has(name)) throw new Error(`app.emitNativeModuleEvent('${name}'): no native module of that name`);
    return this.emitDeviceEvent(eventName, body);
  }

  /** Requires `id` as a file at the app's root would: a path relative to the root, or a package name. */
  require(id) {
    this.#assertOpen('require');
    return this.#loader.require(id);
  }

  /** The file `id` resolves to from the app's root, for the platform. */
  resolve(id) {
    return this.#loader.resolve(id);
  }

  /**
   * The error of a host component the daemon does not serve: names it, the package that asked for it, and how to serve it.
   * @internal (for the app's UIManager)
   */
  unservedComponent(name) {
    const caller = this.#componentCallers.get(name);
    const pkg = caller ? packageOf(caller) : null;
    const from = pkg ? ` (asked for by the package '${pkg}', ${caller})` : caller ? ` (asked for by ${caller})` : '';
    const error = new Error(
      `bridged does not serve the native component '${name}'${from}: start the daemon with its codegen schema ` +
        `(bridged --components schema.json) or register a Swift component named '${name}'`,
    );
    error.code = 'unknown_component';
    error.component = name;
    if (pkg) error.package = pkg;
    this.#unserved.push(name);
    return error;
  }

  /** React Native's error for a native component UIManager does not know, as the error of an unserved one. */
  #explain(error) {
    const message = String(error?.message);
    const match =
      /requireNativeComponent: "([^"]+)" was not found in the UIManager/.exec(message) ??
      /View config getter callback for component `([^`]+)` must be a function/.exec(message);
    return match ? this.unservedComponent(match[1]) : error;
  }

  /** Serves (or replaces) a native module by name: `methods` is an object of its methods and `getConstants`. */
  provideNativeModule(name, methods) {
    this.#modules.provide(name, methods);
  }

  /** What JavaScript asked of native module `name`, in order: `[{ method, args }]`. */
  nativeCalls(name) {
    return this.#modules.calls(name);
  }

  /** Emits a device event (`RCTDeviceEventEmitter.emit`), as native modules do: Keyboard, Dimensions, Linking's `url`. */
  emitDeviceEvent(eventName, body) {
    this.#deviceEmitter?.emit(eventName, body);
    return this.settled();
  }

  /** A fatal report of ExceptionsManager: kept for the next render() or settled(). @internal (for ExceptionsManager) */
  reportNativeException(data) {
    const error = new Error(data?.message ?? 'an exception was reported to ExceptionsManager');
    if (data?.componentStack) error.componentStack = data.componentStack;
    this.native.fail(error);
  }

  // MARK: What the native side does on its own after a commit

  /**
   * Before a view of `viewName` is created (paper's createView, Fabric's createNode): a component the daemon does
   * not serve is an error naming it; one served untyped is defined for the session when first created (React
   * Native asks for Android's components too and never creates them). The define goes out before the commit's
   * batch, and the daemon answers requests in order.
   */
  _beforeCreate(viewName) {
    if (!Object.hasOwn(this.native.components, viewName)) throw this.unservedComponent(viewName);
    if (this.native.components[viewName]?.untyped && !this.#untyped.has(viewName)) {
      this.#untyped.add(viewName);
      this.#bridge.request({ op: 'define', schema: { modules: {} }, untyped: [viewName] }).catch((error) => this.native.fail(error));
    }
  }

  /**
   * What native does on its own once a commit is applied, from the commit's ops (either architecture): an image
   * view loads its source, a modal is presented, a safe-area provider tells its insets, a text input with
   * `autoFocus` takes the focus. Sent as one more batch.
   */
  #afterCommit(ops) {
    this.#keyboard.removed();
    let any = false;
    for (const op of ops) {
      if (op.op !== 'create' && op.op !== 'update') continue;
      const component = op.op === 'create' ? op.component : this.native.componentOf(this.native.rendererTag(op.tag));
      if (component === 'RCTImageView' && op.props && 'source' in op.props && op.props.source != null) any = this.#loadImage(op.tag, op.props.source) || any;
      if (op.op !== 'create') continue;
      if (component === 'RCTModalHostView') {
        this.native.enqueue(commandOp(op.tag, 'present'));
        if (this.architecture === 'paper') this.#modals.set(this.native.rendererTag(op.tag), op.props?.identifier ?? 0);
        any = true;
      }
      if (component === 'RNCSafeAreaProvider') any = this.#sendInsets(op.tag) || any;
      // RCTBaseTextInputView focuses a field with autoFocus once it is in the window.
      if (TEXT_INPUT_COMPONENTS.has(component) && op.props?.autoFocus === true) {
        this.native.enqueue(commandOp(op.tag, 'focus'));
        any = true;
      }
    }
    if (any) this.native.flush().catch(() => {});
    this.#dismissedModals();
  }

  /**
   * Paper: a presented modal whose view is gone (its Modal closed or unmounted) was dismissed: RCTModalManager emits
   * `modalDismissed` with its identifier, and the Modal calls its `onDismiss`. (Fabric's Modal has no such call.)
   */
  #dismissedModals() {
    for (const [rendererTag, identifier] of this.#modals) {
      if (this.native.daemonTag(rendererTag) !== undefined) continue;
      this.#modals.delete(rendererTag);
      queueMicrotask(() => this.#deviceEmitter?.emit('modalDismissed', { modalID: identifier }));
    }
  }

  /**
   * The image view (daemon tag `tag`) loads its source: a local file that exists (its size read from its header)
   * loads, any other local or data source fails; a network image (http, https) stays loading, as bridged fetches
   * nothing and a device would not fail it.
   */
  #loadImage(tag, source) {
    const first = Array.isArray(source) ? source[0] : source;
    const uri = typeof first === 'string' ? first : first?.uri;
    if (typeof uri !== 'string' || uri.length === 0 || /^https?:\/\//i.test(uri)) return false;
    const file = fileOf(uri);
    const size = file ? imageSize(file) : null;
    if (size) this.native.enqueue(commandOp(tag, 'loaded', [uri, size.width, size.height]));
    else {
      const message = file ? `no image at ${file}` : `bridged loads only local image files (file://): ${uri.slice(0, 80)}`;
      this.native.enqueue(commandOp(tag, 'failed', [uri, message]));
    }
    return true;
  }

  /** A safe-area provider (daemon tag `tag`), once laid out, tells its children the window's insets, as native does. */
  #sendInsets(tag) {
    const events = this.native.components.RNCSafeAreaProvider?.events ?? {};
    const event = Object.keys(events).find((e) => events[e].registrationName === 'onInsetsChange' || /insetsChange$/i.test(e));
    if (!event) return false;
    this.native.enqueue(emitOp(tag, event, windowMetrics(this)));
    return true;
  }

  /** Sets props of a view from the native side (an animation's values), as RCTUIManager's updateView does. @internal (for NativeAnimatedModule) */
  updateViewProps(reactTag, props) {
    const tag = this.native.daemonTag(reactTag);
    if (tag === undefined || Object.keys(props).length === 0) return;
    this.native.enqueue({ op: 'update', tag, props });
  }

  /** A view's frame: bridged has no layout engine, so every view is at 0,0 with no size. @internal (for the app's UIManager) */
  frameOf() {
    return NO_FRAME;
  }

  /** Whether a view is inside another: unknown without layout, so no. @internal (for the app's UIManager) */
  isDescendant() {
    return false;
  }

  // MARK: Events

  #deliver(target, type, nativeEvent) {
    this.#deliverToJS(target, type, nativeEvent);
    // iOS shows its keyboard while a text input has the focus.
    if ((type === 'topFocus' || type === 'topBlur') && TEXT_INPUT_COMPONENTS.has(this.native.componentOf(target))) {
      if (type === 'topFocus') this.#keyboard.focused(target);
      else this.#keyboard.blurred(target);
    }
  }

  #deliverToJS(target, type, nativeEvent) {
    const capture = this.#capturing;
    if (this.#fabric) {
      if (!this.#fabricDeliver) return;
      let event = nativeEvent;
      if (type.startsWith('topTouch')) event = this.#fabricTouch(type, nativeEvent);
      else {
        nativeEvent.target = target;
        this.#modules.get('NativeAnimatedModule')?._source?._nativeEvent?.(target, type, nativeEvent);
      }
      this.#withTimers(() => this.#fabricDeliver(target, type, event), capture);
      return;
    }
    if (type.startsWith('topTouch')) {
      const touches = (nativeEvent.touches ?? []).map((touch) => ({ ...touch, target: this.native.rendererTag(touch.target) ?? touch.target }));
      this.#withTimers(() => this.#eventEmitter.receiveTouches(type, touches, nativeEvent.changedIndices ?? [0]), capture);
      return;
    }
    nativeEvent.target = target;
    this.#modules.get('NativeAnimatedModule')?._source?._nativeEvent?.(target, type, nativeEvent);
    this.#withTimers(() => this.#eventEmitter.receiveEvent(target, type, nativeEvent), capture);
  }

  /**
   * A touch as Fabric's touch handler sends it (RCTSurfaceTouchHandler): the changed touch in `changedTouches`,
   * the touches still down in `touches` (an ended or cancelled one no longer), renderer tags as targets.
   */
  #fabricTouch(type, nativeEvent) {
    const touches = (nativeEvent.touches ?? []).map((touch) => ({ ...touch, target: this.native.rendererTag(touch.target) ?? touch.target }));
    const changed = (nativeEvent.changedIndices ?? [0]).map((i) => touches[i]).filter(Boolean);
    const ended = type === 'topTouchEnd' || type === 'topTouchCancel';
    const down = ended ? touches.filter((t) => !changed.includes(t)) : touches;
    const first = changed[0] ?? touches[0] ?? {};
    return { ...first, touches: down, changedTouches: changed, targetTouches: down.filter((t) => t.target === first.target) };
  }

  /** Hands touches to React Native's responder system directly (a touch whose view left the daemon). */
  _receiveTouches(type, touches, changedIndices) {
    try {
      if (this.#fabric) {
        // The touch's view is gone: Fabric has no instance to dispatch to, and the responder was already released.
        return;
      }
      this.#withTimers(() => this.#eventEmitter.receiveTouches(type, touches, changedIndices), this.#capturing);
    } catch (error) {
      this.native.fail(error);
    }
  }

  /** Runs `fn`; the timers it starts are added to `capture` (an array), when one is given. */
  #withTimers(fn, capture) {
    if (!capture) return fn();
    const global = this.global;
    const original = global.setTimeout;
    global.setTimeout = function capturingSetTimeout(callback, delay, ...args) {
      let fired = false;
      let settle;
      const done = new Promise((resolve) => (settle = resolve));
      const run = () => {
        fired = true;
        try {
          callback(...args);
        } finally {
          settle();
        }
      };
      const timer = original(run, delay);
      capture.push({
        timer,
        delay: Number(delay) || 0,
        done,
        get fired() {
          return fired;
        },
        // Whether the app cleared it (a Node timer is destroyed once cleared or run).
        get cleared() {
          return !fired && timer?._destroyed === true;
        },
        settle,
        /** Runs it now, in virtual time, unless it ran or the app cleared it. */
        fire() {
          if (fired || timer?._destroyed === true) return false;
          global.clearTimeout(timer);
          run();
          return true;
        },
      });
      return timer;
    };
    try {
      return fn();
    } finally {
      global.setTimeout = original;
    }
  }

  /** Runs `fn` (a native input) and gives the timers the app started while its events were delivered. */
  async _capturingTimers(fn) {
    const timers = [];
    this.#capturing = timers;
    try {
      await fn();
    } finally {
      this.#capturing = null;
    }
    return timers;
  }

  // MARK: Rendering

  /**
   * Mounts `element` in a new root view of the daemon, as AppRegistry.runApplication mounts an app (inside
   * AppContainer). Resolves to its Screen once the commit is applied and the work it caused settled; rejects with
   * the error of a component that threw (React's component stack as `error.componentStack`).
   */
  async render(element) {
    const { screen, caught } = this._mount(element);
    try {
      await this.settled();
    } catch (error) {
      // A render that failed leaves nothing behind: the screen was never handed out, so its root view goes too.
      await this.#unmountQuietly(screen);
      throw caught() ?? error;
    }
    return screen;
  }

  /**
   * The synchronous part of render(): a new root view, the element run into it (its commit queued, not yet sent).
   * `caught()`: the error of a component that threw, once React reported it. @internal (render, the jest preset)
   */
  _mount(element) {
    this.#assertOpen('render');
    const rootTag = this.#nextRoot;
    this.#nextRoot += 10;
    const tag = this.native.createRoot(rootTag);
    for (const event of this.#rootEvents()) this.native.enqueue({ op: 'subscribe', tag, event });
    const appKey = `bridged-root-${rootTag}`;
    const React = this.#React;
    const native = this.native;
    const app = this;
    let caught = null;
    class RenderErrorBoundary extends React.Component {
      state = { failed: false };
      static getDerivedStateFromError() {
        return { failed: true };
      }
      componentDidCatch(thrown, info) {
        const error = app.#explain(thrown);
        if (error !== null && typeof error === 'object' && info?.componentStack && error.componentStack === undefined) {
          try {
            error.componentStack = info.componentStack;
          } catch {}
        }
        caught = error;
        native.fail(error);
      }
      render() {
        return this.state.failed ? null : this.props.children;
      }
    }
    const holder = { element };
    function BridgedRoot() {
      return React.createElement(RenderErrorBoundary, null, holder.element);
    }
    this.#AppRegistry.registerComponent(appKey, () => BridgedRoot);
    const screen = new Screen(this, { rootTag, tag, appKey, holder });
    this.#screens.set(rootTag, screen);
    this._run(screen);
    return { screen, caught: () => caught };
  }

  /** Paper: unmounts a screen's root at once (its deletes queued, not yet sent). @internal (the jest preset) */
  _unmountNow(screen) {
    if (!this.#screens.has(screen.rootTag)) return;
    this.#screens.delete(screen.rootTag);
    this.#AppRegistry.unmountApplicationComponentAtRootTag(screen.rootTag);
  }

  /** The app's React. @internal (the jest preset) */
  get _React() {
    return this.#React;
  }

  async #unmountQuietly(screen) {
    try {
      await screen.unmount();
    } catch {}
  }

  /**
   * Runs a screen's root component as AppRegistry.runApplication runs an app (Fabric roots are concurrent, as React
   * Native 0.72 makes them); what it throws is reported by the next settled().
   */
  _run(screen) {
    const parameters = { rootTag: screen.rootTag, initialProps: {} };
    if (this.#fabric) Object.assign(parameters, { fabric: true, concurrentRoot: true });
    try {
      quietly(() => this.#AppRegistry.runApplication(screen.appKey, parameters), this.global.console);
    } catch (error) {
      this.native.fail(error);
    }
  }

  /** Unmounts a screen's root: every view of it, the root view too, leaves the daemon. */
  async _unmount(screen) {
    if (!this.#screens.has(screen.rootTag)) return;
    this.#screens.delete(screen.rootTag);
    if (this.#fabric) {
      // The surface stops: the renderer empties it, then its root view is deleted (native's UIManager::stopSurface).
      try {
        this.require('react-native/Libraries/Renderer/shims/ReactFabric').stopSurface(screen.rootTag);
        await this.native.settled(this.#scheduler);
      } finally {
        this.#fabric.stopSurface(screen.rootTag);
        await this.settled();
      }
      return;
    }
    try {
      this.#AppRegistry.unmountApplicationComponentAtRootTag(screen.rootTag);
    } catch (error) {
      this.native.fail(error);
    }
    await this.settled();
  }

  /**
   * Every native event delivered, every handler run and every re-render applied in the daemon; then each
   * screen's snapshot of the daemon's tree is brought up to date. Does not wait for the app's own timers.
   */
  async settled() {
    this.#assertOpen('settled');
    await this.native.settled(this.#scheduler);
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  /**
   * React Native Testing Library's `waitFor`: runs `expectation` (a function that throws, or rejects, while what it
   * expects is not there yet) after each settled change, or every `interval` ms while nothing settles, until it
   * returns; resolves with what it returned. After `timeout` ms (default 1,000) rejects with its last error.
   */
  async waitFor(expectation, { timeout = 1000, interval = 50 } = {}) {
    this.#assertOpen('waitFor');
    if (typeof expectation !== 'function') throw new TypeError('app.waitFor(expectation): a function that throws until what it expects is there');
    const deadline = Date.now() + timeout;
    await this.settled();
    for (;;) {
      try {
        return await expectation();
      } catch (error) {
        if (Date.now() >= deadline) throw error;
      }
      await this._nextChange(Math.min(interval, Math.max(0, deadline - Date.now())));
    }
  }

  /**
   * React Native Testing Library's `waitForElementToBeRemoved`: `query` (a queryBy*, queryAllBy* or getBy* call)
   * must find something at first; resolves once it finds nothing (null, an empty list, or it throws), checked as
   * waitFor checks. After `timeout` ms (default 1,000) rejects: it is still there.
   */
  async waitForElementToBeRemoved(query, options = {}) {
    this.#assertOpen('waitForElementToBeRemoved');
    const found = () => {
      try {
        const result = query();
        return Array.isArray(result) ? result.length > 0 : result != null;
      } catch {
        return false;
      }
    };
    await this.settled();
    if (!found()) throw new Error('app.waitForElementToBeRemoved(): the query finds nothing at first: nothing to wait for the removal of');
    await this.waitFor(() => {
      if (found()) throw new Error(`app.waitForElementToBeRemoved(): still there after ${options.timeout ?? 1000} ms`);
    }, options);
  }

  /** Waits for a settled change or `within` ms, whichever comes first, then settles. @internal (for Screen's findBy*) */
  async _nextChange(within) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, within);
      this._nextSettle().then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    await this.settled();
  }

  /** Resolves at the next settled(). */
  _nextSettle() {
    return new Promise((resolve) => this.#waiters.add(resolve));
  }

  /** The app's React scheduler. @internal (for testing/actions.js) */
  get scheduler() {
    return this.#scheduler;
  }

  // MARK: Actions (testing/actions.js)

  press(handle, options) {
    return this.#actions.press(handle, options);
  }
  longPress(handle, options) {
    return this.#actions.longPress(handle, options);
  }
  pressAt(x, y, options) {
    return this.#actions.pressAt(x, y, options);
  }
  type(handle, text, options) {
    return this.#actions.type(handle, text, options);
  }
  clear(handle) {
    return this.#actions.clear(handle);
  }
  scrollTo(handle, offset) {
    return this.#actions.scrollTo(handle, offset);
  }
  toggle(handle) {
    return this.#actions.toggle(handle);
  }
  requestClose(handle) {
    return this.#actions.requestClose(handle);
  }
  goBack(options) {
    return this.#actions.goBack(options);
  }
  pullToRefresh(handle) {
    return this.#actions.pullToRefresh(handle);
  }
  layout(target, rect) {
    return this.#actions.layout(target, rect);
  }

  /**
   * The window as the phone shows it, once the app settled: a PNG (a Buffer) of `width × scale` by `height × scale`
   * pixels, drawn by the daemon with Cairo and Pango from its tree (protocol.md, "screenshot"); `scale` asks for
   * another. Needs the session's layout (openApp turns it on).
   */
  async screenshot({ scale } = {}) {
    await this.settled();
    if (!this._layoutState?.enabled) {
      throw new Error(`app.screenshot(): the session's layout is off (${this._layoutState?.reason ?? 'not turned on'}): nothing has a place to be drawn at`);
    }
    const { png } = await this.#bridge.screenshot({ scale });
    return png;
  }

  /** Delivers `topLayout` to the view of daemon tag `tag`, as RCTUIManager does after a layout pass. @internal (for app.layout) */
  _layout(tag, layout) {
    const rendererTag = this.native.rendererTag(tag);
    if (rendererTag === undefined) throw new Error(`app.layout(): no view of the app's with tag ${tag}`);
    this.#deliver(rendererTag, 'topLayout', { layout });
  }

  /** The screens rendered and not unmounted. */
  _screens() {
    return [...this.#screens.values()];
  }

  /** The daemon's tag of a ref's host instance, a renderer tag or a handle; null when it has none. */
  findNodeHandle(instance) {
    if (instance == null) return null;
    if (typeof instance === 'object' && typeof instance.tag === 'number' && 'component' in instance) return instance.tag;
    const ReactNative = this.require(`react-native/Libraries/Renderer/shims/${this.#fabric ? 'ReactFabric' : 'ReactNative'}`);
    const rendererTag = typeof instance === 'number' ? instance : ReactNative.findNodeHandle(instance);
    if (rendererTag == null) return null;
    return this.native.daemonTag(rendererTag) ?? null;
  }

  /**
   * The host components the app asked for that nothing checks: those served untyped (no spec) and those the daemon
   * could not serve (each failed its render).
   */
  unknownComponents() {
    return [...new Set([...this.#untyped, ...this.#unserved])];
  }

  /**
   * The props the app's React Native sent that the daemon's components do not declare, by component: left out
   * of what native received (an app of another React Native version may send props bridged does not know yet).
   */
  unknownProps() {
    return Object.fromEntries([...this.#unknownProps].map(([component, props]) => [component, [...props].sort()]));
  }

  /** Every root unmounted, the renderer's events no longer heard; globals and the require hook removed. */
  async close() {
    if (this.#closed) return;
    let failure = null;
    for (const screen of [...this.#screens.values()]) {
      try {
        await screen.unmount();
      } catch (error) {
        failure ??= error;
      }
    }
    this._teardown();
    if (failure) throw failure;
  }

  _teardown() {
    this.#closed = true;
    this.native.detach();
    this.#bridge.off('change', this.#onChange);
    if (this._liveTree.session !== null && !this.#bridge.closed) this.#bridge.request({ op: 'unobserve', session: this._liveTree.session }).catch(() => {});
    this.#hook?.remove();
    if (this.#onRejection) process.off('unhandledRejection', this.#onRejection);
    this.#onRejection = null;
    this.#disposeTransformer?.();
    this.#removeGlobals?.();
    this.#removeGlobals = null;
  }

  #assertOpen(what) {
    if (this.#closed) throw new Error(`app.${what}(): the app is closed`);
  }
}

/** Runs `fn` without AppRegistry's `Running "…" with {…}` line on the console. */
function quietly(fn, console = globalThis.console) {
  const log = console.log;
  console.log = (...args) => {
    if (typeof args[0] === 'string' && args[0].startsWith('Running "')) return;
    log(...args);
  };
  try {
    return fn();
  } finally {
    console.log = log;
  }
}

function interop(module) {
  return module && module.__esModule && module.default ? module.default : module;
}

/** The first file in `stack` outside React Native's own component machinery: who asked for a component. */
function callerFile(stack, self) {
  const files = [...String(stack).matchAll(/\(?((?:\/|[A-Za-z]:\\)[^():]+):\d+:\d+\)?/g)].map((m) => m[1]);
  return (
    files.find((f) => f !== self && !/[\\/]react-native[\\/]Libraries[\\/](?:ReactNative|Utilities|NativeComponent|Renderer)[\\/]/.test(f) && !f.includes('bridged-client') && !f.includes('js-client')) ?? null
  );
}

/** What a prompt gives its callback: `value`, else its `defaultValue` (`{ login, password }` for `login-password`); nothing for an alert. */
function promptValue(args, value) {
  if (!args.type || args.type === 'default') return undefined;
  if (value !== undefined) return value;
  return args.type === 'login-password' ? { login: args.defaultValue ?? '', password: '' } : (args.defaultValue ?? '');
}
