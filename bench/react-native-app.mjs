// openApp's cost against its floor, in one run (issue 27, §5): the same app code (bench/react-native-app: a
// ScrollView of 200 Pressable rows, a Text each) with bridged as its native side, and with a UIManager that does
// nothing (what jest's mocks cost). Each measurement runs in a fresh Node process:
//   - open + first render, cold (empty transform cache) and warm (the cache filled by the cold run);
//   - a press on row 100: from the touch's end to onPress's re-render applied in the daemon (median of ROUNDS),
//     and the floor's own press-to-commit time (receiveTouches to the UIManager call that commits);
//   - the Node process's and the daemon's memory after mounting;
//   - a mount of MOUNT_ROWS rows (1,000 and 10,000) into a new screen, to applied (median of MOUNT_ROUNDS, 3):
//     bridged ÷ floor is the mount ratio in app mode (issue 30, target 1.25).
// Usage: node bench/react-native-app.mjs [--json out.json]; needs ../shared/react-native-0.72.6 (or
// $BRIDGED_RN_NODE_MODULES) and a release daemon (.build/release/bridged, or $BRIDGED_BIN).

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, cpSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { touchOp } from '../js-client/lib/command-op.js';
import { BIN, SHARED, floorBridge, floorUIManager, median } from './react-native-floor.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROWS = 200;
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const MOUNT_ROWS = (process.env.MOUNT_ROWS ?? '1000,10000').split(',').filter(Boolean).map(Number);
const MOUNT_ROUNDS = Number(process.env.MOUNT_ROUNDS ?? 3);

async function child(mode, root, cache, socket) {
  const { connect } = await import('../js-client/index.js');
  const { openApp } = await import('../js-client/lib/react-native.js');
  const t0 = performance.now();
  let bridge;
  let floorCalls = null;
  if (mode === 'floor') {
    // The components hello describes, so that the floor's view configs are those of a real run.
    const real = await connect({ socket });
    bridge = floorBridge(real);
    await real.close();
  } else {
    bridge = await connect({ socket });
  }
  const options = { root, cache };
  let app;
  if (mode === 'floor') {
    // The floor's UIManager: React Native's constants (the same view configs), every call a no-op, but for what
    // finds row 100's Text and counts the commits.
    const rawTexts = new Map();
    const parents = new Map();
    floorCalls = { updates: 0, textOf: (content) => parents.get([...rawTexts].find(([, text]) => text === content)?.[0]) };
    const UIManager = floorUIManager({
      createView: (tag, name, rootTag, props) => name === 'RCTRawText' && rawTexts.set(tag, props.text),
      setChildren: (parent, children) => children.forEach((child) => parents.set(child, parent)),
      updateView: () => floorCalls.updates++,
    });
    app = await openApp(bridge, { ...options, nativeModules: { UIManager } });
  } else {
    app = await openApp(bridge, options);
  }
  const React = app.require('react');
  const { default: Rows } = app.require('./src/Rows');
  const screen = await app.render(React.createElement(Rows, { rows: ROWS }));
  const openMs = performance.now() - t0;
  const memory = process.memoryUsage();
  const press = [];
  const pressWhole = [];
  if (mode === 'floor') {
    const emitter = app.require('react-native/Libraries/BatchedBridge/BatchedBridge').getCallableModule('RCTEventEmitter');
    const target = floorCalls.textOf('100');
    if (target === undefined) throw new Error("floor: no Text of row 100");
    for (let i = 0; i < ROUNDS; i++) {
      const touch = { target, identifier: 1, pageX: 0, pageY: 0, locationX: 0, locationY: 0, timestamp: i * 1000 };
      emitter.receiveTouches('topTouchStart', [touch], [0]);
      await new Promise((r) => setTimeout(r, 1));
      const before = floorCalls.updates;
      const start = performance.now();
      emitter.receiveTouches('topTouchEnd', [touch], [0]);
      press.push(performance.now() - start);
      if (floorCalls.updates === before) throw new Error('floor: the press did not commit');
      await new Promise((r) => setTimeout(r, 150));
    }
  } else {
    const row = screen.getByText(/^Row 100:/);
    const original = bridge.request.bind(bridge);
    for (let i = 0; i < ROUNDS; i++) {
      let committed = null;
      let start = 0;
      bridge.request = (frame, ...rest) => {
        const sent = original(frame, ...rest);
        if (frame.op === 'batch' && start > 0 && committed === null) committed = sent.then(() => performance.now() - start);
        return sent;
      };
      const whole = performance.now();
      await original(touchOp(row.tag, 'start', { timestamp: i * 1000 }));
      await app.settled();
      start = performance.now();
      await original(touchOp(row.tag, 'end', { timestamp: i * 1000 + 50 }));
      press.push(await committed);
      bridge.request = original;
      await new Promise((r) => setTimeout(r, 150));
      await app.settled();
      pressWhole.push(performance.now() - whole);
    }
    const expected = `Row 100: ${ROUNDS}`;
    if (screen.getByText(/^Row 100:/).text !== expected) throw new Error(`bridged: row 100 reads ${screen.getByText(/^Row 100:/).text}, not ${expected}`);
  }
  const mountMs = {};
  for (const rows of MOUNT_ROWS) {
    const times = [];
    for (let i = 0; i < MOUNT_ROUNDS; i++) {
      const start = performance.now();
      const mounted = await app.render(React.createElement(Rows, { rows }));
      times.push(performance.now() - start);
      await mounted.unmount();
    }
    mountMs[rows] = median(times);
  }
  await app.close();
  if (mode !== 'floor') await bridge.close();
  return { mode, mountMs, openMs, pressMedianMs: median(press), pressWholeMedianMs: pressWhole.length ? median(pressWhole) : null, rssMB: memory.rss / 2 ** 20, heapMB: memory.heapUsed / 2 ** 20, hits: app.transformCache.hits, misses: app.transformCache.misses };
}

