// The module runtime of preset: 'bridged-client': jest's own (jest-runtime), whose compiled modules are kept in V8's
// code cache between runs. jest runs every module of a test file through `new vm.Script` (its registry is per file),
// so each run compiles React Native's libraries, its renderer and the app's files again, and compiles each function
// again the first time it is called. Here a module's script is given the code V8 made for the same source in an
// earlier run (its functions compiled as far as that run had called them), in jest's cache directory beside its
// transform cache, keyed by the name of jest's transform cache file for the module (itself the hash of the module's
// contents and transform) or, for a module jest does not transform, by the source's hash (V8 checks its own version
// and flags, and refuses stale data, which is then made again). `cache: false` (`--no-cache`) neither reads nor writes it.
// Nor, warm, does it ask babel-jest for each module's key, which loads the app's Babel config and its presets every
// run: the names of the transform cache files are kept too (transform-keys.cjs).
const { createHash } = require('node:crypto');
const { createRequire } = require('node:module');
const { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const { TransformKeys } = require('./transform-keys.cjs');
const { isDevRendererFile, withoutDevOverhead } = require('../react-native/renderer/dev-overhead.cjs');

/** jest-runtime: the one beside the app's jest, else beside this package. */
function jestRuntime() {
  for (const from of [path.join(process.cwd(), 'package.json'), __filename]) {
    try {
      const module = createRequire(from)('jest-runtime');
      return module.default ?? module;
    } catch {}
  }
  throw new Error("preset: 'bridged-client' needs jest-runtime (jest's own; install jest in the app)");
}

const Runtime = jestRuntime();
/**
 * The code cache's folder name: V8's tag for the code it can take (its version, its flags, the CPU's features), so
 * that data another Node or other flags made, which V8 would refuse, is never looked at.
 */
const FLAVOUR = `bridged-v8-${v8.cachedDataVersionTag().toString(16)}`;
/** Scripts smaller than this are compiled as jest does: their data costs more to look up than they take to compile. */
const MIN_BYTES = 1024;
/** More packs than this in the folder are merged into one by the next run that writes one. */
const MAX_PACKS = 16;
/**
 * A merge that would be larger than this starts the cache over instead (old versions of the app's files pile up;
 * each worker reads its project's packs whole).
 */
const MAX_BYTES = 64 << 20;

/**
 * The code cache of one project: packs, each the data of the scripts one test file compiled without data, written
 * once (a temporary name, renamed) and read by every later run (in this process, each pack once). A pack is a 4-byte
 * length, a JSON index (`[[hash, offset, length, sha1], …]`, `sha1` an entry's data's) and the data. An entry is
 * checked against its SHA-1 when first asked for (V8 takes the code it is given as its own: it checks its version
 * and flags, not the code); a pack with an entry that fails it is removed.
 */
class CodeCache {
  /** hash → `{data, sha1, pack}` of the script whose wrapped source has that hash (`sha1` null once checked). */
  #entries = new Map();
  /** The packs read so far, by file name. */
  #read = new Set();
  #folder;
  #maxPacks;
  #maxBytes;

  constructor(folder, { maxPacks = MAX_PACKS, maxBytes = MAX_BYTES } = {}) {
    this.#folder = folder;
    this.#maxPacks = maxPacks;
    this.#maxBytes = maxBytes;
  }

  /** Reads the packs other runs wrote since the last look. */
  refresh() {
    let names;
    try {
      names = readdirSync(this.#folder);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.endsWith('.pack') || this.#read.has(name)) continue;
      this.#read.add(name);
      const file = path.join(this.#folder, name);
      try {
        const pack = readFileSync(file);
        const start = 4 + pack.readUInt32LE(0);
        const index = JSON.parse(pack.toString('utf8', 4, start));
        const entries = [];
        for (const [hash, offset, size, sha1] of index) {
          if (typeof hash !== 'string' || typeof sha1 !== 'string' || !(offset >= 0 && size > 0 && start + offset + size <= pack.length)) {
            throw new Error('not a pack');
          }
          entries.push([hash, { data: pack.subarray(start + offset, start + offset + size), sha1, pack: file }]);
        }
        for (const [hash, entry] of entries) this.#entries.set(hash, entry);
      } catch {
        removeQuietly(file);
      }
    }
  }

  /** The data of the script whose source has `hash`, if a pack holds it and it is what was written. */
  get(hash) {
    const entry = this.#entries.get(hash);
    if (entry === undefined) return undefined;
    if (entry.sha1 !== null) {
      if (sha1(entry.data) !== entry.sha1) {
        this.#entries.delete(hash);
        removeQuietly(entry.pack);
        return undefined;
      }
      entry.sha1 = null;
    }
    return entry.data;
  }

  /**
   * Writes `fresh` (`[hash, data]`) as one pack; with too many packs there, all the data known merged into one in
   * their place (only `fresh` where that would be too large: the cache starts over).
   */
  write(fresh) {
    let entries = fresh;
    let replaced = [];
    try {
      mkdirSync(this.#folder, { recursive: true });
      const names = readdirSync(this.#folder);
      const packs = names.filter((name) => name.endsWith('.pack'));
      if (packs.length >= this.#maxPacks) {
        // With the pack files left by a run that stopped between writing one and naming it (a minute old).
        replaced = [...packs, ...names.filter((name) => name.endsWith('.tmp') && statSync(path.join(this.#folder, name)).mtimeMs < Date.now() - 60_000)];
        const known = new Map([...this.#entries].filter(([, entry]) => entry.sha1 === null || sha1(entry.data) === entry.sha1).map(([hash, entry]) => [hash, entry.data]));
        for (const [hash, data] of fresh) known.set(hash, data);
        entries = [...known];
        if (entries.reduce((sum, [, data]) => sum + data.length, 0) > this.#maxBytes) {
          entries = fresh;
          this.#entries.clear();
        }
      }
    } catch {
      return;
    }
    const index = [];
    let offset = 0;
    for (const [hash, data] of entries) {
      index.push([hash, offset, data.length, sha1(data)]);
      offset += data.length;
    }
    const header = Buffer.from(JSON.stringify(index));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length, 0);
    const name = `${Date.now().toString(36)}-${process.pid}-${(nextPack++).toString(36)}.pack`;
    const file = path.join(this.#folder, name);
    try {
      writeFileSync(`${file}.tmp`, Buffer.concat([length, header, ...entries.map(([, data]) => data)]));
      renameSync(`${file}.tmp`, file);
      this.#read.add(name);
      for (const old of replaced) removeQuietly(path.join(this.#folder, old));
      // Checked already: what this process wrote is what it has.
      for (const [hash, data] of entries) this.#entries.set(hash, { data, sha1: null, pack: file });
    } catch {}
  }
}

const sha1 = (data) => createHash('sha1').update(data).digest('base64url');

function removeQuietly(file) {
  try {
    rmSync(file, { force: true });
  } catch {}
}

/**
 * The folder of a project's code cache in jest's cache folder (`cacheDirectory`): one per V8 flavour, and in it one
 * per project (jest's config `id`), so that a run reads only its own project's packs. A flavour's folder made anew
 * removes the others' (data of another Node, which V8 would refuse).
 */
function projectFolder(cacheDirectory, id) {
  const flavour = path.join(cacheDirectory, FLAVOUR);
  if (!existsSync(flavour)) {
    try {
      mkdirSync(flavour, { recursive: true });
      for (const name of readdirSync(cacheDirectory)) {
        if (name.startsWith('bridged-v8-') && name !== FLAVOUR) rmSync(path.join(cacheDirectory, name), { recursive: true, force: true });
      }
    } catch {}
  }
  return path.join(flavour, id);
}

/**
 * The file of jest's transform cache that holds each module's transformed code, by project and module, for the
 * modules jest transformed in this process: its name is the hash jest made of the file's contents, its transform's
 * config and options (ScriptTransformer's `_getFileCachePath`), so a module's code is keyed by it, not hashed again
 * (5 MB of React Native's code each run). A module jest does not transform (transformIgnorePatterns) is hashed.
 */
const transformed = new Map();
const kRecorded = Symbol('bridged.recordsTransformPaths');

/** babel-jest, whose key for a module holds the Babel options the app's config gives it (transform-keys.cjs). */
const BABEL_JEST = /[\\/]babel-jest[\\/]/;

/**
 * Makes `transformer` (jest's ScriptTransformer for a test file) record its cache file of each module it transforms,
 * and, with `keys`, name that file from the names kept for babel-jest's modules, not by asking babel-jest again.
 */
function recordTransformPaths(transformer, project, keys = null) {
  if (!transformer || transformer[kRecorded] === true) return;
  const { transformSource, _getFileCachePath: cachePathOf } = transformer;
  if (typeof transformSource !== 'function' || typeof cachePathOf !== 'function') return;
  transformer[kRecorded] = true;
  let asked = null;
  transformer.transformSource = function (filepath, content, options) {
    const outer = asked;
    asked = filepath;
    try {
      return transformSource.call(this, filepath, content, options);
    } finally {
      asked = outer;
    }
  };
  transformer._getFileCachePath = function (filename, content, options) {
    let key = null;
    let cachePath;
    if (keys !== null) {
      const transformerPath = typeof this._getTransformPath === 'function' ? this._getTransformPath(filename) : undefined;
      const configString = this._cache?.configString;
      if (typeof transformerPath === 'string' && BABEL_JEST.test(transformerPath) && typeof configString === 'string' && typeof content === 'string') {
        const { rootDir, cwd } = this._config ?? {};
        key = keys.keyOf({ filename, content, options, configString, rootDir: String(rootDir), cwd: String(cwd), transformerPath });
        cachePath = keys.get(key);
      }
    }
    if (cachePath === undefined) {
      cachePath = cachePathOf.call(this, filename, content, options);
      if (key !== null && typeof cachePath === 'string') keys.set(key, cachePath);
    }
    if (asked !== null && typeof cachePath === 'string') transformed.set(`${project}\0${asked}`, cachePath);
    return cachePath;
  };
}

/** folder → the TransformKeys of a project, one per process. */
const transformKeys = new Map();

let nextPack = 0;
/** folder → its CodeCache, one per process (a worker runs many test files). */
const caches = new Map();

/** React Native's renderers (paper's and Fabric's, each build), as its package holds them. */
const RENDERER = /[\\/]Libraries[\\/]Renderer[\\/]implementations[\\/]React(NativeRenderer|Fabric)-(dev|prod|profiling)\.js$/;
/** The last of the host types whose children may be strings, in the renderer's getChildHostContext. */
const LAST_TEXT_TYPE = /type === (["'])RCTVirtualText\1/;

/**
 * React Native's renderer lets strings be children of its text views alone (getChildHostContext's
 * `isInAParentText`, by the host's type name: RCTText, RCTVirtualText, the text inputs), and throws "Text strings must
 * be rendered within a <Text> component" for any other host. Under the preset it also asks the file's host
 * (`__bridged__.holdsText`), which says yes for a made-up host alone (a jest mock's stand-in, `React.createElement('Text',
 * props, props.name)` for an icon: no phone has it, and every host takes strings on React Native's mocks). A
 * renderer without that line is left as it is.
 */
function withMadeUpTextHosts(source) {
  return source.replace(
    LAST_TEXT_TYPE,
    (line) => `${line} || (typeof __bridged__ === "object" && __bridged__ !== null && typeof __bridged__.holdsText === "function" && __bridged__.holdsText(type) === true)`,
  );
}

/** The files of React and React Native's packages, which jest.resetModules keeps (BridgedRuntime.resetModules). */
const REACT_WORLD = /[\\/]node_modules[\\/](react|react-native|scheduler|@react-native[\\/][^\\/]+)[\\/]/;

/** The modules of `registry` that are React's and React Native's (their packages, scheduler, @react-native/*). */
function reactWorld(registry) {
  const kept = [];
  if (!(registry instanceof Map)) return kept;
  for (const [file, module] of registry) if (typeof file === 'string' && REACT_WORLD.test(file)) kept.push([file, module]);
  return kept;
}

class BridgedRuntime extends Runtime {
  static CodeCache = CodeCache;
  static projectFolder = projectFolder;
  static TransformKeys = TransformKeys;
  /** This run's code cache, or null when the config turns jest's cache off. */
  #cache = null;
  /** The scripts compiled without data (none yet, or refused), by the hash of their source. */
  #unsaved = new Map();
  /** The project's id, which keys `transformed`. */
  #project = '';
  /** The module wrapper around an empty source, part of a transformed module's key. */
  #wrapper = null;
  /** The names of this project's transform cache files, kept between runs (null when jest's cache is off). */
  #keys = null;
  /** React Native's development renderer files as read and as loaded (readFile), by file. */
  #withoutDevOverhead = new Map();
  /** The config's `testEnvironmentOptions.bridged.rendererAsShipped`: the renderer file loads as read. */
  #rendererAsShipped = false;

  constructor(config, environment, resolver, transformer, cacheFS, coverageOptions, ...rest) {
    super(config, environment, resolver, transformer, cacheFS, coverageOptions, ...rest);
    this.#rendererAsShipped = config?.testEnvironmentOptions?.bridged?.rendererAsShipped === true;
    // A module mocked or unmocked while the file runs (`jest.mock` or `jest.doMock` in a test's body, which babel hoists
    // to the top of that function, after an earlier test read React Native's index): the host puts the index's getters
    // back (host.js keeps each getter's first answer), so that the next read requires again and gets the mock, as
    // React Native's index, which requires at every read, does on its mocks. Every jest object's mock, doMock, unmock,
    // dontMock and setMock, and jest.mock without a factory, go through this map.
    const explicit = this._explicitShouldMock;
    if (explicit instanceof Map) {
      const set = explicit.set;
      explicit.set = (...args) => {
        environment?.global?.__bridged__?.modulesReset?.();
        return set.apply(explicit, args);
      };
    }
    // Coverage instruments the code V8 compiles: left to jest as it is.
    if (config.cache !== false && config.cacheDirectory && !coverageOptions?.collectCoverage) {
      const folder = projectFolder(config.cacheDirectory, typeof config.id === 'string' && /^[\w.-]+$/.test(config.id) ? config.id : sha1(String(config.rootDir)));
      if (!caches.has(folder)) caches.set(folder, new CodeCache(folder));
      this.#cache = caches.get(folder);
      this.#cache.refresh();
      this.#project = String(config.id ?? config.rootDir);
      const keysFile = path.join(config.cacheDirectory, 'bridged-transform-keys', `${path.basename(folder)}.json`);
      if (!transformKeys.has(keysFile)) transformKeys.set(keysFile, new TransformKeys(keysFile));
      this.#keys = transformKeys.get(keysFile);
      recordTransformPaths(transformer, this.#project, this.#keys);
    }
    // Read by the host as the file's setup loads React Native (host.js, `load`); asked once the transformer names its
    // cache files from the kept names (asking babel-jest would load the app's Babel config on a warm run).
    if (environment !== null && typeof environment === 'object') environment.bridgedColdTransforms = this.#coldTransforms(config);
  }

  /**
   * Whether jest has yet to transform React Native's components for this project: no transform of its `TextInput` in
   * jest's cache (a first run, a cleared cache, a changed Babel config or React Native), or jest's cache off.
   */
  #coldTransforms(config) {
    if (config.cache === false) return true;
    try {
      const from = path.join(String(config.rootDir), 'package.json');
      const file = realpathSync(this._resolver.resolveModule(from, 'react-native/Libraries/Components/TextInput/TextInput'));
      if (!this._scriptTransformer.shouldTransform(file)) return false;
      const options = { ...this._getFullTransformationOptions(), instrument: false };
      const cachePath = this._scriptTransformer._getFileCachePath(file, readFileSync(file, 'utf8'), options);
      return typeof cachePath === 'string' && !existsSync(cachePath);
    } catch {
      return false;
    }
  }

  /**
   * jest.resetModules(): a fresh registry, as jest makes it, but for React and React Native, which stay the ones the
   * native side loaded (a phone has one of each): a test that requires `react`, `react-native` and RNTL afresh after
   * it (a fresh module-level store for each test, as many files do) renders with them, where a second React and a
   * second React Native renderer would render beside the first, which the test's screen does not show (its presses
   * updated nothing). The app's own modules and every other package are loaded again, as jest does.
   */
  resetModules() {
    // (jest-runtime's constructor calls it too, before this class's fields exist.)
    const kept = reactWorld(this._moduleRegistry);
    super.resetModules();
    for (const [file, module] of kept) this._moduleRegistry.set(file, module);
  }

  /**
   * A module's source, as jest reads it before transforming it (its transform cache is keyed by what this returns):
   * React Native's development renderer without the bookkeeping dev-overhead.cjs names, as openApp loads it (unless
   * the config's `testEnvironmentOptions: { bridged: { rendererAsShipped: true } }`).
   */
  readFile(filename) {
    const source = super.readFile(filename);
    if (this.#rendererAsShipped || typeof filename !== 'string' || !isDevRendererFile(filename)) return source;
    let changed = this.#withoutDevOverhead.get(filename);
    if (changed?.from !== source) {
      changed = { from: source, to: withoutDevOverhead(source).source };
      this.#withoutDevOverhead.set(filename, changed);
    }
    return changed.to;
  }

  createScriptFromCode(scriptSource, filename) {
    if (RENDERER.test(filename)) scriptSource = withMadeUpTextHosts(scriptSource);
    const code = this.wrapCodeInModuleWrapper(scriptSource);
    if (this.#cache === null || code.length < MIN_BYTES || this._resolver.isCoreModule(filename)) {
      return super.createScriptFromCode(scriptSource, filename);
    }
    // A module jest transformed: its transform cache file (its contents' hash), the wrapper and the length; else its code.
    const cachePath = transformed.get(`${this.#project}\0${filename}`);
    this.#wrapper ??= this.wrapCodeInModuleWrapper('');
    const hash = (cachePath === undefined ? createHash('sha1').update(code) : createHash('sha1').update(`${cachePath}\0${code.length}\0${this.#wrapper}`)).digest('base64url');
    const cachedData = this.#cache.get(hash);
    let script;
    try {
      script = new vm.Script(code, {
        displayErrors: true,
        filename,
        cachedData,
        importModuleDynamically: async (specifier) => {
          if (typeof vm.SourceTextModule !== 'function') {
            throw new Error('You need to run with a version of node that supports ES Modules in the VM API. See https://jestjs.io/docs/ecmascript-modules');
          }
          const context = this._environment.getVmContext?.();
          if (!context) throw new Error('Test environment has been torn down');
          return this.linkAndEvaluateModule(await this.resolveModule(specifier, filename, context));
        },
      });
    } catch {
      // A syntax error: jest's own compilation reports it as jest does.
      return super.createScriptFromCode(scriptSource, filename);
    }
    if (cachedData === undefined || script.cachedDataRejected === true) this.#unsaved.set(hash, script);
    return script;
  }

  teardown() {
    try {
      this.#save();
      this.#keys?.save();
    } finally {
      super.teardown();
    }
  }

  /** Each script compiled without data: its code as this run left it (the functions it called compiled), written. */
  #save() {
    if (this.#unsaved.size === 0) return;
    const entries = [];
    for (const [hash, script] of this.#unsaved) {
      try {
        entries.push([hash, script.createCachedData()]);
      } catch {}
    }
    this.#unsaved.clear();
    this.#cache.write(entries);
  }
}

// A jest-runtime without the two methods this one builds on (not jest 29's) is used as it is.
module.exports =
  typeof Runtime.prototype.createScriptFromCode === 'function' && typeof Runtime.prototype.wrapCodeInModuleWrapper === 'function'
    ? BridgedRuntime
    : Runtime;
