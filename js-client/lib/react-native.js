// bridged-client/react-native: React Native's own renderer, from the app's node_modules, rendering into
// bridged under plain Node. attachReactNative(bridge) loads ReactNativeRenderer-dev.js unchanged with the
// app's React and scheduler, supplies what it imports (ReactNativePrivateInterface, backed by the bridge) and
// gives React Native's surface: View, Text, requireNativeComponent, render, dispatchCommand, findNodeHandle,
// settled. With `architecture: 'fabric'` it loads ReactFabric-dev.js instead, with a nativeFabricUIManager
// (react-native/fabric.js) passed to the renderer's module as a parameter, never set as a global.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { NativeSide } from './react-native/native-side.js';
import { createPaperUIManager } from './react-native/paper.js';
import { appArchitecture } from './react-native/architecture.js';
import { createFabricUIManager } from './react-native/fabric.js';
import { processColor } from './react-native/process-color.js';
import { deepDiffer, deepFreezeAndThrowOnMutationInDev, flattenStyle } from './react-native/style.js';
import { ViewConfigRegistry, viewConfigFor } from './react-native/view-configs.js';

export { processColor } from './react-native/process-color.js';
export { createPaperUIManager } from './react-native/paper.js';
export { NativeSide } from './react-native/native-side.js';
export { playTrace } from './react-native/trace.js';
export { ViewConfigRegistry, viewConfigFor } from './react-native/view-configs.js';
export { createFabricUIManager } from './react-native/fabric.js';
export { playFabricTrace } from './react-native/fabric-trace.js';
export { appArchitecture } from './react-native/architecture.js';

const PAPER = 'react-native/Libraries/Renderer/implementations/ReactNativeRenderer-dev.js';
const FABRIC = 'react-native/Libraries/Renderer/implementations/ReactFabric-dev.js';
const PRIVATE_INTERFACE = 'react-native/Libraries/ReactPrivate/ReactNativePrivateInterface';
const INITIALIZE_CORE = 'react-native/Libraries/ReactPrivate/ReactNativePrivateInitializeCore';

/** The app's module `id`, resolved from `from` (process.cwd()), or undefined when it has none. */
function resolveFrom(from, id) {
  try {
    return createRequire(path.join(from, 'noop.js')).resolve(id);
  } catch {
    return undefined;
  }
}

function loadFrom(from, id, what) {
  const resolved = resolveFrom(from, id);
  if (!resolved) {
    throw new Error(`attachReactNative: ${what} ('${id}') cannot be resolved from ${from}; pass it as an option`);
  }
  return createRequire(path.join(from, 'noop.js'))(resolved);
}

/** Where the renderer file is: the option, else the app's react-native, else $BRIDGED_RN_RENDERER. */
function rendererPath(option, from, architecture) {
  if (option) return path.resolve(option);
  const fromApp = resolveFrom(from, architecture === 'fabric' ? FABRIC : PAPER);
  if (fromApp) return fromApp;
  const fromEnv = architecture === 'fabric' ? process.env.BRIDGED_RN_FABRIC_RENDERER : process.env.BRIDGED_RN_RENDERER;
  if (fromEnv) return path.resolve(fromEnv);
  throw new Error(
    `attachReactNative: no React Native renderer: '${architecture === 'fabric' ? FABRIC : PAPER}' cannot be resolved from ${from}; ` +
      'install react-native in the app, or pass { renderer: <path> }',
  );
}

/**
 * Evaluates a renderer file as a CommonJS module whose `require` gives only what bridged supplies, with
 * `__DEV__` and `nativeFabricUIManager` as the module's own bindings (no global is set).
 */
function evaluateRenderer(file, modules, { fabricUIManager } = {}) {
  const source = readFileSync(file, 'utf8');
  const run = vm.compileFunction(
    source,
    ['exports', 'require', 'module', '__filename', '__dirname', '__DEV__', 'nativeFabricUIManager'],
    { filename: file },
  );
  const module = { exports: {} };
  const require = (id) => {
    if (Object.hasOwn(modules, id)) return modules[id];
    throw new Error(`the React Native renderer at ${file} requires '${id}', which bridged does not supply`);
  };
  run.call(module.exports, module.exports, require, module, file, path.dirname(file), true, fabricUIManager);
  return module.exports;
}

