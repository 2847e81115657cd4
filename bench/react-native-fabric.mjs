#!/usr/bin/env node
// react-native-fabric.mjs: React Native's Fabric renderer (ReactFabric-dev.js) rendering rows into bridged,
// against the same renderer rendering into a nativeFabricUIManager that only builds its nodes (the floor: what
// React itself costs). Runs only when $BRIDGED_RN_FABRIC_RENDERER names the renderer file; React and scheduler
// are the app's (NODE_PATH=/usr/share/nodejs for Debian's).
//
//   mount        1,000 rows (a View with a Text each: 3,001 nodes) rendered into a new root, until the daemon
//                applied the commit; bridged ÷ floor is the overhead of the attachment and the daemon, and
//                (floor + the diff + the send) ÷ floor the attachment's own
//   one row      one row's prop changed: the ops sent (one update) and the time of completeRoot (the diff and
//                the batch's send) at 1,000 and 10,000 rows: the diff visits the changed nodes, not the tree
//
// Environment: BRIDGED_BIN (default ../.build/release/bridged, else ../.build/debug/bridged), BENCH_RUNS (7),
// BENCH_OUT (a JSON file to write the figures to, e.g. bench/recorded/<date>-<commit>-react-native-fabric.json).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { connect } from '../js-client/index.js';
import { attachReactNative, createFabricUIManager } from '../js-client/lib/react-native.js';
import { fabricFloorManager as floorManager, median } from './react-native-floor.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const RENDERER = process.env.BRIDGED_RN_FABRIC_RENDERER;
if (!RENDERER) {
  console.log('react-native-fabric: skipped ($BRIDGED_RN_FABRIC_RENDERER names no ReactFabric-dev.js)');
  process.exit(0);
}
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 7) | 0);
const BIN =
  process.env.BRIDGED_BIN ??
  [path.join(root, '.build/release/bridged'), path.join(root, '.build/debug/bridged')].find((p) => fs.existsSync(p));

const require = createRequire(import.meta.url);
const React = require('react');
const scheduler = require('scheduler');
const h = React.createElement;

/**
 * The bridged manager, measured: each completeRoot's time split into the diff (building the ops) and the send
 * (the batch checked, encoded and written by the Bridge), and the ops of each batch sent.
 */
function measuredManager(native, record) {
  const manager = createFabricUIManager(native);
  const completeRoot = manager.completeRoot;
  const flush = native.flush.bind(native);
  let send = 0;
  native.flush = () => {
    const start = performance.now();
    try {
      return flush();
    } finally {
      send += performance.now() - start;
    }
  };
  manager.completeRoot = (rootTag, set) => {
    send = 0;
    const start = performance.now();
    completeRoot(rootTag, set);
    const total = performance.now() - start;
    record.completeRoot.push({ diff: total - send, send, looked: manager.looked() });
  };
  const request = native.bridge.request.bind(native.bridge);
  native.bridge.request = (frame) => {
    if (frame.op === 'batch') record.batches.push(frame.ops);
    return request(frame);
  };
  return manager;
}

function Row({ i, label }) {
  return h('RCTView', { testID: `row-${i}`, accessibilityLabel: label }, h('RCTText', null, `row ${i}`));
}
/** `rows` rows; `labels` gives some rows a label of their own (the others are 'row'). */
function List({ rows, labels = {} }) {
  const children = [];
  for (let i = 0; i < rows; i++) children.push(h(Row, { key: i, i, label: labels[i] ?? 'row' }));
  return h('RCTView', { testID: 'list' }, children);
}

const round = (x) => Math.round(x * 1000) / 1000;
const summary = (values) => ({ median: round(median(values)), min: round(Math.min(...values)), max: round(Math.max(...values)), values: values.map(round) });

// A mount of 10,000 rows is one batch of 30,001 creates, about 3 MB: more than the default --max-frame-bytes.
const DAEMON_ARGS = ['--max-frame-bytes', String(64 << 20)];
process.env.BRIDGED_BIN = BIN;
const { startDaemon } = await import('../js-client/test-support/daemon.js');

