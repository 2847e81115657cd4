// Stand-ins for a socket and for timers, for the unit tests of the client's parts (test/parts/): no socket,
// no real clock.
import { EventEmitter } from 'node:events';

/**
 * A socket as the client uses one: `write` records the text and returns `accepting` (false: the buffer is
 * full until `drain()`); `receive(text)` delivers bytes as 'data'; `destroy`/`end` emit 'close' once.
 */
export class FakeSocket extends EventEmitter {
  written = [];
  accepting = true;
  destroyed = false;

  write(text) {
    if (this.destroyed) throw new Error('write after destroy');
    this.written.push(text);
    return this.accepting;
  }

  /** The lines written, parsed. */
  get frames() {
    return this.written.map((text) => JSON.parse(text));
  }

  receive(text) {
    this.emit('data', Buffer.from(text));
  }

  drain() {
    this.accepting = true;
    this.emit('drain');
  }

  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }

  end() {
    this.destroy();
  }
}

/**
 * Timers on a clock that moves only by `advance(ms)`: setTimeout/clearTimeout and timeoutSignal (an
 * AbortSignal aborted with a TimeoutError when its time comes), the shape of pending.js SYSTEM_TIMERS.
 */
export class FakeTimers {
  now = 0;
  #next = 1;
  /** id → {at, callback} */
  #timers = new Map();

  setTimeout = (callback, ms) => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.now + ms, callback });
    return id;
  };

  clearTimeout = (id) => {
    this.#timers.delete(id);
  };

  timeoutSignal = (ms) => {
    const controller = new AbortController();
    this.setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    return controller.signal;
  };

  /** How many timers wait. */
  get size() {
    return this.#timers.size;
  }

  /** Moves the clock on by `ms`, running every timer due, in order. */
  advance(ms) {
    const until = this.now + ms;
    for (;;) {
      let due = null;
      for (const [id, timer] of this.#timers) if (timer.at <= until && (due === null || timer.at < due[1].at)) due = [id, timer];
      if (due === null) break;
      this.#timers.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
    }
    this.now = until;
  }
}

/** Lets the promise callbacks queued so far run. */
export function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The outcome of a promise so far: {value} or {error}, or undefined while it is pending. */
export function outcome(promise) {
  const seen = {};
  promise.then(
    (value) => (seen.value = value),
    (error) => (seen.error = error),
  );
  return seen;
}
