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
import { checkTrace, loadReact, readTrace, runLive, runRecorded } from '../test-support/react-native.js';
import { scenarios, schemaScenarios } from '../test-support/react-native-scenarios.js';

const RENDERER = process.env.BRIDGED_RN_RENDERER;
const react = loadReact();
const SCHEMA = fileURLToPath(new URL('../../Tests/Schemas/all-annotations.json', import.meta.url));
const traceFile = (name) => fileURLToPath(new URL(`./react-native/traces/paper-${name}.json`, import.meta.url));
const liveSkip = !RENDERER ? 'BRIDGED_RN_RENDERER names no React Native renderer' : !react ? 'no React (node-react)' : false;

for (const [group, list, args] of [
  ['built-ins', scenarios, []],
  ['a codegen schema', schemaScenarios, ['--components', SCHEMA]],
]) {
  describe(`React Native's renderer with ${group}`, () => {
    let daemon;
    before(async () => {
      daemon = await startDaemon(args);
    });
    after(() => daemon?.stop());

    for (const scenario of list) {
      test(`live: ${scenario.name}`, { skip: liveSkip }, async () => {
        const bridge = await connect({ socket: daemon.socket });
        try {
          const steps = await runLive(scenario, { bridge, attachReactNative, ...react, renderer: RENDERER });
          checkTrace(traceFile(scenario.name), steps, { renderer: RENDERER, scenario: scenario.name });
        } finally {
          await bridge.close();
        }
      });

      test(`recorded: ${scenario.name}`, async () => {
        const steps = readTrace(traceFile(scenario.name));
        assert.ok(steps, `no recorded trace ${traceFile(scenario.name)} (run the live test with BRIDGED_RN_RENDERER)`);
        const bridge = await connect({ socket: daemon.socket });
        try {
          await runRecorded(scenario, steps, { bridge, playTrace });
          assert.equal((await bridge.request({ op: 'stats' })).sessionViews >= 0, true);
        } finally {
          await bridge.close();
        }
      });
    }
  });
}
