// Transforms kept on disk by content hash, so that a second run of an app starts without Babel. The key is the file's
// bytes, where it is and the transformer's identity, which names every other input of a transform (transformer.js:
// Babel's version, the configuration's content, the versions of its presets and plugins, what they probe in
// node_modules) and no folder of the app's. Where a file is: for a package's file, the package's name and version and
// the file's path in it, unless its transform names the package's folder or the app's, or the one from the other (a
// dev build's JSX `__source.fileName`), then its real path. So apps with the same Babel identity share their
// transforms of the same package files, laid out on the same folder or each installed on its own: a second app on
// the same React Native opens without transforming React Native again.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

/** Bumped when what bridged does around Babel changes, so older cached transforms are not reused. */
const FORMAT = '3';

/** `$BRIDGED_CACHE_DIR`, else `$XDG_CACHE_HOME/bridged`, else `~/.cache/bridged`: the transforms go in transforms/. */
export function defaultCacheDirectory() {
  const xdg = process.env.XDG_CACHE_HOME ? path.join(process.env.XDG_CACHE_HOME, 'bridged') : null;
  const base = process.env.BRIDGED_CACHE_DIR ?? xdg ?? path.join(homedir() || tmpdir(), '.cache', 'bridged');
  return path.join(base, 'transforms');
}

export class TransformCache {
  #dir;
  #usable = true;
  /** Transforms served from the folder, and made (by Babel) because the folder did not hold them. */
  hits = 0;
  misses = 0;
  /** The files whose transform came from the folder: file → the cache file it was read from. */
  #served = new Map();
  /** The files Babel transformed in this open. */
  #made = [];
  #identities = new WeakMap();

  /** `dir`: the folder (created when first written); `false` keeps nothing on disk. */
  constructor(dir = defaultCacheDirectory()) {
    this.#dir = dir;
    if (dir === false) this.#usable = false;
  }

  get directory() {
    return this.#dir;
  }

  /**
   * `{hits, misses, transformed, transformedFiles, directory}`: transformed (= misses) is how many files Babel
   * transformed in this open, transformedFiles which (their real paths).
   */
  get stats() {
    const { hits, misses } = this;
    return { hits, misses, transformed: misses, transformedFiles: [...this.#made], directory: this.#dir };
  }

  /** The transformer's identity (computed once per cache: an app's open), its record kept in the folder. */
  identityOf(transformer) {
    let identity = this.#identities.get(transformer);
    if (identity === undefined) {
      const dir = this.#dir === false ? null : this.#dir;
      identity = transformer.identityFor ? transformer.identityFor(dir) : transformer.identity;
      this.#identities.set(transformer, identity);
    }
    return identity;
  }

  /** The cache file that `filename`'s transform was read from in this open, if it was. */
  servedFrom(filename) {
    return this.#served.get(filename);
  }

  /** The transform of `source` (at `filename`) by `transformer`, from the cache or made and kept. */
  get(source, filename, transformer) {
    const identity = this.identityOf(transformer);
    const inPackage = packageOf(filename);
    const key = (where) => createHash('sha256').update([FORMAT, identity, where, source].join('\0')).digest('hex');
    const fileOf = (k) => path.join(this.#dir, k.slice(0, 2), `${k.slice(2)}.js`);
    // Where the package's files are shared from, and where a transform bound to its folder is kept.
    const shared = this.#usable && inPackage ? fileOf(key(`${inPackage.id}${path.sep}${inPackage.file}`)) : null;
    const own = this.#usable ? fileOf(key(filename)) : null;
    for (const file of [shared, own]) {
      if (!file) continue;
      try {
        const code = readFileSync(file, 'utf8');
        this.hits++;
        this.#served.set(filename, file);
        return code;
      } catch {}
    }
    this.misses++;
    this.#made.push(filename);
    const code = transformer.transform(source, filename);
    const bound = !inPackage || mentionsFolder(code, inPackage.root, transformer.root);
    const file = bound ? own : shared;
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

/** Whether a transform names the package's folder or the app's, or the one from the other (then it is not shared). */
function mentionsFolder(code, packageRoot, appRoot) {
  if (code.includes(packageRoot)) return true;
  if (!appRoot) return false;
  return code.includes(appRoot) || code.includes(path.relative(appRoot, packageRoot));
}

const packages = new Map();

/** The package under a node_modules folder that holds `file`: `{root, id: name@version, file: its path in it}`. */
function packageOf(file) {
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = file.lastIndexOf(marker);
  if (at < 0) return null;
  const parts = file.slice(at + marker.length).split(path.sep);
  const depth = parts[0].startsWith('@') ? 2 : 1;
  const root = file.slice(0, at + marker.length) + parts.slice(0, depth).join(path.sep);
  let id = packages.get(root);
  if (id === undefined) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
      id = manifest.name && manifest.version ? `${manifest.name}@${manifest.version}` : null;
    } catch {
      id = null;
    }
    packages.set(root, id);
  }
  return id ? { root, id, file: parts.slice(depth).join(path.sep) } : null;
}
