// openApp: an app's own code, unchanged, with bridged as its native side. `App` is a facade over the parts of an
// open app, one concern each:
// - loader.js: the app's modules through a require hook scoped to its root (require-hook.js), its React Native;
// - components.js: the app's specs defined in the daemon, its host components checked, served untyped or named;
// - native-host.js: the native modules its react-native package finds on `nativeModuleProxy` (../modules/), the
//   device events they emit, the alerts they show;
// - after-commit.js: what the native side does on its own once a commit is applied;
// - native-events.js: the daemon's events and touches delivered to the app's JavaScript (paper and Fabric);
// - timers.js: the timers the app starts meanwhile, for the actions' virtual time;
// - lifecycle.js: its screens (mount, unmount), settling and waiting, its unhandled rejections;
// - layout.js: the session's layout (Yoga from the app's package).
// A test drives it as a phone is driven (../testing/actions.js) and queries the daemon's native tree
// (../testing/queries.js, ../testing/screen.js).

import { realpathSync } from 'node:fs';
import path from 'node:path';
import { NativeSide } from '../native-side.js';
import { appArchitecture } from '../architecture.js';
import { NO_FRAME } from '../no-layout.js';
import { windowMetrics } from '../modules/safe-area-context.js';
import { Keyboard } from '../modules/keyboard-observer.js';
import { expoGlobals } from '../modules/expo.js';
import { Actions } from '../testing/actions.js';
import { LiveTree } from '../testing/live-tree.js';
import { AfterCommit } from './after-commit.js';
import { HostComponents } from './components.js';
import { installGlobals } from './globals.js';
import { enableLayout } from './layout.js';
import { fabricUIManager, hookLoader, isExpoApp, loadReactNative, reactNativeVersion } from './loader.js';
import { Rejections, Screens, Settling } from './lifecycle.js';
import { NativeEvents } from './native-events.js';
import { NativeHost } from './native-host.js';
import { TimerCapture } from './timers.js';

