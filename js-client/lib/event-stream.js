// bridge.events(): the event frames as an async iterator.

/**
 * The event frames dispatched from the moment it was made, in order, buffered until read. It ends
 * (`done`) when its `signal` aborts, when the loop breaks, or when the Bridge is closed by `close()`;
 * it throws the error when the Bridge ends otherwise (connection lost, taken over, gave up) or when the
 * daemon breaks the protocol.
 */
export class EventStream {
  #frames = [];
  /** The `next()` calls waiting for a frame: {resolve, reject}. */
  #waiting = [];
  #done = false;
  #error = null;
  #onEnd;
  #signal;
  #onAbort = () => this.end();

  /** `onEnd` runs once, when the stream ends (the Bridge forgets it). */
  constructor({ signal, onEnd }) {
    this.#onEnd = onEnd;
    this.#signal = signal;
    if (signal?.aborted) this.end();
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** A frame for the reader. */
  push(frame) {
    if (this.#done) return;
    const waiter = this.#waiting.shift();
    if (waiter) waiter.resolve({ value: frame, done: false });
    else this.#frames.push(frame);
  }

  /** Ends the stream: buffered frames are still read, then `done` (or `error` is thrown). */
  end(error = null) {
    if (this.#done) return;
    this.#done = true;
    this.#error = error;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#onEnd();
    for (const waiter of this.#waiting.splice(0)) this.#settle(waiter);
  }

  #settle({ resolve, reject }) {
    if (this.#error) {
      const error = this.#error;
      this.#error = null; // thrown once; the stream is done after it
      reject(error);
    } else {
      resolve({ value: undefined, done: true });
    }
  }

  next() {
    if (this.#frames.length > 0) return Promise.resolve({ value: this.#frames.shift(), done: false });
    return new Promise((resolve, reject) => {
      if (this.#done) this.#settle({ resolve, reject });
      else this.#waiting.push({ resolve, reject });
    });
  }

  /** `break` in a `for await` loop: stop receiving. */
  return() {
    this.#frames = [];
    this.#error = null;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
