// React Native's Fabric renderer (ReactFabric-dev.js) rendering into a real daemon through the attachment's
// nativeFabricUIManager. The paper attachment's scenarios, live when $BRIDGED_RN_FABRIC_RENDERER names the
// renderer file (the trace of its nativeFabricUIManager calls must equal the committed one), and recorded,
// always: each committed trace played through createFabricUIManager into a real daemon, with the same checks.
// Then the diff's own rules, with calls made as the renderer makes them (no renderer needed) and live.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../index.js';
import { appArchitecture, attachReactNative, createFabricUIManager, NativeSide, playFabricTrace } from '../lib/react-native.js';
import { startDaemon } from '../test-support/daemon.js';
import { assertFailedFirstRenderLeavesNothing, assertRecordingReplays, byTestID, find, loadReact, readTrace, scenarioTests, tree } from '../test-support/react-native.js';
import { scenarios, schemaScenarios } from '../test-support/react-native-scenarios.js';

const RENDERER = process.env.BRIDGED_RN_FABRIC_RENDERER;
const react = loadReact();
const SCHEMA = fileURLToPath(new URL('../../Tests/Schemas/all-annotations.json', import.meta.url));
const traceFile = (name) => fileURLToPath(new URL(`./react-native/traces/fabric-${name}.json`, import.meta.url));
const liveSkip = !RENDERER ? 'BRIDGED_RN_FABRIC_RENDERER names no React Native Fabric renderer' : !react ? 'no React (node-react)' : false;

const attachFabric = (bridge, options) => attachReactNative(bridge, { ...options, architecture: 'fabric' });

/** Scenarios of Fabric's own: what it does with clones that paper does with updates. */
const fabricScenarios = [
  {
    name: 'suspense',
    // A Suspense boundary whose content suspends again: Fabric hides the content with a clone whose style is
    // display: none (cloneHiddenInstance) and shows the fallback beside it; once resolved, the content is shown again.
    async live({ rn, React, h, render, checkpoint }) {
      const { View, Text } = rn;
      let pending = null;
      let resolve;
      const Slow = () => {
        if (pending) throw pending;
        return h(Text, null, 'loaded');
      };
      const App = ({ n }) =>
        h(
          View,
          { testID: 'app' },
          h(Text, { testID: 'n' }, `n=${n}`),
          h(React.Suspense, { fallback: h(Text, { testID: 'fallback' }, 'loading') }, h(View, { testID: 'content' }, h(Slow))),
        );
      const root = await render(h(App, { n: 1 }));
      await checkpoint('shown');
      const promise = new Promise((r) => (resolve = r));
      pending = promise.then(() => (pending = null));
      await root.render(h(App, { n: 2 }));
      await checkpoint('hidden');
      resolve();
      await promise;
      await checkpoint('shown again');
    },
    checks: {
      async shown({ bridge, root }) {
        const app = find(await tree(bridge, root()), byTestID('app'));
        assert.deepEqual(app.children.map((c) => c.props.testID), ['n', 'content']);
        assert.equal(app.children[1].render, 'View #content');
        assert.equal(app.children[1].children[0].render, 'loaded');
      },
      async hidden({ bridge, root }) {
        const app = find(await tree(bridge, root()), byTestID('app'));
        assert.deepEqual(app.children.map((c) => c.props.testID), ['n', 'content', 'fallback']);
        assert.equal(app.children[0].render, 'n=2');
        assert.equal(app.children[1].props.display, 'none');
        assert.equal(app.children[2].render, 'loading');
      },
      async 'shown again'({ bridge, root }) {
        const app = find(await tree(bridge, root()), byTestID('app'));
        assert.deepEqual(app.children.map((c) => c.props.testID), ['n', 'content']);
        assert.equal(app.children[1].props.display, null);
        assert.equal(app.children[1].children[0].render, 'loaded');
      },
    },
  },
];

/**
 * A live run's trace must equal the committed one; BRIDGED_RN_UPDATE_TRACES=1 (or no trace yet) writes it.
 */
