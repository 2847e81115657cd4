// Apps opened one after another on one bridge, each bringing its own version of a native package: the first app's
// react-native-screens is the shared one, the second's a copy whose RNSScreen spec has one prop more (as a newer
// version has). openApp defines each app's components from its specs; after the first app's close() no view of
// RNSScreen is left, so the session's own definition is described anew by the second app's `define`
// (protocol.md, "define"), and the second app renders its native stack with the new prop on its screens.
import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDaemon } from '../test-support/daemon.js';
import { SHARED_NODE_MODULES, TEST_CACHE, appSkip } from '../test-support/react-native-app.js';
import { connect } from '../index.js';
import { openApp } from '../lib/react-native.js';

const SPEC = path.join('src', 'fabric', 'ScreenNativeComponent.ts');
/** The spec's line the new prop goes after (the file has CRLF line ends). */
const ANCHOR = /^( *)sheetExpandsWhenScrolledToEdge\?: WithDefault<boolean, false>;(\r?\n)/m;
/** The prop the second app's react-native-screens adds to RNSScreen's spec. */
const NEW_PROP = 'sheetInitialDetent';

const FILES = {
  'babel.config.js': "module.exports = { presets: ['module:metro-react-native-babel-preset'] };\n",
  'src/App.js': `import React from 'react';
import {Text, View} from 'react-native';
import {NavigationContainer} from '@react-navigation/native';
import {createNativeStackNavigator} from '@react-navigation/native-stack';

const Stack = createNativeStackNavigator();

function Home({route}) {
  return (
    <View testID="home">
      <Text>{'Home of ' + route.params.app}</Text>
    </View>
  );
}

export default function App({name}) {
  return (
    <NavigationContainer>
      <Stack.Navigator>
        <Stack.Screen name="Home" component={Home} initialParams={{app: name}} />
      </Stack.Navigator>
    </NavigationContainer>
  );
}
`,
};

/**
 * An app in a temporary folder: its own files, and a node_modules linking every shared package; with
 * `newerScreens`, react-native-screens is a copy whose RNSScreen spec declares NEW_PROP too.
 */
function makeApp(name, { newerScreens = false } = {}) {
  const root = mkdtempSync(path.join(tmpdir(), `bridged-${name}-`));
  const dependencies = { react: '18.2.0', 'react-native': '0.72.6', 'react-native-screens': '3.22.1', 'react-native-safe-area-context': '4.6.3', '@react-navigation/native': '6.1.9', '@react-navigation/native-stack': '6.9.17' };
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, dependencies }, null, 2));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  if (!newerScreens) {
    symlinkSync(SHARED_NODE_MODULES, path.join(root, 'node_modules'));
  } else {
    mkdirSync(path.join(root, 'node_modules'));
    for (const entry of readdirSync(SHARED_NODE_MODULES)) {
      if (entry !== 'react-native-screens') symlinkSync(path.join(SHARED_NODE_MODULES, entry), path.join(root, 'node_modules', entry));
    }
    const screens = path.join(root, 'node_modules', 'react-native-screens');
    cpSync(path.join(SHARED_NODE_MODULES, 'react-native-screens'), screens, { recursive: true });
    writable(screens); // the shared data may be read-only: the copy is the test's, to edit and remove
    const spec = path.join(screens, SPEC);
    const text = readFileSync(spec, 'utf8');
    assert.match(text, ANCHOR, `${spec} has the line the new prop goes after`);
    writeFileSync(spec, text.replace(ANCHOR, (line, indent, end) => `${line}${indent}${NEW_PROP}?: WithDefault<Int32, 0>;${end}`));
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Gives the owner write permission on `dir` and everything in it. */
function writable(dir) {
  chmodSync(dir, statSync(dir).mode | 0o200);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) writable(full);
    else if (entry.isFile()) chmodSync(full, statSync(full).mode | 0o200);
  }
}

/** The views of `component` in a screen's tree (`screen.toJSON()`). */
function viewsOf(screen, component) {
  const found = [];
  const visit = (node) => {
    if (node.component === component) found.push(node);
    node.children.forEach(visit);
  };
  visit(screen.toJSON());
  return found;
}

