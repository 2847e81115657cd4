// Loading React Native's renderer file alone (no app package): where it is (the app's node_modules, an option,
// $BRIDGED_RN_RENDERER), the modules it imports (ReactNativePrivateInterface, backed by an attachment), and the
// file evaluated as a CommonJS module whose `require` gives only those.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { processColor } from '../process-color.js';
import { withoutDevOverhead } from './dev-overhead.cjs';
import { linearPaperRenderer } from './linear-paper.js';
import { deepDiffer, deepFreezeAndThrowOnMutationInDev, flattenStyle } from '../style.js';

export const PAPER = 'react-native/Libraries/Renderer/implementations/ReactNativeRenderer-dev.js';
export const FABRIC = 'react-native/Libraries/Renderer/implementations/ReactFabric-dev.js';
const PRIVATE_INTERFACE = 'react-native/Libraries/ReactPrivate/ReactNativePrivateInterface';
const INITIALIZE_CORE = 'react-native/Libraries/ReactPrivate/ReactNativePrivateInitializeCore';

/** The app's module `id`, resolved from `from` (process.cwd()), or undefined when it has none. */
export function resolveFrom(from, id) {
  try {
    return createRequire(path.join(from, 'noop.js')).resolve(id);
  } catch {
    return undefined;
  }
}

export function loadFrom(from, id, what) {
  const resolved = resolveFrom(from, id);
  if (!resolved) {
    throw new Error(`attachReactNative: ${what} ('${id}') cannot be resolved from ${from}; pass it as an option`);
  }
  return createRequire(path.join(from, 'noop.js'))(resolved);
}

/** Where the renderer file is: the option, else the app's react-native, else $BRIDGED_RN_RENDERER. */
export function rendererPath(option, from, architecture) {
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
 * `__DEV__` and `nativeFabricUIManager` as the module's own bindings (no global is set). Unless `asShipped`, a paper
 * file is made linear in moved siblings (linear-paper.js) and a development file loses the bookkeeping
 * dev-overhead.cjs names.
 */
export function evaluateRenderer(file, modules, { fabricUIManager, asShipped = false } = {}) {
  let source = readFileSync(file, 'utf8');
  if (!asShipped) source = withoutDevOverhead(linearPaperRenderer(source).source).source;
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

/**
 * The app's scheduler as the renderer sees it: the same, except that an exception a task throws (React rethrows
 * a render's uncaught error from its scheduled work) goes to `onError`, for render()/settled() to reject with,
 * instead of becoming the process's uncaught exception.
 */
export function guardedScheduler(scheduler, onError) {
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
export function privateModules({ React, scheduler, UIManager, registry, emitter, onError }) {
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