function checkTrace(file, steps, scenario) {
  const committed = readTrace(file);
  if (committed === null || process.env.BRIDGED_RN_UPDATE_TRACES === '1') {
    mkdirSync(dirname(file), { recursive: true });
    const what =
      `React Native's Fabric renderer (${RENDERER.split('/').at(-1)}) rendering scenario '${scenario}' into bridged: ` +
      'its nativeFabricUIManager calls, the batches they were sent in and the events it received';
    writeFileSync(file, JSON.stringify({ what, steps }, null, 1) + '\n');
    return;
  }
  assert.deepEqual(JSON.parse(JSON.stringify(steps)), committed, `the live run no longer produces ${file} (BRIDGED_RN_UPDATE_TRACES=1 rewrites it)`);
}

scenarioTests({
  renderer: "React Native's Fabric renderer",
  groups: [
    ['built-ins', [...scenarios, ...fabricScenarios], []],
    ['a codegen schema', schemaScenarios, ['--components', SCHEMA]],
  ],
  attach: attachFabric,
  play: playFabricTrace,
  traceFile,
  liveSkip,
  check: checkTrace,
  react,
  startDaemon,
  connect,
  envName: 'BRIDGED_RN_FABRIC_RENDERER',
});

/** Records the ops of every batch `bridge` sends from now on. */
function batchesOf(bridge) {
  const batches = [];
  const request = bridge.request.bind(bridge);
  bridge.request = (frame, options) => {
    if (frame.op === 'batch') batches.push(frame.ops);
    return request(frame, options);
  };
  return batches;
}

