// The example app (src/App.jsx, JSX through Debian's Babel 7) rendered by React Native's own renderer into a
// real bridged daemon: live when $BRIDGED_RN_RENDERER (paper) or $BRIDGED_RN_FABRIC_RENDERER (Fabric) names the
// renderer file, and always from the recorded traces (test/app.trace.json, test/app.fabric.trace.json), with the
// same checks of the native side. It uses only the client's public API ('bridged-client', installed in
// node_modules: `make test-example` links it there, an app installs it), as an app's own test would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connect } from 'bridged-client';
import { attachReactNative, playFabricTrace, playTrace } from 'bridged-client/react-native';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const RENDERER = process.env.BRIDGED_RN_RENDERER;
const FABRIC_RENDERER = process.env.BRIDGED_RN_FABRIC_RENDERER;
/** The daemon: $BRIDGED_BIN, else `bridged` on PATH. */
const BRIDGED = process.env.BRIDGED_BIN ?? 'bridged';
const require = createRequire(import.meta.url);
/** Where the app's module `id` is: its own (node_modules, NODE_PATH), else Debian's (/usr/share/nodejs). */
function resolve(id) {
  try {
    return require.resolve(id);
  } catch {
    return require.resolve(join('/usr/share/nodejs', id));
  }
}
const load = (id) => require(resolve(id));
const React = load('react');
const scheduler = load('scheduler');
const h = React.createElement;

/** src/App.jsx compiled by Babel (@babel/preset-react) into .build/App.mjs, and imported. */
async function compileApp() {
  const babel = load('@babel/core');
  const preset = resolve('@babel/preset-react');
  const { code } = babel.transformFileSync(here('../src/App.jsx'), { presets: [[preset, { runtime: 'classic' }]], babelrc: false, configFile: false });
  mkdirSync(here('../.build'), { recursive: true });
  writeFileSync(here('../.build/App.mjs'), code);
  return import(pathToFileURL(here('../.build/App.mjs')).href);
}

/** The daemon's view `tag` and its subtree: {tag, component, props, render, children}. */
async function tree(bridge, tag) {
  const view = await bridge.request({ op: 'inspect', tag });
  const children = [];
  for (const child of view.children) children.push(await tree(bridge, child));
  return { tag, component: view.component, props: view.props, render: view.render, children };
}

/** The first node of a tree with this testID. */
function find(node, testID) {
  if (node.props.testID === testID) return node;
  for (const child of node.children) {
    const found = find(child, testID);
    if (found) return found;
  }
  return undefined;
}

const counter = async (bridge, root, label) => find(await tree(bridge, root), `counter-${label}`);

/**
 * Renders the app live, recording the trace and checking the daemon at each checkpoint; the trace must equal the
 * committed one (BRIDGED_RN_UPDATE_TRACES=1, or none committed yet, writes it).
 */
async function live(bridge, options, traceFile) {
  const trace = [];
  const rn = await attachReactNative(bridge, { ...options, react: React, scheduler, trace });
  let root;
  const context = {
    rn,
    React,
    h,
    bridge,
    render: async (element) => (root = await rn.render(element)),
    checkpoint: async (name) => {
      await rn.settled();
      trace.push({ checkpoint: name });
      await scenario.checks[name]({ bridge, root: () => root.tag });
    },
  };
  await scenario.live(context);
  await rn.detach();
  const steps = JSON.parse(JSON.stringify(trace));
  if (!existsSync(traceFile) || process.env.BRIDGED_RN_UPDATE_TRACES === '1') {
    writeFileSync(traceFile, JSON.stringify({ what: `the example app rendered by ${options.renderer}`, steps }, null, 1) + '\n');
  } else {
    assert.deepEqual(steps, JSON.parse(readFileSync(traceFile, 'utf8')).steps, `the live run no longer produces ${traceFile}`);
  }
}

