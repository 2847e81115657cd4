// The example app (src/App.jsx, JSX through Debian's Babel 7) rendered by React Native's own renderer into a
// real bridged daemon: live when $BRIDGED_RN_RENDERER names ReactNativeRenderer-dev.js, and always from its
// recorded trace (test/app.trace.json), with the same checks of the native side.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connect } from '../../../js-client/index.js';
import { attachReactNative, playFabricTrace, playTrace } from '../../../js-client/lib/react-native.js';
import { startDaemon } from '../../../js-client/test-support/daemon.js';
import { byTestID, checkTrace, find, loadReact, readTrace, runLive, runRecorded, tree } from '../../../js-client/test-support/react-native.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const RENDERER = process.env.BRIDGED_RN_RENDERER;
const FABRIC_RENDERER = process.env.BRIDGED_RN_FABRIC_RENDERER;
const react = loadReact();

/** src/App.jsx compiled by Babel (@babel/preset-react) into .build/App.mjs, and imported. */
async function compileApp() {
  const require = createRequire(import.meta.url);
  const babel = require(require.resolve('@babel/core', { paths: [here('.'), '/usr/share/nodejs'] }));
  const preset = require.resolve('@babel/preset-react', { paths: [here('.'), '/usr/share/nodejs'] });
  const { code } = babel.transformFileSync(here('../src/App.jsx'), { presets: [[preset, { runtime: 'classic' }]], babelrc: false, configFile: false });
  mkdirSync(here('../.build'), { recursive: true });
  writeFileSync(here('../.build/App.mjs'), code);
  return import(pathToFileURL(here('../.build/App.mjs')).href);
}

const counter = async (bridge, root, label) => find(await tree(bridge, root), byTestID(`counter-${label}`));

const scenario = {
  name: 'example-app',
  async live({ rn, React, h, bridge, render, checkpoint }) {
    const { createApp } = await compileApp();
    const App = createApp({
      React,
      View: rn.View,
      Text: rn.Text,
      SwiftUIButton: rn.requireNativeComponent('SwiftUIButton'),
      TextField: rn.requireNativeComponent('TextField'),
    });
    await render(h(App));
    await checkpoint('mounted');
    // Tap "Likes" twice, as a user would: the native button asks for count + 1, the component's state follows.
    const likes = (await counter(bridge, await firstRoot(bridge), 'Likes')).children[2].tag;
    await rn.native({ op: 'command', tag: likes, name: 'press' });
    await rn.settled();
    await rn.native({ op: 'command', tag: likes, name: 'press' });
    await rn.settled();
    await checkpoint('liked twice');
    const draft = find(await tree(bridge, await firstRoot(bridge)), byTestID('draft')).tag;
    await rn.native({ op: 'command', tag: draft, name: 'type', args: ['Ship it'] });
    await rn.settled();
    await rn.native({ op: 'command', tag: draft, name: 'submit' });
    await rn.settled();
    await checkpoint('added a todo');
  },
  checks: {
    async mounted({ bridge, root }) {
      const app = find(await tree(bridge, root()), byTestID('app'));
      assert.equal(app.props.backgroundColor, '#f5f5f5ff');
      const likes = await counter(bridge, root(), 'Likes');
      assert.deepEqual(likes.children.map((c) => c.render), ['Likes: ', 'never pressed', 'Button "Likes" count=0']);
      assert.deepEqual(find(app, byTestID('todos')).children.slice(1).map((c) => c.render), ['1. Write the spec', '2. Render it headless']);
    },
    async 'liked twice'({ bridge, root }) {
      const likes = await counter(bridge, root(), 'Likes');
      assert.deepEqual(likes.children.map((c) => c.render), ['Likes: ', 'pressed 2 times', 'Button "Likes" count=2']);
      assert.equal((await counter(bridge, root(), 'Shares')).children[1].render, 'never pressed');
    },
    async 'added a todo'({ bridge, root }) {
      const todos = find(await tree(bridge, root()), byTestID('todos'));
      assert.equal(todos.children[0].props.text, '');
      assert.deepEqual(todos.children.slice(1).map((c) => c.render), ['1. Write the spec', '2. Render it headless', '3. Ship it']);
    },
  },
};

/** The tag of this session's first root: the view without a parent made first. */
async function firstRoot(bridge) {
  for (let tag = 1; ; tag++) {
    const view = await bridge.request({ op: 'inspect', tag }).catch(() => null);
    if (view && view.parent === null && view.component === 'RCTView') return tag;
  }
}

let daemon;
before(async () => {
  daemon = await startDaemon();
});
after(() => daemon?.stop());

test('the example app, live with React Native\'s renderer', { skip: !RENDERER ? 'BRIDGED_RN_RENDERER names no renderer' : !react && 'no React' }, async () => {
  const bridge = await connect({ socket: daemon.socket });
  try {
    const steps = await runLive(scenario, { bridge, attachReactNative, ...react, renderer: RENDERER });
    checkTrace(here('app.trace.json'), steps, { renderer: RENDERER, scenario: scenario.name });
  } finally {
    await bridge.close();
  }
});

test('the example app, from its recorded trace', async () => {
  const steps = readTrace(here('app.trace.json'));
  assert.ok(steps, 'no recorded trace: run the live test with BRIDGED_RN_RENDERER');
  const bridge = await connect({ socket: daemon.socket });
  try {
    await runRecorded(scenario, steps, { bridge, playTrace });
  } finally {
    await bridge.close();
  }
});

// The same app with React Native's new renderer, Fabric (ReactFabric-dev.js, $BRIDGED_RN_FABRIC_RENDERER).
const attachFabric = (bridge, options) => attachReactNative(bridge, { ...options, architecture: 'fabric' });

test("the example app, live with React Native's Fabric renderer", { skip: !FABRIC_RENDERER ? 'BRIDGED_RN_FABRIC_RENDERER names no renderer' : !react && 'no React' }, async () => {
  const bridge = await connect({ socket: daemon.socket });
  try {
    const steps = await runLive(scenario, { bridge, attachReactNative: attachFabric, ...react, renderer: FABRIC_RENDERER });
    checkTrace(here('app.fabric.trace.json'), steps, { renderer: FABRIC_RENDERER, scenario: scenario.name });
  } finally {
    await bridge.close();
  }
});

test('the example app with Fabric, from its recorded trace', async () => {
  const steps = readTrace(here('app.fabric.trace.json'));
  assert.ok(steps, 'no recorded trace: run the live test with BRIDGED_RN_FABRIC_RENDERER');
  const bridge = await connect({ socket: daemon.socket });
  try {
    await runRecorded(scenario, steps, { bridge, playTrace: playFabricTrace });
  } finally {
    await bridge.close();
  }
});