describe('Fabric: the diff, with the calls the renderer makes', () => {
  let daemon;
  let bridge;
  let native;
  let ui;
  let batches;
  let nextTag;
  before(async () => {
    // 10,000 rows are one batch of 30,001 creates, about 3 MB.
    daemon = await startDaemon(['--max-frame-bytes', String(16 << 20)]);
  });
  after(() => daemon?.stop());

  /** A fresh attachment's native side, its root view (rootTag 1) created. */
  async function fresh() {
    await bridge?.close();
    bridge = await connect({ socket: daemon.socket });
    native = new NativeSide(bridge);
    ui = createFabricUIManager(native);
    native.createRoot(1);
    await native.commit();
    batches = batchesOf(bridge);
    nextTag = 2;
  }
  after(() => bridge?.close());

  const node = (viewName, props, children = []) => {
    const made = ui.createNode(nextTag, viewName, 1, props, { tag: nextTag });
    nextTag += 2;
    for (const child of children) ui.appendChild(made, child);
    return made;
  };
  /** A clone of `parent` with new children, as the renderer makes one when a child changed. */
  const withChildren = (parent, children) => {
    const copy = ui.cloneNodeWithNewChildren(parent);
    for (const child of children) ui.appendChild(copy, child);
    return copy;
  };
  async function commit(...children) {
    const set = ui.createChildSet(1);
    for (const child of children) ui.appendChildToSet(set, child);
    ui.completeRoot(1, set);
    await native.commit();
  }
  const daemonTag = (n) => native.daemonTag(n.tag);
  const testIDs = async (n) => {
    const view = await tree(bridge, daemonTag(n));
    return view.children.map((child) => child.props.testID);
  };

  test('a commit that changes nothing sends nothing; a clone with the same props keeps its view and its state', async () => {
    await fresh();
    const button = node('SwiftUIButton', { title: 'b', testID: 'b' });
    const list = node('RCTView', { testID: 'list' }, [button, node('RCTView', { testID: 'other' })]);
    await commit(list);
    assert.equal(batches.length, 1);
    ui.dispatchCommand(button, 'press', []);
    await native.commit();
    batches.length = 0;

    await commit(list);
    const same = ui.cloneNodeWithNewProps(button, { title: 'b' });
    await commit(withChildren(list, [same, list.children[1]]));
    assert.deepEqual(batches, []);
    const view = await bridge.request({ op: 'inspect', tag: daemonTag(same) });
    assert.equal(view.component, 'SwiftUIButton');
    assert.deepEqual(view.commands, [{ name: 'press', args: [] }]);
  });

  test('one prop of one node in a 1,000-node tree sends exactly one update', async () => {
    await fresh();
    const rows = [];
    for (let i = 0; i < 999; i++) rows.push(node('RCTView', { testID: `row-${i}` }));
    const list = node('RCTView', { testID: 'list' }, rows);
    await commit(list);
    assert.deepEqual(batches.map((b) => b.length), [1000]);
    batches.length = 0;

    const changed = ui.cloneNodeWithNewProps(rows[500], { accessibilityLabel: 'five hundred' });
    await commit(withChildren(list, rows.map((row, i) => (i === 500 ? changed : row))));
    assert.deepEqual(batches, [[{ op: 'update', tag: daemonTag(changed), props: { accessibilityLabel: 'five hundred' } }]]);
    assert.equal((await bridge.request({ op: 'inspect', tag: daemonTag(changed) })).props.accessibilityLabel, 'five hundred');
  });

  test('the diff of a one-prop commit looks at the same nodes in a tree of 10,000 rows as of 100', async () => {
    const looked = [];
    for (const size of [100, 10_000]) {
      await fresh();
      const rows = [];
      for (let i = 0; i < size; i++) rows.push(node('RCTView', { testID: `row-${i}` }, [node('RCTText', null, [node('RCTRawText', { text: `${i}` })])]));
      const list = node('RCTView', { testID: 'list' }, rows);
      await commit(list);
      const text = rows[42].children[0];
      const raw = ui.cloneNodeWithNewProps(text.children[0], { text: 'forty-two' });
      const row = withChildren(rows[42], [withChildren(text, [raw])]);
      batches.length = 0;
      await commit(withChildren(list, rows.map((r, i) => (i === 42 ? row : r))));
      assert.deepEqual(batches, [[{ op: 'update', tag: daemonTag(raw), props: { text: 'forty-two' } }]]);
      looked.push(ui.looked());
    }
    // The list, the row, its Text, the raw text: the path to the change, whatever the tree's size.
    assert.deepEqual(looked, [4, 4]);
  });

  test('an insert or a removal in the middle is one op; a reorder is one setChildren; a removed subtree is one delete', async () => {
    await fresh();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => node('RCTView', { testID: id }, [node('RCTText', null, [node('RCTRawText', { text: id })])]));
    const list = node('RCTView', { testID: 'list' }, [a, b, c, d]);
    await commit(list);
    batches.length = 0;

    const x = node('RCTView', { testID: 'x' });
    const withX = withChildren(list, [a, b, x, c, d]);
    await commit(withX);
    assert.deepEqual(batches, [[{ op: 'create', tag: daemonTag(x), component: 'RCTView', props: { testID: 'x' }, parent: daemonTag(list), index: 2 }]]);
    assert.deepEqual(await testIDs(list), ['a', 'b', 'x', 'c', 'd']);
    batches.length = 0;

    const cTag = daemonTag(c);
    const withoutC = withChildren(withX, [a, b, x, d]);
    await commit(withoutC);
    assert.deepEqual(batches, [[{ op: 'delete', tag: cTag }]]);
    assert.deepEqual(await testIDs(list), ['a', 'b', 'x', 'd']);
    batches.length = 0;

    await commit(withChildren(withoutC, [d, x, a, b]));
    assert.deepEqual(batches, [[{ op: 'setChildren', tag: daemonTag(list), children: [d, x, a, b].map(daemonTag) }]]);
    assert.deepEqual(await testIDs(list), ['d', 'x', 'a', 'b']);
    assert.equal((await bridge.request({ op: 'stats' })).sessionViews, 1 + 1 + 3 * 3 + 1, 'the root, the list, 3 rows of 3 views, x');
  });

  test('a prop set back to its default is sent as null; handler props become subscriptions', async () => {
    await fresh();
    const button = node('SwiftUIButton', { title: 't', accessibilityLabel: 'l', onCountChange: true });
    await commit(button);
    assert.deepEqual(batches[0].slice(1), [{ op: 'subscribe', tag: daemonTag(button), event: 'countChange' }]);
    batches.length = 0;
    await commit(ui.cloneNodeWithNewProps(button, { accessibilityLabel: null, onCountChange: null, onCountChangeCapture: true }));
    assert.deepEqual(batches, [
      [
        { op: 'update', tag: daemonTag(button), props: { accessibilityLabel: null } },
        { op: 'unsubscribe', tag: daemonTag(button), event: 'countChange' },
        { op: 'subscribe', tag: daemonTag(button), event: 'countChange', phase: 'capture' },
      ],
    ]);
  });
});

