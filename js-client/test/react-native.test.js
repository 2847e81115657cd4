// React Native's own renderer (ReactNativeRenderer-dev.js, the paper renderer) rendering into a real daemon.
// Live, when $BRIDGED_RN_RENDERER names the renderer file: each scenario is rendered with Debian's React and
// its trace (the renderer's UIManager calls, the events it received) must equal the committed one.
// Recorded, always: each committed trace is played through the attachment's UIManager into a real daemon, with
// the same checks of the daemon's side at the same checkpoints.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { connect } from '../index.js';
import { attachReactNative, playTrace } from '../lib/react-native.js';
import { startDaemon } from '../test-support/daemon.js';
import { assertFailedFirstRenderLeavesNothing, assertRecordingReplays, checkTrace, loadReact, readTrace, scenarioTests } from '../test-support/react-native.js';
import { scenarios, schemaScenarios } from '../test-support/react-native-scenarios.js';

const RENDERER = process.env.BRIDGED_RN_RENDERER;
const react = loadReact();
const SCHEMA = fileURLToPath(new URL('../../Tests/Schemas/all-annotations.json', import.meta.url));
const traceFile = (name) => fileURLToPath(new URL(`./react-native/traces/paper-${name}.json`, import.meta.url));
const liveSkip = !RENDERER ? 'BRIDGED_RN_RENDERER names no React Native renderer' : !react ? 'no React (node-react)' : false;

scenarioTests({
  renderer: "React Native's renderer",
  groups: [
    ['built-ins', scenarios, []],
    ['a codegen schema', schemaScenarios, ['--components', SCHEMA]],
  ],
  attach: attachReactNative,
  play: playTrace,
  traceFile,
  liveSkip,
  check: (file, steps, scenario) => checkTrace(file, steps, { renderer: RENDERER, scenario }),
  react,
  startDaemon,
  connect,
  envName: 'BRIDGED_RN_RENDERER',
});

describe("a session of React Native's renderer, recorded by the daemon", () => {
  test('replays with `bridged replay`, without JavaScript', async () => {
    await assertRecordingReplays(scenarios.find((s) => s.name === 'counter'), readTrace(traceFile('counter')), { play: playTrace, connect });
  });
});

describe('two attachments on one Bridge', () => {
  test('render side by side, with tags that never collide and no global set', { skip: liveSkip }, async () => {
    const daemon = await startDaemon();
    const bridge = await connect({ socket: daemon.socket });
    try {
      const globals = new Set(Object.keys(globalThis));
      const options = { renderer: RENDERER, react: react.React, scheduler: react.scheduler };
      const [one, two] = [await attachReactNative(bridge, options), await attachReactNative(bridge, options)];
      assert.deepEqual(Object.keys(globalThis).filter((k) => !globals.has(k)), []);
      const h = react.React.createElement;
      const a = await one.render(h(one.Text, null, 'one'));
      const b = await two.render(h(two.Text, null, 'two'));
      const textOf = async (root) => (await bridge.request({ op: 'inspect', tag: (await bridge.request({ op: 'inspect', tag: root.tag })).children[0] })).render;
      assert.equal(await textOf(a), 'one');
      assert.equal(await textOf(b), 'two');
      await one.detach();
      assert.equal(await textOf(b), 'two');
      await two.detach();
      assert.equal((await bridge.request({ op: 'stats' })).sessionViews, 0);
    } finally {
      await bridge.close();
      await daemon.stop();
    }
  });
});

describe("React Native's renderer live: a first render that fails", { skip: liveSkip }, () => {
  test('leaves no root view behind: the daemon holds nothing of it', () =>
    assertFailedFirstRenderLeavesNothing({ attach: (bridge) => attachReactNative(bridge, { renderer: RENDERER, react: react.React, scheduler: react.scheduler }), react, startDaemon, connect }));
});
