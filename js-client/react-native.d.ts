// bridged-client/react-native: React Native's own renderer rendering into bridged. Standalone declarations: no
// @types/react or @types/node needed; React elements, components and refs are typed loosely (the app's React
// types them).
import type { Bridge, BridgeError, ComponentSpec, JsonValue, PropTypeInfo } from './index.js';

/** A React element (the app's React types it). */
export type ReactElementLike = unknown;
/** A host component: React Native's `View`, `Text`, or a native component's name as requireNativeComponent gives it. */
export type HostComponent = unknown;
/** A mounted host component instance or a ref's `current` value. */
export type HostInstance = object;

/** One step of a trace: what the renderer asked of native, the batches they went out in, the events it received. */
export type TraceStep =
  | { root: number }
  | { call: string; args: JsonValue[] }
  /** A Fabric call that makes a node or a child set, numbered by the order they were made in (`{node: n}`/`{set: n}` in later calls' `args`). */
  | { call: string; args: JsonValue[]; node: number }
  | { call: string; args: JsonValue[]; set: number }
  | { flush: number; refused?: string }
  /** A call threw: the commit being built (`aborted` queued ops) was dropped and its bookkeeping undone. */
  | { aborted: number }
  /** Ops queued after a failed commit in the same turn, held back for the front of the next batch. */
  | { held: number }
  | { event: { target: number; type: string; nativeEvent: { [key: string]: JsonValue } } }
  | { native: { op: 'command' | 'emit'; tag: number; [key: string]: JsonValue } }
  | { checkpoint: string };

export interface AttachOptions {
  /**
   * The renderer file (default: the app's `react-native/Libraries/Renderer/implementations/ReactNativeRenderer-dev.js`,
   * resolved from `cwd`, else `$BRIDGED_RN_RENDERER`; for Fabric, its `ReactFabric-dev.js`, else `$BRIDGED_RN_FABRIC_RENDERER`).
   */
  renderer?: string;
  /** The app's React (default: `react` resolved from `cwd`). */
  react?: object;
  /** The app's scheduler (default: `scheduler` resolved from `cwd`). */
  scheduler?: object;
  /** Where the app's `node_modules` are resolved from (default: `process.cwd()`). */
  cwd?: string;
  /**
   * `'paper'` (ReactNativeRenderer, the default), `'fabric'` (ReactFabric-dev.js, from `cwd`, else
   * `$BRIDGED_RN_FABRIC_RENDERER`; its `nativeFabricUIManager` is a parameter of the renderer's module, never a
   * global) or `'auto'`: Fabric when the app enables the new architecture (see appArchitecture), else paper.
   */
  architecture?: 'paper' | 'fabric' | 'auto';
  /** Fabric: render each root as a concurrent root, as React Native 0.72 does under the new architecture (default true). */
  concurrentRoot?: boolean;
  /** Fabric: makes the `nativeFabricUIManager` from the attachment's native side (default createFabricUIManager), to wrap or stand in for it. */
  fabricUIManager?: (native: NativeSide) => FabricUIManager;
  /** Paper: makes the `UIManager` from the attachment's native side (default createPaperUIManager), to wrap or stand in for it. */
  paperUIManager?: (native: NativeSide) => { [method: string]: unknown };
  /**
   * Load the renderer file untouched (default false: paper's with the two changes that make it linear in moved
   * siblings, its host views' child arrays and React's host-sibling search; a development build without its replay
   * copy of each fiber and its pooled events' warning accessors; see the README).
   */
  rendererAsShipped?: boolean;
  /**
   * Lay the screen out with Yoga from the react-native package the renderer file is in (or `yoga`, its
   * `ReactCommon/yoga`), in `window` (default an iPhone 14's): `onLayout` with real frames, measure answering them
   * (default off).
   */
  layout?: boolean | { yoga?: string; window?: { width?: number; height?: number; scale?: number } };
  /**
   * A commit's ops go out while it is built, this many at a time, as parts of its batch that the daemon runs as
   * they come, unseen until the commit's last part commits them all (default 1024; `Infinity`: each commit whole,
   * when it is done).
   */
  streamOps?: number;
  /** An array the trace's steps are appended to. */
  trace?: TraceStep[];
}

