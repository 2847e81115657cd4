// The requests sent to the daemon and not answered yet: ids, limits, and which response answers which.
import { BridgeError, ClientErrorCodes, ErrorCodes, aborted, connectionClosed } from '../errors.js';
import { batchParts, sampleBytesPerOp } from './batch-parts.js';

/** A request's JSON, or `bad_request` when JSON cannot carry it (a BigInt, a cycle). */
function stringify(value) {
  try {
    return JSON.stringify(value);
  } catch (err) {
    throw cannotSend(err);
  }
}

function cannotSend(err) {
  return new BridgeError(ErrorCodes.BAD_REQUEST, `the request cannot be sent: ${err.message}`, { cause: err });
}

/** The timers a PendingRequests uses; tests pass their own. */
export const SYSTEM_TIMERS = Object.freeze({
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer),
  /** A signal that aborts after `ms` (its reason: a TimeoutError). */
  timeoutSignal: (ms) => AbortSignal.timeout(ms),
});

/**
 * Requests by id, in the order they were made. Each entry is {id, op, line, bytes, parts, sent, aborted, internal,
 * onResponse, timeoutMs, timer, resolve, reject}: `parts` is how many lines `line` is (a batch longer than
 * `batchPartBytes` goes in parts, batch-parts.js, each answered with the request's id; the last answer settles
 * it, a part's error fails it at once; `partsLeft` counts the answers still to come); `sent` is false while it
 * waits to be written (the socket's buffer is full) or for a reconnection; `aborted` once its signal aborted, it
 * timed out after it was sent, or a part of it was refused (its answers are then ignored). `internal` ('hello', 'ack', 'bye') marks the client's own requests.
 *
 * It does not write: the owner sends the entries `add` returns and calls `markSent` as each one is written.
 * `isWaiting()` tells whether unsent requests wait for a reconnection (their requestTimeoutMs is suspended).
 */
export class PendingRequests {
  #entries = new Map();
  #nextId = 1;
  /** Bytes of the pending requests not written yet. */
  #unsentBytes = 0;
  #maxQueuedBytes;
  #timers;
  #isWaiting;

  constructor({
    maxQueuedBytes = Infinity,
    batchPartBytes = Infinity,
    timers = SYSTEM_TIMERS,
    isWaiting = () => false,
  } = {}) {
    this.#maxQueuedBytes = maxQueuedBytes;
    /** A batch whose line is longer goes in parts of at most this many bytes (Infinity: never). */
    this.batchPartBytes = batchPartBytes;
    /**
     * The longest line the daemon reads (hello's `maxFrameBytes`; Infinity: not known): a longer line is refused
     * here with `frame_too_large`, before anything of the request is sent.
     */
    this.maxLineBytes = Infinity;
    this.#timers = timers;
    this.#isWaiting = isWaiting;
  }

  get size() {
    return this.#entries.size;
  }

  /** Bytes of requests that wait to be written. */
  get unsentBytes() {
    return this.#unsentBytes;
  }

  get(id) {
    return this.#entries.get(id);
  }

  /** Whether `entry` is still the pending request of its id. */
  holds(entry) {
    return this.#entries.get(entry.id) === entry;
  }

  /** [id, entry] in the order the requests were made. */
  [Symbol.iterator]() {
    return this.#entries[Symbol.iterator]();
  }

  /**
   * Gives `frame` the next id and its line; throws `bad_request` when JSON cannot carry it, `frame_too_large` when
   * a line of it would be longer than the daemon reads (`maxLineBytes`), `queue_full` when
   * more than `maxQueuedBytes` already wait to be written (the client's own requests are never refused). The
   * entry's `promise` settles with the response's result or a BridgeError. `signal` aborts it (`aborted`);
   * `timeoutMs` > 0 fails it with `timeout` once that long passed without a response.
   */
  add(frame, { onResponse, internal = null, signal, timeoutMs = 0, queueExempt = false } = {}) {
    const id = this.#nextId++; // a refused request uses its id up too
    const out = { id, ...frame };
    out.id = id; // the client's id wins over one in `frame`, and stays first
    let line;
    let bytes;
    let longest;
    let parts = 1;
    let cut = this.#partsOf(frame, id);
    if (cut === null) {
      line = stringify(out);
      bytes = Buffer.byteLength(line) + 1;
      longest = bytes - 1;
      // One the estimate put within a part that is longer after all.
      if (bytes > this.batchPartBytes && out.op === 'batch') {
        cut = batchParts(frame, id, this.batchPartBytes, bytes / (frame.ops?.length || 1));
        if (cut !== null && cut.lines.length < 2) cut = null;
      }
    }
    if (cut !== null) {
      line = cut.lines.join('\n');
      ({ bytes, longest } = cut);
      parts = cut.lines.length;
    }
    if (longest > this.maxLineBytes) {
      const what = parts > 1 ? `a part of the batch (an op too long to share a part) is ${longest} bytes` : `its line is ${longest} bytes`;
      throw new BridgeError(
        ErrorCodes.FRAME_TOO_LARGE,
        `the request was not sent: ${what}, more than the daemon reads (maxFrameBytes ${this.maxLineBytes}, its --max-frame-bytes)`,
      );
    }
    if (internal === null && !queueExempt && this.#unsentBytes > 0 && this.#unsentBytes + bytes > this.#maxQueuedBytes) {
      const message = `${this.#unsentBytes} bytes of requests already wait to be written (maxQueuedBytes ${this.#maxQueuedBytes})`;
      throw new BridgeError(ClientErrorCodes.QUEUE_FULL, message);
    }
    let entry;
    const promise = new Promise((resolve, reject) => {
      const onAbort = () => this.giveUp(id, () => aborted(signal));
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        this.#timers.clearTimeout(entry.timer);
      };
      entry = {
        id,
        op: out.op,
        line,
        bytes,
        parts,
        partsLeft: parts,
        sent: false,
        aborted: false,
        internal,
        onResponse,
        timeoutMs,
        timer: null,
        promise: null,
        resolve: (value) => {
          done();
          resolve(value);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.armTimeout(entry);
      this.#entries.set(id, entry);
      this.#unsentBytes += bytes;
    });
    entry.promise = promise;
    return entry;
  }

  /**
   * A batch that its first ops say is longer than a part, cut into parts without writing it whole first (a commit
   * of 50,000 ops is a 4 MB line, written, measured and dropped for nothing); null when it is not (then the whole
   * line decides, and one the estimate missed is still cut).
   */
  #partsOf(frame, id) {
    if (this.batchPartBytes === Infinity || frame.op !== 'batch' || !Array.isArray(frame.ops) || frame.ops.length < 2) return null;
    const perOp = sampleBytesPerOp(frame.ops, stringify);
    if (perOp * frame.ops.length <= this.batchPartBytes) return null;
    let cut;
    try {
      cut = batchParts(frame, id, this.batchPartBytes, perOp);
    } catch (err) {
      throw cannotSend(err);
    }
    return cut !== null && cut.lines.length > 1 ? cut : null;
  }

