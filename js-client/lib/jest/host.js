// What a test file under preset: 'bridged-client' reaches through `global.__bridged__`: the app loaded through
// jest's registry (load), bridged's React Native Testing Library (testingLibrary) and its matchers (matchers).
// Every call of RNTL's synchronous API is synchronous here too: the session's requests are (sync-bridge.js), the
// renderer's commit is sent before the call returns (flush), and the queries read the live tree, which holds the
// daemon's tree as of the last frame received.
import path from 'node:path';
import { commandOp, emitOp, touchOp } from '../command-op.js';
import { MOMENTUM_SETTLED_MS } from '../react-native/app/native-events.js';
import { STAND_INS } from '../react-native/app/require-hook.js';
import { TEXT_INPUT_COMPONENTS } from '../react-native/testing/queries.js';
import { FiberElement, HOST_COMPONENT, HostElement, printable } from './elements.js';
import { createLibrary } from './library.js';
import { createMatchers } from './matchers.js';

const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/** The timer functions React's scheduler and renderer keep as they load (scheduler.native: `localSetImmediate`, …). */
const TIMERS = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'];

/**
 * Under `fakeTimers: { enableGlobally: true }` jest installs its fake timers after the setup files. React Native's own
 * setup loads no React, so there the test file's imports load React's scheduler and renderer once the timers are
 * fake, and they keep the fake ones: work React schedules outside `act` (a react-test-renderer tree's effects) waits
 * for the test to advance the clock, and never runs after the file ended. Here React Native loads in a setup file,
 * before: while it loads, each timer function is one that calls whichever the global has when called (the fake
 * ones, from the test's start on). Returns what puts the global's own back.
 */
function timersOfTheMoment(global) {
  const saved = TIMERS.map((name) => [name, global[name]]);
  for (const [name, own] of saved) {
    if (typeof own !== 'function') continue;
    const current = function current() {
      const now = global[name];
      return (now === current ? own : now).apply(this, arguments);
    };
    global[name] = current;
  }
  return () => {
    for (const [name, own] of saved) global[name] = own;
  };
}


/**
 * React Native's modules a cold run loads, and drops, in the file's setup (JestHost.load): those React Native's jest
 * setup mocks (jest/setup.js: Image, Text, TextInput, Modal, View, RefreshControl, ScrollView, ActivityIndicator),
 * then the list and the touchables.
 */
const LOADED_WHEN_COLD = [
  'Image/Image',
  'Text/Text',
  'Components/TextInput/TextInput',
  'Modal/Modal',
  'Components/View/View',
  'Components/RefreshControl/RefreshControl',
  'Components/ScrollView/ScrollView',
  'Components/ActivityIndicator/ActivityIndicator',
  'Lists/FlatList',
  'Components/Pressable/Pressable',
  'Components/Touchable/TouchableOpacity',
];
/** Whether two property descriptors are the same. */
const sameDescriptor = (a, b) =>
  a !== undefined && a.value === b.value && a.get === b.get && a.set === b.set && a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable;

export class JestHost {
  #app;
  #env;
  #roots = new Set();
  /** The current host fiber of each renderer tag, kept as each commit changes them (#indexCommit). */
  #fibers = new Map();
  /** Whether the fibers' and native instances' prototypes print as a line (elements.js, printable). */
  #printable = false;
  #elements = new Map();
  #instances = new WeakMap();
  #rendered = new Set();
  #screen = null;
  #now = 0;
  #library = null;
  /** Puts React Native's index's getters back (jest.resetModules: the next read requires again), or null. */
  #rememoizeIndex = null;
  /** React Native's Vibration, once the app read it from React Native's index (endOfFile). */
  #vibration = null;

  /** Whether the config has jest install fake timers for every file (`fakeTimers.enableGlobally`). */
  #fakeTimersGlobally;
  /** The last act actAfterOthers started (settled either way). */
  #actChain = Promise.resolve();

  constructor(env, { fakeTimersGlobally = false } = {}) {
    this.#env = env;
    this.#fakeTimersGlobally = fakeTimersGlobally;
  }

