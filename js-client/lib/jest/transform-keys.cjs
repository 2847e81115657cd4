// What jest's transform cache calls each module's file, remembered between runs for the modules babel-jest transforms.
// jest names that file by a key its transformer makes (ScriptTransformer's `_getFileCachePath`), and babel-jest's key
// holds the module's Babel options: to know them it loads the app's Babel config for every module of every run, and
// with it the config's presets and their plugins (React Native's preset: about a hundred modules) even where every
// module's transform is in the cache (the example's file, warm: 201 modules, 200 ms of its 1.4 s). Here that name is
// kept, under a key of everything babel-jest's key depends on but the options themselves, and in their place what
// they are made from: the module's path and contents, jest's config and the transform's options, the transformer's
// file, the root's Babel config files (`babel.config.*`, `.babelrc*`, `package.json`) and those between the module and
// its package's root, the environment's variables and Node's version. A change to any of them is a key not seen yet:
// babel-jest is asked, as jest would ask it. What a Babel config reads that is none of these (a file it requires) is
// not seen: `jest --clearCache`, or `--no-cache`, which neither reads nor writes these names.
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');

/** More names than this in a project's file start it over (old versions of the app's files pile up). */
const MAX_ENTRIES = 20_000;
/** The files a folder may hold that Babel reads as configuration (its root ones, and file-relative ones). */
const ROOT_CONFIGS = ['babel.config.js', 'babel.config.cjs', 'babel.config.mjs', 'babel.config.json', 'babel.config.cts'];
const RELATIVE_CONFIGS = ['.babelrc', '.babelrc.js', '.babelrc.cjs', '.babelrc.mjs', '.babelrc.json', '.babelrc.cts'];
/**
 * Variables that differ from one command to the next of the same shell, from one jest worker to another, or from one
 * run to the next by the preset itself (its daemon's socket and pid: `BRIDGED_JEST_…`; `dont-cleanup-after-each`'s).
 */
const VOLATILE = new Set(['_', 'OLDPWD', 'SHLVL', 'JEST_WORKER_ID', 'RNTL_SKIP_AUTO_CLEANUP']);
const volatile = (name) => VOLATILE.has(name) || name.startsWith('BRIDGED_JEST_');

const hash = (...parts) => {
  const digest = createHash('sha1');
  for (const part of parts) digest.update(part).update('\0');
  return digest.digest('base64url');
};

/** A file's contents' hash, or '-' when there is no such file. */
function contentsOf(file) {
  try {
    return hash(readFileSync(file));
  } catch {
    return '-';
  }
}

/** The names of one project (jest's config `id`): in a file of jest's cache folder, read once, written as they grow. */
class TransformKeys {
  /** key → the module's transform cache file. */
  #names = new Map();
  /** What this process added since it last wrote. */
  #added = 0;
  #file;
  #maxEntries;
  /** Folder → the hash of the Babel config files between it and its package's root (it included). */
  #folders = new Map();
  /** What every key of this process holds: Node, the variables, the root's configs (by root folder). */
  #worlds = new Map();
  /** A transformer's file → its contents' hash. */
  #transformers = new Map();

  constructor(file, { maxEntries = MAX_ENTRIES } = {}) {
    this.#file = file;
    this.#maxEntries = maxEntries;
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      if (Array.isArray(saved)) {
        for (const entry of saved) if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string') this.#names.set(entry[0], entry[1]);
      }
    } catch {}
  }

  get size() {
    return this.#names.size;
  }

  /**
   * The key of `filename` with `content`, transformed by the file at `transformerPath` under `options` (jest's
   * transform options: `instrument`, `supports…`) for the project whose config serializes as `configString` and whose
   * Babel root is `rootDir` (jest runs from `cwd`).
   */
  keyOf({ filename, content, options, configString, rootDir, cwd, transformerPath }) {
    let transformer = this.#transformers.get(transformerPath);
    if (transformer === undefined) this.#transformers.set(transformerPath, (transformer = contentsOf(transformerPath)));
    return hash(this.#world(rootDir, cwd), transformerPath, transformer, configString, JSON.stringify(options ?? {}), this.#relativeConfigs(path.dirname(filename)), filename, content);
  }

  get(key) {
    return this.#names.get(key);
  }

  set(key, name) {
    if (this.#names.get(key) === name) return;
    this.#names.set(key, name);
    this.#added += 1;
  }

  /** Writes the names when this process added some: the file's, merged with this process's (another worker's too). */
  save() {
    if (this.#added === 0) return;
    this.#added = 0;
    let names = this.#names;
    try {
      const saved = JSON.parse(readFileSync(this.#file, 'utf8'));
      if (Array.isArray(saved)) names = new Map([...saved.filter((entry) => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string'), ...this.#names]);
    } catch {}
    if (names.size > this.#maxEntries) names = new Map([...this.#names].slice(-Math.floor(this.#maxEntries / 2)));
    this.#names = names;
    const temporary = `${this.#file}.${process.pid}.tmp`;
    try {
      mkdirSync(path.dirname(this.#file), { recursive: true });
      writeFileSync(temporary, JSON.stringify([...names]));
      renameSync(temporary, this.#file);
    } catch {
      try {
        rmSync(temporary, { force: true });
      } catch {}
    }
  }

  /** Node's version, the environment's variables, and the root's Babel configs (the root's and jest's folder's). */
  #world(rootDir, cwd) {
    const at = `${rootDir}\0${cwd}`;
    let world = this.#worlds.get(at);
    if (world === undefined) {
      const variables = Object.entries(process.env)
        .filter(([name]) => !volatile(name))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, value]) => `${name}=${value}`)
        .join('\n');
      const configs = [...new Set([rootDir, cwd])].flatMap((folder) => [...ROOT_CONFIGS, ...RELATIVE_CONFIGS, 'package.json'].map((name) => contentsOf(path.join(folder, name))));
      world = hash(process.version, variables, ...configs);
      this.#worlds.set(at, world);
    }
    return world;
  }

  /** The file-relative Babel configs Babel looks for from `folder` up to its package's root (the folder with a package.json). */
  #relativeConfigs(folder) {
    let found = this.#folders.get(folder);
    if (found !== undefined) return found;
    const own = RELATIVE_CONFIGS.map((name) => contentsOf(path.join(folder, name)));
    let packageRoot = false;
    try {
      packageRoot = statSync(path.join(folder, 'package.json')).isFile();
    } catch {}
    const parent = path.dirname(folder);
    const above = packageRoot || parent === folder ? '' : this.#relativeConfigs(parent);
    found = hash(...own, packageRoot ? contentsOf(path.join(folder, 'package.json')) : '', above);
    this.#folders.set(folder, found);
    return found;
  }
}

module.exports = { TransformKeys, MAX_ENTRIES };
