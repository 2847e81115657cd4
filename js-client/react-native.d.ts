// bridged-client/react-native: React Native's own renderer rendering into bridged. Standalone declarations: no
// @types/react or @types/node needed; React elements, components and refs are typed loosely (the app's React
// types them).
import type { Bridge, BridgeError, JsonValue } from './index.js';

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
  | { flush: number; refused?: string }
  | { event: { target: number; type: string; nativeEvent: { [key: string]: JsonValue } } }
  | { native: { op: 'command' | 'emit'; tag: number; [key: string]: JsonValue } }
  | { checkpoint: string };

export interface AttachOptions {
  /** The renderer file (default: the app's `react-native/Libraries/Renderer/implementations/ReactNativeRenderer-dev.js`, resolved from `cwd`, else `$BRIDGED_RN_RENDERER`). */
  renderer?: string;
  /** The app's React (default: `react` resolved from `cwd`). */
  react?: object;
  /** The app's scheduler (default: `scheduler` resolved from `cwd`). */
  scheduler?: object;
  /** Where the app's `node_modules` are resolved from (default: `process.cwd()`). */
  cwd?: string;
  /** `'paper'` (ReactNativeRenderer), `'fabric'` (ReactFabric) or `'auto'`. */
  architecture?: 'paper' | 'fabric' | 'auto';
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
