/** What `LineSplitter.push` returns in a line's place when the line is longer than `maxBytes`. */
export class LineTooLong {
  /** @param {number} maxBytes */
  constructor(maxBytes) {
    this.maxBytes = maxBytes;
  }
}

/**
 * Splits a byte stream into lines at `\n`; a trailing `\r` is dropped. Multi-byte characters may straddle chunks.
 * With `maxBytes`, a line longer than that (without its `\n`) is never held whole: as soon as it exceeds the
 * limit, a `LineTooLong` takes its place in the output and the rest of it, up to its `\n`, is skipped (the
 * daemon's `--max-frame-bytes` rule).
 */
export class LineSplitter {
  #parts = [];
  #partBytes = 0;
  #maxBytes;
  /** True while the rest of a line that was too long is skipped. */
  #skipping = false;

  constructor({ maxBytes = Infinity } = {}) {
    this.#maxBytes = maxBytes;
  }

  /**
   * Returns the complete lines in `chunk` (a Buffer), keeping the unterminated rest for the next call: strings,
   * and a `LineTooLong` for each line past `maxBytes`.
   * @returns {(string | LineTooLong)[]}
   */
  push(chunk) {
    const lines = [];
    let start = 0;
    let nl = chunk.indexOf(0x0a, start);
    while (nl !== -1) {
      if (this.#skipping) {
        this.#skipping = false;
      } else {
        let line = chunk.subarray(start, nl);
        if (this.#parts.length > 0) {
          this.#parts.push(line);
          line = Buffer.concat(this.#parts, this.#partBytes + line.length);
          this.#parts = [];
          this.#partBytes = 0;
        }
        if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
        lines.push(line.length > this.#maxBytes ? new LineTooLong(this.#maxBytes) : line.toString('utf8'));
      }
      start = nl + 1;
      nl = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length && !this.#skipping) {
      const rest = chunk.subarray(start);
      // A `\r` may still end the line: it only counts once more than one byte is over.
      if (this.#partBytes + rest.length > this.#maxBytes + 1) {
        this.#parts = [];
        this.#partBytes = 0;
        this.#skipping = true;
        lines.push(new LineTooLong(this.#maxBytes));
      } else {
        this.#parts.push(rest);
        this.#partBytes += rest.length;
      }
    }
    return lines;
  }

  /** Whether bytes of an unterminated line are buffered (or skipped). */
  get pending() {
    return this.#parts.length > 0 || this.#skipping;
  }
}
