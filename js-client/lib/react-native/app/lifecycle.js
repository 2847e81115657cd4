// An open app's lifecycle: its screens (each a root view of the daemon, mounted as AppRegistry.runApplication mounts
// an app, unmounted as a surface stops), waiting for it to settle (settled, waitFor, waitForElementToBeRemoved), and
// the promise rejections nobody handled while it was open.

import { Screen } from '../testing/screen.js';
import { rootEvents } from './native-events.js';

/** The screens of an app: root views of the daemon, each running a root component through AppRegistry. */
export class Screens {
  #app;
  #native;
  #nextRoot = 1;
  #screens = new Map();
  /** What the loaded React Native gives: `{React, AppRegistry, scheduler, fabric, explain}` (set once loaded). */
  loaded = null;

  /**
   * @param {object} app the App (what a Screen holds)
   * @param {import('../native-side.js').NativeSide} native
   */
  constructor(app, native) {
    this.#app = app;
    this.#native = native;
  }

  /** The screens rendered and not unmounted. */
  list() {
    return [...this.#screens.values()];
  }

  /**
   * The synchronous part of render(): a new root view, the element run into it (its commit queued, not yet sent).
   * `caught()`: the error of a component that threw, once React reported it.
   */
  mount(element) {
    const { React, AppRegistry, explain } = this.loaded;
    const native = this.#native;
    const rootTag = this.#nextRoot;
    this.#nextRoot += 10;
    const tag = native.createRoot(rootTag);
    for (const event of rootEvents(native.components)) native.enqueue({ op: 'subscribe', tag, event });
    const appKey = `bridged-root-${rootTag}`;
    let caught = null;
    class RenderErrorBoundary extends React.Component {
      state = { failed: false };
      static getDerivedStateFromError() {
        return { failed: true };
      }
      componentDidCatch(thrown, info) {
        const error = explain(thrown);
        if (error !== null && typeof error === 'object' && info?.componentStack && error.componentStack === undefined) {
          try {
            error.componentStack = info.componentStack;
          } catch {}
        }
        caught = error;
        native.fail(error);
      }
      render() {
        return this.state.failed ? null : this.props.children;
      }
    }
    const holder = { element };
    function BridgedRoot() {
      return React.createElement(RenderErrorBoundary, null, holder.element);
    }
    AppRegistry.registerComponent(appKey, () => BridgedRoot);
    const screen = new Screen(this.#app, { rootTag, tag, appKey, holder });
    this.#screens.set(rootTag, screen);
    this.run(screen);
    return { screen, caught: () => caught };
  }

  /**
   * Runs a screen's root component as AppRegistry.runApplication runs an app (Fabric roots are concurrent, as React
   * Native 0.72 makes them); what it throws is reported by the next settled().
   */
  run(screen) {
    const { AppRegistry, fabric } = this.loaded;
    const parameters = { rootTag: screen.rootTag, initialProps: {} };
    if (fabric) Object.assign(parameters, { fabric: true, concurrentRoot: true });
    try {
      quietly(() => AppRegistry.runApplication(screen.appKey, parameters), this.#app.global.console);
    } catch (error) {
      this.#native.fail(error);
    }
  }

  /** Paper: unmounts a screen's root at once (its deletes queued, not yet sent). */
  unmountNow(screen) {
    if (!this.#screens.has(screen.rootTag)) return;
    this.#screens.delete(screen.rootTag);
    this.loaded.AppRegistry.unmountApplicationComponentAtRootTag(screen.rootTag);
  }

  /** Unmounts a screen's root: every view of it, the root view too, leaves the daemon; `settled` then waits. */
  async unmount(screen, settled) {
    if (!this.#screens.has(screen.rootTag)) return;
    this.#screens.delete(screen.rootTag);
    const { AppRegistry, fabric, scheduler } = this.loaded;
    if (fabric) {
      // The surface stops: the renderer empties it, then its root view is deleted (native's UIManager::stopSurface).
      try {
        this.#app.require('react-native/Libraries/Renderer/shims/ReactFabric').stopSurface(screen.rootTag);
        await this.#native.settled(scheduler);
      } finally {
        fabric.stopSurface(screen.rootTag);
        await settled();
      }
      return;
    }
    try {
      AppRegistry.unmountApplicationComponentAtRootTag(screen.rootTag);
    } catch (error) {
      this.#native.fail(error);
    }
    await settled();
  }
}

/**
 * Waiting for an app to settle: `settle()` (every native event delivered, every handler run, every re-render applied
 * in the daemon), and React Native Testing Library's waits built on it.
 */
export class Settling {
  #settle;
  #assertOpen;
  #waiters = new Set();

  /**
   * @param {() => Promise<void>} settle what settling is (the NativeSide's settled with the app's scheduler)
   * @param {(what: string) => void} assertOpen throws when the app is closed, naming `what` was called
   */
  constructor(settle, assertOpen = () => {}) {
    this.#settle = settle;
    this.#assertOpen = assertOpen;
  }

  /** Settles, then wakes whoever waits for the next settle. */
  async settled() {
    this.#assertOpen('settled');
    await this.#settle();
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  /** Resolves at the next settled(). */
  nextSettle() {
    return new Promise((resolve) => this.#waiters.add(resolve));
  }

  /** Waits for a settled change or `within` ms, whichever comes first, then settles. */
  async nextChange(within) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, within);
      this.nextSettle().then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    await this.settled();
  }

  /**
   * React Native Testing Library's `waitFor`: runs `expectation` (a function that throws, or rejects, while what it
   * expects is not there yet) after each settled change, or every `interval` ms while nothing settles, until it
   * returns; resolves with what it returned. After `timeout` ms (default 1,000) rejects with its last error.
   */
  async waitFor(expectation, { timeout = 1000, interval = 50 } = {}) {
    this.#assertOpen('waitFor');
    if (typeof expectation !== 'function') {
      throw new TypeError('app.waitFor(expectation): a function that throws until what it expects is there');
    }
    const deadline = Date.now() + timeout;
    await this.settled();
    for (;;) {
      try {
        return await expectation();
      } catch (error) {
        if (Date.now() >= deadline) throw error;
      }
      await this.nextChange(Math.min(interval, Math.max(0, deadline - Date.now())));
    }
  }

  /**
   * React Native Testing Library's `waitForElementToBeRemoved`: `query` (a queryBy*, queryAllBy* or getBy* call)
   * must find something at first; resolves once it finds nothing (null, an empty list, or it throws), checked as
   * waitFor checks. After `timeout` ms (default 1,000) rejects: it is still there.
   */
  async waitForElementToBeRemoved(query, options = {}) {
    this.#assertOpen('waitForElementToBeRemoved');
    const found = () => {
      try {
        const result = query();
        return Array.isArray(result) ? result.length > 0 : result != null;
      } catch {
        return false;
      }
    };
    await this.settled();
    if (!found()) {
      throw new Error(
        'app.waitForElementToBeRemoved(): the query finds nothing at first: nothing to wait for the removal of',
      );
    }
    await this.waitFor(() => {
      if (found()) throw new Error(`app.waitForElementToBeRemoved(): still there after ${options.timeout ?? 1000} ms`);
    }, options);
  }
}

/**
 * The promise rejections nobody handled while the app was open, treated as React Native's development mode treats
 * one (its Promise's rejection tracking): a warning with the stack, kept; the process lives on. With openApp's
 * `{ unhandledRejections: 'fail' }` each also goes to `fail` (the next render(), action or settled() rejects).
 */
export class Rejections {
  #kept = [];
  #warn;
  #fail;
  #listener = null;

  /**
   * @param {(message: string) => void} warn where the warning goes (the app's console.warn)
   * @param {((error: Error) => void) | null} fail given each rejection as an Error, or null to only keep them
   */
  constructor(warn, fail) {
    this.#warn = warn;
    this.#fail = fail;
  }

  /** Starts listening to the process's `unhandledRejection`. */
  listen() {
    if (this.#listener) return;
    this.#listener = (reason) => this.rejected(reason);
    process.on('unhandledRejection', this.#listener);
  }

  /** Stops listening. */
  stop() {
    if (this.#listener) process.off('unhandledRejection', this.#listener);
    this.#listener = null;
  }

  /** A rejection nobody handled: warned about, kept, and failed when asked to. */
  rejected(reason) {
    const id = this.#kept.length;
    const stack = reason instanceof Error ? (reason.stack ?? String(reason)) : String(reason);
    this.#kept.push({ id, reason, message: reason?.message ?? String(reason), stack });
    this.#warn(`Possible Unhandled Promise Rejection (id: ${id}):\n${stack}`);
    this.#fail?.(reason instanceof Error ? reason : new Error(String(reason)));
  }

  /** `{id, reason, message, stack}`, oldest first (a copy). */
  list() {
    return [...this.#kept];
  }
}

/** Runs `fn` without AppRegistry's `Running "…" with {…}` line on the console. */
function quietly(fn, console = globalThis.console) {
  const log = console.log;
  console.log = (...args) => {
    if (typeof args[0] === 'string' && args[0].startsWith('Running "')) return;
    log(...args);
  };
  try {
    return fn();
  } finally {
    console.log = log;
  }
}