async function main() {
  if (!existsSync(path.join(SHARED, 'react-native', 'package.json'))) {
    console.log(`skipped: no React Native packages at ${SHARED}`);
    return;
  }
  const root = mkdtempSync(path.join(tmpdir(), 'bridged-bench-app-'));
  cpSync(path.join(here, 'react-native-app'), root, { recursive: true });
  symlinkSync(SHARED, path.join(root, 'node_modules'));
  const cache = mkdtempSync(path.join(tmpdir(), 'bridged-bench-cache-'));
  const socket = path.join(root, 'b.sock');
  // A mount of 10,000 rows is one batch of several MiB.
  const daemon = spawn(BIN, ['--socket', socket, '--max-frame-bytes', String(64 << 20)], { stdio: ['ignore', 'ignore', 'ignore'] });
  await new Promise((r) => setTimeout(r, 500));
  const run = (mode) => {
    const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, root, cache, socket], { encoding: 'utf8', env: process.env });
    if (out.status !== 0) throw new Error(`${mode}: ${out.stderr}`);
    return JSON.parse(out.stdout.trim().split('\n').pop());
  };
  const results = {};
  results.cold = run('bridged');
  results.warm = run('bridged');
  const daemonRss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${daemon.pid}/status`, 'utf8'))[1]) / 1024;
  results.floor = run('floor');
  const exited = new Promise((resolve) => daemon.once('exit', resolve));
  daemon.kill('SIGTERM');
  await exited;
  rmSync(root, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
  const summary = {
    rows: ROWS,
    rounds: ROUNDS,
    openAndRenderMs: { cold: results.cold.openMs, warm: results.warm.openMs, floorWarm: results.floor.openMs, warmOverFloor: results.warm.openMs / results.floor.openMs },
    pressToCommitMedianMs: { bridged: results.warm.pressMedianMs, floor: results.floor.pressMedianMs, bridgedWholePress: results.warm.pressWholeMedianMs },
    mountMs: Object.fromEntries(
      MOUNT_ROWS.map((rows) => [rows, { bridged: results.warm.mountMs[rows], floor: results.floor.mountMs[rows], ratio: results.warm.mountMs[rows] / results.floor.mountMs[rows] }]),
    ),
    memoryMB: { nodeRss: results.warm.rssMB, nodeHeap: results.warm.heapMB, floorNodeRss: results.floor.rssMB, daemonRssAfterRuns: daemonRss },
    transforms: { cold: { hits: results.cold.hits, misses: results.cold.misses }, warm: { hits: results.warm.hits, misses: results.warm.misses } },
  };
  console.log(JSON.stringify(summary, null, 2));
  const out = process.argv.indexOf('--json');
  if (out > 0) writeFileSync(process.argv[out + 1], `${JSON.stringify(summary, null, 2)}\n`);
}

if (process.argv[2] === '--child') {
  const [, , , mode, root, cache, socket] = process.argv;
  console.log(JSON.stringify(await child(mode, root, cache, socket)));
  process.exit(0);
} else {
  await main();
}