/** Plays a committed trace into the daemon with the same checks, without React Native's renderer. */
async function recorded(bridge, play, traceFile) {
  assert.ok(existsSync(traceFile), `no recorded trace ${traceFile}: run the live test with a renderer named`);
  const { steps } = JSON.parse(readFileSync(traceFile, 'utf8'));
  const rootTag = steps.find((step) => 'root' in step).root;
  let root;
  await play(bridge, steps, {
    onCheckpoint: (name, native) => scenario.checks[name]({ bridge, root: () => (root ??= native.daemonTag(rootTag)) }),
  });
}

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
    const root = await render(h(App));
    await checkpoint('mounted');
    // Tap "Likes" twice, as a user would: the native button asks for count + 1, the component's state follows.
    const likes = (await counter(bridge, root.tag, 'Likes')).children[2].tag;
    await rn.native({ op: 'command', tag: likes, name: 'press' });
    await rn.settled();
    await rn.native({ op: 'command', tag: likes, name: 'press' });
    await rn.settled();
    await checkpoint('liked twice');
    const draft = find(await tree(bridge, root.tag), 'draft').tag;
    await rn.native({ op: 'command', tag: draft, name: 'type', args: ['Ship it'] });
    await rn.settled();
    await rn.native({ op: 'command', tag: draft, name: 'submit' });
    await rn.settled();
    await checkpoint('added a todo');
  },
  checks: {
    async mounted({ bridge, root }) {
      const app = find(await tree(bridge, root()), 'app');
      assert.equal(app.props.backgroundColor, '#f5f5f5ff');
      const likes = await counter(bridge, root(), 'Likes');
      assert.deepEqual(likes.children.map((c) => c.render), ['Likes: ', 'never pressed', 'Button "Likes" count=0']);
      assert.deepEqual(find(app, 'todos').children.slice(1).map((c) => c.render), ['1. Write the spec', '2. Render it headless']);
    },
    async 'liked twice'({ bridge, root }) {
      const likes = await counter(bridge, root(), 'Likes');
      assert.deepEqual(likes.children.map((c) => c.render), ['Likes: ', 'pressed 2 times', 'Button "Likes" count=2']);
      assert.equal((await counter(bridge, root(), 'Shares')).children[1].render, 'never pressed');
    },
    async 'added a todo'({ bridge, root }) {
      const todos = find(await tree(bridge, root()), 'todos');
      assert.equal(todos.children[0].props.text, '');
      assert.deepEqual(todos.children.slice(1).map((c) => c.render), ['1. Write the spec', '2. Render it headless', '3. Ship it']);
    },
  },
};

const dir = mkdtempSync(join(tmpdir(), 'rn-app-'));
const socket = join(dir, 'b.sock');
let daemon;
before(async () => {
  daemon = spawn(BRIDGED, ['--socket', socket], { stdio: 'ignore' });
  for (let attempt = 0; ; attempt++) {
    try {
      await (await connect({ socket })).close({ keepSession: true });
      return;
    } catch (err) {
      if (attempt > 400 || daemon.exitCode !== null) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
});
after(async () => {
  // The daemon saves its state file beside its socket as it exits: the folder goes once it has.
  if (daemon.exitCode === null && daemon.signalCode === null) {
    const exited = once(daemon, 'exit');
    daemon.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

for (const { name, env, renderer, architecture, play, file } of [
  { name: 'paper', env: 'BRIDGED_RN_RENDERER', renderer: RENDERER, architecture: 'paper', play: playTrace, file: here('app.trace.json') },
  { name: 'Fabric', env: 'BRIDGED_RN_FABRIC_RENDERER', renderer: FABRIC_RENDERER, architecture: 'fabric', play: playFabricTrace, file: here('app.fabric.trace.json') },
]) {
  test(`the example app, live with React Native's ${name} renderer`, { skip: !renderer && `${env} names no renderer` }, async () => {
    const bridge = await connect({ socket });
    try {
      await live(bridge, { renderer, architecture }, file);
    } finally {
      await bridge.close();
    }
  });

  test(`the example app (${name}), from its recorded trace`, async () => {
    const bridge = await connect({ socket });
    try {
      await recorded(bridge, play, file);
    } finally {
      await bridge.close();
    }
  });
}