/** A root view rendered into. */
export interface Root {
  /** The root view's tag in the daemon. */
  readonly tag: number;
  /** The renderer's tag of the root container (1, 11, 21, …). */
  readonly rootTag: number;
  /** Renders into this root; resolves once the daemon applied the commit. */
  render(element: ReactElementLike): Promise<void>;
  /** Every view of the root, the root view too, deleted. */
  unmount(): Promise<void>;
}

/** The error a refused commit rejects with: the daemon's error for the op it refused. */
export interface CommitError extends BridgeError {
  /** The refused op's place in the commit's batch. */
  index?: number;
  /** The refused op. */
  op?: { op: string; tag?: number; [key: string]: unknown };
}

export interface ReactNativeAttachment {
  /** React Native's `View` (renders `RCTView`). */
  readonly View: HostComponent;
  /** React Native's `Text` (`RCTText`, or `RCTVirtualText` inside a Text). */
  readonly Text: HostComponent;
  /** The context React Native's Text sets for its descendants. */
  readonly TextAncestor: unknown;
  readonly architecture: 'paper' | 'fabric';
  /** The renderer file this attachment loaded. */
  readonly rendererPath: string;
  /** The renderer's own exports. */
  readonly renderer: { [name: string]: unknown };
  /** A component the daemon serves, as React Native's requireNativeComponent gives it; throws for an unknown one. */
  requireNativeComponent(name: string): HostComponent;
  /** A new root view in the daemon, rendered into; resolves once the daemon applied the commit. */
  render(element: ReactElementLike): Promise<Root>;
  /** The renderer's dispatchCommand, as codegenNativeCommands calls it: the daemon's `command`. */
  dispatchCommand(instance: HostInstance | null, name: string, args?: JsonValue[]): void;
  /** The daemon's tag of a host component instance (a number is returned as it is). */
  findNodeHandle(instance: HostInstance | number | null | undefined): number | null;
  /** Every queued call applied, every event delivered and the work it caused applied; rejects with an error not reported yet. */
  settled(): Promise<void>;
  /** Sends a `command` or `emit` on one of this attachment's views (its daemon tag) as native code would; recorded in the trace. */
  native(frame: { op: 'command' | 'emit'; tag: number; [key: string]: JsonValue }): Promise<unknown>;
  /** Unmounts every root and stops hearing the bridge's events. */
  detach(): Promise<void>;
}

/** Attaches React Native's renderer to a connected Bridge. */
export function attachReactNative(bridge: Bridge, options?: AttachOptions): Promise<ReactNativeAttachment>;

/** Plays a recorded trace through the attachment's UIManager into the daemon, checking events and refusals. */
export function playTrace(
  bridge: Bridge,
  trace: TraceStep[],
  options?: { onCheckpoint?: (name: string, native: unknown) => unknown },
): Promise<unknown>;

/** React Native's processColor (iOS): a color to an ARGB integer; anything else as it is. */
export function processColor<T>(color: T): number | T;

/** What React Native's renderers talk to, backed by one Bridge (tags mapped, one batch per commit). */
export interface NativeSide {
  readonly bridge: Bridge;
  /** The daemon's tag of a renderer tag, if the view is live (not deleted, nor removed by a commit not yet applied). */
  daemonTag(rendererTag: number): number | undefined;
  /** The renderer's tag of a daemon tag, if the view is the attachment's, and live. */
  rendererTag(daemonTag: number): number | undefined;
}

/** A shadow node of the Fabric renderer's tree: opaque to its users. */
export type FabricNode = object;
/** A root's child set (createChildSet): opaque to its users. */
export type FabricChildSet = object;

/** React Native's `nativeFabricUIManager`, as the Fabric renderer calls it (UIManagerBinding.cpp's methods). */
export interface FabricUIManager {
  createNode(tag: number, viewName: string, rootTag: number, props: { [key: string]: unknown } | null, instanceHandle: unknown): FabricNode;
  cloneNode(node: FabricNode): FabricNode;
  cloneNodeWithNewChildren(node: FabricNode): FabricNode;
  cloneNodeWithNewProps(node: FabricNode, props: { [key: string]: unknown } | null): FabricNode;
  cloneNodeWithNewChildrenAndProps(node: FabricNode, props: { [key: string]: unknown } | null): FabricNode;
  appendChild(parent: FabricNode, child: FabricNode): void;
  createChildSet(rootTag: number): FabricChildSet;
  appendChildToSet(set: FabricChildSet, child: FabricNode): void;
  /** The tree of a root, finished: its difference from the committed one goes to the daemon as one batch. */
  completeRoot(rootTag: number, set: FabricChildSet): void;
  registerEventHandler(handler: (instanceHandle: unknown, type: string, nativeEvent: object) => void): void;
  dispatchCommand(node: FabricNode, name: string, args: JsonValue[]): void;
  /** Deletes a root view the renderer emptied (bridged's stand-in for native's UIManager::stopSurface). */
  stopSurface(rootTag: number): void;
  /** A root's children as last committed (the tree the daemon holds). */
  committed(rootTag: number): FabricNode[];
  /** How many nodes the last completeRoot's diff looked at (created, compared, or matched by tag in a list). */
  looked(): number;
  [method: string]: unknown;
}