/** React Native's host components over an attachment: View, Text (RCTText or RCTVirtualText by context). */
function hostComponents(React) {
  const { createElement, createContext, forwardRef, useContext } = React;
  const TextAncestor = createContext(false);
  const View = forwardRef(function View(props, ref) {
    const element = createElement('RCTView', { ...props, ref });
    return useContext(TextAncestor) ? createElement(TextAncestor.Provider, { value: false }, element) : element;
  });
  View.displayName = 'View';
  const Text = forwardRef(function Text(props, ref) {
    if (useContext(TextAncestor)) return createElement('RCTVirtualText', { ...props, ref });
    return createElement(TextAncestor.Provider, { value: true }, createElement('RCTText', { ...props, ref }));
  });
  Text.displayName = 'Text';
  return { View, Text, TextAncestor };
}

/**
 * The app's scheduler as the renderer sees it: the same, except that an exception a task throws (React rethrows
 * a render's uncaught error from its scheduled work) goes to `onError`, for render()/settled() to reject with,
 * instead of becoming the process's uncaught exception.
 */
function guardedScheduler(scheduler, onError) {
  const guard = (callback) =>
    function guarded(didTimeout) {
      try {
        const next = callback(didTimeout);
        return typeof next === 'function' ? guard(next) : next;
      } catch (error) {
        onError(error);
        return null;
      }
    };
  return { ...scheduler, unstable_scheduleCallback: (priority, callback, options) => scheduler.unstable_scheduleCallback(priority, guard(callback), options) };
}

/** The modules the renderer imports, for one attachment. */
function privateModules({ React, scheduler, UIManager, registry, emitter, onError }) {
  class CustomEvent {
    constructor(type, options = {}) {
      this.type = type;
      this.detail = options.detail;
    }
    setSyntheticEvent(event) {
      this._syntheticEvent = event;
    }
    stopPropagation() {
      this._syntheticEvent?.stopPropagation();
    }
    preventDefault() {
      this._syntheticEvent?.preventDefault();
    }
  }
  const ReactNativePrivateInterface = {
    UIManager,
    RCTEventEmitter: { register: (module) => emitter.register(module) },
    ReactNativeViewConfigRegistry: registry,
    deepDiffer,
    flattenStyle,
    deepFreezeAndThrowOnMutationInDev,
    TextInputState: {
      blurTextInput() {},
      focusTextInput() {},
      currentlyFocusedInput: () => null,
      currentlyFocusedField: () => null,
    },
    ReactFiberErrorDialog: {
      showErrorDialog(captured) {
        // An error no boundary caught surfaces from render()/settled(); one a boundary caught is the app's.
        if (captured.errorBoundary == null) {
          onError(captured.error);
          return false;
        }
        return true;
      },
    },
    legacySendAccessibilityEvent() {},
    CustomEvent,
    BatchedBridge: { registerCallableModule() {} },
    ExceptionsManager: { handleException: (error) => onError(error) },
    Platform: { OS: 'ios', select: (choices) => choices.ios ?? choices.native ?? choices.default },
    RawEventEmitter: { emit() {} },
    ReactNativeViewConfigRegistryGet: registry.get.bind(registry),
    processColor,
  };
  return {
    react: React,
    scheduler,
    [PRIVATE_INTERFACE]: ReactNativePrivateInterface,
    [INITIALIZE_CORE]: {},
  };
}

/**
 * A fresh copy of a paper renderer file over the given UIManager and view config registry (what
 * attachReactNative does, and the bench with a UIManager that does nothing: the renderer's own cost).
 * `emitter.register(module)` receives the renderer's `receiveEvent`.
 */
export function loadRenderer(file, { React, scheduler, UIManager, registry, emitter = { register() {} }, onError = () => {} }) {
  const modules = privateModules({
    React,
    scheduler: guardedScheduler(scheduler, onError),
    UIManager,
    registry,
    emitter,
    onError,
  });
  return evaluateRenderer(file, modules);
}

