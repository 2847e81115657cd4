// One socket to the daemon: newline-delimited lines in, lines out with backpressure.
import { LineSplitter, LineTooLong } from '../lines.js';

/**
 * A socket read as lines and written in order. `write` writes at once (even while the socket's buffer is full);
 * `send` queues behind a full buffer and writes on 'drain', so that requests keep their order without
 * growing the socket's own buffer. Knows nothing of requests or frames: the owner's handlers get each line
 * (`onLine(line)`, or `onLineTooLong(tooLong)` for a line longer than `maxFrameBytes`), `onRead()` after each
 * chunk, `onError(err)` and `onClose()`. A queued item is written only while `writable(item)` still says so
 * (it may have been aborted meanwhile); `onWrite(item)` runs just before its line goes out.
 */
export class Connection {
  #socket;
  #splitter;
  /** Items waiting for 'drain', in order. */
  #queue = [];
  /** True from a write() that returned false until 'drain'. */
  #blocked = false;
  #onWrite;
  #writable;

  /**
   * @param {{write(text: string): boolean, destroy(): void, end(): void, destroyed?: boolean, on: Function}} socket
   */
  constructor(
    socket,
    {
      maxFrameBytes = Infinity,
      onLine,
      onLineTooLong = () => socket.destroy(),
      onRead = () => {},
      onError = () => {},
      onClose = () => {},
      onWrite = () => {},
      writable = () => true,
    } = {},
  ) {
    this.#socket = socket;
    this.#splitter = new LineSplitter({ maxBytes: maxFrameBytes });
    this.#onWrite = onWrite;
    this.#writable = writable;
    socket.on('data', (chunk) => {
      for (const line of this.#splitter.push(chunk)) {
        // A handler that ended the connection (a line too long, a session taken over) ends the chunk too.
        if (socket.destroyed) return;
        if (line instanceof LineTooLong) onLineTooLong(line);
        else onLine(line);
      }
      onRead();
    });
    socket.on('drain', () => this.#drained());
    socket.on('error', (err) => onError(err));
    socket.on('close', () => {
      this.#queue = [];
      onClose();
    });
  }

  get socket() {
    return this.#socket;
  }

  /** True while the socket's buffer is full (what `send` gets waits for 'drain'). */
  get blocked() {
    return this.#blocked;
  }

  /** How many items wait for 'drain'. */
  get queued() {
    return this.#queue.length;
  }

  /** Writes `item.line` now, or after 'drain' if the socket's buffer is full (items keep their order). */
  send(item) {
    if (this.#blocked || this.#queue.length > 0) this.#queue.push(item);
    else this.write(item);
  }

  /** Writes `item.line` now, whatever waits. */
  write(item) {
    this.#onWrite(item);
    if (!this.#socket.write(`${item.line}\n`)) this.#blocked = true;
  }

  /** Forgets what waits for 'drain' (the connection is being given up). */
  clear() {
    this.#queue = [];
  }

  end() {
    this.#socket.end();
  }

  destroy() {
    this.#socket.destroy();
  }

  /** 'drain': write what waited, until the buffer is full again. */
  #drained() {
    this.#blocked = false;
    while (!this.#blocked && this.#queue.length > 0) {
      const item = this.#queue.shift();
      if (this.#writable(item)) this.write(item);
    }
  }
}
