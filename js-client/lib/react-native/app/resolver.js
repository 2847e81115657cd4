// Where an app's `require` leads, as Metro and jest resolve for a platform: `Foo` is `Foo.ios.js`, then
// `Foo.native.js`, then `Foo.js` (then the other source extensions), a folder is its `index`, and a package is
// its `react-native` field (a string), else its `main`. Node's own rules stay for Node's built-in modules.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/** Metro's default `sourceExts`, in order, plus JSON. */
export const SOURCE_EXTENSIONS = ['.js', '.jsx', '.ts', '.tsx', '.mjs', '.cjs', '.json'];
/** Metro's default `assetExts` (the image, font and media files `require` gives an asset for). */
export const ASSET_EXTENSIONS = [
  '.png', '.jpg', '.jpeg', '.gif', '.bmp', '.webp', '.psd', '.svg', '.tiff', '.ttf', '.otf', '.mp4', '.mp3',
  '.wav', '.m4a', '.mov', '.aac', '.html', '.pdf', '.zip', '.obj', '.xml', '.heic', '.avif',
];
const BUILTINS = new Set(builtinModules);

// A missing file is the common answer (each candidate of `Foo.ios.js`, `Foo.native.js`, `Foo.js`, …): asked not to
// throw, statSync skips building an error for it (a third of openApp's resolving went to those errors).
function isFile(file) {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

function isDirectory(file) {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

export class Resolver {
  /** The platform's suffixes, most specific first: ['.ios', '.native', '']. */
  #suffixes;
  #packages = new Map();
  #cache = new Map();

  constructor({ platform = 'ios' } = {}) {
    this.platform = platform;
    this.#suffixes = [`.${platform}`, '.native', ''];
  }

  /** Whether `request` names one of Node's built-in modules (`fs`, `node:fs`). */
  static isBuiltin(request) {
    return request.startsWith('node:') || BUILTINS.has(request) || BUILTINS.has(request.split('/')[0]);
  }

  /** The file `request` leads to from the folder `from`, or undefined. */
  resolve(request, from) {
    const key = `${from}\0${request}`;
    if (this.#cache.has(key)) return this.#cache.get(key);
    const found = this.#resolve(request, from);
    this.#cache.set(key, found);
    return found;
  }

  #resolve(request, from) {
    const relative = request.startsWith('./') || request.startsWith('../') || request === '.' || request === '..';
    if (relative || path.isAbsolute(request)) {
      const base = path.resolve(from, request);
      return this.#file(base) ?? this.#directory(base);
    }
    const parts = request.split('/');
    const name = request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    const subpath = parts.slice(request.startsWith('@') ? 2 : 1).join('/');
    for (let dir = from; ; dir = path.dirname(dir)) {
      if (path.basename(dir) !== 'node_modules') {
        const root = path.join(dir, 'node_modules', name);
        if (isDirectory(root)) {
          const inside = path.join(root, subpath);
          const found = subpath ? (this.#file(inside) ?? this.#directory(inside)) : this.#package(root);
          if (found) return found;
        }
      }
      if (path.dirname(dir) === dir) return undefined;
    }
  }

  /** `base` as a file: itself when it has an extension and exists, else with each platform suffix and extension. */
  #file(base) {
    const ext = path.extname(base);
    if (ext && (SOURCE_EXTENSIONS.includes(ext) || ASSET_EXTENSIONS.includes(ext))) {
      // An asset or a file named with its extension; `logo.png` may also be `logo.ios.png`.
      const stem = base.slice(0, -ext.length);
      for (const suffix of this.#suffixes) if (isFile(stem + suffix + ext)) return stem + suffix + ext;
    }
    for (const extension of SOURCE_EXTENSIONS) {
      for (const suffix of this.#suffixes) {
        const candidate = base + suffix + extension;
        if (isFile(candidate)) return candidate;
      }
    }
    if (isFile(base)) return base;
    return undefined;
  }

  #directory(dir) {
    if (!isDirectory(dir)) return undefined;
    if (isFile(path.join(dir, 'package.json'))) {
      const found = this.#package(dir, { indexOnly: false });
      if (found) return found;
    }
    return this.#file(path.join(dir, 'index'));
  }

  /** A package's entry: its `react-native` field (a string), else `main`, else `index`. */
  #package(root) {
    const manifest = this.manifest(root);
    const fields = [manifest?.['react-native'], manifest?.main].filter((f) => typeof f === 'string' && f.length > 0);
    for (const field of fields) {
      const entry = path.resolve(root, field);
      const found = this.#file(entry) ?? (isDirectory(entry) ? this.#file(path.join(entry, 'index')) : undefined);
      if (found) return found;
    }
    return this.#file(path.join(root, 'index'));
  }

  /** A package's package.json, parsed (cached), or null. */
  manifest(root) {
    if (this.#packages.has(root)) return this.#packages.get(root);
    let manifest = null;
    const file = path.join(root, 'package.json');
    if (existsSync(file)) {
      try {
        manifest = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        manifest = null;
      }
    }
    this.#packages.set(root, manifest);
    return manifest;
  }
}
