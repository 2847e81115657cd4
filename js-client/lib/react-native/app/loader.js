// Loading an app's React Native: openApp's require hook over the app's root (require-hook.js, with its transformer
// and transform cache), then the package itself, through that hook or another loader (jest's module registry under
// the bridged-client preset), with what React Native's InitializeCore would have set.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createFabricUIManager } from '../fabric.js';
import { setAppGlobal } from './globals.js';
import { RequireHook } from './require-hook.js';
import { TransformCache } from './transform-cache.js';
import { createTransformer } from './transformer.js';
import { interop } from './components.js';

/**
 * openApp's loader: the require hook over the app's `root` (the app's Babel, or Debian's; the transform cache
 * `cache`, false for none). `loader` is `{require, resolve}` from the root; `install()` puts the hook in place,
 * `remove()` takes it away and ends the transformer.
 */
export function hookLoader({ root, platform, cache, rendererAsShipped }) {
  const transformer = createTransformer({ root, platform });
  try {
    const transformCache = new TransformCache(cache ?? undefined);
    const hook = new RequireHook({
      root,
      platform,
      transformer,
      cache: transformCache,
      rendererAsShipped: rendererAsShipped === true,
    });
    return {
      transformer: transformer.kind,
      transformCache,
      loader: { require: (id) => hook.require(id), resolve: (id) => hook.resolveFromRoot(id) },
      install: () => hook.install(),
      remove() {
        hook.remove();
        transformer.dispose?.();
      },
    };
  } catch (error) {
    transformer.dispose?.();
    throw error;
  }
}

/** The version of the app's react-native package (`{major, minor, patch, prerelease}`); an error when it has none. */
export function reactNativeVersion(loader, root) {
  try {
    loader.resolve('react-native');
  } catch {
    throw new Error(
      `openApp: the app at ${root} has no react-native package (node_modules/react-native): install it, or pass ` +
        '{ root } of an app that has one',
    );
  }
  try {
    const folder = path.dirname(loader.resolve('react-native/package.json'));
    const { version } = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const [major, minor, patch] = version.split(/[.-]/).map(Number);
    return { major, minor, patch, prerelease: version.includes('-') ? version.split('-')[1] : null };
  } catch {
    return { major: 0, minor: 0, patch: 0, prerelease: null };
  }
}

/** Whether the app is an Expo app: expo-modules-core in its node_modules (modules/expo.js). */
export function isExpoApp(loader) {
  try {
    loader.resolve('expo-modules-core/package.json');
    return true;
  } catch {
    return false;
  }
}

/** Fabric: the nativeFabricUIManager the package's ReactFabric commits through; each view is checked first. */
export function fabricUIManager(native, beforeCreate) {
  const manager = createFabricUIManager(native);
  const createNode = manager.createNode;
  manager.createNode = function (tag, viewName, ...rest) {
    beforeCreate(viewName);
    return createNode.call(this, tag, viewName, ...rest);
  };
  return manager;
}

/** `id` required through `loader`, or undefined when it is not there (a module of another React Native version). */
export function optional(loader, id) {
  try {
    return loader.require(id);
  } catch (error) {
    if (error?.code === 'MODULE_NOT_FOUND' && String(error.message).includes(id)) return undefined;
    throw error;
  }
}

/**
 * Loads the app's React Native through `loader`, its globals already installed: its polyfills, its view config
 * registry answering from static view configs, `components`' and `host`'s hooks on requireNativeComponent and
 * TurboModuleRegistry, then React, the scheduler, AppRegistry and the renderer. Resolves what the app runs on:
 * `{React, scheduler, AppRegistry, eventEmitter}` (the renderer's RCTEventEmitter).
 *
 * @param {{require(id: string): any, resolve(id: string): string}} loader
 * @param {object} parts
 * @param {object} parts.global the global object the app's code sees
 * @param {import('./components.js').HostComponents} parts.components
 * @param {import('./native-host.js').NativeHost} parts.host
 */
export function loadReactNative(loader, { global, components, host }) {
  optional(loader, '@react-native/js-polyfills/error-guard');
  const regenerator = optional(loader, 'regenerator-runtime/runtime');
  if (regenerator && global.regeneratorRuntime === undefined) setAppGlobal('regeneratorRuntime', regenerator, global);
  // Core components use their static view configs (what the package itself declares); the ones React Native
  // builds with codegenNativeComponent ask UIManager, which answers from hello.
  const registry = optional(loader, 'react-native/Libraries/NativeComponent/NativeComponentRegistry');
  registry?.setRuntimeConfigProvider?.(() => ({ native: false, strict: false, verify: false }));
  components.wrapRequireNativeComponent(loader);
  host.explainMissingModules(optional(loader, 'react-native/Libraries/TurboModule/TurboModuleRegistry'));
  const React = loader.require('react');
  const scheduler = loader.require('scheduler');
  const AppRegistry = loader.require('react-native/Libraries/ReactNative/AppRegistry');
  // Loading the renderer registers its RCTEventEmitter with the app's BatchedBridge.
  loader.require('react-native/Libraries/Renderer/shims/ReactNative');
  const BatchedBridge = loader.require('react-native/Libraries/BatchedBridge/BatchedBridge');
  const eventEmitter = BatchedBridge.getCallableModule('RCTEventEmitter');
  host.start(loader);
  if (!eventEmitter) throw new Error("openApp: the app's React Native renderer registered no RCTEventEmitter");
  initializeCore(loader, global);
  return { React, scheduler, AppRegistry, eventEmitter };
}

/**
 * What React Native's InitializeCore sets that applies headless (it is not run: it needs a packager), as it sets
 * it: `alert(text)` (setUpAlert: Alert.alert('Alert', text)), `navigator.product` (setUpNavigator), the global
 * error handler reporting to ExceptionsManager (setUpErrorHandling). Node's own timers, promises and fetch serve.
 * Removed by close() with the other globals.
 */
function initializeCore(loader, global) {
  const Alert = interop(optional(loader, 'react-native/Libraries/Alert/Alert'));
  if (Alert && typeof Alert.alert === 'function') {
    setAppGlobal(
      'alert',
      function alert(text) {
        Alert.alert('Alert', '' + text);
      },
      global,
    );
  }
  if (global.navigator === undefined) setAppGlobal('navigator', { product: 'ReactNative' }, global);
  else if (global.navigator?.product !== 'ReactNative') {
    try {
      Object.defineProperty(global.navigator, 'product', { value: 'ReactNative', configurable: true });
    } catch {}
  }
  const ErrorUtils = global.ErrorUtils;
  const ExceptionsManager = optional(loader, 'react-native/Libraries/Core/ExceptionsManager');
  if (ErrorUtils?.setGlobalHandler && ExceptionsManager?.handleException) {
    ErrorUtils.setGlobalHandler((error, isFatal) => ExceptionsManager.handleException(error, isFatal));
  }
}