/** An iPhone 14's window: its size, scale and safe-area insets. */
const DEFAULT_WINDOW = Object.freeze({
  width: 390,
  height: 844,
  scale: 3,
  fontScale: 1,
  insets: Object.freeze({ top: 47, right: 0, bottom: 34, left: 0 }),
});

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
 * @param {boolean} [options.rendererAsShipped] load the package's renderer file untouched (default false)
 * @param {'light'|'dark'} [options.colorScheme] the phone's appearance, what `Appearance` and `useColorScheme()`
 *   answer until the app calls `Appearance.setColorScheme`: default 'light'
 * @param {'virtual'|'real'} [options.time] how the actions' waits pass: 'virtual' (default) runs the timers the app
 *   started for a touch (Pressability's long-press and press-out timers) when the hold or the press-out is due,
 *   without sleeping; 'real' sleeps as a finger would
 * @param {boolean} [options.defaultIncludeHiddenElements] whether queries find what is hidden from accessibility
 *   (a covered screen of a navigator, …) unless a query says: default false, as React Native Testing Library 12's
 */
export async function openApp(bridge, options = {}) {
  if (!bridge || typeof bridge.request !== 'function') {
    throw new TypeError('openApp(bridge): bridge is a connected Bridge');
  }
  const platform = options.platform ?? 'ios';
  const asked = options.architecture ?? 'paper';
  const architecture = asked === 'auto' ? appArchitecture(options.root ?? process.cwd()) : asked;
  if (architecture !== 'paper' && architecture !== 'fabric') {
    throw new Error(`openApp: architecture '${options.architecture}' is not one of 'paper', 'fabric', 'auto'`);
  }
  if (platform !== 'ios') {
    throw new Error(`openApp: platform '${platform}' is not served; bridged plays iOS's native side ('ios')`);
  }
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
  /** The global object the app's code sees (globalThis, or a jest test file's context). */
  global;
  reactNativeVersion = { major: 0, minor: 0, patch: 0, prerelease: null };
  #bridge;
  #options;
  /** How the app's modules load: `{require, resolve}` (the require hook's, or jest's registry's). */
  #loader = null;
  /** Removes openApp's require hook and ends its transformer. */
  #unhook = null;
  #removeGlobals = null;
  #closed = false;
  #onChange;
  #keyboard;
  #components;
  #host;
  #afterCommit;
  #events;
  #timers;
  #screens;
  #settling;
  #rejections;
  #actions;
  /** What the loaded React Native gives: `{React, scheduler, AppRegistry, eventEmitter, fabric}`. */
  #core = null;

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
    if (options.colorScheme !== undefined && options.colorScheme !== 'light' && options.colorScheme !== 'dark') {
      throw new TypeError(`openApp: colorScheme '${options.colorScheme}' is not 'light' or 'dark'`);
    }
    /** The phone's own appearance (Settings › Display): what Appearance answers until the app overrides it. */
    this.colorScheme = options.colorScheme ?? 'light';
    /** How many of the app's timers the actions ran when due in virtual time, rather than sleeping for them. */
    this.timersRunEarly = 0;
    this.global = options.global ?? globalThis;
    const insets = { ...DEFAULT_WINDOW.insets, ...(options.window?.insets ?? {}) };
    this.window = { ...DEFAULT_WINDOW, ...(options.window ?? {}), insets };
    this.native = new NativeSide(bridge, {
      ignoreUnservedHandlers: true,
      onUnknownProp: (component, prop) => this.#components.unknownProp(component, prop),
    });
    this.#components = new HostComponents(bridge, this.native);
    this.#host = new NativeHost(this);
    this.#keyboard = new Keyboard(
      this.window,
      (name, body) => this._emitFromNative(name, body),
      (rendererTag) => this.native.daemonTag(rendererTag) !== undefined,
    );
    /** The daemon's views the screens read: this session observed, each change frame applied as it is read. */
    this._liveTree = new LiveTree(() => this.native.components);
    this.#onChange = (frame) => this._liveTree.apply(frame);
    bridge.on('change', this.#onChange);
    this.#afterCommit = new AfterCommit({
      native: this.native,
      keyboard: this.#keyboard,
      architecture: this.architecture,
      emitDeviceEvent: (name, body) => this._emitFromNative(name, body),
      insets: () => windowMetrics(this),
    });
    this.native.onApplied = (ops) => this.#afterCommit.applied(ops);
    for (const [name, methods] of Object.entries(options.nativeModules ?? {})) {
      this.#host.modules.provide(name, methods);
    }
    this.#timers = new TimerCapture(this.global);
    this.#events = new NativeEvents({
      native: this.native,
      timers: this.#timers,
      keyboard: this.#keyboard,
      animated: () => this.#host.modules.get('NativeAnimatedModule')?._source,
      clock: () => this.global.performance.now(),
    });
    this.#screens = new Screens(this, this.native);
    this.#settling = new Settling(
      () => this.native.settled(this.#core?.scheduler ?? null),
      (what) => this.#assertOpen(what),
    );
    const fail = options.unhandledRejections === 'fail' ? (error) => this.native.fail(error) : null;
    this.#rejections = new Rejections((message) => this.global.console.warn(message), fail);
    this.#actions = new Actions(this);
  }

  get bridge() {
    return this.#bridge;
  }

  // MARK: Loading (components.js, loader.js)

  /**
   * Reads the specs of the app and its dependencies (codegen), serves their native modules from them, and adds their
   * components to this session of the daemon (`define`), so that the app's view configs and the daemon agree.
   */
  async _describeNative() {
    // The live tree starts from the session's snapshot (empty for a new session; a resumed one's views).
    // The jest preset's elements read a frame from the daemon when they need one (measure, a scroll's sizes), never
    // from the live tree: without `laidOut` frames the daemon lays a request out only when a frame is read.
    const layout = this.#options.layoutFrames !== false;
    this._liveTree.reset(await this.#bridge.request(LiveTree.observe(this.#bridge.session, { layout })));
    const { specPackages, specsSkipped } = await this.#components.describe(this.root, {
      cache: this.#options.cache,
      addModuleSpecs: (modules) => this.#host.modules.addSpecs(modules),
    });
    this.specPackages = specPackages;
    if (specsSkipped !== undefined) this.specsSkipped = specsSkipped;
  }

  /** Loads React Native's package of the app with its native modules and hooks the renderer's events. */
  _open() {
    const { root, platform } = this;
    const { cache, rendererAsShipped } = this.#options;
    const hooked = hookLoader({ root, platform, cache, rendererAsShipped });
    this.#unhook = hooked.remove;
    this.transformer = hooked.transformer;
    this.transformCache = hooked.transformCache;
    this.#rejections.listen();
    this._load(hooked.loader, hooked.install);
  }

  /**
   * Loads the app's React Native through `loader` (`require(id)`, `resolve(id)` from the app's root: openApp's require
   * hook, or jest's module registry under the bridged-client preset); `install()` runs once the package is found.
   * @internal
   */
  _load(loader, install = () => {}) {
    this.#loader = loader;
    this.reactNativeVersion = reactNativeVersion(loader, this.root);
    install();
    let fabric = null;
    if (this.architecture === 'fabric') {
      fabric = fabricUIManager(this.native, (viewName) => this._beforeCreate(viewName));
      this.#events.takeFabricDispatch();
    }
    // An Expo app (expo-modules-core in its node_modules): the modules its packages declare (modules/expo.js).
    this.isExpo = isExpoApp(loader);
    let expo;
    if (this.isExpo) {
      this.#host.modules.serveExpo();
      expo = expoGlobals(this);
    }
    this.#removeGlobals = installGlobals(this, {
      nativeModuleProxy: this.#host.modules.proxy(),
      nativeFabricUIManager: fabric ?? undefined,
      expo,
      target: this.global,
    });
    const parts = { global: this.global, components: this.#components, host: this.#host };
    this.#core = { ...loadReactNative(loader, parts), fabric };
    this.#events.eventEmitter = this.#core.eventEmitter;
    this.#events.start();
    const explain = (error) => this.#components.explain(error);
    this.#screens.loaded = { ...this.#core, explain };
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

  // MARK: Host components (components.js)

  /** @internal Under jest: a host element of a name no component has (a mocked native library) is served untyped. */
  _serveAnyHostType(loader) {
    this.#components.serveAnyHostType(loader);
  }

  /** @internal Whether the text input of daemon tag `tag` has the focus (the keyboard is up for it). */
  _hasFocus(tag) {
    const rendererTag = this.native.rendererTag(tag);
    return rendererTag !== undefined && this.#keyboard.has(rendererTag);
  }

  /** @internal Under jest: whether a host element of `type` takes strings among its children (a made-up host's do). */
  _holdsText(type) {
    return this.#components.holdsText(type);
  }

  /**
   * Before a view of `viewName` is created (paper's createView, Fabric's createNode): a component the daemon does
   * not serve is an error naming it; one served untyped is defined for the session when first created.
   */
  _beforeCreate(viewName) {
    this.#components.beforeCreate(viewName);
  }

  /**
   * The host components the app asked for that nothing checks: those served untyped (no spec) and those the daemon
   * could not serve (each failed its render).
   */
  unknownComponents() {
    return this.#components.unknown();
  }

  /** The native components served untyped (no spec): they take any prop, and nothing checks them. */
  untypedComponents() {
    return this.#components.untyped();
  }

  /**
   * The props the app's React Native sent that the daemon's components do not declare, by component: left out
   * of what native received (an app of another React Native version may send props bridged does not know yet).
   */
  unknownProps() {
    return this.#components.unknownProps();
  }

  // MARK: Native modules (native-host.js)

  /** AlertManager.alertWithArgs: the alert is kept until a test presses one of its buttons. @internal */
  _alertShown(args, callback) {
    this.#host.alerts.alert(args, callback);
  }

  /** ActionSheetManager.showActionSheetWithOptions: kept among the alerts until a button is pressed. @internal */
  _actionSheetShown(options, callback) {
    this.#host.alerts.actionSheet(options, callback);
  }

  /**
   * The alerts on screen (Alert.alert, Alert.prompt; ActionSheetIOS's sheets with `style: 'actionSheet'`), oldest
   * first: `[{ title, message, buttons: [text…] }]`.
   */
  alerts() {
    return this.#host.alerts.list();
  }

  /**
   * Presses the button `text` of the newest alert that has one, as iOS's alert does (its `onPress` runs, the alert
   * goes); resolves once the app settled. For a prompt, `value` is what was typed into it: a string, or `{ login,
   * password }` for a `login-password` one (default: the prompt's `defaultValue`, else empty).
   */
  async pressAlertButton(text, { value } = {}) {
    this.#host.alerts.press(text, value, (error) => this.native.fail(error));
    return this.settled();
  }

  /** An Expo module by name, as `requireNativeModule(name)` reaches it in an Expo app. */
  expoModule(name) {
    return this.#host.modules.expo(name);
  }

  /** The native module `name` as the app's JavaScript reaches it (served, from a spec, an Expo module, or given). */
  nativeModule(name) {
    return this.#host.module(name, { isExpo: this.isExpo });
  }

  /** Gives a native module methods of its own, checked against its spec's method names. */
  implementNativeModule(name, methods) {
    this.#host.modules.implement(name, methods);
  }

  /** Serves (or replaces) a native module by name: `methods` is an object of its methods and `getConstants`. */
  provideNativeModule(name, methods) {
    this.#host.modules.provide(name, methods);
  }

  /** What JavaScript asked of native module `name`, in order: `[{ method, args }]`. */
  nativeCalls(name) {
    return this.#host.modules.calls(name);
  }

  /**
   * Emits `eventName` with `body` as module `name`'s native side does (RCTDeviceEventEmitter.emit):
   * NativeEventEmitter listeners hear it.
   */
  emitNativeModuleEvent(name, eventName, body) {
    if (!this.#host.modules.has(name)) {
      throw new Error(`app.emitNativeModuleEvent('${name}'): no native module of that name`);
    }
    return this.emitDeviceEvent(eventName, body);
  }

  /** Emits a device event (`RCTDeviceEventEmitter.emit`), as native modules do: Keyboard, Dimensions, Linking's url. */
  emitDeviceEvent(eventName, body) {
    this.#host.emit(eventName, body);
    return this.settled();
  }

  /**
   * Emits a device event of the native side's own doing (Appearance's `appearanceChanged`, the keyboard's, a
   * dismissed modal's): heard by the app's listeners at once, and settled with whatever the test awaits next.
   * @internal (for the modules)
   */
  _emitFromNative(eventName, body) {
    this._nativeEventScope(() => this.#host.emit(eventName, body));
  }

  /**
   * The scope the native side's own device events run in (`_emitFromNative`): as they come, unless the jest preset's
   * host makes it React's `act` (its listeners' updates are then a test's, as RNTL's events are). @internal
   */
  _nativeEventScope = (emit) => emit();

  /** A fatal report of ExceptionsManager: kept for the next render() or settled(). @internal (for ExceptionsManager) */
  reportNativeException(data) {
    const error = new Error(data?.message ?? 'an exception was reported to ExceptionsManager');
    if (data?.componentStack) error.componentStack = data.componentStack;
    this.native.fail(error);
  }

  /**
   * Sets props of a view from the native side (an animation's values), as RCTUIManager's updateView does.
   * @internal (for NativeAnimatedModule)
   */
  updateViewProps(reactTag, props) {
    const tag = this.native.daemonTag(reactTag);
    if (tag === undefined || Object.keys(props).length === 0) return;
    this.native.enqueue({ op: 'update', tag, props });
  }

  /**
   * A view's frame: without layout, every view is at 0,0 with no size (layout.js answers the daemon's frames once
   * the session's layout is on). @internal (for the app's UIManager)
   */
  frameOf() {
    return NO_FRAME;
  }

  /** Whether a view is inside another: unknown without layout, so no. @internal (for the app's UIManager) */
  isDescendant() {
    return false;
  }

  // MARK: Events and timers (native-events.js, timers.js)

  /** Hands touches to React Native's responder system directly (a touch whose view left the daemon). */
  _receiveTouches(type, touches, changedIndices) {
    this.#events.receiveTouches(type, touches, changedIndices);
  }

  /** When the last momentum of a scroll view ended, on the app's clock, or null. @internal (for app.press) */
  get _momentumEndedAt() {
    return this.#events.momentumEndedAt;
  }

  /** Runs `fn` (a native input) and gives the timers the app started while its events were delivered. */
  async _capturingTimers(fn) {
    return this.#timers.capture(fn);
  }

  /**
   * Delivers `topLayout` to the view of daemon tag `tag`, as RCTUIManager does after a layout pass.
   * @internal (for app.layout)
   */
  _layout(tag, layout) {
    const rendererTag = this.native.rendererTag(tag);
    if (rendererTag === undefined) throw new Error(`app.layout(): no view of the app's with tag ${tag}`);
    this.#events.deliver(rendererTag, 'topLayout', { layout });
  }

  // MARK: Rendering (lifecycle.js)

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
      try {
        await screen.unmount();
      } catch {}
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
    return this.#screens.mount(element);
  }

  /** Paper: unmounts a screen's root at once (its deletes queued, not yet sent). @internal (the jest preset) */
  _unmountNow(screen) {
    this.#screens.unmountNow(screen);
  }

  /** The app's React. @internal (the jest preset) */
  get _React() {
    return this.#core?.React ?? null;
  }

  /**
   * Runs a screen's root component as AppRegistry.runApplication runs an app (Fabric roots are concurrent, as React
   * Native 0.72 makes them); what it throws is reported by the next settled().
   */
  _run(screen) {
    this.#screens.run(screen);
  }

  /** Unmounts a screen's root: every view of it, the root view too, leaves the daemon. */
  async _unmount(screen) {
    return this.#screens.unmount(screen, () => this.settled());
  }

  /** The screens rendered and not unmounted. */
  _screens() {
    return this.#screens.list();
  }

  /**
   * Every native event delivered, every handler run and every re-render applied in the daemon; then each
   * screen's snapshot of the daemon's tree is brought up to date. Does not wait for the app's own timers.
   */
  async settled() {
    return this.#settling.settled();
  }

  /**
   * React Native Testing Library's `waitFor`: runs `expectation` (a function that throws, or rejects, while what it
   * expects is not there yet) after each settled change, or every `interval` ms while nothing settles, until it
   * returns; resolves with what it returned. After `timeout` ms (default 1,000) rejects with its last error.
   */
  async waitFor(expectation, options = {}) {
    return this.#settling.waitFor(expectation, options);
  }

  /**
   * React Native Testing Library's `waitForElementToBeRemoved`: `query` (a queryBy*, queryAllBy* or getBy* call)
   * must find something at first; resolves once it finds nothing (null, an empty list, or it throws), checked as
   * waitFor checks. After `timeout` ms (default 1,000) rejects: it is still there.
   */
  async waitForElementToBeRemoved(query, options = {}) {
    return this.#settling.waitForElementToBeRemoved(query, options);
  }

  /**
   * Waits for a settled change or `within` ms, whichever comes first, then settles. @internal (for Screen's findBy*)
   */
  async _nextChange(within) {
    return this.#settling.nextChange(within);
  }

  /** The app's React scheduler. @internal (for testing/actions.js) */
  get scheduler() {
    return this.#core?.scheduler ?? null;
  }

  /**
   * The promise rejections nobody handled while the app was open: `{id, reason, message, stack}`, oldest first. Each
   * was a warning with its stack, as React Native's development mode gives; with openApp's
   * `{ unhandledRejections: 'fail' }` each also failed the next render(), action or settled().
   */
  unhandledRejections() {
    return this.#rejections.list();
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

  // MARK: Diagnostics

  /**
   * The window as the phone shows it, once the app settled: a PNG (a Buffer) of `width × scale` by `height × scale`
   * pixels, drawn by the daemon with Cairo and Pango from its tree (protocol.md, "screenshot"); `scale` asks for
   * another. Needs the session's layout (openApp turns it on).
   */
  async screenshot({ scale } = {}) {
    await this.settled();
    if (!this._layoutState?.enabled) {
      const reason = this._layoutState?.reason ?? 'not turned on';
      throw new Error(`app.screenshot(): the session's layout is off (${reason}): nothing has a place to be drawn at`);
    }
    const { png } = await this.#bridge.screenshot({ scale });
    return png;
  }

  /** The daemon's tag of a ref's host instance, a renderer tag or a handle; null when it has none. */
  findNodeHandle(instance) {
    if (instance == null) return null;
    const handle = typeof instance === 'object' && typeof instance.tag === 'number' && 'component' in instance;
    if (handle) return instance.tag;
    const shim = this.#core?.fabric ? 'ReactFabric' : 'ReactNative';
    const ReactNative = this.require(`react-native/Libraries/Renderer/shims/${shim}`);
    const rendererTag = typeof instance === 'number' ? instance : ReactNative.findNodeHandle(instance);
    if (rendererTag == null) return null;
    return this.native.daemonTag(rendererTag) ?? null;
  }

  // MARK: Closing

  /** Every root unmounted, the renderer's events no longer heard; globals and the require hook removed. */
  async close() {
    if (this.#closed) return;
    let failure = null;
    for (const screen of this.#screens.list()) {
      try {
        await screen.unmount();
      } catch (error) {
        failure ??= error;
      }
    }
    // The app's end, as on a phone: a vibration it left repeating (Vibration.vibrate(pattern, true), on iOS React
    // Native's own chain of timers until cancel) stops; left running, it would keep Node's process alive.
    try {
      this.#loader?.require('react-native/Libraries/Vibration/Vibration')?.cancel?.();
    } catch {}
    this._teardown();
    if (failure) throw failure;
  }

  /**
   * `keepGlobals`: the app's globals stay on its global object (a jest test file's own, discarded with it), where
   * work the test left behind (a render still scheduled, a timer) may yet read them after the file ends.
   */
  _teardown({ keepGlobals = false } = {}) {
    this.#closed = true;
    try {
      this.#host?.modules.end();
    } catch {}
    this.native.detach();
    this.#bridge.off('change', this.#onChange);
    const session = this._liveTree.session;
    if (session !== null && !this.#bridge.closed) {
      this.#bridge.request({ op: 'unobserve', session }).catch(() => {});
    }
    this.#unhook?.();
    this.#unhook = null;
    this.#rejections.stop();
    this.#removeGlobals?.({ keep: keepGlobals });
    this.#removeGlobals = null;
  }

  #assertOpen(what) {
    if (this.#closed) throw new Error(`app.${what}(): the app is closed`);
  }
}
