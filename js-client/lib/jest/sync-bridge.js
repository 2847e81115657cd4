// A Bridge whose requests are synchronous: what React Native Testing Library's synchronous API needs (render,
// fireEvent and the queries return with the daemon's work done). The connection is opened as any other (its
// socket, connectOrSpawn's), then taken from Node's event loop (its reads stopped) and driven with synchronous
// reads and writes of its descriptor: a request is written, then the answer is read, spinning while the daemon
// works (a `ping` is a few tens of microseconds on a quiet machine), then sleeping in short steps. One request is in
// flight at a time, so every line read before its answer belongs to it: the events it caused and the session's
// own change frames, emitted here in order before it returns. Events are acknowledged ahead of the next request.
// The one exception: the parts of a batch (`more`, a React Native commit's ops as the renderer makes them) are
// written at once and answered later, read by the request that ends the batch, so that the daemon runs them while
// the renderer goes on (their answers are `{staged}`; a part emits nothing before the batch's last part).
import { EventEmitter } from 'node:events';
import { readSync, writeSync } from 'node:fs';
import { BridgeError, ErrorCodes } from '../errors.js';
import { kAllocateTag, kRequest, kUnsentBytes } from '../internal.js';
import { connectOrSpawn, connectWhenAccepting } from '../spawn.js';

/** How long a request may take before the test's thread gives up (the daemon gone or stuck). */
const REQUEST_TIMEOUT_MS = 60_000;
/**
 * How long the reader spins on an empty socket before it sleeps between reads: a little over a small request's round
 * trip (45 µs median). Longer, on 2 cores, the spinning thread held the core the daemon's woken thread was queued on:
 * with 2 ms, 1 press in 40 waited 2.1–2.5 ms for an answer due in 0.05 (2,000 presses: the slowest 50 waits 91 ms in
 * all, 30 ms with 0.1).
 */
