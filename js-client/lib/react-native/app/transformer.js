// How an app's files become what Node runs, as babel-jest and Metro make them: the app's own Babel with its own
// configuration (babel.config.js, .babelrc, package.json's "babel"), or, with no Babel configuration in the app,
// React Native's preset when the app has one, else Debian's Babel 7 (node-babel7) with the plugins React
// Native's Flow source needs. Presets that ask who calls them (babel-preset-expo) are told what Metro tells
// them: `caller: {name: 'metro', bundler: 'metro', platform}`.

import { createHash } from 'node:crypto';
import fs, { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';

/** Debian's Babel 7 (node-babel7), where Node finds it without NODE_PATH. */
const DEBIAN_NODE_MODULES = '/usr/share/nodejs';
const CONFIG_FILES = [
  'babel.config.js',
  'babel.config.cjs',
  'babel.config.mjs',
  'babel.config.json',
  '.babelrc',
  '.babelrc.js',
  '.babelrc.cjs',
  '.babelrc.json',
];
/** The presets an app's Babel may bring for React Native, newest first. */
const APP_PRESETS = ['@react-native/babel-preset', 'metro-react-native-babel-preset', 'babel-preset-expo'];

function tryResolve(require, id) {
  try {
    return require.resolve(id);
  } catch {
    return undefined;
  }
}

/** What the app configures its Babel with: a config file, package.json's "babel", or nothing. */
function appConfigFile(root) {
  for (const name of CONFIG_FILES) {
    const file = path.join(root, name);
    if (existsSync(file)) return file;
  }
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    if (manifest.babel) return path.join(root, 'package.json');
  } catch {}
  return undefined;
}

/**
 * The transform of one app: `transform(source, filename)` gives CommonJS that Node runs; `identityFor(dir)` names
 * every input of a transform but the file (part of the cache key, see babelIdentity); `dir` is where a record of it
 * is kept between runs (null: none).
 */
export function createTransformer({ root, platform = 'ios', dev = true }) {
  const appRequire = createRequire(path.join(root, 'noop.js'));
  const configFile = appConfigFile(root);
  const appBabel = tryResolve(appRequire, '@babel/core');
  const caller = { name: 'metro', bundler: 'metro', platform, supportsStaticESM: false, isDev: dev, isServer: false };
  if (appBabel) {
    const version = packageVersion(appBabel);
    const preset = configFile ? undefined : APP_PRESETS.map((p) => tryResolve(appRequire, p)).find(Boolean);
    if (configFile || preset) {
      const options = {
        filename: path.join(root, 'index.js'),
        cwd: root,
        root,
        caller,
        sourceType: 'unambiguous',
        retainLines: true,
        compact: false,
        comments: false,
        sourceMaps: false,
        envName: dev ? 'development' : 'production',
      };
      if (!configFile) Object.assign(options, { configFile: false, babelrc: false, presets: [preset] });
      // Babel itself is loaded when a file is not in the cache, or when the record of its configuration no longer
      // holds: a warm start needs none of it.
      const state = { babel: null, identity: null, watched: false };
      const babelRoot = packageRootOf(appBabel);
      const context = { root, appRequire, appBabel, babelRoot, version, platform, dev, configFile, preset, options };
      context.state = state;
      return {
        kind: `the app's Babel ${version} with ${configFile ? path.basename(configFile) : presetName(preset)}`,
        root,
        identityFor(dir) {
          return (state.identity ??= babelIdentity(context, dir));
        },
        get identity() {
          return this.identityFor(null);
        },
        transform(source, filename) {
          const babel = (state.babel ??= appRequire(appBabel));
          const run = () => babel.transformSync(source, { ...options, filename });
          // The first transform loads the configuration when the identity came from its record: what its presets
          // probe is noted all the same (a later record in this process counts on it).
          const result = state.watched ? run() : ((state.watched = true), watching(babelRoot, run).result);
          return result?.code ?? source;
        },
      };
    }
  }
  return debianTransformer({ platform, dev });
}

/** Bumped when what goes into a Babel identity changes. */
const IDENTITY_FORMAT = '3';
/** The environment variables presets read (metro-react-native-babel-preset: BABEL_ENV, NODE_ENV; Expo's: EXPO_*). */
const ENVIRONMENT = /^(?:BABEL_|EXPO_|METRO_|NODE_ENV$)/;
/**
 * What each module loaded while a Babel configuration loaded in this process (watching) required and probed as it
 * loaded, by its file: `{children, probes}`. A configuration loaded later in the process requires such a module from
 * Node's cache, without its top-level code running again; what that code did is known from here, so that one
 * configuration has one record whatever loaded before it.
 */