describe('Fabric: which renderer an app uses', () => {
  const dirs = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
  async function app(files) {
    const dir = await mkdtemp(join(tmpdir(), 'bridged-rn-app-'));
    dirs.push(dir);
    for (const [file, text] of Object.entries(files)) {
      await mkdir(join(dir, dirname(file)), { recursive: true });
      await writeFile(join(dir, file), text);
    }
    return dir;
  }

  test('RCT_NEW_ARCH_ENABLED, then android/gradle.properties, then ios/Podfile.properties.json; else paper', async () => {
    const none = await app({});
    const gradle = await app({ 'android/gradle.properties': 'org.gradle.jvmargs=-Xmx2048m\nnewArchEnabled=true\n' });
    const gradleOff = await app({ 'android/gradle.properties': 'newArchEnabled=false\n' });
    const podfile = await app({ 'ios/Podfile.properties.json': '{"expo.jsEngine":"hermes","newArchEnabled":"true"}' });
    assert.equal(appArchitecture(none, {}), 'paper');
    assert.equal(appArchitecture(gradle, {}), 'fabric');
    assert.equal(appArchitecture(gradleOff, {}), 'paper');
    assert.equal(appArchitecture(podfile, {}), 'fabric');
    assert.equal(appArchitecture(none, { RCT_NEW_ARCH_ENABLED: '1' }), 'fabric');
    assert.equal(appArchitecture(gradle, { RCT_NEW_ARCH_ENABLED: '0' }), 'paper');
  });

  test('live: architecture auto loads the Fabric renderer for an app that enables it', { skip: liveSkip }, async () => {
    const daemon = await startDaemon();
    const bridge = await connect({ socket: daemon.socket });
    try {
      const cwd = await app({ 'android/gradle.properties': 'newArchEnabled=true\n' });
      const rn = await attachReactNative(bridge, { architecture: 'auto', cwd, renderer: RENDERER, react: react.React, scheduler: react.scheduler });
      assert.equal(rn.architecture, 'fabric');
      const root = await rn.render(react.React.createElement(rn.View, { testID: 'auto' }));
      assert.equal((await tree(bridge, root.tag)).children[0].props.testID, 'auto');
      await rn.detach();
    } finally {
      await bridge.close();
      await daemon.stop();
    }
  });
});

describe('Fabric live: what a commit sends', { skip: liveSkip }, () => {
  let daemon;
  before(async () => {
    daemon = await startDaemon();
  });
  after(() => daemon?.stop());

  test('a re-render that changes nothing sends nothing; one prop of one row of a 1,000-node tree sends one update', async () => {
    const bridge = await connect({ socket: daemon.socket });
    try {
      const { React, scheduler } = react;
      const h = React.createElement;
      const rn = await attachFabric(bridge, { renderer: RENDERER, react: React, scheduler });
      const { View, Text } = rn;
      const Row = ({ i, label }) => h(View, { testID: `row-${i}`, accessibilityLabel: label }, h(Text, null, `row ${i}`));
      // 333 rows of a View, a Text and its raw text, in a list: 1,000 nodes.
      const List = ({ changed }) =>
        h(View, { testID: 'list' }, Array.from({ length: 333 }, (_, i) => h(Row, { key: i, i, label: i === changed ? 'changed' : 'row' })));
      const root = await rn.render(h(List, {}));
      const batches = batchesOf(bridge);
      await root.render(h(List, {}));
      assert.deepEqual(batches, []);
      await root.render(h(List, { changed: 200 }));
      const list = find(await tree(bridge, root.tag), byTestID('list'));
      assert.equal(list.children.length, 333);
      assert.deepEqual(batches, [[{ op: 'update', tag: list.children[200].tag, props: { accessibilityLabel: 'changed' } }]]);
      await rn.detach();
    } finally {
      await bridge.close();
    }
  });
});

