// Test support for React Native's renderer against bridged: the scenarios (JSX written with `h`, React's
// createElement), each run live (React Native's renderer named by $BRIDGED_RN_RENDERER, with Debian's React)
// or played back from its recorded trace, with the same checks of the daemon's side at the same checkpoints.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BRIDGED_BIN, startDaemon as startRecordingDaemon, tempDir } from './daemon.js';

/** React and scheduler: the app's (here Debian's node-react, found through NODE_PATH or /usr/share/nodejs). */
export function loadReact() {
  const require = createRequire(import.meta.url);
  for (const base of [undefined, '/usr/share/nodejs']) {
    try {
      const at = (id) => (base ? require.resolve(id, { paths: [base] }) : require.resolve(id));
      return { React: require(at('react')), scheduler: require(at('scheduler')) };
    } catch {
      // next
    }
  }
  return null;
}

/** The daemon's view `tag` and its subtree: {tag, component, props, render, commands, children: [nodes]}. */
export async function tree(bridge, tag) {
  const view = await bridge.request({ op: 'inspect', tag });
  const children = [];
  for (const child of view.children) children.push(await tree(bridge, child));
  return { tag, component: view.component, props: view.props, render: view.render, commands: view.commands, children };
}

/** The first node of a tree (depth first) for which `match` holds. */
export function find(node, match) {
  if (match(node)) return node;
  for (const child of node.children) {
    const found = find(child, match);
    if (found) return found;
  }
  return undefined;
}

export const byTestID = (id) => (node) => node.props.testID === id;
export const byComponent = (name) => (node) => node.component === name;

/** Every node of a tree, depth first. */
export function nodes(node, list = []) {
  list.push(node);
  for (const child of node.children) nodes(child, list);
  return list;
}

/**
 * Runs a scenario live: attaches React Native's renderer to `bridge`, records the trace, runs the scenario with
 * {rn, React, h, bridge, checkpoint}, where checkpoint(name) records the step and runs the scenario's check of
 * that name on the daemon's side. Returns the trace.
 */
export async function runLive(scenario, { bridge, attachReactNative, React, scheduler, renderer }) {
  const trace = [];
  const rn = await attachReactNative(bridge, { renderer, react: React, scheduler, trace });
  const roots = [];
  const context = {
    rn,
    React,
    h: React.createElement,
    bridge,
    trace,
    async render(element) {
      const root = await rn.render(element);
      roots.push(root);
      return root;
    },
    async checkpoint(name) {
      await rn.settled();
      trace.push({ checkpoint: name });
      await scenario.checks[name]({ bridge, root: (i = 0) => roots[i].tag });
    },
  };
  await scenario.live(context);
  await rn.settled();
  await rn.detach();
  return trace;
}

/** Plays a scenario's trace back into `bridge` with the same checks. */
export async function runRecorded(scenario, steps, { bridge, playTrace }) {
  const rootTags = steps.filter((s) => 'root' in s).map((s) => s.root);
  const daemonTags = [];
  await playTrace(bridge, steps, {
    onCheckpoint: (name, native) =>
      scenario.checks[name]({ bridge, root: (i = 0) => (daemonTags[i] ??= native.daemonTag(rootTags[i])) }),
  });
}

/** The committed trace of a scenario, or null. */
export function readTrace(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).steps : null;
}

/**
 * Compares a live run's trace with the committed one: they must be equal. With BRIDGED_RN_UPDATE_TRACES=1, or
 * when there is none yet, the live trace is written instead.
 */
export function checkTrace(file, steps, { renderer, scenario }) {
  const committed = readTrace(file);
  if (committed === null || process.env.BRIDGED_RN_UPDATE_TRACES === '1') {
    mkdirSync(dirname(file), { recursive: true });
    const header = {
      what: `React Native's paper renderer (${renderer.split('/').slice(-1)[0]}) rendering scenario '${scenario}' into bridged: its UIManager calls and the events it received`,
      steps,
    };
    writeFileSync(file, JSON.stringify(header, null, 1) + '\n');
    return;
  }
  assert.deepEqual(JSON.parse(JSON.stringify(steps)), committed, `the live run no longer produces ${file} (BRIDGED_RN_UPDATE_TRACES=1 rewrites it)`);
}

/**
 * The tests of a renderer's scenarios: for each group [title, scenarios, daemon args], one daemon, and for each
 * scenario a live test (skipped with `liveSkip`) whose trace `check(file, steps, scenario)` compares with the
 * committed one, and a recorded test that plays the committed trace with `play` and the same checks.
 */
export function scenarioTests({ renderer, groups, attach, play, traceFile, liveSkip, check, react, startDaemon, connect, envName }) {
  for (const [group, list, args] of groups) {
    describe(`${renderer} with ${group}`, () => {
      let daemon;
      before(async () => {
        daemon = await startDaemon(args);
      });
      after(() => daemon?.stop());

      for (const scenario of list) {
        test(`live: ${scenario.name}`, { skip: liveSkip }, async () => {
          const bridge = await connect({ socket: daemon.socket });
          try {
            const steps = await runLive(scenario, { bridge, attachReactNative: attach, ...react, renderer: process.env[envName] });
            check(traceFile(scenario.name), steps, scenario.name);
          } finally {
            await bridge.close();
          }
        });

        test(`recorded: ${scenario.name}`, async () => {
          const steps = readTrace(traceFile(scenario.name));
          assert.ok(steps, `no recorded trace ${traceFile(scenario.name)} (run the live test with ${envName})`);
          const bridge = await connect({ socket: daemon.socket });
          try {
            await runRecorded(scenario, steps, { bridge, playTrace: play });
          } finally {
            await bridge.close();
          }
        });
      }
    });
  }
}

/**
 * Plays a scenario's trace into a daemon that records the session (`--record`), then replays that recording with
 * `bridged replay`, without JavaScript: asserts it is one recording that replays whole.
 */
export async function assertRecordingReplays(scenario, steps, { play, connect }) {
  const records = await tempDir();
  const daemon = await startRecordingDaemon(['--record', records]);
  try {
    const bridge = await connect({ socket: daemon.socket });
    await runRecorded(scenario, steps, { bridge, playTrace: play });
    await bridge.close();
  } finally {
    await daemon.stop();
  }
  try {
    const files = readdirSync(records).filter((f) => f.endsWith('.jsonl')).map((f) => join(records, f));
    assert.equal(files.length, 1);
    const run = spawnSync(BRIDGED_BIN, ['replay', ...files], { encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /1 passed, 0 failed/);
  } finally {
    rmSync(records, { recursive: true, force: true });
  }
}

/**
 * A first render the daemon refuses (a prop of the wrong type) rejects and leaves nothing in the daemon, its root
 * view included; the next render works. `attach(bridge)` attaches the renderer under test.
 */
export async function assertFailedFirstRenderLeavesNothing({ attach, react, startDaemon, connect }) {
  const daemon = await startDaemon();
  const bridge = await connect({ socket: daemon.socket });
  try {
    const rn = await attach(bridge);
    const h = react.React.createElement;
    const Button = rn.requireNativeComponent('SwiftUIButton');
    await assert.rejects(rn.render(h(rn.View, null, h(Button, { count: 'many' }))), (error) => error.code === 'invalid_props');
    assert.equal((await bridge.request({ op: 'stats' })).sessionViews, 0);
    const root = await rn.render(h(rn.View, { testID: 'next' }));
    assert.equal((await bridge.request({ op: 'stats' })).sessionViews, 2, 'the next render works: its root and its View');
    await root.unmount();
    await rn.detach();
  } finally {
    await bridge.close();
    await daemon.stop();
  }
}