  /** The test file's App, once its session is open (environment.js). */
  attach(app) {
    this.#app = app;
    // The queries read a view's host React props where native has none of that name (screen.js).
    app._hostProps = (tag) => this.reactProps(tag);
    // The device events the native side sends of its own doing as a test acts (the keyboard shown by a tap on a field,
    // hidden by its blur; a modal dismissed) reach the app's listeners inside React's act, as RNTL's events do: a
    // `Keyboard.addListener` that sets state then warns of no update "not wrapped in act(...)" (React Native's own
    // events run inside its batchedUpdates, where React never warns; a device event does not).
    app._nativeEventScope = (emit) => this.#inAct(emit);
  }

  /** `work` inside React's act (its updates rendered as it ends, or with the act it is inside). */
  #inAct(work) {
    const React = this.#app?._React;
    const reactAct = React?.unstable_act ?? React?.act;
    if (typeof reactAct !== 'function') return work();
    const global = this.#env.global;
    const previous = global.IS_REACT_ACT_ENVIRONMENT;
    global.IS_REACT_ACT_ENVIRONMENT = true;
    try {
      reactAct(() => {
        work();
      });
    } finally {
      global.IS_REACT_ACT_ENVIRONMENT = previous;
    }
  }

  get app() {
    return this.#app;
  }

  /**
   * Whether a host element of `type` takes strings among its children: React Native's renderer asks it (runtime.cjs)
   * beside its own text views, so that a made-up host (a jest mock's stand-in) takes them as on React Native's mocks.
   */
  holdsText(type) {
    return this.#app?._holdsText(type) ?? false;
  }

  /** Loads the app's React Native through jest's `require` (the setup file's), with bridged as its native side. */
  load(jestRequire, jestObject) {
    const global = this.#env.global;
    const root = this.#app.root;
    global.IS_REACT_ACT_ENVIRONMENT = true;
    this.#installDevToolsHook(global);
    // From the app's root, as the app's own files resolve (never from bridged-client's folder, nor NODE_PATH first).
    const resolve = (name) => (name.startsWith('.') ? jestRequire.resolve(path.resolve(root, name)) : jestRequire.resolve(name, { paths: [root] }));
    // React Native's modules that are not loaded (InitializeCore, as under React Native's own jest setup; LogBox's
    // notifications, always empty then): the stand-ins openApp's require hook gives them.
    for (const { module, exports } of STAND_INS) {
      try {
        jestObject?.doMock(resolve(module), () => exports((name) => jestRequire(resolve(name))));
      } catch {}
    }
    const loader = { require: (name) => jestRequire(resolve(name)), resolve };
    // Before the renderer loads (it keeps the registry's `get`): a jest.mock of a native library that renders a
    // made-up host name ('Icon') renders, as on React Native's mocks.
    const restoreTimers = this.#fakeTimersGlobally ? timersOfTheMoment(global) : () => {};
    try {
      this.#app._load(loader, () => this.#app._serveAnyHostType(loader));
    } finally {
      restoreTimers();
    }
    this.#keepFramesUnderLegacyTimers(global);
    // React Native's index and the renderer's private interface are objects of getters, each a `require` at every
    // read (the renderer reads UIManager for every view it creates; an app's `<View>` reads `View`). Node's require
    // is a map lookup; jest's resolves and checks for mocks each time. Each getter keeps its first answer (read
    // during the test, so a jest.mock the test file registered is the one kept) until jest.resetModules() or a
    // module mocked or unmocked later (runtime.cjs), after which the index's getters require again, as on React
    // Native's mocks (a test's `jest.resetModules(); jest.doMock('react-native/Libraries/Utilities/Platform', …)`,
    // or a `jest.mock` of Platform in a test's body after earlier tests read it, then `Platform.OS` read through the
    // index).
    // The modules React Native's jest setup replaces by objects of `jest.fn`s (Linking's openURL, …) keep their
    // own functions here, served by the native side, each in a `jest.fn` that calls it (SPIED_AS_RN_SETUP_MOCKS).
    const spied = (key, value) => {
      // The Vibration the app reads (endOfFile cancels a repetition it left running).
      if (key === 'Vibration') this.#vibration = value;
      return jestObject && Object.hasOwn(SPIED_AS_RN_SETUP_MOCKS, key) ? spyOnEach(jestObject, value, SPIED_AS_RN_SETUP_MOCKS[key]) : value;
    };
    try {
      this.#rememoizeIndex = memoizeGetters(jestRequire(resolve('react-native')), spied);
    } catch {}
    try {
      memoizeGetters(jestRequire(resolve('react-native/Libraries/ReactPrivate/ReactNativePrivateInterface')));
    } catch {}
    // A cold run (jest's cache without React Native's components transformed yet: runtime.cjs): the components apps
    // render most are loaded now, before the file's first test, in a registry of their own that is then dropped, so
    // that Babel's seconds on their code are spent here, not in the first test that renders a field or a list,
    // against its timeout (jest's 5 s: an async test rendering a screen with a TextInput and a FlatList first took
    // 4.6 to 5 s on a cold run of a slow machine, and failed 4 cold runs of 12 there, where it takes 0.3 s warm). The
    // test's own registry is left as a warm run has it: each module loads when the app requires it, after the test
    // file's `jest.mock`s, as on React Native's preset (whose setup mocks those components, loaded when required).
    if (this.#env.bridgedColdTransforms === true && typeof jestObject?.isolateModules === 'function') {
      const before = Object.getOwnPropertyDescriptors(global);
      try {
        jestObject.isolateModules(() => {
          for (const name of LOADED_WHEN_COLD) {
            try {
              jestRequire(resolve(`react-native/Libraries/${name}`));
            } catch {}
          }
        });
      } catch {}
      // What those copies set on the global (React Native's BatchedBridge its own queue) is put back.
      for (const name of Reflect.ownKeys(global)) {
        const was = before[name];
        if (was === undefined) Reflect.deleteProperty(global, name);
        else if (!sameDescriptor(Object.getOwnPropertyDescriptor(global, name), was)) {
          try {
            Object.defineProperty(global, name, was);
          } catch {}
        }
      }
    }
  }

  /** jest.resetModules() was called (environment.cjs): React Native's index requires its modules again. */
  modulesReset() {
    this.#rememoizeIndex?.();
  }

  dispose() {
    if (this.#app) this.cleanup();
  }

  /**
   * The file's tests are over (its environment's run_finish), as an app's end is on a phone: a vibration repeating
   * until cancelled (`Vibration.vibrate(pattern, true)`, on iOS a chain of React Native's own timers) stops. Left
   * running, it would keep jest's process from exiting, where the mocks' vibrate is a jest.fn that starts nothing.
   * Nothing is loaded for it: only a Vibration the app read from React Native's index is cancelled.
   * And a tree the file left mounted (rendered after RNTL's cleanup, in its own afterEach, or under
   * dont-cleanup-after-each) is unmounted now, while its modules can still be loaded: at the environment's
   * teardown jest has torn its module registry down, the unmount's first require failed ("You are trying to `import`
   * a file after the Jest environment has been torn down", and jest exits with 1) and the tree stayed live, where a
   * VirtualizedList's pending batch re-rendered it outside any test and React's error dialog, a module not loadable
   * any more, threw and ended jest's process.
   */
  endOfFile() {
    try {
      if (this.#app) this.cleanup();
    } catch {}
    try {
      this.#vibration?.cancel?.();
    } catch {}
  }

  /**
   * jest's legacy fake timers keep the timer functions the file's global had when jest made the environment, and put
   * them back on useRealTimers: then, before the app set requestAnimationFrame and cancelAnimationFrame, there were
   * none, so a test that used them left the app with no frames, and the next press on a TouchableOpacity (whose fade
   * stops its last one with cancelAnimationFrame) threw, where a phone always has them. They are given the app's.
   */
  #keepFramesUnderLegacyTimers(global) {
    const saved = this.#env.fakeTimers?._timerAPIs;
    if (!saved) return;
    for (const name of ['requestAnimationFrame', 'cancelAnimationFrame']) {
      if (saved[name] === undefined && typeof global[name] === 'function') saved[name] = global[name];
    }
  }

  /** React's DevTools hook, as React Native's renderer looks for it: each commit's root, to find a view's fiber. */
  #installDevToolsHook(global) {
    const host = this;
    const existing = global.__REACT_DEVTOOLS_GLOBAL_HOOK__;
    if (existing && typeof existing.onCommitFiberRoot === 'function') {
      const original = existing.onCommitFiberRoot;
      existing.onCommitFiberRoot = function (id, root, ...rest) {
        host.#roots.add(root);
        host.#indexCommit(root);
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
        host.#indexCommit(root);
      },
      onCommitFiberUnmount() {},
      onPostCommitFiberRoot() {},
    };
  }

  /**
   * Indexes the host fibers a commit made current, by renderer tag (paper's `_nativeTag`, Fabric's canonical
   * `nativeTag`), as React's DevTools follow a commit: a child list that is its alternate's too is one React bailed
   * out on, whose fibers the commits before indexed and are still current, so it is not walked. A commit of a press
   * in a 200-row screen walks the path to what changed, not the screen (each lookup walked all of it: 0.3 ms a press).
   */
  #indexCommit(root) {
    const stack = root.current ? [root.current] : [];
    while (stack.length > 0) {
      const fiber = stack.pop();
      const tag = hostTag(fiber);
      if (tag !== undefined) {
        this.#fibers.set(tag, fiber);
        if (!this.#printable) this.#printable = printable(fiber);
      }
      // The children this commit deleted (React keeps them on their parent until its next render): out of the index.
      for (const deleted of fiber.deletions ?? []) this.#forget(deleted);
      if (fiber.sibling) stack.push(fiber.sibling);
      if (fiber.child && fiber.alternate?.child !== fiber.child) stack.push(fiber.child);
    }
  }

  /** Takes the host fibers of a deleted subtree out of the index (those it holds: a tag's fiber or its alternate). */
  #forget(deleted) {
    const stack = [deleted];
    while (stack.length > 0) {
      const fiber = stack.pop();
      const tag = hostTag(fiber);
      const indexed = tag === undefined ? undefined : this.#fibers.get(tag);
      if (indexed !== undefined && (indexed === fiber || indexed === fiber.alternate)) this.#fibers.delete(tag);
      if (fiber.child) stack.push(fiber.child);
      if (fiber !== deleted && fiber.sibling) stack.push(fiber.sibling);
    }
  }

  /** The current host fiber of a renderer tag, or null. */
  #fiberOf(rendererTag) {
    return this.#fibers.get(rendererTag) ?? null;
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
   * A ScrollView takes a touch that comes within 16 ms of its last momentum end as a stop of its scroll (its
   * _isAnimating), which no finger could make: before a touch, the test's clock is moved past that, as a user's
   * would have. Under fake timers jest's clock (and so `performance.now()`) starts at 0, which reads as a momentum
   * end at 0: it is advanced (17 ms; a timer due in it runs, inside act). In real time, the rest of those 17 ms
   * after a momentum end (a paging scroll, userEvent.scrollTo's momentum) is slept. Only for a touch inside a scroll
   * view (`tag`'s view or an ancestor's), the one the rule is about: elsewhere the clock stays where the test set it
   * (a press that records `new Date()` under `setSystemTime` reads that time, as on the mocks and a phone).
   */
  pastMomentum(tag) {
    const fake = this.fakeTimers();
    const now = this.#env.global.performance?.now?.();
    if (typeof now !== 'number') return;
    // The app's record, on this same clock (one later than now was taken on another: real time before fake).
    let end = this.#app._momentumEndedAt;
    if (end == null || end > now) end = fake ? 0 : null;
    const wait = end === null ? 0 : end + MOMENTUM_SETTLED_MS - now;
    if (!(wait > 0 && wait <= MOMENTUM_SETTLED_MS)) return;
    if (this.closest(tag, 'RCTScrollView') === null) return;
    if (fake) {
      const timers = fake === 'modern' ? this.#env.fakeTimersModern : this.#env.fakeTimers;
      this.act(() => timers.advanceTimersByTime(Math.ceil(wait)));
    } else {
      Atomics.wait(SLEEP, 0, 0, Math.ceil(wait));
    }
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
    }
    await this.settle(fake ? null : ms);
  }

  /**
   * Lets what the app left for later run (a promise its timers or handlers resolved, whose `then` sets state: a
   * debounced search's fetch, an async onPress) for `ms` of real time (null: a turn of Node's event loop), outside act
   * and with no warning, as in RNTL's waits, which turn React's act environment off for their whole wait; then sends
   * what it rendered.
   */
  async settle(ms = null) {
    await this.outsideAct(() => new Promise((resolve) => (ms === null ? setImmediate(resolve) : setTimeout(resolve, ms))));
    this.flush();
  }

  /**
   * Runs `callback` (async) with React's act environment off, as RNTL's wrapAsync runs its waits and each user event:
   * a state update the app makes between the acts of its touches (an async onPress's, after an await) is no warning;
   * a turn of the event loop at the end lets such updates in before the environment is put back.
   */
  async outsideAct(callback, { settled = false } = {}) {
    const global = this.#env.global;
    const previous = global.IS_REACT_ACT_ENVIRONMENT;
    global.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      const result = await callback();
      if (settled) await new Promise((resolve) => setImmediate(resolve));
      return result;
    } finally {
      global.IS_REACT_ACT_ENVIRONMENT = previous;
    }
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

  /**
   * An async act that starts once the others this method started have ended: two waits the test runs together
   * (`Promise.all([findByText(a), findByText(b)])`, or findBy* not awaited) each end in one, which overlapped, and
   * React said "You seem to have overlapping act() calls" where RNTL's waits open none.
   */
  actAfterOthers(callback) {
    const run = this.#actChain.then(() => this.act(callback));
    this.#actChain = run.catch(() => {});
    return run;
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
    } catch (error) {
      this.#app.native.endFailedTurn();
      this.#app.native.throwCause(error);
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
    // React's synchronous answer to a commit that failed in it (an error boundary's) is in: the test goes on.
    this.#app.native.endFailedTurn();
    this.flush();
    return thenable;
  }

  #timestamp() {
    this.#now = Math.max(this.#now + 1, Math.round(performance.now()));
    return this.#now;
  }

  /** A finger's start or end on the view of daemon tag `tag`, as the daemon's touch handler sends it. */
  touch(tag, phase) {
    if (phase === 'start') this.pastMomentum(tag);
    const bridge = this.#app.bridge;
    bridge.requestSync(touchOp(tag, phase, { identifier: 1, pageX: 0, pageY: 0, locationX: 0, locationY: 0, timestamp: this.#timestamp() }));
    if (phase === 'end') this.#flipSwitch(tag);
  }

  /**
   * A finger lifted from a `Switch` flips it, as iOS's UISwitch does a tap of its own (its `change`, then the app's
   * onValueChange), besides the touch React Native's responder system sees (Switch.js takes it, so a row's touchable
   * around the switch does not); a disabled one does not (the daemon's `toggle`).
   */
  #flipSwitch(tag) {
    if (this.view(tag)?.component === 'RCTSwitch') this.command(tag, 'toggle');
  }

  /**
   * The view a finger on the view of daemon tag `tag` touches, as iOS's `RCTView` hitTest decides along its
   * ancestors (`RCTView.m`): the deepest of them that takes touches itself, not one with `pointerEvents` `none` nor
   * one under it, not one with `box-none`, nor one under a `box-only` (that one takes them). `tag` itself unless a
   * `pointerEvents` says otherwise (a press on a `TextInput` with `pointerEvents="none"` inside a touchable touches
   * the touchable, not the field's own responder); null when no view there takes a touch.
   */
  touchTarget(tag) {
    const path = [];
    for (let view = this.view(tag); view; view = view.parent != null ? this.view(view.parent) : undefined) path.push(view);
    let target = null;
    for (let i = path.length - 1; i >= 0; i -= 1) {
      const events = path[i].props?.pointerEvents;
      if (events === 'none') break;
      if (events !== 'box-none') target = path[i].tag;
      if (events === 'box-only') break;
    }
    return target;
  }

  /** A tap: the finger's start and end in one request (their events come back in order, each delivered). */
  tap(tag, at = {}) {
    this.pastMomentum(tag);
    const number = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
    const point = { pageX: number(at?.pageX), pageY: number(at?.pageY), locationX: number(at?.locationX), locationY: number(at?.locationY) };
    const touch = (phase) => touchOp(tag, phase, { identifier: 1, ...point, timestamp: this.#timestamp() });
    this.#timersInAct(() => {
      this.#app.bridge.requestSync({ op: 'batch', ops: [touch('start'), touch('end')] });
      this.#flipSwitch(tag);
    });
  }

  /**
   * Runs `deliver` (a touch's events reaching the app); the timers the app starts meanwhile run their callbacks
   * inside React's act when they fire, as the touch's own events do: Pressability's press-out, 130 ms after a tap
   * (Pressable's `pressed`, TouchableHighlight's underlay), which in real time fired while the test awaited
   * something else and React warned "An update to Pressable inside a test was not wrapped in act(...)" (the mocks
   * have no press-out). The app's `setTimeout` is the one of the moment (jest's fake one, a spy), called as it is.
   */
  #timersInAct(deliver) {
    const global = this.#env.global;
    const original = global.setTimeout;
    if (typeof original !== 'function') return deliver();
    const host = this;
    global.setTimeout = function setTimeoutOfATouch(callback, ...rest) {
      if (typeof callback !== 'function') return original.call(this, callback, ...rest);
      return original.call(this, function inAct(...args) {
        let result;
        host.#inAct(() => {
          result = callback.apply(this, args);
        });
        return result;
      }, ...rest);
    };
    try {
      return deliver();
    } finally {
      if (global.setTimeout.name === 'setTimeoutOfATouch') global.setTimeout = original;
    }
  }

  command(tag, name, args) {
    this.#app.bridge.requestSync(commandOp(tag, name, args));
  }

  /** The view of daemon tag `tag` emits `event` with `payload`, as native code would (a scroll's momentum). */
  emit(tag, event, payload) {
    this.#app.bridge.requestSync(emitOp(tag, event, payload));
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

  /** Whether `fiber` is the one a screen's element was rendered as (the top of RNTL's tree: it has no parent). */
  isRenderedTop(fiber) {
    const above = fiber.return;
    if (above?.tag !== 1) return false;
    for (const rendered of this.#rendered) if (above.memoizedProps?.children === rendered.screen._holder.element) return true;
    return false;
  }

  /** The live tree's view of a tag, or undefined once it is gone. */
  view(tag) {
    return this.#app._liveTree.views.get(tag);
  }

  /**
   * The daemon tag of the nearest of the view of `tag` and its ancestors whose component is `component` (a name, or a
   * Set of names), else null.
   */
  closest(tag, component) {
    const wanted = typeof component === 'string' ? (name) => name === component : (name) => component.has(name);
    for (let at = tag; at != null; at = this.view(at)?.parent ?? null) {
      if (wanted(this.view(at)?.component)) return at;
    }
    return null;
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

  /**
   * The text a view shows: its RCTRawText descendants', joined, and a text field's own text; with `{ fields: false }`
   * the text content as the matchers read it (RNTL's and jest-native's getTextContent: the strings rendered inside
   * it, where a field's value is no string child).
   */
  textOf(tag, { fields = true } = {}) {
    const view = this.view(tag);
    if (!view) return '';
    if (view.component === 'RCTRawText') return String(view.props?.text ?? '');
    if (TEXT_INPUT_COMPONENTS.has(view.component)) return fields ? String(view.props?.text ?? '') : '';
    let text = '';
    for (const child of view.children) text += this.textOf(child, { fields });
    return text;
  }

  /** Whether the view is in a screen rendered and not unmounted. */
  isOnScreen(tag) {
    return this.renderedOf(tag) !== null;
  }

  /** The rendered screen (render's bookkeeping) whose root the view is under, or null. */
  renderedOf(tag) {
    for (let view = this.view(tag); view; view = view.parent != null ? this.view(view.parent) : undefined) {
      for (const rendered of this.#rendered) if (rendered.screen.tag === view.tag) return rendered;
    }
    return null;
  }

  // MARK: React Native Testing Library

  /** The matchers on this file's elements: RNTL 12.4's, or with `jestNative` jest-native 5's forms (matchers.js). */
  matchers(options) {
    return createMatchers(this, options);
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
    try {
      this.act(() => {
        mounted = app._mount(wrap(element));
      });
    } catch (error) {
      // A render that failed leaves nothing behind: the screen was never handed out, so its root view goes too.
      if (mounted) {
        try {
          this.#unmount({ screen: mounted.screen });
        } catch {}
      }
      throw error;
    }
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

/** The renderer tag of a host fiber (paper's `_nativeTag`, Fabric's canonical `nativeTag`), or undefined. */
function hostTag(fiber) {
  if (fiber.tag !== HOST_COMPONENT || !fiber.stateNode) return undefined;
  return fiber.stateNode._nativeTag ?? fiber.stateNode.canonical?.nativeTag;
}

/**
 * Replaces each getter of `object` by one that keeps its first value. Returns what puts them back as they were
 * then, each to keep its next first value (a property the app has set since keeps what it set).
 */
function memoizeGetters(object, first = (key, value) => value) {
  const getters = [];
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(object))) {
    if (typeof descriptor.get !== 'function' || !descriptor.configurable) continue;
    getters.push([key, descriptor]);
  }
  const kept = new Map();
  const memoize = () => {
    for (const [key, descriptor] of getters) {
      const current = Object.getOwnPropertyDescriptor(object, key);
      // Set by the app since it was read (ReactNative.Platform = …): its value stays.
      if (current && 'value' in current && kept.has(key) && current.value !== kept.get(key)) continue;
      Object.defineProperty(object, key, {
        configurable: true,
        enumerable: descriptor.enumerable,
        get() {
          const value = first(key, descriptor.get.call(this));
          kept.set(key, value);
          Object.defineProperty(object, key, { configurable: true, enumerable: descriptor.enumerable, writable: true, value });
          return value;
        },
      });
    }
    kept.clear();
  };
  memoize();
  return memoize;
}

/**
 * The methods React Native's jest setup (react-native/jest/setup.js) replaces by `jest.fn`s, by the name React
 * Native's index exports their module under. Teams' tests count and stub them as mocks
 * (`expect(Linking.openURL).toHaveBeenCalledWith(url)`, `AccessibilityInfo.isScreenReaderEnabled.mockResolvedValue(true)`);
 * here each stays React Native's own, served by the native side as on a phone, inside a `jest.fn` that calls it, so
 * that those tests pass too. A test's `jest.spyOn` of one gets that `jest.fn`, as on the mocks.
 */
const SPIED_AS_RN_SETUP_MOCKS = {
  AccessibilityInfo: [
    'addEventListener',
    'announceForAccessibility',
    'isAccessibilityServiceEnabled',
    'isBoldTextEnabled',
    'isGrayscaleEnabled',
    'isInvertColorsEnabled',
    'isReduceMotionEnabled',
    'prefersCrossFadeTransitions',
    'isReduceTransparencyEnabled',
    'isScreenReaderEnabled',
    'setAccessibilityFocus',
    'sendAccessibilityEvent',
    'getRecommendedTimeoutMillis',
  ],
  AppState: ['addEventListener'],
  Clipboard: ['getString', 'setString'],
  Linking: ['openURL', 'canOpenURL', 'openSettings', 'addEventListener', 'getInitialURL', 'sendIntent'],
  Vibration: ['vibrate', 'cancel'],
};

/**
 * `module` with each of `methods` that is its own function (not already a mock) in a `jest.fn` that calls it; the
 * subscription an `addEventListener` returns has its `remove` in one too, as React Native's setup gives AppState's
 * (`{ remove: jest.fn() }`): a test that a screen unsubscribes on unmount counts it
 * (`AppState.addEventListener.mock.results[0].value.remove`).
 */
function spyOnEach(jestObject, module, methods) {
  if (module === null || typeof module !== 'object') return module;
  for (const name of methods) {
    const original = module[name];
    if (typeof original !== 'function' || original._isMockFunction === true) continue;
    const subscribes = name === 'addEventListener';
    module[name] = jestObject.fn(function (...args) {
      const result = original.apply(module, args);
      if (subscribes && result !== null && typeof result === 'object' && typeof result.remove === 'function' && result.remove._isMockFunction !== true) {
        const remove = result.remove;
        result.remove = jestObject.fn(function (...rest) {
          return remove.apply(this, rest);
        });
      }
      return result;
    });
  }
  return module;
}