describe("a session of React Native's Fabric renderer, recorded by the daemon", () => {
  test('replays with `bridged replay`, without JavaScript', async () => {
    await assertRecordingReplays(scenarios.find((s) => s.name === 'counter'), readTrace(traceFile('counter')), {
      play: playFabricTrace,
      connect,
    });
  });
});

describe('Fabric and paper attachments on one Bridge', () => {
  const paperRenderer = process.env.BRIDGED_RN_RENDERER;
  test('render side by side, with tags that never collide and no global set (nativeFabricUIManager neither)', { skip: liveSkip || (!paperRenderer && 'BRIDGED_RN_RENDERER names no paper renderer') }, async () => {
    const daemon = await startDaemon();
    const bridge = await connect({ socket: daemon.socket });
    try {
      const globals = new Set(Object.keys(globalThis));
      const common = { react: react.React, scheduler: react.scheduler };
      const one = await attachReactNative(bridge, { ...common, architecture: 'fabric', renderer: RENDERER });
      const two = await attachReactNative(bridge, { ...common, architecture: 'fabric', renderer: RENDERER });
      const paper = await attachReactNative(bridge, { ...common, renderer: paperRenderer });
      assert.deepEqual(Object.keys(globalThis).filter((k) => !globals.has(k)), []);
      assert.equal(globalThis.nativeFabricUIManager, undefined);
      assert.deepEqual([one.architecture, two.architecture, paper.architecture], ['fabric', 'fabric', 'paper']);
      const h = react.React.createElement;
      const roots = [await one.render(h(one.Text, null, 'one')), await two.render(h(two.Text, null, 'two')), await paper.render(h(paper.Text, null, 'paper'))];
      const textOf = async (root) => (await bridge.request({ op: 'inspect', tag: (await bridge.request({ op: 'inspect', tag: root.tag })).children[0] })).render;
      assert.deepEqual(await Promise.all(roots.map(textOf)), ['one', 'two', 'paper']);
      await one.detach();
      assert.deepEqual(await Promise.all(roots.slice(1).map(textOf)), ['two', 'paper']);
      await two.detach();
      await paper.detach();
      assert.equal((await bridge.request({ op: 'stats' })).sessionViews, 0);
    } finally {
      await bridge.close();
      await daemon.stop();
    }
  });
});

describe('Fabric live: a deep tree', { skip: liveSkip }, () => {
  test('an 8,000-deep chain of Views mounts: the diff walks the tree with a stack, not recursion', async () => {
    const daemon = await startDaemon();
    const bridge = await connect({ socket: daemon.socket });
    try {
      const rn = await attachFabric(bridge, { renderer: RENDERER, react: react.React, scheduler: react.scheduler });
      const { createElement } = react.React;
      let element = createElement(rn.View, { testID: 'leaf' });
      for (let i = 0; i < 8000; i++) element = createElement(rn.View, null, element);
      await rn.render(element);
      const stats = await bridge.request({ op: 'stats' });
      assert.equal(stats.sessionViews, 8002, 'the root, 8,000 Views and the leaf');
      // Unmounting it is React's own recursion (commitDeletion), deeper than Node's stack: the session just ends.
    } finally {
      await bridge.close();
      await daemon.stop();
    }
  });
});

describe('Fabric live: a first render that fails', { skip: liveSkip }, () => {
  test('leaves no root view behind: the daemon holds nothing of it', () =>
    assertFailedFirstRenderLeavesNothing({ attach: (bridge) => attachFabric(bridge, { renderer: RENDERER, react: react.React, scheduler: react.scheduler }), react, startDaemon, connect }));
});