/** The `nativeFabricUIManager` of an attachment, backed by its native side. */
export function createFabricUIManager(native: NativeSide): FabricUIManager;

/**
 * React Native's paper `UIManager` over a native side (what attachReactNative gives the paper renderer): its calls become the daemon's ops.
 * `Error`: the constructor of the errors it refuses a commit with (a call's arguments a phone's bridge would not carry, a `NaN`), the app's own
 * where the app runs in another realm (a jest test file's context).
 */
export function createPaperUIManager(native: NativeSide, options?: { Error?: ErrorConstructor }): { [method: string]: unknown };

/** A view config, as React Native's `ReactNativeViewConfigRegistry` holds it. */
export interface ViewConfig {
  uiViewClassName: string;
  validAttributes: { [prop: string]: unknown };
  bubblingEventTypes: { [topLevelType: string]: { phasedRegistrationNames: { bubbled: string; captured: string } } };
  directEventTypes: { [topLevelType: string]: { registrationName: string } };
}

/**
 * The view config of a component the daemon describes (hello's `components`, its props typed by hello's
 * `propTypes`); throws for one it does not serve, or for a prop type `propTypes` lacks.
 */
export function viewConfigFor(
  name: string,
  components: { [name: string]: ComponentSpec },
  propTypes: { [name: string]: PropTypeInfo },
): ViewConfig;

/** React Native's `ReactNativeViewConfigRegistry`, one per attachment: view configs registered by name and made on first use. */
export declare class ViewConfigRegistry {
  customBubblingEventTypes: ViewConfig['bubblingEventTypes'];
  customDirectEventTypes: ViewConfig['directEventTypes'];
  register: (name: string, callback: () => ViewConfig) => string;
  get: (name: string) => ViewConfig;
}

/**
 * A fresh copy of a paper renderer file over the given UIManager and view config registry: what attachReactNative
 * does, and the bench does with a UIManager that does nothing (the renderer's own cost). Returns the renderer's exports.
 */
export function loadRenderer(
  file: string,
  options: {
    React: unknown;
    scheduler: unknown;
    UIManager: object;
    registry: ViewConfigRegistry;
    emitter?: { register(module: unknown): void };
    onError?: (error: unknown) => void;
  },
): { [name: string]: unknown };

/** Plays a recorded Fabric trace through createFabricUIManager into the daemon, checking events and refusals. */
export function playFabricTrace(
  bridge: Bridge,
  trace: TraceStep[],
  options?: { onCheckpoint?: (name: string, native: NativeSide) => unknown },
): Promise<NativeSide>;

/**
 * `'fabric'` or `'paper'` for the app at `root`: `$RCT_NEW_ARCH_ENABLED` (1/true, 0/false), else
 * `android/gradle.properties`'s `newArchEnabled`, else `ios/Podfile.properties.json`'s `newArchEnabled`, else paper.
 */
export function appArchitecture(root: string, env?: { [name: string]: string | undefined }): 'paper' | 'fabric';

// ---- openApp: the app's own code, unchanged, with bridged as its native side ----

/** A matcher of a query: a string (exact, whitespace collapsed), a RegExp, or a predicate of the normalised text. */
export type TextMatch = string | RegExp | ((text: string) => boolean);

/**
 * Options of a query: `exact: false` matches a case-insensitive substring; ByRole also takes the accessible `name`
 * and the accessibility state and value it must have, as React Native Testing Library 12's.
 */
