// lib/jest/transform-keys.cjs: the names of jest's transform cache files kept between runs for babel-jest's modules.
// A name is given back only for what babel-jest's own key would be the same for: a change to the module, jest's
// config, the transform's options, the transformer, a Babel config the module is under, or the environment is a key
// not seen yet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const { TransformKeys } = createRequire(import.meta.url)('../lib/jest/transform-keys.cjs');

/** An app: its root config, a package under node_modules, a source folder; removed after `run`. */
function withApp(run) {
  const root = mkdtempSync(path.join(tmpdir(), 'bridged-transform-keys-'));
  try {
    writeFileSync(path.join(root, 'package.json'), '{"name":"app"}');
    writeFileSync(path.join(root, 'babel.config.js'), "module.exports = { presets: ['module:metro-react-native-babel-preset'] };\n");
    mkdirSync(path.join(root, 'src', 'screens'), { recursive: true });
    mkdirSync(path.join(root, 'node_modules', 'lib', 'src'), { recursive: true });
    writeFileSync(path.join(root, 'node_modules', 'lib', 'package.json'), '{"name":"lib"}');
    const transformerPath = path.join(root, 'babel-jest.js');
    writeFileSync(transformerPath, '// babel-jest');
    return run({ root, transformerPath });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('a key is the same for the same module, config, options, transformer, Babel configs and environment, and differs when any changes', () => {
  withApp(({ root, transformerPath }) => {
    const module = { filename: path.join(root, 'src', 'screens', 'Home.js'), content: 'export default 1;', options: { instrument: false }, configString: '{"id":"p"}', rootDir: root, cwd: root, transformerPath };
    // A new TransformKeys for each question, as a new run is: one process keeps what it read of the folders.
    const key = (changes = {}) => new TransformKeys(path.join(root, 'keys.json')).keyOf({ ...module, ...changes });
    const first = key();
    assert.equal(key(), first);
    assert.notEqual(key({ content: 'export default 2;' }), first);
    assert.notEqual(key({ filename: path.join(root, 'src', 'Home.js') }), first);
    assert.notEqual(key({ options: { instrument: true } }), first);
    assert.notEqual(key({ configString: '{"id":"q"}' }), first);
    writeFileSync(transformerPath, '// babel-jest, another version');
    const transformer = key();
    assert.notEqual(transformer, first);
    // The root's config.
    writeFileSync(path.join(root, 'babel.config.js'), "module.exports = { presets: ['module:metro-react-native-babel-preset'], plugins: ['x'] };\n");
    const rootConfig = key();
    assert.notEqual(rootConfig, transformer);
    // A file-relative config between the module and its package's root, and one of the root's package.json.
    writeFileSync(path.join(root, 'src', '.babelrc'), '{"plugins":["y"]}');
    const relative = key();
    assert.notEqual(relative, rootConfig);
    writeFileSync(path.join(root, 'src', 'screens', '.babelrc.js'), 'module.exports = {};');
    const nearer = key();
    assert.notEqual(nearer, relative);
    writeFileSync(path.join(root, 'package.json'), '{"name":"app","babel":{"plugins":["z"]}}');
    assert.notEqual(key(), nearer);
    // A module of a package under node_modules: its own package.json is its package's root, the app's folders above are not looked at.
    const inPackage = { filename: path.join(root, 'node_modules', 'lib', 'src', 'index.js') };
    const packaged = key(inPackage);
    writeFileSync(path.join(root, 'src', '.babelrc'), '{"plugins":["w"]}');
    assert.equal(key(inPackage), packaged);
    writeFileSync(path.join(root, 'node_modules', 'lib', '.babelrc'), '{}');
    assert.notEqual(key(inPackage), packaged);
  });
});

test("the environment's variables are part of a key, but for those that change from one command or run to the next", () => {
  withApp(({ root, transformerPath }) => {
    const module = { filename: path.join(root, 'src', 'App.js'), content: 'x', options: {}, configString: '{}', rootDir: root, cwd: root, transformerPath };
    const key = () => new TransformKeys(path.join(root, 'keys.json')).keyOf(module);
    const saved = { ...process.env };
    try {
      const first = key();
      process.env.BABEL_ENV = 'storybook';
      const babelEnv = key();
      assert.notEqual(babelEnv, first);
      process.env.APP_VARIANT = 'e2e';
      const variant = key();
      assert.notEqual(variant, babelEnv);
      process.env.BRIDGED_JEST_SOCKET = '/tmp/bridged-jest-1/socket';
      process.env.JEST_WORKER_ID = '3';
      process.env._ = '/usr/bin/jest';
      assert.equal(key(), variant);
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});

test("names are written when a process added some, merged with another process's, bounded, and a damaged file is a fresh start", () => {
  withApp(({ root }) => {
    const file = path.join(root, 'cache', 'bridged-transform-keys', 'p.json');
    const one = new TransformKeys(file);
    assert.equal(one.get('a'), undefined);
    one.set('a', '/cache/a');
    one.save();
    const two = new TransformKeys(file);
    assert.equal(two.get('a'), '/cache/a');
    // Another process (a worker) wrote meanwhile: both its names and this one's are kept.
    const other = new TransformKeys(file);
    other.set('b', '/cache/b');
    two.set('c', '/cache/c');
    other.save();
    two.save();
    const three = new TransformKeys(file);
    assert.deepEqual(['a', 'b', 'c'].map((key) => three.get(key)), ['/cache/a', '/cache/b', '/cache/c']);
    // Past its bound, the file starts over with the newest half of this process's names.
    const small = new TransformKeys(file, { maxEntries: 4 });
    for (const key of ['d', 'e', 'f', 'g']) small.set(key, `/cache/${key}`);
    small.save();
    const bounded = new TransformKeys(file);
    assert.ok(bounded.size <= 4, `${bounded.size} names`);
    assert.equal(bounded.get('g'), '/cache/g');
    assert.equal(bounded.get('a'), undefined);
    writeFileSync(file, '{not json');
    const damaged = new TransformKeys(file);
    assert.equal(damaged.size, 0);
    damaged.set('h', '/cache/h');
    damaged.save();
    assert.equal(new TransformKeys(file).get('h'), '/cache/h');
  });
});