  /** The entry's line is being written. */
  markSent(entry) {
    entry.sent = true;
    this.#unsentBytes -= entry.bytes;
  }

  /** A sent request whose connection was lost is to be sent again. */
  markUnsent(entry) {
    entry.sent = false;
    entry.partsLeft = entry.parts;
    this.#unsentBytes += entry.bytes;
  }

  /**
   * Starts (or starts again) the request's requestTimeoutMs. While the request waits for a reconnection,
   * `reconnect.requestTimeoutMs` governs it instead (`waitForReconnect`); once it is sent again, its own
   * limit starts anew.
   */
  armTimeout(entry) {
    this.#timers.clearTimeout(entry.timer);
    if (entry.timeoutMs <= 0) return;
    entry.timer = this.#timers.setTimeout(() => {
      if (!this.holds(entry) || (this.#isWaiting() && !entry.sent)) return;
      const message = `no response to ${entry.op} within ${entry.timeoutMs} ms (requestTimeoutMs)`;
      this.giveUp(entry.id, () => new BridgeError(ClientErrorCodes.TIMEOUT, message));
    }, entry.timeoutMs);
  }

  /**
   * A request that waits for the connection to come back waits at most `ms`, then rejects with
   * `connection_closed`; its own signal can end the wait sooner.
   */
  waitForReconnect(entry, ms) {
    const limit = this.#timers.timeoutSignal(ms);
    entry.waiting = limit; // a later loss starts a wait of its own
    limit.addEventListener(
      'abort',
      () => {
        if (!this.holds(entry) || entry.sent || entry.waiting !== limit) return;
        this.drop(entry);
        const message = `the connection to bridged was not back within ${ms} ms (reconnect.requestTimeoutMs)`;
        entry.reject(connectionClosed(message, limit.reason));
      },
      { once: true },
    );
  }

  /** The request is given up (its signal aborted, its time ran out): unsent, it is dropped; sent, its response will be ignored. */
  giveUp(id, error) {
    const entry = this.#entries.get(id);
    if (!entry || entry.aborted) return;
    if (entry.sent) {
      entry.aborted = true;
      entry.line = null; // never sent again: a loss drops it
    } else {
      this.drop(entry);
    }
    entry.reject(error(entry));
  }

  /** Forgets a pending request (the caller settles it). */
  drop(entry) {
    this.#entries.delete(entry.id);
    if (!entry.sent) this.#unsentBytes -= entry.bytes;
  }

  /** Rejects and forgets the client's own requests of one kind ('hello'…). */
  dropInternal(kind, error) {
    for (const entry of [...this.#entries.values()]) {
      if (entry.internal !== kind) continue;
      this.drop(entry);
      entry.reject(error);
    }
  }

  /** The oldest request written and not answered yet (a Map keeps the order requests were made in). */
  oldestSent() {
    for (const [id, entry] of this.#entries) if (entry.sent) return id;
    return undefined;
  }

  /**
   * The request (its entry) a response frame answers, taken out of the pending ones; or a string, the reason
   * it answers none. A response to a part of a batch sent in parts, other than the last, leaves the entry pending
   * (its `partsLeft` still above 0). Responses come in request order; one with a null id (frame_too_large: the daemon did not
   * read the line's id) answers the oldest request sent. Any other id must be one the client sent and has no
   * answer for. `problem` (frames.js responseProblem) is what is wrong with the response's shape: when its
   * id still names a request, that request is returned (to fail with it), else it is refused.
   * @returns {object | string}
   */
  claim(frame, problem) {
    if (problem && frame.id !== null && this.#entries.get(frame.id)?.sent !== true) {
      return `the daemon sent a response whose ${problem}`;
    }
    const id = frame.id === null ? this.oldestSent() : frame.id;
    const entry = id === undefined ? undefined : this.#entries.get(id);
    if (!entry?.sent) {
      return `the daemon sent a response to no request of this client (id ${JSON.stringify(frame.id)})`;
    }
    entry.partsLeft -= 1;
    if (entry.partsLeft === 0) this.#entries.delete(id);
    return entry;
  }

  /** Fails every pending request with `error()` and forgets them all. */
  failAll(error) {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    this.#unsentBytes = 0;
    for (const { reject } of entries) reject(error());
  }
}