export interface QueryOptions {
  exact?: boolean;
  /** What a text and a string matcher go through first (default: whitespace collapsed and trimmed). */
  normalizer?: (text: string) => string;
  /** Find what is hidden from accessibility too (a covered screen of a navigator, `display: 'none'`, …); default: openApp's `defaultIncludeHiddenElements`. */
  includeHiddenElements?: boolean;
  /** React Testing Library's name of includeHiddenElements. */
  hidden?: boolean;
  /** ByRole: the accessible name (the label, else the text). */
  name?: TextMatch;
  /** ByRole: the accessibility state (`accessibilityState`, `aria-*`; a Switch's value is its checked). */
  disabled?: boolean;
  selected?: boolean;
  checked?: boolean | 'mixed';
  busy?: boolean;
  expanded?: boolean;
  /** ByRole: the accessibility value's fields (`accessibilityValue`). */
  value?: { min?: number; max?: number; now?: number; text?: TextMatch };
  /** findBy*: how long to wait (default 1,000 ms). */
  timeout?: number;
}

/** How long findBy* waits (default 1,000 ms). */
export interface WaitOptions {
  timeout?: number;
}

/** A view of the daemon's native tree, as a query answers it. */
export interface NativeHandle {
  /** The daemon's tag (`bridge.request({ op: 'inspect', tag })`). */
  readonly tag: number;
  /** The native component, e.g. `RCTText`, `RCTSinglelineTextInputView`. */
  readonly component: string;
  /** The props the daemon holds. */
  readonly props: { readonly [name: string]: JsonValue };
  /** A Text's whole content (nested texts joined), a text field's native text, else null. */
  readonly text: string | null;
  /** With the session's layout on: the frame relative to the parent, in points (`onLayout`'s), as of the last pass. */
  readonly layout?: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
}

/** A view of the native tree with its children (screen.toJSON()). */
export interface NativeNode extends NativeHandle {
  readonly children: NativeNode[];
}

type QueryKind =
  | 'Text'
  | 'TestId'
  | 'PlaceholderText'
  | 'DisplayValue'
  | 'LabelText'
  | 'A11yLabel'
  | 'AccessibilityLabel'
  | 'HintText'
  | 'A11yHint'
  | 'AccessibilityHint'
  | 'Role';
/** React Native Testing Library 12's deprecated queries whose matcher is an object: the state or value to have. */
interface ObjectQueryKinds {
  A11yState: { disabled?: boolean; selected?: boolean; checked?: boolean | 'mixed'; busy?: boolean; expanded?: boolean };
  AccessibilityState: ObjectQueryKinds['A11yState'];
  A11yValue: { min?: number; max?: number; now?: number; text?: TextMatch };
  AccessibilityValue: ObjectQueryKinds['A11yValue'];
}
type ObjectQueries = {
  [K in keyof ObjectQueryKinds as `getBy${K}`]: (matcher: ObjectQueryKinds[K], options?: QueryOptions) => NativeHandle;
} & {
  [K in keyof ObjectQueryKinds as `getAllBy${K}`]: (matcher: ObjectQueryKinds[K], options?: QueryOptions) => NativeHandle[];
} & {
  [K in keyof ObjectQueryKinds as `queryBy${K}`]: (matcher: ObjectQueryKinds[K], options?: QueryOptions) => NativeHandle | null;
} & {
  [K in keyof ObjectQueryKinds as `queryAllBy${K}`]: (matcher: ObjectQueryKinds[K], options?: QueryOptions) => NativeHandle[];
} & {
  [K in keyof ObjectQueryKinds as `findBy${K}`]: (matcher: ObjectQueryKinds[K], options?: QueryOptions, wait?: WaitOptions) => Promise<NativeHandle>;
} & {
  [K in keyof ObjectQueryKinds as `findAllBy${K}`]: (matcher: ObjectQueryKinds[K], options?: QueryOptions, wait?: WaitOptions) => Promise<NativeHandle[]>;
};
/** Every query of a screen, or of a view's subtree (within). */
export type Queries = ObjectQueries & {
  [K in QueryKind as `getBy${K}`]: (matcher: TextMatch, options?: QueryOptions) => NativeHandle;
} & {
  [K in QueryKind as `getAllBy${K}`]: (matcher: TextMatch, options?: QueryOptions) => NativeHandle[];
} & {
  [K in QueryKind as `queryBy${K}`]: (matcher: TextMatch, options?: QueryOptions) => NativeHandle | null;
} & {
  [K in QueryKind as `queryAllBy${K}`]: (matcher: TextMatch, options?: QueryOptions) => NativeHandle[];
} & {
  [K in QueryKind as `findBy${K}`]: (matcher: TextMatch, options?: QueryOptions, wait?: WaitOptions) => Promise<NativeHandle>;
} & {
  [K in QueryKind as `findAllBy${K}`]: (matcher: TextMatch, options?: QueryOptions, wait?: WaitOptions) => Promise<NativeHandle[]>;
};