/** The CPU time a process used so far, in ms (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuOf(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** This process's CPU time so far, in ms (every thread: React, the attachment, the GC). */
const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function withBridge(fn) {
  const daemon = await startDaemon(DAEMON_ARGS);
  const bridge = await connect({ socket: daemon.socket });
  try {
    return await fn(bridge, daemon.child.pid);
  } finally {
    await bridge.close();
    await daemon.stop();
  }
}

async function attach(bridge, fabricUIManager) {
  const rn = await attachReactNative(bridge, { architecture: 'fabric', renderer: RENDERER, react: React, scheduler, fabricUIManager });
  await rn.settled();
  return rn;
}

/**
 * One mount of `rows` rows into a new root: the time until render() resolved (the daemon applied the commit)
 * and, for bridged, its diff's and its send's time.
 */
async function mountOnce(bridge, rows, bridged, pid) {
  const record = { completeRoot: [], batches: [] };
  const rn = await attach(bridge, bridged ? (native) => measuredManager(native, record) : () => floorManager());
  const cpu = ownCpu();
  const daemonBefore = pid ? cpuOf(pid) : 0;
  const start = performance.now();
  const root = await rn.render(h(List, { rows }));
  const applied = performance.now() - start;
  const cpuMs = ownCpu() - cpu;
  const daemonCpu = pid ? cpuOf(pid) - daemonBefore : 0;
  const last = record.completeRoot.at(-1);
  const ops = record.batches.at(-1)?.length ?? 0;
  await root.unmount();
  await rn.detach();
  return { applied, cpu: cpuMs, daemonCpu, diff: last?.diff, send: last?.send, ops };
}

async function mount(rows) {
  return withBridge(async (bridge, pid) => {
    const floor = [];
    const floorCpu = [];
    const bridgedCpu = [];
    let daemonCpu = 0;
    const applied = [];
    const diff = [];
    const send = [];
    let ops = 0;
    // Warm up both (the renderer's code, the daemon's allocations), then alternate.
    await mountOnce(bridge, rows, false);
    await mountOnce(bridge, rows, true);
    for (let run = 0; run < RUNS; run++) {
      const base = await mountOnce(bridge, rows, false);
      floor.push(base.applied);
      floorCpu.push(base.cpu);
      const one = await mountOnce(bridge, rows, true, pid);
      daemonCpu += one.daemonCpu;
      bridgedCpu.push(one.cpu);
      applied.push(one.applied);
      diff.push(one.diff);
      send.push(one.send);
      ops = one.ops;
    }
    return {
      rows,
      nodes: rows * 3 + 1,
      ops_sent: ops,
      floor_ms: summary(floor),
      bridged_applied_ms: summary(applied),
      diff_ms: summary(diff),
      send_ms: summary(send),
      ratio_applied: round(median(applied) / median(floor)),
      // CPU time, which other processes on the machine do not add to: this process's for the floor; for
      // bridged, this process's and the daemon's (the mean over the runs of 10 ms clock ticks read around each mount).
      floor_cpu_ms: summary(floorCpu),
      bridged_cpu_ms: summary(bridgedCpu),
      daemon_cpu_ms_per_mount: round(daemonCpu / RUNS),
      ratio_cpu: round((median(bridgedCpu) + daemonCpu / RUNS) / median(floorCpu)),
      // The attachment's own work over React's: the floor plus the diff and the send.
      ratio_js: round((median(floor) + median(diff) + median(send)) / median(floor)),
    };
  });
}

/**
 * RUNS commits that each change one prop of one row (its label), in a tree of `rows` rows: the ops each sent,
 * the diff's and the send's time, and the whole commit's time against the floor's.
 */
