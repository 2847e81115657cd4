// bridged-client/react-native: React Native over bridged under plain Node, composed from the wing's folders:
//   app/        openApp: an app's own code and react-native package (resolution, transform, cache, assets, globals)
//   modules/    the native modules that package asks for, one file each
//   testing/    queries on the daemon's tree and a user's actions
//   renderer/   the renderer file alone (attachReactNative): loading it, its host components, the attachments
//   paper.js, fabric.js   the renderers' UIManagers over one NativeSide (native-side.js), measuring (no-layout.js)
// attachReactNative(bridge) loads ReactNativeRenderer-dev.js unchanged with the app's React and scheduler; with
// `architecture: 'fabric'`, ReactFabric-dev.js, its nativeFabricUIManager passed as a parameter, never a global.

import { NativeSide } from './react-native/native-side.js';
import { createPaperUIManager } from './react-native/paper.js';
import { appArchitecture } from './react-native/architecture.js';
import { createFabricUIManager } from './react-native/fabric.js';
import { ViewConfigRegistry, viewConfigFor } from './react-native/view-configs.js';
import { evaluateRenderer, guardedScheduler, loadFrom, privateModules, rendererPath } from './react-native/renderer/load.js';
import { FabricAttachment, ReactNativeAttachment } from './react-native/renderer/attachment.js';
import { enableNativeLayout, yogaBeside } from './react-native/app/layout.js';

export { processColor } from './react-native/process-color.js';
export { createPaperUIManager } from './react-native/paper.js';
export { NativeSide } from './react-native/native-side.js';
export { playTrace } from './react-native/trace.js';
export { ViewConfigRegistry, viewConfigFor } from './react-native/view-configs.js';
export { createFabricUIManager } from './react-native/fabric.js';
export { playFabricTrace } from './react-native/fabric-trace.js';
export { appArchitecture } from './react-native/architecture.js';
export { loadRenderer } from './react-native/renderer/load.js';

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
 * @param {boolean} [options.rendererAsShipped] load the renderer file untouched, without linear-paper.js's two
 *   changes (paper) and dev-overhead.cjs's (a development build) (default false)
 * @param {Function} [options.fabricUIManager] Fabric: makes the `nativeFabricUIManager` from the NativeSide
 *   (default createFabricUIManager; to wrap or stand in for it, as bench/react-native-fabric.mjs does)
 * @param {boolean|{yoga?: string, window?: object}} [options.layout] turn the session's layout on with Yoga from the
 *   react-native package the renderer file is in (or `yoga`, a ReactCommon/yoga) and a window (default an iPhone
 *   14's): onLayout gets real frames and measure answers them (app/layout.js). Default off;
 *   `attachment._layoutState` says whether it is on, or why not
 * @param {number} [options.streamOps] a commit's ops go out while it is built, this many at a time, as parts of its
 *   batch that the daemon runs as they come and commits with the commit's last part (default 1024; Infinity: each
 *   commit whole)
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
  if (options.streamOps !== undefined) {
    if (!(options.streamOps === Infinity || (Number.isSafeInteger(options.streamOps) && options.streamOps >= 1))) {
      throw new TypeError(`attachReactNative: streamOps must be a whole number of ops, 1 or more, or Infinity (got ${options.streamOps})`);
    }
    native.streamOps = options.streamOps;
  }
  // Before the view configs are made: with layout on, every component's `onLayout` is an event the daemon sends.
  const layout = options.layout ? await attachLayout(bridge, native, file, options.layout) : { enabled: false, reason: 'not asked for' };
  const registry = new ViewConfigRegistry();
  const components = native.components;
  for (const name of Object.keys(components)) registry.register(name, () => viewConfigFor(name, components, native.propTypes));
  let emitterModule = null;
  const emitter = { register: (module) => (emitterModule = module) };
  const UIManager = (options.paperUIManager ?? createPaperUIManager)(native);
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
    return Object.assign(new FabricAttachment({ bridge, React, scheduler, renderer, native, registry, file, fabricUIManager, concurrentRoot }), { _layoutState: layout });
  }
  const renderer = evaluateRenderer(file, modules, { asShipped: options.rendererAsShipped === true });
  native.deliver = (target, type, nativeEvent) => emitterModule.receiveEvent(target, type, nativeEvent);
  return Object.assign(new ReactNativeAttachment({ bridge, React, scheduler, renderer, native, registry, file }), { _layoutState: layout });
}

/** The renderer-alone mode's layout (`options.layout`): Yoga from the package the renderer file is in. */
async function attachLayout(bridge, native, file, option) {
  const yoga = option.yoga ?? yogaBeside(file);
  if (!yoga) return { enabled: false, reason: `no ReactCommon/yoga in a react-native package above ${file}` };
  return enableNativeLayout(bridge, native, { yoga, window: option.window });
}


export { openApp, App } from './react-native/app/open-app.js';
export { comparePng, decodePng, encodePng } from './react-native/testing/png.js';
export { within } from './react-native/testing/queries.js';