const LOAD_TIME = new Map();
/** The records of the configurations this process's Babel loaded, by their key (Babel keeps them loaded). */
const LOADED = new Map();

/**
 * What a transform depends on besides its file, as a hash: Babel's version, the platform and mode, the environment
 * presets read, the configuration's content, and what loading that configuration (its presets run, as Babel runs
 * them) touched: every package its presets and plugins were loaded from (name and version, found from the modules
 * they required), every local file among them (content), and every package they probed (`require.resolve`,
 * babel-preset-expo's `hasModule('@expo/vector-icons')`) with what the probe found, or that it found nothing. Paths
 * are not part of it: apps with the same configuration and the same packages share one identity, so their transforms
 * of the same package files (the same real paths) are shared.
 *
 * Loading the configuration costs Babel and its presets (about 0.3 s), so a record of what it touched is kept in
 * `dir` (and in this process): on a later open each package's version is read again and each probe is resolved again,
 * and only if one differs is the configuration loaded again (with a fresh Babel, when this process's Babel had loaded
 * it: Babel caches a preset's result for good).
 */
function babelIdentity(context, dir) {
  const { root, appBabel, version, platform, dev, configFile, preset, state } = context;
  const config = configFile ?? preset;
  const text = readFileSync(config, 'utf8');
  const key = hash([IDENTITY_FORMAT, appBabel, version, root, platform, String(dev), config, text].join('\0'));
  const recordFile = dir ? path.join(dir, 'babel-configs', `${key}.json`) : null;
  const environment = Object.fromEntries(
    Object.entries(process.env)
      .filter(([name]) => ENVIRONMENT.test(name))
      .sort(),
  );
  let record = LOADED.get(key);
  let onDisk = false;
  if (record) {
    if (!holds(record, environment)) {
      record = null;
      freshBabel(context, LOADED.get(key));
    }
  } else if (recordFile) {
    try {
      record = JSON.parse(readFileSync(recordFile, 'utf8'));
      if (record.format !== IDENTITY_FORMAT || !holds(record, environment)) record = null;
      onDisk = record !== null;
    } catch {
      record = null;
    }
  }
  if (!record) {
    record = recordConfiguration(context, environment);
    state.watched = true;
  }
  // This process's Babel has the configuration loaded from now on (at the latest at the first transform).
  LOADED.set(key, record);
  if (recordFile && !onDisk) {
    try {
      mkdirSync(path.dirname(recordFile), { recursive: true });
      const temporary = `${recordFile}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(record));
      renameSync(temporary, recordFile);
    } catch {}
  }
  return record.identity;
}

/** Loads the app's Babel configuration, its presets run, noting what they load and probe: the record. */
function recordConfiguration(context, environment) {
  const { root, appRequire, appBabel, babelRoot, version, platform, dev, configFile, options, state } = context;
  const babel = (state.babel ??= appRequire(appBabel));
  const { result: items, edges, probes: seen, loaded, exists } = watching(babelRoot, () => {
    const partial = babel.loadPartialConfig(options);
    babel.loadOptions(options);
    const { presets = [], plugins = [] } = partial?.options ?? {};
    return [...presets.map((item) => ['preset', item]), ...plugins.map((item) => ['plugin', item])];
  });
  // The modules the configuration is made of: the config file, its presets and plugins (those Babel resolved by name,
  // those presets hand it), and what each of those required, when it loaded or while the configuration loaded. Not
  // all a module ever required in this process: a preset run for another configuration may have required more.
  const files = new Set();
  const stack = [configFile, ...items.map(([, item]) => item.file?.resolved), ...loaded].filter(Boolean);
  while (stack.length > 0) {
    const file = stack.pop();
    if (files.has(file) || file.startsWith(babelRoot + path.sep)) continue;
    files.add(file);
    const atLoad = LOAD_TIME.get(file)?.children ?? Module._cache[file]?.children.map((child) => child.filename) ?? [];
    stack.push(...atLoad, ...(edges.get(file) ?? []));
  }
  const probes = new Map();
  for (const r of seen) if (r.paths || files.has(r.parent)) probes.set(probeKey(r), r);
  for (const file of files) for (const r of LOAD_TIME.get(file)?.probes ?? []) probes.set(probeKey(r), r);
  const packages = {};
  const local = {};
  for (const file of files) {
    const found = packageOf(file);
    if (found) packages[found.root] = found.id;
    else local[file] = fileHash(file);
  }
  const record = {
    format: IDENTITY_FORMAT,
    environment,
    packages,
    files: local,
    probes: [...probes.values()]
      .map((r) => [r.request, r.parent, r.paths, r.resolved])
      .sort((a, b) => String(a).localeCompare(String(b))),
    exists: [...exists].sort(),
  };
  const where = (file) => (file.startsWith(root + path.sep) ? path.relative(root, file) : file);
  const what = (file) => packageOf(file)?.id ?? where(file);
  const item = ([kind, { file, name, options }], i) => {
    return `${kind} ${i} ${file ? what(file.resolved) : name} ${stable(options)}`;
  };
  const lines = [
    `@babel/core ${version}`,
    `${platform} dev=${dev}`,
    ...Object.entries(environment).map(([name, value]) => `env ${name}=${value}`),
    ...items.map(item),
    ...Object.values(packages).map((id) => `package ${id}`),
    ...Object.entries(local).map(([file, sha]) => `file ${where(file)} ${sha}`),
    ...record.probes.map(([request, , , resolved]) => `probe ${request} ${resolved ? what(resolved) : 'missing'}`),
    ...record.exists.map(([file, found]) => `exists ${where(file)} ${found}`),
  ];
  if (configFile) lines.push(...configuredPackages(context.appRequire, configFile).map((id) => `named ${id}`));
  // What the identity is the hash of, kept in the record to tell what changed when one does.
  record.described = [...new Set(lines)].sort();
  record.identity = hash(record.described.join('\n'));
  return record;
}

/** Whether what a record says of the configuration's inputs is still so: versions, files, probes, environment. */
function holds(record, environment) {
  if (stable(record.environment) !== stable(environment)) return false;
  for (const [root, id] of Object.entries(record.packages)) if (packageId(root) !== id) return false;
  for (const [file, sha] of Object.entries(record.files)) if (fileHash(file) !== sha) return false;
  for (const [request, parent, paths, resolved] of record.probes) {
    if (resolveAgain(request, parent, paths) !== resolved) return false;
  }
  for (const [file, found] of record.exists) if (existsSync(file) !== found) return false;
  return true;
}

/** Babel, the configuration and every module of the record forgotten by Node, so that Babel loads them anew. */
function freshBabel(context, record) {
  const forget = new Set([context.configFile, ...Object.keys(record?.files ?? {})]);
  const roots = [context.babelRoot, ...Object.keys(record?.packages ?? {})].map((dir) => dir + path.sep);
  for (const file of Object.keys(Module._cache)) {
    if (forget.has(file) || roots.some((dir) => file.startsWith(dir))) delete Module._cache[file];
  }
  context.state.babel = null;
}

/**
 * Runs `fn`, noting what it requires and resolves through Node: `edges` (a module → the modules it required),
 * `probes` (every bare request resolved but not loaded, by `require.resolve` or a `require` that failed, with its
 * parent or `paths` and what it found, or null), `loaded` (what was resolved by `paths`: how Babel resolves the
 * presets and plugins it is given) and `exists` (the paths under a node_modules folder asked of `fs.existsSync`).
 * Requests made by @babel/core's own files are Babel's business, but for those with `paths`. Each module loaded
 * meanwhile goes in LOAD_TIME.
 */
function watching(babelRoot, fn) {
  const edges = new Map();
  const probes = [];
  const loaded = new Set();
  const exists = new Map();
  /** The modules being loaded (their top-level code running), innermost last: `{file, probes}`. */
  const loading = [];
  /** The modules whose `require` is running, innermost last. */
  const requiring = [];
  const resolveFilename = Module._resolveFilename;
  const load = Module.prototype.load;
  const require = Module.prototype.require;
  const existsSyncOriginal = fs.existsSync;
  const edge = (from, file) => {
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(file);
  };
  const note = (request, from, paths, resolved) => {
    const file = resolved && path.isAbsolute(resolved) ? resolved : null;
    if (paths && file) loaded.add(file);
    // A module required is part of the configuration (its package's version is); a probe is what did not load: a
    // `require.resolve`, found or not, or a `require` that failed.
    if (file && from && requiring.at(-1) === from) return;
    const bare = typeof request === 'string' && !/^\.\.?(?:[\\/]|$)/.test(request) && !path.isAbsolute(request);
    if (!bare || Module.isBuiltin(request) || !(paths || (from && !from.startsWith(babelRoot + path.sep)))) return;
    const r = { request, parent: paths ? null : from, paths: paths ?? null, resolved };
    probes.push(r);
    if (r.parent && loading.at(-1)?.file === r.parent) loading.at(-1).probes.push(r);
  };
  Module._resolveFilename = function resolveFilenameWatched(request, parent, isMain, options) {
    let resolved = null;
    try {
      resolved = resolveFilename.call(this, request, parent, isMain, options);
      return resolved;
    } finally {
      note(request, parent?.filename ?? null, options?.paths, resolved);
    }
  };
  Module.prototype.load = function loadWatched(filename) {
    const entry = { file: filename, probes: [] };
    loading.push(entry);
    try {
      return load.call(this, filename);
    } finally {
      loading.pop();
      LOAD_TIME.set(filename, { children: this.children.map((child) => child.filename), probes: entry.probes });
    }
  };
  Module.prototype.require = function requireWatched(id) {
    requiring.push(this.filename);
    try {
      const exports = require.call(this, id);
      // Node resolves a request it has seen from the same folder without `_resolveFilename`: resolved again here.
      if (typeof id === 'string' && !Module.isBuiltin(id)) {
        try {
          edge(this.filename, resolveFilename.call(Module, id, this, false));
        } catch {}
      }
      return exports;
    } finally {
      requiring.pop();
    }
  };
  fs.existsSync = function existsSyncWatched(file) {
    const found = existsSyncOriginal.call(this, file);
    if (typeof file === 'string' && file.includes(`${path.sep}node_modules${path.sep}`)) exists.set(file, found);
    return found;
  };
  try {
    return { result: fn(), edges, probes, loaded, exists };
  } finally {
    Module._resolveFilename = resolveFilename;
    Module.prototype.load = load;
    Module.prototype.require = require;
    fs.existsSync = existsSyncOriginal;
  }
}

function probeKey(r) {
  return `${r.parent}\0${r.paths?.join('\0')}\0${r.request}`;
}

/** What `request` resolves to now from `parent` (or from `paths`), or null. */
function resolveAgain(request, parent, paths) {
  try {
    if (paths) return createRequire(path.join(paths[0] ?? '/', 'noop.js')).resolve(request, { paths });
    return createRequire(parent).resolve(request);
  } catch {
    return null;
  }
}

const packageRoots = new Map();

/** The package under a node_modules folder that holds `file`: its root and `name@version`, or null. */
function packageOf(file) {
  const at = file.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  if (at < 0) return null;
  const parts = file.slice(at + 14).split(path.sep);
  const dir = file.slice(0, at + 14) + (parts[0].startsWith('@') ? `${parts[0]}${path.sep}${parts[1]}` : parts[0]);
  let found = packageRoots.get(dir);
  if (found === undefined) {
    const id = packageId(dir);
    packageRoots.set(dir, (found = id ? { root: dir, id } : null));
  }
  return found;
}

function packageId(root) {
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    return `${manifest.name}@${manifest.version}`;
  } catch {
    return null;
  }
}

/** A file's content hash; of package.json, its "babel" field only (where an app may keep its configuration). */
function fileHash(file) {
  try {
    if (path.basename(file) === 'package.json') return hash(stable(JSON.parse(readFileSync(file, 'utf8')).babel));
    return hash(readFileSync(file));
  } catch {
    return 'missing';
  }
}

/** JSON with sorted keys; functions and regular expressions by their text (a cycle: the value's text). */
function stable(value) {
  try {
    return JSON.stringify(value ?? null, (k, v) => {
      if (typeof v === 'function' || v instanceof RegExp) return String(v);
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        return Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((name) => [name, v[name]]),
        );
      }
      return v;
    });
  } catch {
    return String(value);
  }
}

/** The version in the package.json of the package that holds `file`. */
function packageVersion(file) {
  try {
    return JSON.parse(readFileSync(path.join(packageRootOf(file), 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The versions of the presets and plugins a config file names (`module:metro-react-native-babel-preset`,
 * `babel-preset-expo`): a changed preset means new transforms, as a changed config file does.
 */
function configuredPackages(appRequire, configFile) {
  const text = readFileSync(configFile, 'utf8');
  const named = text.matchAll(/['"](?:module:)?((?:@[\w.-]+\/)?[\w.-]*(?:preset|plugin)[\w.-]*)['"]/g);
  const names = new Set([...named].map((m) => m[1]));
  return [...names].sort().map((name) => {
    const file =
      tryResolve(appRequire, name) ??
      tryResolve(appRequire, `babel-preset-${name}`) ??
      tryResolve(appRequire, `babel-plugin-${name}`);
    return `${name}@${file ? packageVersion(file) : 'missing'}`;
  });
}

function packageRootOf(file) {
  let dir = path.dirname(file);
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

function presetName(file) {
  const manifest = JSON.parse(readFileSync(path.join(packageRootOf(file), 'package.json'), 'utf8'));
  return `${manifest.name} ${manifest.version}`;
}

function hash(text) {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Debian's Babel 7 alone: Flow stripped (`allowDeclareFields` off: on, `props: Props;` becomes a field that
 * resets `this.props`, and FlatList breaks), TypeScript for .ts/.tsx, JSX with the automatic runtime (files
 * without `import React` are common), `export default from`, and ES modules as CommonJS.
 */
function debianTransformer({ platform, dev }) {
  // Debian's packages find each other through /usr/share/nodejs as a global folder (what NODE_PATH gives); it is
  // added to Node's global paths while the app is open (dispose() takes it out).
  const before = process.env.NODE_PATH;
  const added = !(before ?? '').split(path.delimiter).includes(DEBIAN_NODE_MODULES);
  if (added) {
    process.env.NODE_PATH = before ? `${before}${path.delimiter}${DEBIAN_NODE_MODULES}` : DEBIAN_NODE_MODULES;
    Module._initPaths();
  }
  const dispose = () => {
    if (!added) return;
    if (before === undefined) delete process.env.NODE_PATH;
    else process.env.NODE_PATH = before;
    Module._initPaths();
  };
  const debianRequire = createRequire(path.join(DEBIAN_NODE_MODULES, 'noop.js'));
  let babel;
  try {
    babel = debianRequire('@babel/core');
  } catch {
    dispose();
    throw new Error(
      "openApp: the app has no Babel of its own (no '@babel/core' with a babel.config.js or React Native's preset " +
        `in its node_modules), and Debian's Babel 7 is not in ${DEBIAN_NODE_MODULES} (apt-get install node-babel7)`,
    );
  }
  const plugin = (name) => debianRequire.resolve(`@babel/plugin-${name}`);
  const flowPlugins = [
    [plugin('syntax-flow'), { enums: true }],
    [plugin('transform-flow-strip-types'), { allowDeclareFields: false }],
  ];
  const common = [
    plugin('proposal-export-default-from'),
    [plugin('transform-react-jsx'), { runtime: 'automatic', development: false }],
    [plugin('transform-modules-commonjs'), { strict: false, strictMode: false, allowTopLevelThis: true, lazy: false }],
  ];
  const typescriptOptions = { allExtensions: true, allowDeclareFields: false, onlyRemoveTypeImports: false };
  const typescript = (isTSX) => [[plugin('transform-typescript'), { isTSX, ...typescriptOptions }]];
  return {
    dispose,
    kind: `Debian's Babel ${babel.version}`,
    identity: hash(
      [`debian @babel/core ${babel.version}`, platform, String(dev), 'flow+jsx-automatic+cjs v1'].join('\0'),
    ),
    transform(source, filename) {
      const ext = path.extname(filename);
      const ts = ext === '.ts' || ext === '.tsx';
      const plugins = ts ? [...typescript(ext === '.tsx'), ...common] : [...flowPlugins, ...common];
      const result = babel.transformSync(source, {
        filename,
        babelrc: false,
        configFile: false,
        sourceType: 'unambiguous',
        retainLines: true,
        comments: false,
        compact: false,
        plugins,
        caller: { name: 'metro', bundler: 'metro', platform },
      });
      return result?.code ?? source;
    },
  };
}