for (const architecture of ['paper', 'fabric'])
describe(`openApp: two apps one after another on one bridge, with different react-native-screens (${architecture})`, { skip: appSkip }, () => {
  let daemon;
  let bridge;
  let older;
  let newer;
  before(async () => {
    daemon = await startDaemon();
    bridge = await connect({ socket: daemon.socket });
    older = makeApp('older-screens-app');
    newer = makeApp('newer-screens-app', { newerScreens: true });
  });
  after(async () => {
    await bridge?.close();
    await daemon?.stop();
    older?.remove();
    newer?.remove();
  });

  /**
   * Opens the app at `root`, renders its native stack, checks it, and closes it; what it found of RNSScreen. React's
   * warnings are collected: one app's contexts reaching the next app's renderer would say "multiple renderers".
   */
  async function run(root, name) {
    const app = await openApp(bridge, { root, cache: TEST_CACHE, architecture });
    const warnings = [];
    const error = console.error;
    console.error = (...args) => {
      warnings.push(String(args[0]));
      error(...args);
    };
    try {
      const React = app.require('react');
      const screen = await app.render(React.createElement(app.require('./src/App').default, { name }));
      assert.ok(screen.getByText(`Home of ${name}`));
      const [rnsScreen] = viewsOf(screen, 'RNSScreen');
      assert.ok(rnsScreen, 'the native stack mounted an RNSScreen');
      const inspected = await bridge.request({ op: 'inspect', tag: rnsScreen.tag });
      assert.deepEqual(app.unknownProps(), {}, 'every prop the app sent is declared by the session’s RNSScreen');
      const { components } = await bridge.request({ op: 'components' });
      await screen.unmount();
      assert.deepEqual(warnings.filter((w) => /multiple renderers/.test(w)), []);
      return { inspected, described: components.RNSScreen };
    } finally {
      console.error = error;
      await app.close();
    }
  }

  test('the second app opens after the first closed, its RNSScreen described by its own spec; then the first again', async () => {
    const first = await run(older.root, 'the older app');
    assert.equal(first.described.props[NEW_PROP], undefined, 'the shared react-native-screens has no such prop');
    assert.equal(Object.hasOwn(first.inspected.props, NEW_PROP), false);
    const { views } = await bridge.request({ op: 'observe', session: bridge.session });
    await bridge.request({ op: 'unobserve', session: bridge.session });
    assert.deepEqual(views, [], 'close() left no view in the session');
    assert.equal(globalThis.__react_navigation__elements_contexts, undefined, "nor React Navigation's contexts on the global");

    const second = await run(newer.root, 'the newer app');
    assert.deepEqual(second.described.props[NEW_PROP], { type: 'int32', default: 0 });
    assert.equal(second.inspected.props[NEW_PROP], 0, "the second app's screen has the new prop, at its default");

    // The older version again, as a suite that opens its apps in turn does.
    const third = await run(older.root, 'the older app');
    assert.deepEqual(third.described, first.described);
  });

  test('while a view of RNSScreen is on screen, another version is refused, naming the view', async () => {
    const app = await openApp(bridge, { root: older.root, cache: TEST_CACHE, architecture });
    try {
      const React = app.require('react');
      const screen = await app.render(React.createElement(app.require('./src/App').default, { name: 'the older app' }));
      const tags = viewsOf(screen, 'RNSScreen').map((v) => v.tag).sort((a, b) => a - b);
      assert.ok(tags.length > 0);
      // Another description of RNSScreen (untyped) while the app's screen is mounted.
      await assert.rejects(
        bridge.request({ op: 'define', untyped: ['RNSScreen'] }),
        (error) => {
          assert.equal(error.code, 'invalid_schema');
          assert.match(error.message, /component 'RNSScreen' is already registered \(defined earlier in this session\) and described differently/);
          assert.match(error.message, new RegExp(`\\(tags? ${tags.join(', ')}\\)`));
          return true;
        },
      );
      await screen.unmount();
    } finally {
      await app.close();
    }
  });
});