/**
 * Attaches React Native's renderer to `bridge`.
 *
 * @param {import('./bridge.js').Bridge} bridge a connected Bridge (its `hello` describes the components)
 * @param {object} [options]
 * @param {string} [options.renderer] the renderer file (default: the app's react-native, from `cwd`)
 * @param {object} [options.react] the app's React (default: `react` from `cwd`)
 * @param {object} [options.scheduler] the app's scheduler (default: `scheduler` from `cwd`)
 * @param {string} [options.cwd] where the app's node_modules are resolved from (default: process.cwd())
 * @param {Array<object>} [options.trace] an array the calls of the renderer and the events it received are
 *   appended to (a recorded trace, see playTrace)
 * @param {'paper'|'fabric'|'auto'} [options.architecture] which renderer: paper (ReactNativeRenderer, default),
 *   Fabric (ReactFabric, its `nativeFabricUIManager` passed to the module, never set as a global), or the one the
 *   app enables (appArchitecture)
 * @param {boolean} [options.concurrentRoot] Fabric: render roots as concurrent roots (default true)
 * @param {Function} [options.fabricUIManager] Fabric: makes the `nativeFabricUIManager` from the NativeSide
 *   (default createFabricUIManager; to wrap or stand in for it, as bench/react-native-fabric.mjs does)
 */
export async function attachReactNative(bridge, options = {}) {
  if (!bridge || typeof bridge.request !== 'function') throw new TypeError('attachReactNative(bridge): bridge is a connected Bridge');
  const from = options.cwd ?? process.cwd();
  const architecture = options.architecture === 'auto' ? appArchitecture(from) : (options.architecture ?? 'paper');
  if (architecture !== 'paper' && architecture !== 'fabric') {
    throw new Error(`attachReactNative: architecture '${architecture}' is not one of 'paper', 'fabric', 'auto'`);
  }
  const React = options.react ?? loadFrom(from, 'react', "the app's React");
  const scheduler = options.scheduler ?? loadFrom(from, 'scheduler', "the app's scheduler");
  const file = rendererPath(options.renderer, from, architecture);
  const native = new NativeSide(bridge, { trace: options.trace });
  const registry = new ViewConfigRegistry();
  const components = native.components;
  for (const name of Object.keys(components)) registry.register(name, () => viewConfigFor(name, components));
  let emitterModule = null;
  const emitter = { register: (module) => (emitterModule = module) };
  const UIManager = createPaperUIManager(native);
  const modules = privateModules({
    React,
    scheduler: guardedScheduler(scheduler, (e) => native.fail(e)),
    UIManager,
    registry,
    emitter,
    onError: (e) => native.fail(e),
  });
  if (architecture === 'fabric') {
    // The renderer registers its event handler with the manager, which hands it the daemon's events.
    const fabricUIManager = (options.fabricUIManager ?? createFabricUIManager)(native);
    const renderer = evaluateRenderer(file, modules, { fabricUIManager });
    const concurrentRoot = options.concurrentRoot ?? true;
    return new FabricAttachment({ bridge, React, scheduler, renderer, native, registry, file, fabricUIManager, concurrentRoot });
  }
  const renderer = evaluateRenderer(file, modules);
  native.deliver = (target, type, nativeEvent) => emitterModule.receiveEvent(target, type, nativeEvent);
  return new ReactNativeAttachment({ bridge, React, scheduler, renderer, native, registry, file });
}

/** A root view rendered into by an attachment. */
class Root {
  #attachment;
  #rootTag;
  tag;

  constructor(attachment, rootTag, tag) {
    this.#attachment = attachment;
    this.#rootTag = rootTag;
    this.tag = tag;
  }

  /** The renderer's tag of the root (1, 11, 21, …). */
  get rootTag() {
    return this.#rootTag;
  }

  /** Renders `element` into this root; resolves once the daemon applied the commit. */
  render(element) {
    return this.#attachment._renderInto(this.#rootTag, element);
  }

  /** Unmounts the root: every view of it, the root view too, is deleted. */
  unmount() {
    return this.#attachment._unmount(this.#rootTag);
  }
}

class ReactNativeAttachment {
  #scheduler;
  #renderer;
  #native;
  #registry;
  #nextRoot = 1;
  #roots = new Map();
  View;
  Text;
  TextAncestor;
  /** The renderer file this attachment loaded. */
  rendererPath;

  constructor({ bridge, React, scheduler, renderer, native, registry, file }) {
    this.#scheduler = scheduler;
    this.#renderer = renderer;
    this.#native = native;
    this.#registry = registry;
    this.rendererPath = file;
    Object.assign(this, hostComponents(React));
    this.requireNativeComponent = this.requireNativeComponent.bind(this);
    this.dispatchCommand = this.dispatchCommand.bind(this);
    this.findNodeHandle = this.findNodeHandle.bind(this);
  }

