// Transforms kept on disk by content hash, so that a second run of the same app starts without Babel: the key is
// the file's bytes, its path and the transformer's identity (Babel's version, the app's configuration).

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

/** Bumped when what bridged does around Babel changes, so older cached transforms are not reused. */
const FORMAT = '1';

/** `$BRIDGED_CACHE_DIR`, else `$XDG_CACHE_HOME/bridged`, else `~/.cache/bridged`: the transforms go in `transforms/`. */
export function defaultCacheDirectory() {
  const base = process.env.BRIDGED_CACHE_DIR ?? (process.env.XDG_CACHE_HOME ? path.join(process.env.XDG_CACHE_HOME, 'bridged') : null) ?? path.join(homedir() || tmpdir(), '.cache', 'bridged');
  return path.join(base, 'transforms');
}

export class TransformCache {
  #dir;
  #usable = true;
  hits = 0;
  misses = 0;

  /** `dir`: the folder (created when first written); `false` keeps nothing on disk. */
  constructor(dir = defaultCacheDirectory()) {
    this.#dir = dir;
    if (dir === false) this.#usable = false;
  }

  get directory() {
    return this.#dir;
  }

  /** The transform of `source` (at `filename`) by `transformer`, from the cache or made and kept. */
  get(source, filename, transformer) {
    const key = createHash('sha256').update(FORMAT).update('\0').update(transformer.identity).update('\0').update(filename).update('\0').update(source).digest('hex');
    const file = this.#usable ? path.join(this.#dir, key.slice(0, 2), `${key.slice(2)}.js`) : null;
    if (file) {
      try {
        const code = readFileSync(file, 'utf8');
        this.hits++;
        return code;
      } catch {}
    }
    this.misses++;
    const code = transformer.transform(source, filename);
    if (file) {
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, code);
        renameSync(temporary, file);
      } catch {
        // A read-only or full disk: transforms are made again next time, nothing else changes.
        this.#usable = false;
      }
    }
    return code;
  }
}
