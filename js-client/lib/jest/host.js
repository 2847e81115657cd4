// What a test file under preset: 'bridged-client' reaches through `global.__bridged__`: the app loaded through
// jest's registry (load), bridged's React Native Testing Library (testingLibrary) and its matchers (matchers).
// Every call of RNTL's synchronous API is synchronous here too: the session's requests are (sync-bridge.js), the
// renderer's commit is sent before the call returns (flush), and the queries read the live tree, which holds the
// daemon's tree as of the last frame received.
import path from 'node:path';
import { commandOp, touchOp } from '../command-op.js';
import { TEXT_INPUT_COMPONENTS, hidesItself } from '../react-native/testing/queries.js';
import { TEST_JSON, formatTree, loadPrettyFormat } from './format.js';
import { createMatchers } from './matchers.js';

/** The host component names RNTL's tests see under React Native's jest mocks, for the native ones bridged serves. */
const HOST_TYPES = {
  RCTView: 'View',
  RCTText: 'Text',
  RCTVirtualText: 'Text',
  RCTSinglelineTextInputView: 'TextInput',
  RCTMultilineTextInputView: 'TextInput',
  RCTImageView: 'Image',
  RCTModalHostView: 'Modal',
};
/** Pressability's minimum press duration: a press's onPressOut comes this long after its start. */
const MIN_PRESS_DURATION_MS = 130;
/** RNTL's default long press duration. */
const LONG_PRESS_MS = 500;
const SCREEN_MISSING = '`render` method has not been called';
/** A ScrollView takes a touch as a stop of its scroll within 16 ms of its last momentum end (host.pastFirstFrame). */
const FIRST_FRAME_MS = 17;

export class JestHost {
  #app;
  #env;
  #roots = new Set();
  #commits = 0;
  #fibers = { commits: -1, byTag: new Map() };
  #elements = new Map();
  #instances = new WeakMap();
  #rendered = new Set();
  #screen = null;
  #now = 0;
  #library = null;

  constructor(env) {
    this.#env = env;
  }

  /** The test file's App, once its session is open (environment.js). */
  attach(app) {
    this.#app = app;
    // The queries read a view's host React props where native has none of that name (screen.js).
    app._hostProps = (tag) => this.reactProps(tag);
  }

  get app() {
    return this.#app;
  }

  /** Loads the app's React Native through jest's `require` (the setup file's), with bridged as its native side. */
  load(jestRequire, jestObject) {
    const global = this.#env.global;
    const root = this.#app.root;
    global.IS_REACT_ACT_ENVIRONMENT = true;
    this.#installDevToolsHook(global);
    // From the app's root, as the app's own files resolve (never from bridged-client's folder, nor NODE_PATH first).
    const resolve = (name) => (name.startsWith('.') ? jestRequire.resolve(path.resolve(root, name)) : jestRequire.resolve(name, { paths: [root] }));
    // InitializeCore needs a packager; as under React Native's own jest setup, it is not run (the globals of it
    // that apply headless are the App's).
    try {
      jestObject?.doMock(resolve('react-native/Libraries/Core/InitializeCore'), () => ({}));
    } catch {}
    this.#app._load({ require: (name) => jestRequire(resolve(name)), resolve });
    // React Native's index and the renderer's private interface are objects of getters, each a `require` at every
    // read (the renderer reads UIManager for every view it creates; an app's `<View>` reads `View`). Node's require
    // is a map lookup; jest's resolves and checks for mocks each time. Each getter keeps its first answer (read
    // during the test, so a jest.mock the test file registered is the one kept).
    for (const id of ['react-native', 'react-native/Libraries/ReactPrivate/ReactNativePrivateInterface']) {
      try {
        memoizeGetters(jestRequire(resolve(id)));
      } catch {}
    }
  }