const SPIN_MS = 0.1;
const SLEEP = new Int32Array(new SharedArrayBuffer(4));
/** A lone surrogate's escape as JSON.stringify writes it (`\ud83d`), not one a backslash of the text's own escapes. */
const LONE_SURROGATE = /(?<=(?:^|[^\\])(?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

export class SyncBridge extends EventEmitter {
  #socket;
  #fd;
  #buffer = Buffer.alloc(1 << 20);
  /** The bytes read of a line not whole yet (a read may end inside a character: decoded only with its line). */
  #partial = [];
  /** Whole lines read and not handled yet, from #next on. */
  #lines = [];
  #next = 0;
  #nextId = 1;
  #nextTag = 1;
  #closed = false;
  #seenSeq = 0;
  #ackedSeq = 0;
  /** The parts of a batch written and not answered yet, by id: `{answer}` is filled in as each answer is read. */
  #ahead = new Map();
  /** hello's `maxFrameBytes`, the longest line the daemon reads: a longer one is refused before it is written. */
  #maxLineBytes = Infinity;
  session = null;
  components = {};
  daemonPid = null;

  /**
   * Connects to the daemon at `socket` (spawning `bin` there when `spawn`; with `startedPid`, a daemon another
   * process started and that may not accept yet, waited for while it lives) and says hello.
   * @param {{socket: string, bin?: string, spawn?: boolean | 'detached', startedPid?: number}} options
   */
  static async connect({ socket, bin, spawn = false, startedPid }) {
    const { socket: connection, daemonPid } = startedPid
      ? { socket: await connectWhenAccepting({ socketPath: socket, pid: startedPid }), daemonPid: startedPid }
      : await connectOrSpawn({ socketPath: socket, spawn, bin });
    const bridge = new SyncBridge(connection, daemonPid);
    const hello = bridge.requestSync({ op: 'hello', protocol: 1, client: 'bridged-client/jest' });
    bridge.#maxLineBytes = Number.isSafeInteger(hello.maxFrameBytes) && hello.maxFrameBytes > 0 ? hello.maxFrameBytes : Infinity;
    bridge.session = hello.session;
    bridge.components = hello.components ?? {};
    bridge.propTypes = hello.propTypes ?? {};
    return bridge;
  }

  constructor(socket, daemonPid = null) {
    super();
    this.#socket = socket;
    this.daemonPid = daemonPid;
    // From here on the descriptor is read and written by this object alone, synchronously.
    socket._handle.readStop();
    socket.unref();
    this.#fd = socket._handle.fd;
    if (!(this.#fd >= 0)) throw new BridgeError('connect_failed', 'the connection to bridged has no descriptor to read synchronously');
  }

  get closed() {
    return this.#closed;
  }

  #write(text) {
    const bytes = Buffer.from(text);
    const deadline = Date.now() + REQUEST_TIMEOUT_MS;
    for (let offset = 0; offset < bytes.length; ) {
      try {
        offset += writeSync(this.#fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        if (error.code !== 'EAGAIN') throw this.#lost(error);
        if (Date.now() > deadline) throw this.#lost(new Error(`bridged read nothing for ${REQUEST_TIMEOUT_MS} ms`));
        Atomics.wait(SLEEP, 0, 0, 0.05);
      }
    }
  }

  /** The next line from the daemon, without its newline. */
  #readLine(what) {
    const start = performance.now();
    let quiet;
    for (;;) {
      if (this.#next < this.#lines.length) return this.#lines[this.#next++];
      let n = 0;
      let failed = null;
      // An empty socket is an EAGAIN error per read, built with the stack (jest sets a limit of 100 frames, and a
      // test's stack is deep: 14 µs a read, against 3 with none): none is kept for those.
      const limit = Error.stackTraceLimit;
      quiet ??= Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')?.writable === true;
      if (quiet) Error.stackTraceLimit = 0;
      try {
        n = readSync(this.#fd, this.#buffer, 0, this.#buffer.length, null);
      } catch (error) {
        failed = error;
      } finally {
        if (quiet) Error.stackTraceLimit = limit;
      }
      if (failed !== null && failed.code !== 'EAGAIN') throw this.#lost(failed);
      if (n === 0 && failed === null) throw this.#lost(new Error(`bridged closed the connection before ${what} was answered`));
      if (n > 0) {
        this.#split(this.#buffer.subarray(0, n));
        continue;
      }
      const waited = performance.now() - start;
      if (waited > REQUEST_TIMEOUT_MS) throw this.#lost(new Error(`bridged did not answer ${what} within ${REQUEST_TIMEOUT_MS} ms`));
      if (waited > SPIN_MS) Atomics.wait(SLEEP, 0, 0, 0.05);
    }
  }

  /**
   * Takes the whole lines of `bytes` (what one read gave, after what the reads before left of a line) into #lines,
   * decoded together in one string, and keeps the bytes after the last newline (a newline byte is never part of a
   * character in UTF-8; a line's bytes are decoded only once it is whole).
   */
  #split(bytes) {
    const end = bytes.lastIndexOf(10);
    if (end < 0) {
      this.#partial.push(Buffer.from(bytes));
      return;
    }
    let whole = bytes.subarray(0, end);
    if (this.#partial.length > 0) {
      whole = Buffer.concat([...this.#partial, whole]);
      this.#partial = [];
    }
    if (end + 1 < bytes.length) this.#partial.push(Buffer.from(bytes.subarray(end + 1)));
    this.#lines = whole.toString('utf8').split('\n');
    this.#next = 0;
  }

  #lost(cause) {
    this.#closed = true;
    const error = new BridgeError('connection_closed', `the connection to bridged failed: ${cause.message}`, { cause });
    for (const part of this.#ahead.values()) {
      part.answer = { ok: false, error };
      part.settle();
    }
    this.#ahead.clear();
    return error;
  }

  /** `frame`'s line with its id, after an `ack` of the events read so far when there are new ones. */
  #line(frame, id) {
    let line = JSON.stringify({ ...frame, id });
    // Half an emoji (a preview cut with slice: 'Good job👍'.slice(0, 9)), which JSON.stringify writes as a lone
    // surrogate escape and the daemon refuses (protocol.md: strings hold whole characters): a phone's text holds it
    // and draws U+FFFD for it, so it goes as U+FFFD. JSON.stringify escapes no other surrogate.
    if (line.includes('\\ud')) line = line.replace(LONE_SURROGATE, '\\ufffd');
    // Longer than the daemon reads, it would be refused after the daemon stopped reading it, while this thread was
    // still writing it (a text of a megabyte: a minute's wait, then a closed bridge): refused here, nothing written.
    if (line.length * 3 > this.#maxLineBytes && Buffer.byteLength(line) > this.#maxLineBytes) {
      throw new BridgeError(
        ErrorCodes.FRAME_TOO_LARGE,
        `the request was not sent: its line is ${Buffer.byteLength(line)} bytes, more than the daemon reads (maxFrameBytes ${this.#maxLineBytes}, its --max-frame-bytes)`,
      );
    }
    let text = '';
    if (this.#seenSeq > this.#ackedSeq) {
      // The events read so far are delivered by now: acknowledged, so the daemon's buffer of them stays small.
      text += `{"id":${this.#nextId++},"op":"ack","seq":${this.#seenSeq}}\n`;
      this.#ackedSeq = this.#seenSeq;
    }
    return `${text}${line}\n`;
  }

  /**
   * Writes a part of a batch (`more: true`) without waiting for its answer, which the next requestSync reads.
   * Returns `{answer, promise}`: `answer` is `{ok, result | error}` once read (synchronously known to the request
   * that read it), `promise` settles then. Throws, writing nothing, when the bridge is closed.
   */
  sendAhead(frame) {
    if (this.#closed) throw new BridgeError('connection_closed', `${frame?.op}: the bridge is closed`);
    const id = this.#nextId++;
    const text = this.#line(frame, id);
    const part = { answer: null, settle: null, promise: null };
    part.promise = new Promise((resolve, reject) => {
      part.settle = () => (part.answer.ok ? resolve(part.answer.result) : reject(part.answer.error));
    });
    part.promise.catch(() => {});
    this.#ahead.set(id, part);
    this.#write(text);
    return part;
  }

  /** Sends `frame` and returns its result, every frame before the answer emitted; throws the daemon's error. */
  requestSync(frame) {
    if (this.#closed) throw new BridgeError('connection_closed', `${frame?.op}: the bridge is closed`);
    const id = this.#nextId++;
    this.#write(this.#line(frame, id));
    const what = frame?.op ?? 'the request';
    for (;;) {
      const line = this.#readLine(what);
      if (line === '') continue;
      const parsed = JSON.parse(line);
      if ('id' in parsed && typeof parsed.ok === 'boolean') {
        if (parsed.id !== id) {
          // A part written ahead (else an ack's answer).
          const part = this.#ahead.get(parsed.id);
          if (part) {
            this.#ahead.delete(parsed.id);
            part.answer = parsed.ok ? { ok: true, result: parsed.result } : { ok: false, error: BridgeError.fromProtocol(parsed.error) };
            part.settle();
          }
          continue;
        }
        if (parsed.ok) return parsed.result;
        throw BridgeError.fromProtocol(parsed.error);
      }
      if (typeof parsed.observe === 'string' && (typeof parsed.change === 'string' || Array.isArray(parsed.tree))) {
        this.emit('change', parsed);
      } else {
        if (Number.isInteger(parsed.seq)) this.#seenSeq = Math.max(this.#seenSeq, parsed.seq);
        this.emit('event', parsed);
      }
    }
  }

  /** The Bridge's asynchronous form: done already when it returns (a settled promise). */
  request(frame) {
    try {
      return Promise.resolve(this.requestSync(frame));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  [kRequest](frame) {
    if (frame?.op === 'batch' && frame.more === true) return this.sendAhead(frame).promise;
    return this.request(frame);
  }

  [kAllocateTag]() {
    return this.#nextTag++;
  }

  [kUnsentBytes]() {
    return 0;
  }

  /** Ends the connection (the daemon keeps the session for its TTL, as for any client that leaves). */
  close() {
    if (!this.#closed) {
      this.#closed = true;
      this.#socket.destroy();
    }
    return Promise.resolve();
  }
}
