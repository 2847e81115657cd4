// The transform cache is never stale and is shared where it can be (issue 42, item 6): its key names every input of
// a transform, so that two apps with the same Babel identity share their transforms of the same package files (a
// second app's first open transforms none of React Native; a package each app installed on its own is shared too),
// a package a preset probes that appears in node_modules (babel-preset-expo's `hasModule('@expo/vector-icons')`)
// makes new transforms, and a module not found by code that came from the cache says so and how to clear it. Against
// the shared test data (../shared/react-native-0.72.6, and ../shared/expo-49 for the probed package; skipped, naming
// the folder, where it is absent).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { connect } from '../index.js';
import { openApp } from '../lib/react-native.js';
import { startDaemon } from '../test-support/daemon.js';
import { SHARED_NODE_MODULES, appSkip, makeApp } from '../test-support/react-native-app.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
/** Expo SDK 49's packages from the shared test data, or $BRIDGED_EXPO_NODE_MODULES: where @expo/vector-icons is. */
const EXPO_NODE_MODULES = path.resolve(
  process.env.BRIDGED_EXPO_NODE_MODULES ?? path.join(REPOSITORY, '..', 'shared', 'expo-49', 'node_modules'),
);
const VECTOR_ICONS = path.join(EXPO_NODE_MODULES, '@expo', 'vector-icons');
const haveExpo =
  existsSync(path.join(SHARED_NODE_MODULES, 'babel-preset-expo', 'package.json')) &&
  existsSync(path.join(VECTOR_ICONS, 'package.json'));
const expoSkip =
  appSkip ||
  (haveExpo
    ? false
    : `no babel-preset-expo in ${SHARED_NODE_MODULES} or no @expo/vector-icons in ${EXPO_NODE_MODULES}`);

/**
 * Opens the app at `root` in a new Node process (what running the tests again does), requires `request` from its root:
 * `{exports, error, transformedFiles}`.
 */
function openInChild(socket, root, cache, request) {
  const url = (file) => JSON.stringify(pathToFileURL(path.join(REPOSITORY, 'js-client', file)).href);
  const script = `
    import { connect } from ${url('index.js')};
    import { openApp } from ${url('lib/react-native.js')};
    const bridge = await connect({ socket: ${JSON.stringify(socket)} });
    const app = await openApp(bridge, { root: ${JSON.stringify(root)}, cache: ${JSON.stringify(cache)} });
    const out = {};
    try {
      out.exports = app.require(${JSON.stringify(request)});
    } catch (error) {
      out.error = error.message;
    }
    out.transformedFiles = app.transformCache.stats.transformedFiles;
    await app.close();
    await bridge.close();
    console.log(JSON.stringify(out));
  `;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(stdout.trim().split('\n').pop());
}

const inReactNative = (file) => /[\\/]node_modules[\\/]react-native[\\/]/.test(file);

/**
 * An app on babel-preset-expo whose only own file asks where 'react-native-vector-icons/MaterialIcons' is: the
 * preset rewrites that request to '@expo/vector-icons/MaterialIcons' when, and only when, @expo/vector-icons is
 * installed. The shared packages are linked one by one; babel-preset-expo is copied, because it probes from where it
 * is (a link would have it probe the shared folder, as Node resolves a linked file from its real path).
 */
