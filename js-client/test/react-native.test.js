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
import { checkTrace, loadReact, readTrace, runRecorded, scenarioTests } from '../test-support/react-native.js';
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
    const { spawnSync } = await import('node:child_process');
    const { readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { BRIDGED_BIN, tempDir } = await import('../test-support/daemon.js');
    const records = await tempDir();
    const daemon = await startDaemon(['--record', records]);
    try {
      const bridge = await connect({ socket: daemon.socket });
      await runRecorded(scenarios.find((s) => s.name === 'counter'), readTrace(traceFile('counter')), { bridge, playTrace });
      await bridge.close();
    } finally {
      await daemon.stop();
    }
    const files = readdirSync(records).filter((f) => f.endsWith('.jsonl')).map((f) => join(records, f));
    assert.equal(files.length, 1);
    const run = spawnSync(BRIDGED_BIN, ['replay', ...files], { encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /1 passed, 0 failed/);
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