/** A screen the app rendered: React Native Testing Library's queries, run on the daemon's native tree. */
export type Screen = Queries & {
  /** The renderer's root tag (1, 11, 21, …). */
  readonly rootTag: number;
  /** The daemon's tag of the root view. */
  readonly tag: number;
  /** The native tree under the root (as toJSON()). */
  readonly root: NativeNode | null;
  /** The native tree the daemon holds under the root, as of the last settled change. */
  toJSON(): NativeNode | null;
  /** The tree as indented text. */
  debug(): string;
  /** Renders another element into the same root. */
  rerender(element: ReactElementLike): Promise<void>;
  /** Unmounts the screen: its views leave the daemon. */
  unmount(): Promise<void>;
  /** Reads the whole tree from the daemon again: a change made around the app (a raw request on the bridge) is seen after it. */
  refresh(): Promise<void>;
  /** The queries over the subtree of one of this screen's views (a handle or a daemon tag), as it is at each query. */
  within(target: NativeHandle | number): Queries;
};

/** React Native Testing Library's `within`: the queries over the subtree of the view a query answered. */
export function within(handle: NativeHandle): Queries;

/** What a test may press, type into, scroll: a query's handle, a daemon tag, or a mounted ref. */
export type Target = NativeHandle | number | HostInstance;

export interface OpenAppOptions {
  /** The app's folder (its package.json, babel.config.js, node_modules); default `process.cwd()`. */
  root?: string;
  /** The platform files resolve for (`Foo.ios.js`, then `Foo.native.js`, then `Foo.js`): only `'ios'`. */
  platform?: 'ios';
  /**
   * Which of the package's renderers commits into the daemon: `'paper'` (default), `'fabric'` (ReactFabric, with a
   * `nativeFabricUIManager` backed by the bridge) or `'auto'` (Fabric when the app enables the new architecture).
   */
  architecture?: 'paper' | 'fabric' | 'auto';
  /** `Dimensions`' window and its safe-area insets (default an iPhone 14's: 390×844 at scale 3, insets top 47, bottom 34). */
  window?: {
    width?: number;
    height?: number;
    scale?: number;
    fontScale?: number;
    insets?: { top?: number; right?: number; bottom?: number; left?: number };
  };
  /** The phone's appearance: what `Appearance` and `useColorScheme()` answer until the app overrides it (default 'light'). */
  colorScheme?: 'light' | 'dark';
  /** Where transforms are kept (default `$BRIDGED_CACHE_DIR`, else `$XDG_CACHE_HOME/bridged`, else `~/.cache/bridged`); false: none. */
  cache?: string | false;
  /** More native modules, or replacements, by name: an object of methods (and `getConstants`). */
  nativeModules?: { [name: string]: object };
  /** Load the package's renderer file untouched, without the changes that make paper's linear in moved siblings and take a development build's replay copies and pooled-event accessors out (default false). */
  rendererAsShipped?: boolean;
  /** Whether queries find what is hidden from accessibility unless a query says (default false, as React Native Testing Library 12). */
  defaultIncludeHiddenElements?: boolean;
  /**
   * Whether the daemon lays the screen out with the app's own Yoga (its `ReactCommon/yoga`, built once and cached):
   * `onLayout` with real frames, `measure*` answering them (default true; off where there are no sources or no
   * compiler).
   */
  layout?: boolean;
  /**
   * How the actions' waits pass: 'virtual' (default) runs the timers the app started for a touch (Pressability's
   * long-press and press-out timers) when the hold or the press-out is due, never sleeping; 'real' sleeps.
   */
  time?: 'virtual' | 'real';
  /** 'warn' (default): an unhandled rejection warns, as React Native's development mode does, and is kept; 'fail' also fails the next settle. */
  unhandledRejections?: 'warn' | 'fail';
}

/** A promise rejection nobody handled while the app was open. */
export interface UnhandledRejection {
  id: number;
  reason: unknown;
  message: string;
  stack: string;
}

/** A native module's call, as app.nativeCalls lists it. */
export interface NativeCall {
  method: string;
  args: unknown[];
}

