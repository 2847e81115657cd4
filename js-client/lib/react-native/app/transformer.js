// How an app's files become what Node runs, as babel-jest and Metro make them: the app's own Babel with its own
// configuration (babel.config.js, .babelrc, package.json's "babel"), or, with no Babel configuration in the app,
// React Native's preset when the app has one, else Debian's Babel 7 (node-babel7) with the plugins React
// Native's Flow source needs. Presets that ask who calls them (babel-preset-expo) are told what Metro tells
// them: `caller: {name: 'metro', bundler: 'metro', platform}`.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';

/** Debian's Babel 7 (node-babel7), where Node finds it without NODE_PATH. */
const DEBIAN_NODE_MODULES = '/usr/share/nodejs';
const CONFIG_FILES = ['babel.config.js', 'babel.config.cjs', 'babel.config.mjs', 'babel.config.json', '.babelrc', '.babelrc.js', '.babelrc.cjs', '.babelrc.json'];
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
 * The transform of one app: `transform(source, filename)` gives CommonJS that Node runs; `identity` names the
 * Babel and configuration (part of the cache key: a changed babel.config.js or preset means new transforms).
 */
export function createTransformer({ root, platform = 'ios', dev = true }) {
  const appRequire = createRequire(path.join(root, 'noop.js'));
  const configFile = appConfigFile(root);
  const appBabel = tryResolve(appRequire, '@babel/core');
  const caller = { name: 'metro', bundler: 'metro', platform, supportsStaticESM: false, isDev: dev, isServer: false };
  if (appBabel) {
    // Babel itself is loaded on the first file the cache does not hold: a warm start needs none of it.
    const version = packageVersion(appBabel);
    let babel = null;
    const load = () => (babel ??= appRequire(appBabel));
    const preset = configFile ? undefined : APP_PRESETS.map((p) => tryResolve(appRequire, p)).find(Boolean);
    if (configFile || preset) {
      const identityParts = [`@babel/core ${version}`, platform, String(dev)];
      if (configFile) identityParts.push(configFile, readFileSync(configFile, 'utf8'), ...configuredPackages(appRequire, configFile));
      if (preset) identityParts.push(preset, readFileSync(path.join(packageRootOf(preset), 'package.json'), 'utf8'));
      return {
        kind: configFile ? `the app's Babel ${version} with ${path.basename(configFile)}` : `the app's Babel ${version} with ${presetName(preset)}`,
        identity: hash(identityParts.join('\0')),
        transform(source, filename) {
          const options = {
            filename,
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
          const result = load().transformSync(source, options);
          return result?.code ?? source;
        },
      };
    }
  }
  return debianTransformer({ platform, dev });
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
  const names = new Set([...text.matchAll(/['"](?:module:)?((?:@[\w.-]+\/)?[\w.-]*(?:preset|plugin)[\w.-]*)['"]/g)].map((m) => m[1]));
  return [...names].sort().map((name) => {
    const file = tryResolve(appRequire, name) ?? tryResolve(appRequire, `babel-preset-${name}`) ?? tryResolve(appRequire, `babel-plugin-${name}`);
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
      "openApp: the app has no Babel of its own (no '@babel/core' with a babel.config.js or React Native's preset in its node_modules), " +
        `and Debian's Babel 7 is not in ${DEBIAN_NODE_MODULES} (apt-get install node-babel7)`,
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
  const typescript = (isTSX) => [[plugin('transform-typescript'), { isTSX, allExtensions: true, allowDeclareFields: false, onlyRemoveTypeImports: false }]];
  return {
    dispose,
    kind: `Debian's Babel ${babel.version}`,
    identity: hash([`debian @babel/core ${babel.version}`, platform, String(dev), 'flow+jsx-automatic+cjs v1'].join('\0')),
    transform(source, filename) {
      const ext = path.extname(filename);
      const plugins = ext === '.ts' || ext === '.tsx' ? [...typescript(ext === '.tsx'), ...common] : [...flowPlugins, ...common];
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