  get architecture() {
    return 'paper';
  }

  /** The renderer's own exports (ReactNativeRenderer): for what this surface does not wrap. */
  get renderer() {
    return this.#renderer;
  }

  /** The host component of a component the daemon serves, as React Native's requireNativeComponent gives it. */
  requireNativeComponent(name) {
    viewConfigFor(name, this.#native.components); // throws for a component the daemon does not serve
    return this.#registry.register(name, () => viewConfigFor(name, this.#native.components));
  }

  /** Renders `element` into a new root view of the daemon; resolves to the root once the commit is applied. */
  async render(element) {
    const rootTag = this.#nextRoot;
    this.#nextRoot += 10;
    const tag = this.#native.createRoot(rootTag);
    const root = new Root(this, rootTag, tag);
    this.#roots.set(rootTag, root);
    await this._renderInto(rootTag, element);
    return root;
  }

  async _renderInto(rootTag, element) {
    try {
      this.#renderer.render(element, rootTag);
    } catch (error) {
      this.#native.fail(error);
    }
    await this.#native.commit();
  }

  async _unmount(rootTag) {
    try {
      this.#renderer.unmountComponentAtNodeAndRemoveContainer(rootTag);
    } catch (error) {
      this.#native.fail(error);
    }
    this.#roots.delete(rootTag);
    await this.#native.commit();
  }

  /** Sends a command to a host component's view, as codegenNativeCommands does (the renderer's dispatchCommand). */
  dispatchCommand(ref, name, args = []) {
    this.#renderer.dispatchCommand(ref, name, args);
  }

  /**
   * Sends a `command` or `emit` request on one of this attachment's views (`tag`: its daemon tag) as a user or
   * native code would cause it; recorded in the trace. Resolves once the daemon answered and the events it
   * caused were handed to React.
   */
  native(frame) {
    return this.#native.stimulate(frame);
  }

  /** The daemon's tag of a host component instance (or a ref's current value); a number is returned as it is. */
  findNodeHandle(instance) {
    if (instance == null) return null;
    if (typeof instance === 'number') return instance;
    const rendererTag = this.#renderer.findNodeHandle(instance);
    if (rendererTag == null) return null;
    return this.#native.daemonTag(rendererTag) ?? null;
  }

  /** Every queued call applied, every event delivered and the work it caused applied; rejects with an error not yet reported. */
  settled() {
    return this.#native.settled(this.#scheduler);
  }

  /** Unmounts every root and stops hearing the bridge's events. */
  async detach() {
    for (const rootTag of [...this.#roots.keys()]) await this._unmount(rootTag);
    this.#native.detach();
  }
}

/**
 * An attachment of React Native's Fabric renderer (ReactFabric): roots are surfaces rendered with a concurrent
 * root, as React Native 0.72 does under the new architecture (RCTAppDelegate's `concurrentRoot`), unless
 * `concurrentRoot: false`; render() resolves once the work it caused is applied.
 */
class FabricAttachment extends ReactNativeAttachment {
  #native;
  #scheduler;
  #manager;
  #concurrentRoot;

  constructor(args) {
    super(args);
    this.#native = args.native;
    this.#scheduler = args.scheduler;
    this.#manager = args.fabricUIManager;
    this.#concurrentRoot = args.concurrentRoot;
  }

  get architecture() {
    return 'fabric';
  }

  async _renderInto(rootTag, element) {
    try {
      this.renderer.render(element, rootTag, null, this.#concurrentRoot);
    } catch (error) {
      this.#native.fail(error);
    }
    await this.#native.settled(this.#scheduler);
  }

  /** Stops the surface: the renderer empties it, then its root view is deleted. A stopped root stays stopped. */
  async _unmount(rootTag) {
    if (this.#native.daemonTag(rootTag) === undefined) return;
    try {
      this.renderer.stopSurface(rootTag);
      await this.#native.settled(this.#scheduler);
    } finally {
      this.#manager.stopSurface(rootTag);
      await this.#native.commit();
    }
  }
}

export { openApp, App } from './react-native/app/open-app.js';