function expoPresetApp() {
  const root = mkdtempSync(path.join(tmpdir(), 'bridged-expo-preset-app-'));
  const modules = path.join(root, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(SHARED_NODE_MODULES)) {
    if (entry !== 'babel-preset-expo') symlinkSync(path.join(SHARED_NODE_MODULES, entry), path.join(modules, entry));
  }
  const preset = path.join(modules, 'babel-preset-expo');
  cpSync(path.join(SHARED_NODE_MODULES, 'babel-preset-expo'), preset, { recursive: true });
  writable(preset);
  mkdirSync(path.join(root, 'src'));
  const dependencies = { react: '18.2.0', 'react-native': '0.72.6' };
  const manifest = { name: 'expo-preset-app', version: '1.0.0', dependencies };
  const config = [
    'module.exports = function (api) {',
    '  api.cache(true);',
    "  return { presets: ['babel-preset-expo'] };",
    '};',
    '',
  ].join('\n');
  writeFileSync(path.join(root, 'package.json'), JSON.stringify(manifest));
  writeFileSync(path.join(root, 'babel.config.js'), config);
  const icon = "export default require.resolve('react-native-vector-icons/MaterialIcons');\n";
  writeFileSync(path.join(root, 'src', 'Icon.js'), icon);
  return {
    root,
    /** What `npm install @expo/vector-icons` would add. */
    installVectorIcons() {
      mkdirSync(path.join(modules, '@expo'), { recursive: true });
      symlinkSync(VECTOR_ICONS, path.join(modules, '@expo', 'vector-icons'));
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * The app's node_modules made a folder of links to the shared packages, but for the scoped package `name`, copied: as
 * an app that installed its own.
 */
function ownCopy(root, name) {
  const modules = path.join(root, 'node_modules');
  const [scope, own] = name.split('/');
  rmSync(modules);
  mkdirSync(path.join(modules, scope), { recursive: true });
  for (const entry of readdirSync(SHARED_NODE_MODULES)) {
    if (entry !== scope) symlinkSync(path.join(SHARED_NODE_MODULES, entry), path.join(modules, entry));
  }
  for (const entry of readdirSync(path.join(SHARED_NODE_MODULES, scope))) {
    if (entry !== own) symlinkSync(path.join(SHARED_NODE_MODULES, scope, entry), path.join(modules, scope, entry));
  }
  cpSync(path.join(SHARED_NODE_MODULES, name), path.join(modules, name), { recursive: true });
  writable(path.join(modules, name));
}

/** A copy of read-only shared files made removable. */
function writable(dir) {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) writable(path.join(dir, entry.name));
  }
}

describe('the transform cache', { skip: appSkip }, () => {
  let daemon;
  let bridge;
  let cache;
  const removals = [];

  before(async () => {
    daemon = await startDaemon();
    bridge = await connect({ socket: daemon.socket });
    cache = mkdtempSync(path.join(tmpdir(), 'bridged-transform-cache-'));
    removals.push(() => rmSync(cache, { recursive: true, force: true }));
  });

  after(async () => {
    await bridge?.close();
    await daemon?.stop();
    for (const remove of removals) remove();
  });

  /** Opens the app at `root`, requires `files` from its root, closes it: the cache's stats of that open. */
  async function open(root, files = [], dir = cache) {
    const app = await openApp(bridge, { root, cache: dir });
    try {
      for (const file of files) app.require(file);
      return { ...app.transformCache.stats, root: app.root };
    } finally {
      await app.close();
    }
  }

  test("a second app with the same Babel configuration reuses the first's transforms of React Native", async () => {
    const first = makeApp();
    const second = makeApp();
    removals.push(first.remove, second.remove);
    const a = await open(first.root, ['./src/screens/LoginScreen']);
    const made = a.transformedFiles.filter(inReactNative);
    assert.ok(made.length > 50, `the first open transformed React Native's files (${made.length})`);
    const b = await open(second.root, ['./src/screens/LoginScreen']);
    // What the second transformed is its own files, none of the packages both apps share.
    assert.deepEqual(b.transformedFiles.filter((file) => !file.startsWith(b.root + path.sep)), []);
    const own = b.transformedFiles;
    assert.ok(own.length > 0 && own.length < 10, `its own files: ${own.join(', ')}`);
    assert.ok(b.hits >= made.length, `${b.hits} from the cache, ${made.length} of React Native's made by the first`);
  });

  test('apps each with their own copy of a package share its transforms: the same name, version and file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bridged-transform-cache-'));
    removals.push(() => rmSync(dir, { recursive: true, force: true }));
    const first = makeApp();
    const second = makeApp();
    removals.push(first.remove, second.remove);
    // openApp requires @react-native/js-polyfills/error-guard, a file it transforms.
    const guard = (made) => {
      ownCopy(made.root, '@react-native/js-polyfills');
      return path.join(realpathSync(made.root), 'node_modules', '@react-native', 'js-polyfills', 'error-guard.js');
    };
    const [firstGuard, secondGuard] = [guard(first), guard(second)];
    const a = await open(first.root, [], dir);
    assert.ok(a.transformedFiles.includes(firstGuard), a.transformedFiles.join('\n'));
    const b = await open(second.root, [], dir);
    assert.ok(!b.transformedFiles.includes(secondGuard), "the second app's copy was not transformed again");
    assert.ok(b.hits >= a.misses, `${b.hits} from the cache, ${a.misses} made by the first`);
  });

  /** Opens the app at `root`, requires `request` from its root (it may throw), closes it: `{ stats, error, root }`. */
  async function openRequiring(root, request) {
    const app = await openApp(bridge, { root, cache });
    try {
      let error;
      try {
        app.require(request);
      } catch (thrown) {
        error = thrown;
      }
      return { stats: app.transformCache.stats, error, root: app.root };
    } finally {
      await app.close();
    }
  }

  const expo = { skip: expoSkip };

  test('a module not found by code from the cache says the cache was involved, and how to clear it', expo, async () => {
    const first = expoPresetApp();
    const second = expoPresetApp();
    removals.push(first.remove, second.remove);
    const notFound = /Cannot find module 'react-native-vector-icons\/MaterialIcons'/;
    // Made by Babel just now: nothing to say about a cache.
    const a = await openRequiring(first.root, './src/Icon');
    assert.match(a.error?.message, notFound);
    assert.doesNotMatch(a.error.message, /transform cache/);
    // A second app on its own copy of the same preset has the same identity: only its own file is made.
    const b = await openRequiring(second.root, './src/Icon');
    assert.deepEqual(b.stats.transformedFiles, [path.join(b.root, 'src', 'Icon.js')]);
    assert.doesNotMatch(b.error?.message, /transform cache/);
    // Served from the cache: said, with the folder.
    const c = await openRequiring(second.root, './src/Icon');
    assert.equal(c.stats.transformed, 0);
    assert.match(c.error?.message, notFound);
    assert.match(c.error.message, /came from bridged's transform cache/);
    assert.ok(c.error.message.includes(`rm -rf ${cache}`), c.error.message);
    assert.match(c.error.message, /\{ cache: false \}/);
    assert.match(c.error.stack, /came from bridged's transform cache/, 'the stack a runner prints says it too');
  });

  test('a package the preset probes appearing in node_modules changes the key: files are made anew', expo, async () => {
    const app = expoPresetApp();
    removals.push(app.remove);
    const icon = path.join(realpathSync(app.root), 'src', 'Icon.js');
    const first = await openApp(bridge, { root: app.root, cache });
    try {
      assert.throws(() => first.require('./src/Icon'), /Cannot find module 'react-native-vector-icons\/MaterialIcons'/);
    } finally {
      await first.close();
    }
    // Installed as a user installs a package: then the tests run again, in a new process (Node keeps, for the life
    // of a process, that a package it looked for was not there: babel-preset-expo would not find it in this one).
    app.installVectorIcons();
    const after = openInChild(daemon.socket, app.root, cache, './src/Icon');
    assert.equal(after.error, undefined);
    assert.match(after.exports.default, /@expo[\\/]vector-icons[\\/]MaterialIcons\.js$/);
    assert.ok(after.transformedFiles.includes(icon), 'Icon.js was transformed again');
    assert.ok(after.transformedFiles.some(inReactNative), "so was React Native: the preset's identity changed");
  });
});