/** An app opened with openApp. */
export interface App {
  /** The Bridge the app renders through (openApp's first argument). */
  readonly bridge: Bridge;
  /** The app's folder (real path). */
  readonly root: string;
  readonly platform: 'ios';
  readonly architecture: 'paper' | 'fabric';
  /** Whether queries find what is hidden from accessibility unless a query says; read at each query (openApp's option). */
  defaultIncludeHiddenElements: boolean;
  /** How the actions' waits pass (openApp's `time`). */
  readonly time: 'virtual' | 'real';
  /** The phone's appearance (openApp's `colorScheme`). */
  readonly colorScheme: 'light' | 'dark';
  /** How many of the app's timers the actions ran when due in virtual time. */
  readonly timersRunEarly: number;
  /** The global object the app's code sees (globalThis under openApp; a test file's own under the jest preset). */
  readonly global: any;
  /** The promise rejections nobody handled while the app was open, oldest first. */
  unhandledRejections(): UnhandledRejection[];
  /** What transforms the app's files: its own Babel and configuration, or Debian's Babel 7. */
  readonly transformer: string;
  /** Requires a module as a file at the app's root would: a path relative to the root, or a package name. */
  require(id: string): any;
  /** The file `id` resolves to from the root, for the platform. */
  resolve(id: string): string;
  /** Mounts `element` as AppRegistry.runApplication mounts an app (inside AppContainer). */
  render(element: ReactElementLike): Promise<Screen>;
  /** Every native event delivered, every handler run, every re-render applied in the daemon. */
  settled(): Promise<void>;
  /**
   * React Native Testing Library's `waitFor`: runs `expectation` after each settled change (or every `interval` ms,
   * default 50) until it returns without throwing; resolves with what it returned, or rejects with its last error
   * after `timeout` ms (default 1,000).
   */
  waitFor<T>(expectation: () => T | Promise<T>, options?: { timeout?: number; interval?: number }): Promise<T>;
  /** Resolves once `query` (a queryBy*, queryAllBy* or getBy* call) finds nothing; it must find something at first. */
  waitForElementToBeRemoved(query: () => unknown, options?: { timeout?: number; interval?: number }): Promise<void>;
  /** A tap: touchStart then touchEnd on the view, through React Native's responder system; a Switch toggles. */
  press(target: Target, options?: { duration?: number }): Promise<void>;
  /** A touch held `duration` ms (default 800). */
  longPress(target: Target, options?: { duration?: number }): Promise<void>;
  /**
   * The window as the phone shows it, once the app settled: a PNG of `width × scale` by `height × scale` pixels,
   * drawn by the daemon with Cairo and Pango (needs the session's layout; `scale` asks for another than the window's).
   */
  screenshot(options?: { scale?: number }): Promise<Uint8Array>;
  /** A tap at a point of the window (points), on the view the daemon hit-tests there; needs the session's layout. */
  pressAt(x: number, y: number, options?: { duration?: number }): Promise<void>;
  /** Types into a text field as its keyboard would: focus, then one character at a time; `submit` presses return. */
  type(target: Target, text: string, options?: { submit?: boolean }): Promise<void>;
  /** Empties a text field. */
  clear(target: Target): Promise<void>;
  /** Scrolls a ScrollView (or the one the view is in) to an offset, as a drag does. */
  scrollTo(target: Target, offset: { x?: number; y?: number; contentWidth?: number; contentHeight?: number }): Promise<void>;
  /** Flips a Switch natively, unless it is disabled. */
  toggle(target: Target): Promise<void>;
  /** A Modal's back gesture, given the modal or a view inside it. */
  requestClose(target: Target): Promise<void>;
  /** The daemon's tag of a ref's host instance, a renderer tag or a handle. */
  findNodeHandle(instance: Target | null | undefined): number | null;
  /** What JavaScript asked of a native module, in order. */
  nativeCalls(moduleName: string): NativeCall[];
  /** Serves (or replaces) a native module. */
  provideNativeModule(name: string, methods: object): void;
  /** Emits a device event (RCTDeviceEventEmitter), as native modules do. */
  emitDeviceEvent(eventName: string, body?: unknown): Promise<void>;
  /** Pulls a ScrollView down to refresh: its RefreshControl refreshes natively and `onRefresh` runs. */
  pullToRefresh(target: Target): Promise<void>;
  /**
   * The alerts on screen (Alert.alert, Alert.prompt, and ActionSheetIOS's sheets with `style: 'actionSheet'`), oldest
   * first. One shown without buttons has iOS's own: `OK` (an alert), `OK` and `Cancel` (a prompt).
   */
  alerts(): { title: string; message: string | null; buttons: string[]; style?: 'actionSheet' }[];
  /**
   * Presses a button of the newest alert that has it: its `onPress` runs (a sheet's callback gets the button's index).
   * `value` is what was typed into a prompt (`{ login, password }` for a `login-password` one; default: its
   * `defaultValue`, else empty).
   */
  pressAlertButton(text: string, options?: { value?: string | { login: string; password: string } }): Promise<void>;
  /**
   * The user going back in a native stack: its top screen is dismissed as iOS dismisses it (react-native-screens), by
   * the swipe (`via: 'gesture'`, unless its `gestureEnabled` is false or it is a full-screen or transparent modal) or the header's back button (`via: 'button'`,
   * where the header shows one); by default either. Rejects, dismissing nothing, when the user cannot.
   */
  goBack(options?: { via?: 'gesture' | 'button' }): Promise<void>;
  /**
   * A layout pass's answer for one view: its `onLayout` gets `{ layout: { x, y, width, height } }` (x and y default
   * to 0). bridged has no layout engine: a view is laid out only when a test says where.
   */
  layout(target: Target, rect: { x?: number; y?: number; width: number; height: number }): Promise<void>;
  /** The native module as the app reaches it: served by bridged, made from its spec, or given. */
  nativeModule(name: string): { [method: string]: any };
  /** Gives a native module methods of its own, checked against its spec's method names. */
  implementNativeModule(name: string, methods: { [method: string]: (...args: any[]) => unknown }): void;
  /** Emits a module's event as its native side does (RCTDeviceEventEmitter): NativeEventEmitter listeners hear it. */
  emitNativeModuleEvent(name: string, eventName: string, body?: unknown): Promise<void>;
  /** Whether the app is an Expo app (expo-modules-core in its node_modules): its packages' declared modules are served. */
  readonly isExpo?: boolean;
  /**
   * An Expo module its installed packages declare natively, as JavaScript holds it: its constants and functions (each
   * call recorded); throws, naming it, for one no package declares.
   */
  expoModule(name: string): { [member: string]: any };
  /** The packages whose codegen specs were read, with how many spec files each. */
  readonly specPackages?: { name: string; files: number; undeclared?: true; neededBy?: string }[];
  /** Host components nothing checks: served untyped (asked for by name, no spec), or not served at all. */
  unknownComponents(): string[];
  /** The components served untyped. */
  untypedComponents(): string[];
  /** Props the app sent that the daemon's components do not declare (left out), by component. */
  unknownProps(): { [component: string]: string[] };
  /** The app's end: every root unmounted, a vibration it left repeating stopped, globals and the require hook removed. */
  close(): Promise<void>;
}