async function oneRow(rows) {
  return withBridge(async (bridge) => {
    const record = { completeRoot: [], batches: [] };
    const measure = async (rn, collect) => {
      const root = await rn.render(h(List, { rows }));
      const labels = {};
      const commits = [];
      for (let run = 0; run < RUNS + 1; run++) {
        labels[(run * 7919) % rows] = `changed ${run}`;
        record.completeRoot.length = 0;
        record.batches.length = 0;
        const start = performance.now();
        await root.render(h(List, { rows, labels: { ...labels } }));
        if (run > 0) {
          commits.push(performance.now() - start);
          collect?.();
        }
      }
      await root.unmount();
      await rn.detach();
      return commits;
    };
    // A first round warms React's update path up (its commits were slower than both that follow).
    await measure(await attach(bridge, () => floorManager()));
    const floor = await measure(await attach(bridge, () => floorManager()));
    const diff = [];
    const send = [];
    const ops = [];
    const looked = [];
    const bridged = await measure(await attach(bridge, (native) => measuredManager(native, record)), () => {
      if (record.completeRoot.length !== 1) throw new Error(`expected one completeRoot, got ${record.completeRoot.length}`);
      diff.push(record.completeRoot[0].diff);
      send.push(record.completeRoot[0].send);
      looked.push(record.completeRoot[0].looked);
      ops.push(record.batches.flat().map((op) => `${op.op} ${Object.keys(op.props ?? {}).join(',')}`.trim()));
    });
    return { rows, ops_per_commit: ops, nodes_looked_at: looked, diff_ms: summary(diff), send_ms: summary(send), floor_commit_ms: summary(floor), bridged_commit_ms: summary(bridged) };
  });
}

const commit = (() => {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();

const results = {
  meta: {
    date: new Date().toISOString(),
    host: os.hostname(),
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    loadavgAtStart: os.loadavg().map((x) => x.toFixed(2)),
    node: process.version,
    react: React.version,
    renderer: RENDERER,
    daemonBin: BIN,
    daemonArgs: DAEMON_ARGS,
    runs: RUNS,
    commit,
  },
  mount: await mount(1000),
  oneRow: [await oneRow(1000), await oneRow(10_000)],
};
const [small, big] = results.oneRow;
results.diff_10k_over_1k = round(big.diff_ms.median / small.diff_ms.median);

const f = (s) => `${s.median} ms (${s.min}–${s.max})`;
const m = results.mount;
console.log(`daemon ${BIN}; ${RUNS} runs; medians (min–max)`);
console.log(`mount of ${m.rows} rows (${m.nodes} nodes, ${m.ops_sent} ops in one batch):`);
console.log(`  floor (a manager that only builds nodes)  ${f(m.floor_ms)}`);
console.log(`  bridged, until the daemon applied it       ${f(m.bridged_applied_ms)}   ratio ${m.ratio_applied}`);
console.log(`  the diff ${f(m.diff_ms)}, the send ${f(m.send_ms)}: (floor + diff + send) ÷ floor ${m.ratio_js}`);
console.log(`  CPU: floor ${f(m.floor_cpu_ms)}; bridged ${f(m.bridged_cpu_ms)} + the daemon's ${m.daemon_cpu_ms_per_mount} ms: ratio ${m.ratio_cpu}`);
for (const r of results.oneRow) {
  const kinds = [...new Set(r.ops_per_commit.map((ops) => JSON.stringify(ops)))].join(' ');
  console.log(`one prop of one row changed, ${r.rows} rows: ops per commit ${kinds}; nodes the diff looked at ${[...new Set(r.nodes_looked_at)].join(', ')}`);
  console.log(`  diff ${f(r.diff_ms)}; send ${f(r.send_ms)}; whole commit: floor ${f(r.floor_commit_ms)}, bridged ${f(r.bridged_commit_ms)}`);
}
console.log(`diff at 10,000 rows ÷ at 1,000: ${results.diff_10k_over_1k}`);
if (process.env.BENCH_OUT) fs.writeFileSync(process.env.BENCH_OUT, JSON.stringify(results, null, 2) + '\n');
