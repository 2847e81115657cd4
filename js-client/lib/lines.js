/** Splits a byte stream into lines at `\n`; a trailing `\r` is dropped. Multi-byte characters may straddle chunks. */
export class LineSplitter {
  #parts = [];

  /** Returns the complete lines in `chunk` (a Buffer), keeping the unterminated rest for the next call. */
  push(chunk) {
    const lines = [];
    let start = 0;
    let nl = chunk.indexOf(0x0a, start);
    while (nl !== -1) {
      let line = chunk.subarray(start, nl);
      if (this.#parts.length > 0) {
        this.#parts.push(line);
        line = Buffer.concat(this.#parts);
        this.#parts = [];
      }
      if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
      lines.push(line.toString('utf8'));
      start = nl + 1;
      nl = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) this.#parts.push(chunk.subarray(start));
    return lines;
  }

  /** Whether bytes of an unterminated line are buffered. */
  get pending() {
    return this.#parts.length > 0;
  }
}
