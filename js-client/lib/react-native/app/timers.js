// The timers an app starts while a native input is delivered (Pressability's long-press and press-out timers):
// captured, so that an action in virtual time (openApp's `time: 'virtual'`) runs them when they are due instead of
// sleeping for them (testing/actions.js).

/** The timers started while a native input is delivered, for the global object the app's code sees. */
export class TimerCapture {
  #global;
  /** The timers of the input being delivered (an array), or null outside one. */
  #capturing = null;

  /** @param {object} global the global object whose `setTimeout` the app's code calls */
  constructor(global) {
    this.#global = global;
  }

  /** Whether an input is being delivered (`capture`'s `fn` is running). */
  get active() {
    return this.#capturing !== null;
  }

  /** Runs `fn`, a delivery to the app's JavaScript; the timers it starts are captured while an input is delivered. */
  run(fn) {
    return withTimers(this.#global, fn, this.#capturing);
  }

  /** Runs `fn` (a native input) and gives the timers the app started while its events were delivered. */
  async capture(fn) {
    const timers = [];
    this.#capturing = timers;
    try {
      await fn();
    } finally {
      this.#capturing = null;
    }
    return timers;
  }
}

/**
 * Runs `fn`; the timers it starts through `global.setTimeout` are added to `capture` (an array), when one is given.
 * Each is `{timer, delay, done, fired, cleared, settle, fire()}`: `fire()` runs it now, unless it ran or was cleared.
 */
function withTimers(global, fn, capture) {
  if (!capture) return fn();
  const original = global.setTimeout;
  global.setTimeout = function capturingSetTimeout(callback, delay, ...args) {
    let fired = false;
    let settle;
    const done = new Promise((resolve) => (settle = resolve));
    const run = () => {
      fired = true;
      try {
        callback(...args);
      } finally {
        settle();
      }
    };
    const timer = original(run, delay);
    capture.push({
      timer,
      delay: Number(delay) || 0,
      done,
      get fired() {
        return fired;
      },
      // Whether the app cleared it (a Node timer is destroyed once cleared or run).
      get cleared() {
        return !fired && timer?._destroyed === true;
      },
      settle,
      /** Runs it now, in virtual time, unless it ran or the app cleared it. */
      fire() {
        if (fired || timer?._destroyed === true) return false;
        global.clearTimeout(timer);
        run();
        return true;
      },
    });
    return timer;
  };
  try {
    return fn();
  } finally {
    global.setTimeout = original;
  }
}