/** Opens the app at `options.root` (default: the working directory) with `bridge` as its native side. */
export function openApp(bridge: Bridge, options?: OpenAppOptions): Promise<App>;

/** A picture's pixels: 8-bit RGBA, row by row. */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Reads a PNG (bit depths 1-16, any colour type, not interlaced) into 8-bit RGBA, with node:zlib alone. */
export function decodePng(png: Uint8Array): Pixels;
/** Writes 8-bit RGBA pixels as a PNG, with node:zlib alone. */
export function encodePng(pixels: Pixels): Uint8Array;

/** What `comparePng` found. */
export interface PngComparison {
  /** Same size, and at most `maxDiffPixels` pixels differ by more than `tolerance`. */
  match: boolean;
  /** There was no expected file (or `update`): `actual` was written there. */
  created: boolean;
  differentPixels: number;
  width: number;
  height: number;
  /** Written when they do not match: the expected picture faded, the differing pixels red. */
  diffFile: string | null;
  /** Written when they do not match: the actual picture. */
  actualFile: string | null;
  message: string;
}

/**
 * Compares the PNG `actual` with the PNG file `expectedFile` (a pixel differs when a channel differs by more than
 * `tolerance`, 0-255); writes a diff image and the actual picture beside it when they differ, and the expected file
 * when it is missing (or with `update`, or `$BRIDGED_UPDATE_PICTURES=1`).
 */
export function comparePng(
  actual: Uint8Array,
  expectedFile: string,
  options?: { tolerance?: number; maxDiffPixels?: number; diffFile?: string; update?: boolean },
): PngComparison;
