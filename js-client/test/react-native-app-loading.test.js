// How openApp loads an app: resolution for iOS, the app's Babel or Debian's, the transform cache, assets, the
// globals and the require hook it sets and removes. Against React Native 0.72.6's packages from the shared test
// data (skipped, naming the folder, where it is absent).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '../index.js';
import { openApp } from '../lib/react-native.js';
import { APP_GLOBALS } from '../lib/react-native/app/globals.js';
import { execFileSync } from 'node:child_process';
import { BRIDGED_BIN, startDaemon } from '../test-support/daemon.js';
import { SHARED_NODE_MODULES, TEST_CACHE, appSkip, makeApp } from '../test-support/react-native-app.js';

const debianBabel = existsSync('/usr/share/nodejs/@babel/core/package.json');

describe('openApp: loading an app', { skip: appSkip }, () => {
  let daemon;
  let bridge;
  const layouts = [];
  const layout = () => {
    const made = makeApp();
    layouts.push(made);
    return made;
  };

  before(async () => {
    daemon = await startDaemon();
    bridge = await connect({ socket: daemon.socket });
  });

  after(async () => {
    await bridge?.close();
    await daemon?.stop();
    for (const made of layouts) made.remove();
  });

  test("app.close() is the app's end: a vibration it left repeating stops (its timers would keep Node alive)", async () => {
    const { root } = layout();
    const app = await openApp(bridge, { root, cache: TEST_CACHE });
    const Vibration = app.require('react-native/Libraries/Vibration/Vibration');
    const cancel = Vibration.cancel;
    let cancelled = 0;
    Vibration.cancel = function () {
      cancelled++;
      return cancel.apply(this, arguments);
    };
    try {
      // On iOS React Native repeats the pattern with timers of its own until Vibration.cancel().
      Vibration.vibrate([0, 100, 200], true);
    } finally {
      await app.close();
      Vibration.cancel = cancel;
    }
    assert.equal(cancelled, 1);
  });

  test("colorScheme is the phone's appearance: Appearance answers it until the app overrides it, and null gives it back", async () => {
    const { root } = layout();
    await assert.rejects(openApp(bridge, { root, cache: TEST_CACHE, colorScheme: 'sepia' }), /colorScheme 'sepia' is not 'light' or 'dark'/);
    const app = await openApp(bridge, { root, cache: TEST_CACHE, colorScheme: 'dark' });
    try {
      assert.equal(app.colorScheme, 'dark');
      const { Appearance } = app.require('react-native');
      const heard = [];
      const subscription = Appearance.addChangeListener(({ colorScheme }) => heard.push(colorScheme));
      assert.equal(Appearance.getColorScheme(), 'dark');
      Appearance.setColorScheme('light');
      await app.settled();
      assert.equal(Appearance.getColorScheme(), 'light');
      Appearance.setColorScheme(null);
      await app.settled();
      assert.equal(Appearance.getColorScheme(), 'dark');
      Appearance.setColorScheme('dark');
      await app.settled();
      assert.deepEqual(heard, ['light', 'dark'], 'an override that changes nothing sends no appearanceChanged');
      subscription.remove();
    } finally {
      await app.close();
    }
  });

  test('resolves Foo.ios.js before Foo.native.js before Foo.js, and a package by its entry', async () => {
    const { root } = layout();
    mkdirSync(path.join(root, 'src', 'platform'), { recursive: true });
    for (const [file, value] of [['Thing.ios.js', 'ios'], ['Thing.native.js', 'native'], ['Thing.js', 'plain'], ['Other.native.js', 'native'], ['Other.js', 'plain']]) {
      writeFileSync(path.join(root, 'src', 'platform', file), `export default '${value}';\n`);
    }
    const app = await openApp(bridge, { root, cache: TEST_CACHE });
    try {
      assert.equal(app.require('./src/platform/Thing').default, 'ios');
      assert.equal(app.require('./src/platform/Other').default, 'native');
      assert.equal(path.basename(app.resolve('./src/platform/Thing')), 'Thing.ios.js');
      assert.match(app.resolve('react-native'), /react-native[\\/]index\.js$/);
      assert.match(app.transformer, /the app's Babel 7\.\d+\.\d+ with babel\.config\.js/);
      const { Platform } = app.require('react-native');
      assert.equal(Platform.OS, 'ios');
      assert.throws(() => app.require('./src/nowhere'), /Cannot find module '\.\/src\/nowhere' from the app's root/);
    } finally {
      await app.close();
    }
  });

  test("paper's renderer file is made linear in moved siblings (a host view's children are a RendererChildren), and loads untouched with rendererAsShipped", async () => {
    const { root } = layout();
    for (const rendererAsShipped of [false, true]) {
      const app = await openApp(bridge, { root, cache: TEST_CACHE, rendererAsShipped });
      try {
        const React = app.require('react');
        const { View } = app.require('react-native');
        const ref = React.createRef();
        const screen = await app.render(React.createElement(View, { ref }, React.createElement(View), React.createElement(View)));
        // The host instance paper's renderer made: its child list is the renderer's own field.
        const children = ref.current._children;
        assert.equal(children.length, 2);
        assert.equal(Array.isArray(children), rendererAsShipped, `rendererAsShipped: ${rendererAsShipped}`);
        await screen.unmount();
      } finally {
        await app.close();
      }
    }
  });

  test('transforms are cached by content: a second open of the same app transforms nothing', async () => {
    const { root } = layout();
    const cache = mkdtempSync(path.join(tmpdir(), 'bridged-cache-'));
    try {
      const first = await openApp(bridge, { root, cache });
      first.require('./src/screens/LoginScreen');
      const cold = { hits: first.transformCache.hits, misses: first.transformCache.misses };
      await first.close();
      const second = await openApp(bridge, { root, cache });
      second.require('./src/screens/LoginScreen');
      const warm = { hits: second.transformCache.hits, misses: second.transformCache.misses };
      await second.close();
      assert.ok(cold.misses > 50, `the first open transformed React Native's files (${cold.misses})`);
      assert.equal(warm.misses, 0);
      assert.equal(warm.hits, cold.hits + cold.misses);
      assert.ok(readdirSync(cache).length > 0);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  test('an image is the asset Metro registers: its file as the URI, its size from the header', async () => {
    const { root } = layout();
    const app = await openApp(bridge, { root, cache: TEST_CACHE });
    try {
      const id = app.require('./assets/logo.png');
      assert.equal(typeof id, 'number');
      const { Image } = app.require('react-native');
      const source = Image.resolveAssetSource(id);
      assert.equal(source.uri, `file://${path.join(app.root, 'assets', 'logo.png')}`);
      assert.equal(source.width, 64);
      assert.equal(source.height, 48);
      const [width, height] = await app.require('react-native/Libraries/Image/NativeImageLoaderIOS').default.getSize(source.uri);
      assert.deepEqual([width, height], [64, 48]);
    } finally {
      await app.close();
    }
  });

  test("a native package the app's dependencies need but its package.json does not list is served from its spec, with a warning", async (t) => {
    const { root } = layout();
    // What a navigator needs (react-native-screens, -safe-area-context) left out: a device build would not link them.
    const manifest = { name: 'undeclared', version: '1.0.0', dependencies: { react: '18.2.0', 'react-native': '0.72.6', '@react-navigation/native': '6', '@react-navigation/native-stack': '6' } };
    writeFileSync(path.join(root, 'package.json'), JSON.stringify(manifest));
    const warn = t.mock.method(console, 'warn', () => {});
    const app = await openApp(bridge, { root, cache: TEST_CACHE });
    try {
      const screens = app.specPackages.find((p) => p.name === 'react-native-screens');
      assert.deepEqual({ ...screens, files: screens.files > 0 }, { name: 'react-native-screens', files: true, undeclared: true, neededBy: '@react-navigation/native-stack' });
      const warnings = warn.mock.calls.map((c) => String(c.arguments[0]));
      assert.ok(warnings.some((w) => /^openApp: react-native-screens \(needed by @react-navigation\/native-stack\) is not in the app's package.json/.test(w)), warnings.join('\n'));
      assert.ok(warnings.some((w) => /^openApp: react-native-safe-area-context \(needed by /.test(w)), warnings.join('\n'));
      // Typed from their specs, the navigator renders (the safe-area provider tells its insets) and navigates.
      const s = await app.render(app.require('react').createElement(app.require('./src/screens/NavigationApp').default));
      await app.press(s.getByText('Go to details'));
      assert.ok(s.getByText('Details of 7'));
      assert.deepEqual(app.untypedComponents(), []);
      await s.unmount();
    } finally {
      await app.close();
    }
  });

  test('close() removes the globals and the require hook; one app is open at a time; a second loads anew', async () => {
    const before = Object.fromEntries(APP_GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
    const resolveFilename = Module._resolveFilename;
    const jsLoader = Module._extensions['.js'];
    const { root } = layout();
    const app = await openApp(bridge, { root, cache: TEST_CACHE });
    assert.equal(globalThis.__DEV__, true);
    assert.equal(typeof globalThis.requestAnimationFrame, 'function');
    assert.equal(typeof globalThis.ErrorUtils?.setGlobalHandler, 'function');
    assert.notEqual(Module._resolveFilename, resolveFilename);
    await assert.rejects(openApp(bridge, { root, cache: TEST_CACHE }), /another app is open in this process/);
    const first = app.require('./src/log');
    await app.close();
    for (const name of APP_GLOBALS) assert.deepEqual(Object.getOwnPropertyDescriptor(globalThis, name), before[name], name);
    assert.equal(Module._resolveFilename, resolveFilename);
    assert.equal(Module._extensions['.js'], jsLoader);
    assert.equal(Module._extensions['.png'], undefined);
    // Babel keeps the configuration it loaded (babel.config.js) in its own cache; the app's modules all go.
    const kept = Object.keys(Module._cache).filter((file) => file.startsWith(app.root) && path.basename(file) !== 'babel.config.js');
    assert.deepEqual(kept, [], 'no module of the app stays in Node’s cache');
    assert.throws(() => app.require('react'), /closed/);

    const again = await openApp(bridge, { root, cache: TEST_CACHE });
    try {
      assert.notEqual(again.require('./src/log'), first, 'the app’s modules are loaded anew');
    } finally {
      await again.close();
    }
  });

  test("with no Babel of its own, an app's files go through Debian's Babel 7 (Flow, JSX without import React)", { skip: !debianBabel && 'no Debian Babel 7 (node-babel7) in /usr/share/nodejs' }, async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'bridged-app-nobabel-'));
    layouts.push({ remove: () => rmSync(root, { recursive: true, force: true }) });
    mkdirSync(path.join(root, 'node_modules'));
    mkdirSync(path.join(root, 'src'));
    for (const entry of readdirSync(SHARED_NODE_MODULES)) {
      if (['@babel', 'metro-react-native-babel-preset', 'babel-preset-expo', '.bin'].includes(entry)) continue;
      symlinkSync(path.join(SHARED_NODE_MODULES, entry), path.join(root, 'node_modules', entry));
    }
    writeFileSync(path.join(root, 'package.json'), '{"name":"no-babel","version":"1.0.0"}\n');
    writeFileSync(
      path.join(root, 'src', 'Hello.js'),
      [
        '// @flow',
        "import {useState} from 'react';",
        "import {Pressable, Text} from 'react-native';",
        'type Props = {|name: string|};',
        'export default function Hello({name}: Props): React.Node {',
        '  const [count, setCount] = useState<number>(0);',
        '  return <Pressable onPress={() => setCount(c => c + 1)}><Text>Hello {name} {count}</Text></Pressable>;',
        '}',
        '',
      ].join('\n'),
    );
    const app = await openApp(bridge, { root, cache: TEST_CACHE });
    try {
      assert.match(app.transformer, /^Debian's Babel 7/);
      const React = app.require('react');
      const screen = await app.render(React.createElement(app.require('./src/Hello').default, { name: 'ana' }));
      await app.press(screen.getByText('Hello ana 0'));
      assert.ok(screen.getByText('Hello ana 1'));
      await screen.unmount();
    } finally {
      await app.close();
    }
  });
});

describe('a session openApp drove, recorded by the daemon', { skip: appSkip }, () => {
  test('replays with `bridged replay`, without JavaScript', async () => {
    const recordings = mkdtempSync(path.join(tmpdir(), 'bridged-recordings-'));
    const daemon = await startDaemon(['--record', recordings]);
    const made = makeApp();
    try {
      const bridge = await connect({ socket: daemon.socket });
      const app = await openApp(bridge, { root: made.root, cache: TEST_CACHE });
      const React = app.require('react');
      const screen = await app.render(React.createElement(app.require('./src/screens/LoginScreen').default));
      await app.type(screen.getByPlaceholderText('Enter text'), 'ana', { submit: true });
      await app.press(screen.getByText('Login'));
      assert.ok(screen.getByText('Welcome ana'));
      await screen.unmount();
      await app.close();
      await bridge.close();
      await daemon.stop();
      const files = readdirSync(recordings).filter((f) => f.endsWith('.jsonl'));
      assert.equal(files.length, 1);
      const out = execFileSync(BRIDGED_BIN, ['replay', path.join(recordings, files[0])], { encoding: 'utf8' });
      assert.match(out, /1 passed, 0 failed/);
    } finally {
      await daemon.stop().catch(() => {});
      made.remove();
      rmSync(recordings, { recursive: true, force: true });
    }
  });
});
