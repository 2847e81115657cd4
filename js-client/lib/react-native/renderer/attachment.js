// An attachment of React Native's renderer file alone: roots rendered into the daemon, commands, findNodeHandle,
// settled(). Fabric's differs only in how a root renders and stops; it reads its base's state through `shared`
// (a module-scoped table: what the base holds is declared once, and stays out of the public surface).

import { viewConfigFor } from '../view-configs.js';
import { hostComponents } from './host-components.js';

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

/** Attachment → the state its subclass reads: {native, scheduler}. */
const shared = new WeakMap();

export class ReactNativeAttachment {
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
    shared.set(this, { native, scheduler });
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
    viewConfigFor(name, this.#native.components, this.#native.propTypes); // throws for a component the daemon does not serve
    return this.#registry.register(name, () => viewConfigFor(name, this.#native.components, this.#native.propTypes));
  }

  /** Renders `element` into a new root view of the daemon; resolves to the root once the commit is applied. */
  async render(element) {
    const rootTag = this.#nextRoot;
    this.#nextRoot += 10;
    const tag = this.#native.createRoot(rootTag);
    const root = new Root(this, rootTag, tag);
    this.#roots.set(rootTag, root);
    try {
      await this._renderInto(rootTag, element);
    } catch (error) {
      // A first render that failed leaves nothing behind: no handle was given, so its root view goes too.
      await this._unmount(rootTag).catch(() => {});
      throw error;
    }
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
export class FabricAttachment extends ReactNativeAttachment {
  #manager;
  #concurrentRoot;

  constructor(args) {
    super(args);
    this.#manager = args.fabricUIManager;
    this.#concurrentRoot = args.concurrentRoot;
  }

  get architecture() {
    return 'fabric';
  }

  async _renderInto(rootTag, element) {
    const { native, scheduler } = shared.get(this);
    try {
      this.renderer.render(element, rootTag, null, this.#concurrentRoot);
    } catch (error) {
      native.fail(error);
    }
    await native.settled(scheduler);
  }

  /** Stops the surface: the renderer empties it, then its root view is deleted. A stopped root stays stopped. */
  async _unmount(rootTag) {
    const { native, scheduler } = shared.get(this);
    if (native.daemonTag(rootTag) === undefined) return;
    try {
      this.renderer.stopSurface(rootTag);
      await native.settled(scheduler);
    } finally {
      this.#manager.stopSurface(rootTag);
      await native.commit();
    }
  }
}
