// React Native's Fabric renderer (ReactFabric-dev.js) rendering into a real daemon through the attachment's
// nativeFabricUIManager. The paper attachment's scenarios, live when $BRIDGED_RN_FABRIC_RENDERER names the
// renderer file (the trace of its nativeFabricUIManager calls must equal the committed one), and recorded,
// always: each committed trace played through createFabricUIManager into a real daemon, with the same checks.
// Then the diff's own rules, with calls made as the renderer makes them (no renderer needed) and live.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../index.js';
import { attachReactNative, createFabricUIManager, NativeSide, playFabricTrace } from '../lib/react-native.js';
import { startDaemon } from '../test-support/daemon.js';
import { byTestID, find, loadReact, readTrace, runLive, runRecorded, tree } from '../test-support/react-native.js';
import { scenarios, schemaScenarios } from '../test-support/react-native-scenarios.js';

const RENDERER = process.env.BRIDGED_RN_FABRIC_RENDERER;
const react = loadReact();
const SCHEMA = fileURLToPath(new URL('../../Tests/Schemas/all-annotations.json', import.meta.url));
const traceFile = (name) => fileURLToPath(new URL(`./react-native/traces/fabric-${name}.json`, import.meta.url));
const liveSkip = !RENDERER ? 'BRIDGED_RN_FABRIC_RENDERER names no React Native Fabric renderer' : !react ? 'no React (node-react)' : false;

const attachFabric = (bridge, options) => attachReactNative(bridge, { ...options, architecture: 'fabric' });

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

for (const [group, list, args] of [
  ['built-ins', scenarios, []],
  ['a codegen schema', schemaScenarios, ['--components', SCHEMA]],
]) {
  describe(`React Native's Fabric renderer with ${group}`, () => {
    let daemon;
    before(async () => {
      daemon = await startDaemon(args);
    });
    after(() => daemon?.stop());

    for (const scenario of list) {
      test(`live: ${scenario.name}`, { skip: liveSkip }, async () => {
        const bridge = await connect({ socket: daemon.socket });
        try {
          const steps = await runLive(scenario, { bridge, attachReactNative: attachFabric, ...react, renderer: RENDERER });
          checkTrace(traceFile(scenario.name), steps, scenario.name);
        } finally {
          await bridge.close();
        }
      });

      test(`recorded: ${scenario.name}`, async () => {
        const steps = readTrace(traceFile(scenario.name));
        assert.ok(steps, `no recorded trace ${traceFile(scenario.name)} (run the live test with BRIDGED_RN_FABRIC_RENDERER)`);
        const bridge = await connect({ socket: daemon.socket });
        try {
          await runRecorded(scenario, steps, { bridge, playTrace: playFabricTrace });
        } finally {
          await bridge.close();
        }
      });
    }
  });
}