  dispose() {
    if (this.#app) this.cleanup();
  }

  /** React's DevTools hook, as React Native's renderer looks for it: each commit's root, to find a view's fiber. */
  #installDevToolsHook(global) {
    const host = this;
    const existing = global.__REACT_DEVTOOLS_GLOBAL_HOOK__;
    if (existing && typeof existing.onCommitFiberRoot === 'function') {
      const original = existing.onCommitFiberRoot;
      existing.onCommitFiberRoot = function (id, root, ...rest) {
        host.#roots.add(root);
        host.#commits++;
        return original.call(this, id, root, ...rest);
      };
      return;
    }
    const renderers = new Map();
    global.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      isDisabled: false,
      renderers,
      checkDCE() {},
      // AppContainer listens for the inspector: nothing is ever emitted.
      on() {},
      off() {},
      emit() {},
      sub: () => () => {},
      inject(internals) {
        const id = renderers.size + 1;
        renderers.set(id, internals);
        return id;
      },
      onScheduleFiberRoot() {},
      onCommitFiberRoot(_id, root) {
        host.#roots.add(root);
        host.#commits++;
      },
      onCommitFiberUnmount() {},
      onPostCommitFiberRoot() {},
    };
  }

  /** The host fiber of a renderer tag (paper's `_nativeTag`, Fabric's canonical `nativeTag`), from the last commits. */
  #fiberOf(rendererTag) {
    if (this.#fibers.commits !== this.#commits) {
      const byTag = new Map();
      for (const root of this.#roots) {
        const stack = root.current ? [root.current] : [];
        while (stack.length > 0) {
          const fiber = stack.pop();
          const node = fiber.stateNode;
          if (fiber.tag === 5 && node) {
            const tag = node._nativeTag ?? node.canonical?.nativeTag;
            if (tag !== undefined) byTag.set(tag, fiber);
          }
          if (fiber.sibling) stack.push(fiber.sibling);
          if (fiber.child) stack.push(fiber.child);
        }
      }
      this.#fibers = { commits: this.#commits, byTag };
    }
    return this.#fibers.byTag.get(rendererTag) ?? null;
  }

  // MARK: Time

  /** Whether the test file's clock is jest's fake one. */
  fakeTimers() {
    const env = this.#env;
    if (env.fakeTimersModern?._fakingTime) return 'modern';
    if (this.#env.global.setTimeout?._isMockFunction === true && env.fakeTimers) return 'legacy';
    return null;
  }

  /**
   * Under fake timers, jest's clock (and so `performance.now()`) starts at 0; a touch in its first frame reads as one
   * during a scroll's momentum to a ScrollView (its _isAnimating: less than 16 ms since its last momentum end, 0),
   * which then takes the touch, as no touch on a phone could come so early. Before a touch, that clock is moved past
   * its first frame (17 ms; a timer due in it runs, inside act).
   */
  pastFirstFrame() {
    const fake = this.fakeTimers();
    if (!fake) return;
    const now = this.#env.global.performance?.now?.();
    if (typeof now !== 'number' || now >= FIRST_FRAME_MS) return;
    const timers = fake === 'modern' ? this.#env.fakeTimersModern : this.#env.fakeTimers;
    this.act(() => timers.advanceTimersByTime(Math.ceil(FIRST_FRAME_MS - now)));
  }

  /**
   * Waits `ms` of the test's time: jest's clock advanced when it is fake (inside act), else real time, during
   * which the app's own timers may update it outside act (as RNTL's waits allow, with no warning).
   */
  async wait(ms) {
    const fake = this.fakeTimers();
    if (fake) {
      const timers = fake === 'modern' ? this.#env.fakeTimersModern : this.#env.fakeTimers;
      this.act(() => timers.advanceTimersByTime(ms));
      await new Promise((resolve) => setImmediate(resolve));
      this.flush();
      return;
    }
    const global = this.#env.global;
    const previous = global.IS_REACT_ACT_ENVIRONMENT;
    global.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      global.IS_REACT_ACT_ENVIRONMENT = previous;
    }
    this.flush();
  }

  /**
   * The views a screen's element rendered: below AppContainer's two Views (which React Native wraps every root
   * in, and React Native Testing Library's tree does not have).
   */
  contentTags(rootTag) {
    return this.view(this.contentParent(rootTag))?.children ?? [];
  }

  /** The view whose children a screen's element rendered (AppContainer's inner View). */
  contentParent(rootTag) {
    let tag = rootTag;
    for (let level = 0; level < 2; level++) {
      const children = this.view(tag)?.children ?? [];
      if (children.length !== 1 || this.view(children[0])?.component !== 'RCTView') break;
      tag = children[0];
    }
    return tag;
  }

  // MARK: The native side, synchronously

  /** Sends what the renderer queued (a commit, what native does after it) and rethrows a handler's error. */
  flush() {
    const native = this.#app.native;
    for (let round = 0; round < 20 && native.queued() > 0; round++) native.flush();
    native.throwPending();
  }

  /** React's act for the app's React, the native side flushed when it ends (sync, or once its promise settles). */
  act(callback) {
    const React = this.#app._React;
    const reactAct = React.unstable_act ?? React.act;
    const global = this.#env.global;
    const previous = global.IS_REACT_ACT_ENVIRONMENT;
    global.IS_REACT_ACT_ENVIRONMENT = true;
    let returned;
    let thenable;
    try {
      thenable = reactAct(() => {
        returned = callback();
        return returned;
      });
    } finally {
      if (!(returned && typeof returned.then === 'function')) global.IS_REACT_ACT_ENVIRONMENT = previous;
    }
    if (returned && typeof returned.then === 'function') {
      return Promise.resolve(thenable).then((value) => {
        global.IS_REACT_ACT_ENVIRONMENT = previous;
        this.flush();
        return value;
      });
    }
    this.flush();
    return thenable;
  }

  #timestamp() {
    this.#now = Math.max(this.#now + 1, Math.round(performance.now()));
    return this.#now;
  }

  /** A finger's start or end on the view of daemon tag `tag`, as the daemon's touch handler sends it. */
  touch(tag, phase) {
    if (phase === 'start') this.pastFirstFrame();
    const bridge = this.#app.bridge;
    bridge.requestSync(touchOp(tag, phase, { identifier: 1, pageX: 0, pageY: 0, locationX: 0, locationY: 0, timestamp: this.#timestamp() }));
  }

  /** A tap: the finger's start and end in one request (their events come back in order, each delivered). */
  tap(tag, at = {}) {
    this.pastFirstFrame();
    const number = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
    const point = { pageX: number(at?.pageX), pageY: number(at?.pageY), locationX: number(at?.locationX), locationY: number(at?.locationY) };
    const touch = (phase) => touchOp(tag, phase, { identifier: 1, ...point, timestamp: this.#timestamp() });
    this.#app.bridge.requestSync({ op: 'batch', ops: [touch('start'), touch('end')] });
  }

  command(tag, name, args) {
    this.#app.bridge.requestSync(commandOp(tag, name, args));
  }

  // MARK: Elements

  /** The element of a daemon tag, the same object for the same view while it lives. */
  elementOf(tag) {
    if (tag == null) return null;
    let element = this.#elements.get(tag);
    if (!element) {
      element = new HostElement(this, tag);
      this.#elements.set(tag, element);
    }
    return element;
  }

  /** RNTL's instance of a fiber: the HostElement of a host view, else a FiberElement (one per fiber pair). */
  instanceOf(fiber) {
    if (fiber.tag === HOST_COMPONENT) {
      const rendererTag = fiber.stateNode?._nativeTag ?? fiber.stateNode?.canonical?.nativeTag;
      const tag = rendererTag === undefined ? undefined : this.#app.native.daemonTag(rendererTag);
      if (tag !== undefined) return this.elementOf(tag);
    }
    let element = this.#instances.get(fiber) ?? (fiber.alternate ? this.#instances.get(fiber.alternate) : undefined);
    if (!element) {
      element = new FiberElement(this, fiber);
      this.#instances.set(fiber, element);
    }
    return element;
  }

  /** The fiber a screen's element was rendered as (below its error boundary), or null. */
  renderedFiber(rendered) {
    for (const root of this.#roots) {
      const stack = root.current ? [root.current] : [];
      while (stack.length > 0) {
        const fiber = stack.pop();
        if (fiber.tag === 1 && fiber.memoizedProps?.children === rendered.screen._holder.element && fiber.child) return fiber.child;
        if (fiber.sibling) stack.push(fiber.sibling);
        if (fiber.child) stack.push(fiber.child);
      }
    }
    return null;
  }

  /** The live tree's view of a tag, or undefined once it is gone. */
  view(tag) {
    return this.#app._liveTree.views.get(tag);
  }

  /** The React props the app gave a host view (its fiber's), or null when it has no fiber (a root). */
  reactProps(tag) {
    const rendererTag = this.#app.native.rendererTag(tag);
    if (rendererTag === undefined) return null;
    return this.#fiberOf(rendererTag)?.memoizedProps ?? null;
  }

  fiber(tag) {
    const rendererTag = this.#app.native.rendererTag(tag);
    return rendererTag === undefined ? null : this.#fiberOf(rendererTag);
  }

  /** The text a view shows: its RCTRawText descendants', joined (a text field's own text). */
  textOf(tag) {
    const view = this.view(tag);
    if (!view) return '';
    if (view.component === 'RCTRawText') return String(view.props?.text ?? '');
    if (TEXT_INPUT_COMPONENTS.has(view.component)) return String(view.props?.text ?? '');
    return view.children.map((child) => this.textOf(child)).join('');
  }

  /** Whether the view is in a screen rendered and not unmounted. */
  isOnScreen(tag) {
    let view = this.view(tag);
    const roots = new Set([...this.#rendered].map((r) => r.screen.tag));
    while (view) {
      if (roots.has(view.tag)) return true;
      view = view.parent != null ? this.view(view.parent) : undefined;
    }
    return false;
  }

  // MARK: React Native Testing Library

  matchers() {
    return createMatchers(this);
  }

  testingLibrary() {
    this.#library ??= createLibrary(this);
    return this.#library;
  }

  /** Mounts `element` in a new root, synchronously: its commit is in the daemon when this returns. */
  render(element, { wrapper: Wrapper } = {}) {
    const app = this.#app;
    const React = app._React;
    const wrap = (el) => (Wrapper ? React.createElement(Wrapper, null, el) : el);
    let mounted;
    this.act(() => {
      mounted = app._mount(wrap(element));
    });
    const { screen, caught } = mounted;
    const failure = caught();
    if (failure) {
      this.#unmount({ screen });
      throw failure;
    }
    const rendered = { screen, wrap };
    this.#rendered.add(rendered);
    return rendered;
  }

  rerender(rendered, element) {
    rendered.screen._holder.element = rendered.wrap(element);
    this.act(() => this.#app._run(rendered.screen));
  }

  unmount(rendered) {
    this.#unmount(rendered);
    this.#rendered.delete(rendered);
  }

  #unmount(rendered) {
    this.act(() => this.#app._unmountNow(rendered.screen));
  }

  /** RNTL's cleanup: every screen rendered is unmounted. */
  cleanup() {
    for (const rendered of [...this.#rendered]) {
      try {
        this.unmount(rendered);
      } catch {}
    }
    this.#screen = null;
  }

  get screen() {
    return this.#screen;
  }

  set screen(value) {
    this.#screen = value;
  }
}

/** Replaces each getter of `object` by one that keeps its first value. */
function memoizeGetters(object) {
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(object))) {
    if (typeof descriptor.get !== 'function' || !descriptor.configurable) continue;
    Object.defineProperty(object, key, {
      configurable: true,
      enumerable: descriptor.enumerable,
      get() {
        const value = descriptor.get.call(this);
        Object.defineProperty(object, key, { configurable: true, enumerable: descriptor.enumerable, writable: true, value });
        return value;
      },
    });
  }
}

/** A host element as RNTL's queries return one: React's props of the host component, its place in the tree. */
export class HostElement {
  #host;
  #tag;

  constructor(host, tag) {
    this.#host = host;
    this.#tag = tag;
  }

  /** The daemon's tag of the native view. */
  get tag() {
    return this.#tag;
  }

  /** The native view as the daemon holds it: `{tag, component, props, text}`. */
  get native() {
    const view = this.#host.view(this.#tag);
    if (!view) return null;
    return { tag: this.#tag, component: view.component, props: view.props, text: this.#host.textOf(this.#tag) };
  }

  get type() {
    const component = this.#host.view(this.#tag)?.component;
    return HOST_TYPES[component] ?? component ?? null;
  }

  /** The React props the app's host component was given (testID, style, accessibilityState, children, …). */
  get props() {
    return this.#host.reactProps(this.#tag) ?? this.#host.view(this.#tag)?.props ?? {};
  }

  get parent() {
    const parent = this.#host.view(this.#tag)?.parent;
    if (parent == null || !this.#host.reactProps(parent)) return null;
    return this.#host.elementOf(parent);
  }

  get children() {
    const view = this.#host.view(this.#tag);
    if (!view) return [];
    return view.children.map((tag) => {
      const child = this.#host.view(tag);
      return child?.component === 'RCTRawText' ? String(child.props?.text ?? '') : this.#host.elementOf(tag);
    });
  }

  /** The host component's instance (its ref). */
  get instance() {
    return this.#host.fiber(this.#tag)?.stateNode ?? null;
  }

  toJSON() {
    return elementJSON(this);
  }
}

/** The fibers react-test-renderer's instances are: components and host views (not fragments, providers, …). */
const INSTANCE_FIBERS = new Set([0, 1, 2, 5, 11, 14, 15]);
const HOST_TEXT = 6;

/** The instances (and host texts, as strings) right below `fiber`, through the fibers that are none. */
function instanceChildren(fiber) {
  const found = [];
  const visit = (child) => {
    for (let f = child; f; f = f.sibling) {
      if (INSTANCE_FIBERS.has(f.tag)) found.push(f);
      else if (f.tag === HOST_TEXT) found.push(String(f.memoizedProps ?? ''));
      else visit(f.child);
    }
  };
  visit(fiber.child);
  return found;
}

/**
 * A component's instance as RNTL's UNSAFE_* queries and UNSAFE_root return one (react-test-renderer's
 * ReactTestInstance over the app's own fibers): `.type`, `.props`, `.parent`, `.children`, `.instance`, and
 * find/findAll/findByType/findAllByType/findByProps/findAllByProps. A host view's is its HostElement. `.tag` is the
 * daemon tag of its first host view (where a touch lands).
 */
export class FiberElement {
  #host;
  #fiber;

  constructor(host, fiber) {
    this.#host = host;
    this.#fiber = fiber;
  }

  /** @internal */
  get fiber() {
    return this.#fiber;
  }

  get type() {
    return this.#fiber.type;
  }

  get props() {
    return this.#fiber.memoizedProps ?? {};
  }

  get instance() {
    return this.#fiber.tag === 1 ? this.#fiber.stateNode : null;
  }

  get parent() {
    for (let f = this.#fiber.return; f; f = f.return) {
      if (f.tag === HOST_ROOT) return null;
      if (INSTANCE_FIBERS.has(f.tag)) return this.#host.instanceOf(f);
    }
    return null;
  }

  get children() {
    return instanceChildren(this.#fiber).map((c) => (typeof c === 'string' ? c : this.#host.instanceOf(c)));
  }

  get tag() {
    const stack = [this.#fiber];
    while (stack.length > 0) {
      const f = stack.shift();
      if (f.tag === HOST_COMPONENT) {
        const rendererTag = f.stateNode?._nativeTag ?? f.stateNode?.canonical?.nativeTag;
        return rendererTag === undefined ? null : this.#host.app.native.daemonTag(rendererTag) ?? null;
      }
      for (let c = f.child; c; c = c.sibling) stack.push(c);
    }
    return null;
  }

  findAll(predicate, { deep = true } = {}) {
    return findAllInstances(this.#host, this.#fiber, predicate, deep);
  }

  find(predicate) {
    return expectOne(this.findAll(predicate), 'matching custom predicate');
  }

  findAllByType(type, options) {
    return this.findAll((node) => node.type === type, options);
  }

  findByType(type) {
    return expectOne(this.findAllByType(type, { deep: false }), `with node type: "${typeName(type)}"`);
  }

  findAllByProps(props, options) {
    return this.findAll((node) => node.props && Object.keys(props).every((key) => node.props[key] === props[key]), options);
  }

  findByProps(props) {
    return expectOne(this.findAllByProps(props, { deep: false }), `with props: ${JSON.stringify(props)}`);
  }
}

/**
 * react-test-renderer's findAll over the fibers from `rootFiber`: the instances matching, the root's included (with
 * deep: false, none below a match).
 */
function findAllInstances(host, rootFiber, predicate, deep) {
  const found = [];
  const visit = (fiber) => {
    const node = host.instanceOf(fiber);
    const match = predicate(node);
    if (match) found.push(node);
    if (match && !deep) return;
    for (const child of instanceChildren(fiber)) if (typeof child !== 'string') visit(child);
  };
  visit(rootFiber);
  return found;
}

function typeName(type) {
  return typeof type === 'string' ? type : type?.displayName ?? type?.name ?? type?.render?.displayName ?? type?.render?.name ?? 'Unknown';
}

function expectOne(found, what) {
  if (found.length === 1) return found[0];
  throw new Error(found.length === 0 ? `No instances found ${what}` : `Expected 1 but found ${found.length} instances ${what}`);
}

/** An element as react-test-renderer's toJSON gives one: its type, its props but children, its children's JSON. */
function elementJSON(element) {
  const props = {};
  for (const [key, value] of Object.entries(element.props ?? {})) {
    if (key === 'children') continue;
    props[key] = value;
  }
  const children = element.children.map((c) => (typeof c === 'string' ? c : elementJSON(c)));
  const json = { type: element.type, props, children: children.length > 0 ? children : null };
  Object.defineProperty(json, '$$typeof', { value: TEST_JSON });
  return json;
}

/** React's fiber tags this file reads. */
const HOST_ROOT = 3;
const HOST_COMPONENT = 5;

/** Whether a fiber is a host text field (a TextInput's native view). */
function isTextInputFiber(fiber) {
  return fiber?.tag === HOST_COMPONENT && TEXT_INPUT_COMPONENTS.has(fiber.type);
}

/**
 * RNTL's isTouchResponder: a host view with onStartShouldSetResponder, or a text field. A scroll view is not one here:
 * under React Native's mocks its host has no responder handlers, so RNTL lets every event through it (a FlatList's
 * onEndReached); its real handlers need a touch's event.
 */
const SCROLL_VIEWS = new Set(['RCTScrollView', 'RCTScrollContentView']);
function isTouchResponder(fiber) {
  if (fiber.tag !== HOST_COMPONENT || SCROLL_VIEWS.has(fiber.type)) return false;
  return Boolean(fiber.memoizedProps?.onStartShouldSetResponder) || isTextInputFiber(fiber);
}

/** A responder's `on…ShouldSetResponder()` asked with no event, as RNTL asks it (undefined when it needs one). */
function askResponder(handler) {
  if (typeof handler !== 'function') return undefined;
  try {
    return handler();
  } catch {
    return undefined;
  }
}

/** The nearest host fiber above `fiber`. */
function hostParent(fiber) {
  for (let f = fiber.return; f; f = f.return) if (f.tag === HOST_COMPONENT) return f;
  return null;
}

/**
 * RNTL's isPointerEventEnabled: the element takes touches unless its `pointerEvents` is `none` or `box-none`, or a
 * host ancestor's is `none` or `box-only` (React Native's pointerEvents rules).
 */
function pointerEventsEnabled(fiber) {
  let current = fiber.tag === HOST_COMPONENT ? fiber : hostParent(fiber);
  let parent = fiber.tag !== HOST_COMPONENT;
  for (; current; current = hostParent(current), parent = true) {
    const value = current.memoizedProps?.pointerEvents;
    if (value === 'none' || value === (parent ? 'box-only' : 'box-none')) return false;
  }
  return true;
}

/** The text field events `editable={false}` does not stop (RNTL's list). */
const EDITABLE_IGNORED = new Set(['contentSizeChange', 'onContentSizeChange', 'layout', 'onLayout', 'scroll', 'onScroll']);

/** RNTL 12.4's isEventEnabled, on fibers. */
function eventEnabled(fiber, eventName, responder) {
  if (responder && isTextInputFiber(responder)) return responder.memoizedProps?.editable !== false || EDITABLE_IGNORED.has(eventName);
  if ((eventName === 'press' || eventName === 'onPress') && !pointerEventsEnabled(fiber)) return false;
  const start = askResponder(responder?.memoizedProps?.onStartShouldSetResponder);
  const move = askResponder(responder?.memoizedProps?.onMoveShouldSetResponder);
  if (start || move) return true;
  return start === undefined && move === undefined;
}

function capitalize(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** RNTL's API over a JestHost. */
function createLibrary(host) {
  const app = host.app;
  let config = { asyncUtilTimeout: 1000, defaultIncludeHiddenElements: false, defaultDebugOptions: undefined };

  const check = (element, what) => {
    if (!(element instanceof HostElement) && !(element instanceof FiberElement)) {
      throw new TypeError(`${what}: give an element a query returned (bridged's host element), got ${element === null ? 'null' : typeof element}`);
    }
    if (element instanceof FiberElement) return;
    if (!host.view(element.tag)) throw new Error(`${what}: the element is no longer on the screen (unmounted)`);
  };

  /** RNTL's UNSAFE_*ByType and UNSAFE_*ByProps over the instances of a rendered element (composites included). */
  const unsafeQueries = (rootOf) => {
    const all = {
      Type: (root, type) => root.findAllByType(type),
      Props: (root, props) => root.findAllByProps(props),
    };
    const queries = {};
    for (const [kind, findAll] of Object.entries(all)) {
      const what = (arg) => (kind === 'Type' ? `with node type: "${typeName(arg)}"` : `with props: ${JSON.stringify(arg)}`);
      const found = (arg) => {
        host.flush();
        const root = rootOf();
        return root ? findAll(root, arg) : [];
      };
      queries[`UNSAFE_queryAllBy${kind}`] = found;
      queries[`UNSAFE_getAllBy${kind}`] = (arg) => {
        const list = found(arg);
        if (list.length === 0) throw new Error(`No instances found ${what(arg)}`);
        return list;
      };
      queries[`UNSAFE_getBy${kind}`] = (arg) => expectOne(found(arg), what(arg));
      queries[`UNSAFE_queryBy${kind}`] = (arg) => {
        const list = found(arg);
        if (list.length > 1) throw new Error(`Expected 1 but found ${list.length} instances ${what(arg)}`);
        return list[0] ?? null;
      };
    }
    return queries;
  };

  let prettyFormat;
  /** The screen's tree as RNTL prints it (format.js), or null without pretty-format. */
  const printScreen = (json, options) => {
    prettyFormat ??= loadPrettyFormat(app.root) ?? false;
    if (!prettyFormat || json == null) return null;
    return formatTree(prettyFormat, json, options);
  };

  /** A query's error with the screen printed as RNTL prints it in place of the native tree. */
  const withScreenTree = (error) => {
    if (error?.name !== 'QueryError') return error;
    const message = error.message.split('\n\n')[0];
    const printed = printScreen(host.screen?.toJSON());
    error.message = printed ? `${message}\n\n${printed}` : message;
    return error;
  };

  /** The queries of a screen (or a within), their answers as elements; findBy* wait in the test's time. */
  const wrapQueries = (queries) => {
    const wrapped = {};
    for (const [name, query] of Object.entries(queries)) {
      if (typeof query !== 'function') continue;
      if (name.startsWith('find')) continue;
      wrapped[name] = (...args) => {
        host.flush();
        let found;
        try {
          found = query(...args);
        } catch (error) {
          throw withScreenTree(error);
        }
        return Array.isArray(found) ? found.map((h) => host.elementOf(h.tag)) : found ? host.elementOf(found.tag) : null;
      };
    }
    for (const name of Object.keys(wrapped)) {
      if (!name.startsWith('get')) continue;
      const find = name.replace(/^get/, 'find');
      wrapped[find] = (matcher, options = {}, waitOptions = {}) => waitFor(() => wrapped[name](matcher, options), { ...options, ...waitOptions });
    }
    return wrapped;
  };

  const within = (element) => {
    check(element, 'within');
    for (const rendered of renderedScreens) {
      if (rendered.screen.toJSON() && host.isOnScreen(element.tag)) return wrapQueries(rendered.screen.within(element.tag));
    }
    throw new Error('within: the element is not on a rendered screen');
  };

  const renderedScreens = new Set();

  function render(element, options = {}) {
    const rendered = host.render(element, options);
    renderedScreens.add(rendered);
    const queries = wrapQueries(rendered.screen._content(() => host.contentParent(rendered.screen.tag)));
    const result = {
      ...queries,
      rerender: (next) => host.rerender(rendered, next),
      update: (next) => host.rerender(rendered, next),
      unmount: () => {
        host.unmount(rendered);
        renderedScreens.delete(rendered);
      },
      toJSON: () => {
        host.flush();
        if (!host.view(rendered.screen.tag)) return null;
        const children = host.contentTags(rendered.screen.tag).map((tag) => elementJSON(host.elementOf(tag)));
        return children.length === 0 ? null : children.length === 1 ? children[0] : children;
      },
      debug: Object.assign(
        (options) => {
          host.flush();
          // RNTL's debug(message) and debug({ message, mapProps }): the tree as RNTL prints it, all props unless
          // mapProps says otherwise; the native tree where pretty-format is missing.
          const { message, mapProps = (props) => props } = typeof options === 'string' ? { message: options } : (options ?? config.defaultDebugOptions ?? {});
          const text = printScreen(result.toJSON(), { mapProps }) ?? rendered.screen.debug();
          (app.global?.console ?? console).log(message ? `${message}\n\n${text}` : text);
        },
        { shallow: (message) => result.debug(message) },
      ),
      get root() {
        const first = host.contentTags(rendered.screen.tag)[0];
        return first === undefined ? null : host.elementOf(first);
      },
      get UNSAFE_root() {
        host.flush();
        const fiber = host.renderedFiber(rendered);
        return fiber ? host.instanceOf(fiber) : null;
      },
    };
    Object.assign(result, unsafeQueries(() => result.UNSAFE_root));
    host.screen = result;
    return result;
  }

  /** RNTL's screen before any render (and after cleanup): every member says render was not called. */
  const missingScreen = new Proxy(
    {},
    {
      get(_target, key) {
        if (typeof key !== 'string' || key === 'then' || key === 'asymmetricMatch' || key === '$$typeof' || key === 'nodeType' || key === 'toJSON') return undefined;
        if (key === 'root' || key === 'UNSAFE_root') throw new Error(`${SCREEN_MISSING} and hence 'screen.${key}' is not available`);
        const missing = () => {
          throw new Error(`${SCREEN_MISSING} and hence 'screen.${key}' is not available`);
        };
        if (key === 'debug') missing.shallow = missing;
        return missing;
      },
    },
  );

  const cleanup = () => {
    host.cleanup();
    renderedScreens.clear();
  };

  const act = (callback) => host.act(callback);

  async function waitFor(expectation, { timeout = config.asyncUtilTimeout, interval = 50, onTimeout } = {}) {
    if (typeof expectation !== 'function') throw new TypeError('Received `expectation` arg must be a function');
    const start = Date.now();
    let elapsed = 0;
    let lastError;
    for (;;) {
      let value;
      try {
        host.flush();
        value = expectation();
        if (value && typeof value.then === 'function') value = await value;
      } catch (error) {
        lastError = error;
        if (elapsed >= timeout) break;
        await host.wait(interval);
        // As RNTL's: under fake timers, checked at each interval up to the timeout included; in real time, its
        // timeout comes before a check due at the same time.
        const fake = host.fakeTimers();
        elapsed = fake ? elapsed + interval : Date.now() - start;
        if (!fake && elapsed >= timeout) break;
        continue;
      }
      // What the app queued as it settled (a promise's state update, the effects it runs) is applied before the
      // test goes on, as RNTL's waitFor flushes microtasks before returning.
      await host.act(async () => {
        await new Promise((resolve) => setImmediate(resolve));
      });
      return value;
    }
    if (typeof onTimeout === 'function') {
      const replaced = onTimeout(lastError);
      if (replaced) throw replaced;
    }
    throw lastError ?? new Error(`waitFor: timed out after ${timeout} ms`);
  }

  async function waitForElementToBeRemoved(expectation, options) {
    const present = (value) => (Array.isArray(value) ? value.length > 0 : value != null);
    const first = expectation();
    if (!present(first)) {
      throw new Error('The element(s) given to waitForElementToBeRemoved are already removed. waitForElementToBeRemoved requires that the element(s) exist(s) before waiting for removal.');
    }
    return waitFor(() => {
      let value;
      try {
        value = expectation();
      } catch {
        return first;
      }
      if (present(value)) throw new Error('Timed out in waitForElementToBeRemoved.');
      return first;
    }, options);
  }

  // MARK: fireEvent: press, changeText and scroll are native; any other event calls its handler as RNTL does.

  /**
   * The handler RNTL's fireEvent calls, found as RNTL 12.4's findEventHandler finds it: `on<Event>` (or `<event>`) on
   * the element's fiber or the nearest ancestor's with one that the event is enabled on (a text field's `editable`,
   * `pointerEvents` for a press, a touch responder's onStartShouldSetResponder: a disabled Pressable).
   */
  const handlerFor = (element, eventName) => {
    const handlerName = eventName.startsWith('on') ? eventName : `on${capitalize(eventName)}`;
    let responder;
    const start = element instanceof FiberElement ? element.fiber : host.fiber(element.tag);
    for (let fiber = start; fiber && fiber.tag !== HOST_ROOT; fiber = fiber.return) {
      const props = fiber.memoizedProps;
      if (!props || typeof props !== 'object') continue;
      if (isTouchResponder(fiber)) responder = fiber;
      const handler = typeof props[handlerName] === 'function' ? props[handlerName] : typeof props[eventName] === 'function' ? props[eventName] : null;
      if (handler && eventEnabled(fiber, eventName, responder)) return { handler, fiber };
    }
    return null;
  };

  function fireEvent(element, eventName, ...data) {
    check(element, `fireEvent(element, '${eventName}')`);
    if (eventName === 'press') return fireEvent.press(element, ...data);
    if (eventName === 'changeText') return fireEvent.changeText(element, ...data);
    if (eventName === 'scroll') return fireEvent.scroll(element, ...data);
    return callHandler(element, eventName, data);
  }

  /** RNTL's own fireEvent: the handler called with `data`, in act. */
  const callHandler = (element, eventName, data) => {
    const found = handlerFor(element, eventName);
    if (!found) return undefined;
    // A host view's own handler is React Native's (a ScrollView's onScrollEndDrag reads its event's nativeEvent):
    // with no data, it gets an event with an empty nativeEvent, as a native event would carry one.
    const args = data.length === 0 && found.fiber.tag === HOST_COMPONENT ? [{ nativeEvent: {} }] : data;
    let result;
    host.act(() => {
      result = found.handler(...args);
    });
    return result;
  };

  /**
   * A press is a native touch through React Native's responder system, where RNTL's fireEvent would find an
   * enabled onPress (so none where `pointerEvents` or `disabled` keep it from the element, as on a phone); the
   * event's `nativeEvent` coordinates, when given, are the touch's.
   */
  fireEvent.press = (element, event) => {
    check(element, 'fireEvent.press');
    if (!handlerFor(element, 'press')) return undefined;
    host.flush();
    host.act(() => host.tap(element.tag, event?.nativeEvent));
    return undefined;
  };

  fireEvent.longPress = (element) => {
    check(element, 'fireEvent.longPress');
    const found = handlerFor(element, 'longPress');
    if (!found) return undefined;
    let result;
    host.act(() => {
      result = found.handler({ nativeEvent: {} });
    });
    return result;
  };

  /** The text field an element is or is inside (RNTL fires on the element or its ancestors). */
  const fieldOf = (element) => {
    for (let tag = element.tag; tag != null; tag = host.view(tag)?.parent ?? null) {
      if (TEXT_INPUT_COMPONENTS.has(host.view(tag)?.component)) return tag;
    }
    return null;
  };

  fireEvent.changeText = (element, text = '') => {
    check(element, 'fireEvent.changeText');
    const field = fieldOf(element);
    if (field === null) return callHandler(element, 'changeText', [text]);
    // A field that is not editable takes no typing (RNTL calls no handler then either).
    if (host.view(field)?.props?.editable === false) return undefined;
    host.flush();
    host.act(() => {
      // The field's whole text becomes `text`, as a selection of everything replaced by a paste: natively, so
      // that maxLength, editable={false} and a controlled value hold.
      if (host.textOf(field) !== '') host.command(field, 'clear');
      if (String(text) !== '') host.command(field, 'type', [String(text)]);
    });
    return undefined;
  };

  const scrollViewOf = (element) => {
    for (let tag = element.tag; tag != null; tag = host.view(tag)?.parent ?? null) {
      if (host.view(tag)?.component === 'RCTScrollView') return tag;
    }
    return null;
  };

  const scrollNatively = (tag, { x = 0, y = 0, contentSize, layoutMeasurement } = {}) => {
    const width = layoutMeasurement?.width ?? app.window.width;
    const height = layoutMeasurement?.height ?? app.window.height;
    const args = [x, y, width, height, contentSize?.width ?? Math.max(width, x + width), contentSize?.height ?? Math.max(height, y + height)];
    host.act(() => host.command(tag, 'scroll', args));
  };

  fireEvent.scroll = (element, event = {}) => {
    check(element, 'fireEvent.scroll');
    const tag = scrollViewOf(element);
    const nativeEvent = event?.nativeEvent ?? {};
    if (tag === null) return callHandler(element, 'scroll', [event]);
    host.flush();
    scrollNatively(tag, { ...(nativeEvent.contentOffset ?? {}), contentSize: nativeEvent.contentSize, layoutMeasurement: nativeEvent.layoutMeasurement });
    return undefined;
  };

  // MARK: userEvent: the same native inputs, with the waits a user's fingers take, in the test's time.

  function setup(options = {}) {
    const delay = options.delay ?? 0;
    const pause = async () => {
      if (delay > 0) await host.wait(delay);
    };
    // As RNTL's press: the finger held `ms`, then, for a touchable, what is left of Pressability's minimum press
    // duration (its onPressOut comes then); a text field's tap waits for nothing more.
    const hold = async (element, ms, what) => {
      check(element, what);
      host.flush();
      host.act(() => host.touch(element.tag, 'start'));
      if (ms > 0) await host.wait(ms);
      if (!host.view(element.tag)) return;
      host.act(() => host.touch(element.tag, 'end'));
      const field = TEXT_INPUT_COMPONENTS.has(host.view(element.tag)?.component);
      if (!field && MIN_PRESS_DURATION_MS - ms > 0) await host.wait(MIN_PRESS_DURATION_MS - ms);
    };
    const requireField = (element, what) => {
      check(element, what);
      const view = host.view(element.tag);
      if (!TEXT_INPUT_COMPONENTS.has(view.component)) throw new Error(`${what} works only on host TextInput elements, got ${element.type}`);
      return element.tag;
    };
    return {
      press: (element) => hold(element, 0, 'userEvent.press'),
      longPress: (element, { duration = LONG_PRESS_MS } = {}) => hold(element, duration, 'userEvent.longPress'),
      async type(element, text, { skipPress = false, submitEditing = false } = {}) {
        const field = requireField(element, 'userEvent.type');
        if (host.view(field).props?.editable === false) return;
        if (!skipPress) await hold(element, 0, 'userEvent.type');
        else host.act(() => host.command(field, 'focus'));
        for (const character of String(text)) {
          await pause();
          host.act(() => host.command(field, character === '\n' ? 'submit' : 'type', character === '\n' ? [] : [character]));
        }
        if (submitEditing) host.act(() => host.command(field, 'submit'));
        host.act(() => host.command(field, 'blur'));
      },
      async clear(element) {
        const field = requireField(element, 'userEvent.clear');
        if (host.view(field).props?.editable === false) return;
        host.act(() => host.command(field, 'focus'));
        host.act(() => host.command(field, 'clear'));
        host.act(() => host.command(field, 'blur'));
      },
      async paste(element, text) {
        const field = requireField(element, 'userEvent.paste');
        if (host.view(field).props?.editable === false) return;
        host.act(() => host.command(field, 'focus'));
        host.act(() => host.command(field, 'clear'));
        if (String(text) !== '') host.act(() => host.command(field, 'type', [String(text)]));
        host.act(() => host.command(field, 'blur'));
      },
      async scrollTo(element, { x, y, contentSize, layoutMeasurement } = {}) {
        check(element, 'userEvent.scrollTo');
        const tag = scrollViewOf(element);
        if (tag === null) throw new Error('userEvent.scrollTo works only on host ScrollView elements');
        host.flush();
        scrollNatively(tag, { x: x ?? 0, y: y ?? 0, contentSize, layoutMeasurement });
        await pause();
      },
    };
  }

  const defaultUser = setup();
  const userEvent = {
    setup,
    press: (...args) => defaultUser.press(...args),
    longPress: (...args) => defaultUser.longPress(...args),
    type: (...args) => defaultUser.type(...args),
    clear: (...args) => defaultUser.clear(...args),
    paste: (...args) => defaultUser.paste(...args),
    scrollTo: (...args) => defaultUser.scrollTo(...args),
  };

  function renderHook(callback, { initialProps, wrapper } = {}) {
    const React = app._React;
    const result = { current: undefined };
    function TestComponent({ hookProps }) {
      result.current = callback(hookProps);
      return null;
    }
    const rendered = render(React.createElement(TestComponent, { hookProps: initialProps }), { wrapper });
    return {
      result,
      rerender: (props) => rendered.rerender(React.createElement(TestComponent, { hookProps: props })),
      unmount: () => rendered.unmount(),
    };
  }

  /** RNTL's isHiddenFromAccessibility: the element or an ancestor hides itself (queries.js's rule). */
  const isHiddenFromAccessibility = (element) => {
    for (let tag = element?.tag; tag != null; tag = host.view(tag)?.parent ?? null) {
      if (hidesItself(host.view(tag)?.props ?? {})) return true;
    }
    return false;
  };

  const library = {
    render,
    get screen() {
      return host.screen ?? missingScreen;
    },
    within,
    getQueriesForElement: within,
    cleanup,
    act,
    fireEvent,
    userEvent,
    waitFor,
    waitForElementToBeRemoved,
    renderHook,
    isHiddenFromAccessibility,
    isInaccessible: isHiddenFromAccessibility,
    getDefaultNormalizer,
    configure(options = {}) {
      // RNTL's `defaultHidden` is the older name of `defaultIncludeHiddenElements`; the one given last wins.
      const { defaultHidden, ...rest } = options;
      config = { ...config, ...rest };
      if (defaultHidden !== undefined) config.defaultIncludeHiddenElements = defaultHidden;
      app.defaultIncludeHiddenElements = Boolean(config.defaultIncludeHiddenElements);
    },
    resetToDefaults() {
      config = { asyncUtilTimeout: 1000, defaultIncludeHiddenElements: false, defaultDebugOptions: undefined };
      app.defaultIncludeHiddenElements = false;
    },
    getConfig: () => ({ ...config }),
    /** bridged's own: the App (openApp's API: nativeCalls, alerts, pressAlertButton, …) this test file runs. */
    bridged: app,
  };
  return library;
}

/** RNTL's getDefaultNormalizer: whitespace trimmed and collapsed, each optional. */
function getDefaultNormalizer({ trim = true, collapseWhitespace = true } = {}) {
  return (text) => {
    let normalized = text;
    if (trim) normalized = normalized.trim();
    if (collapseWhitespace) normalized = normalized.replace(/\s+/g, ' ');
    return normalized;
  };
}
