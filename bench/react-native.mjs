// React Native's renderer into bridged, against the same renderer into a UIManager that does nothing (the
// renderer's own cost), in one run. Needs BRIDGED_RN_RENDERER (ReactNativeRenderer-dev.js) and React
// (NODE_PATH=/usr/share/nodejs); uses the release daemon if built, else the debug one.
//
//   NODE_PATH=/usr/share/nodejs BRIDGED_RN_RENDERER=… node bench/react-native.mjs [rows] [rounds]
//
// Reports, as medians of `rounds` alternated rounds:
//   (a) mounting `rows` rows (a View with a Text each) into bridged ÷ into nothing       (target ≤ 1.25)
//   (b) one row's prop changed: the ops it sends (target: one update), its render → applied time ÷ (the
//       daemon's bare round trip + the renderer's own time for the same change)            (target ≤ 1.5)
//   (c) the daemon's memory per mounted row (RSS after mounting 10 × rows, over the rows)   (target ≤ 2 KiB)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../js-client/index.js';
import { attachReactNative, loadRenderer, ViewConfigRegistry, viewConfigFor } from '../js-client/lib/react-native.js';
import { waitForSocket } from '../js-client/test-support/daemon.js';

const RENDERER = process.env.BRIDGED_RN_RENDERER;
if (!RENDERER) {
  console.error('BRIDGED_RN_RENDERER names no ReactNativeRenderer-dev.js: nothing to measure');
  process.exit(2);
}
const rows = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 7);
const require = createRequire(import.meta.url);
const React = require('react');
const scheduler = require('scheduler');
const h = React.createElement;
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = [join(root, '.build/release/bridged'), join(root, '.build/debug/bridged')].find(existsSync);
const dir = mkdtempSync(join(tmpdir(), 'rn-bench-'));
const socket = join(dir, 'b.sock');
// A commit is one batch, one frame: 10 × rows rows need more than the default 1 MiB.
const daemon = spawn(bin, ['--socket', socket, '--max-frame-bytes', String(64 << 20)], { stdio: 'ignore' });
await waitForSocket(socket, daemon);

const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
/** The daemon's CPU time so far, in ms (10 ms clock ticks). */
const daemonCpu = () => {
  const stat = readFileSync(`/proc/${daemon.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${daemon.pid}/status`, 'utf8'))[1]) * 1024;

function List({ count, changed }) {
  const items = [];
  for (let i = 0; i < count; i++) {
    items.push(h('RCTView', { key: i, testID: `row-${i}`, style: { padding: 4, opacity: i === changed ? 0.5 : 1 } }, h('RCTText', null, `row ${i}`)));
  }
  return h('RCTView', { testID: 'list' }, items);
}

// The renderer into nothing: a UIManager whose every call returns at once.
const probe = await connect({ socket });
const components = probe.components;
await probe.close();
const nothing = new Proxy({}, { get: (_, name) => (name === 'then' ? undefined : () => {}) });
const registry = new ViewConfigRegistry();
for (const name of Object.keys(components)) registry.register(name, () => viewConfigFor(name, components));
const bare = loadRenderer(RENDERER, { React, scheduler, UIManager: nothing, registry });
let nothingRoot = 1;

const mountInto = { bridged: [], nothing: [] };
/** CPU time of the mounts, which the machine's other load does not add to: this process's, and the daemon's. */
const mountCpu = { nothing: [], bridged: [], daemon: [] };
const change = { bridged: [], nothing: [], roundTrip: [] };
let opsOfChange = null;
// One attachment for every round, as the renderer into nothing is one copy: both copies warm alike.
const bridge = await connect({ socket });
const trace = [];
const rn = await attachReactNative(bridge, { renderer: RENDERER, react: React, scheduler, trace });
for (let round = -1; round < rounds; round++) {
  // Into nothing.
  const tag = nothingRoot;
  nothingRoot += 10;
  let cpuStart = cpu();
  let start = now();
  bare.render(h(List, { count: rows, changed: -1 }), tag);
  const nothingMount = now() - start;
  const nothingCpu = cpu() - cpuStart;
  start = now();
  bare.render(h(List, { count: rows, changed: 7 }), tag);
  const nothingChange = now() - start;
  bare.unmountComponentAtNodeAndRemoveContainer(tag);

  // Into bridged.
  cpuStart = cpu();
  const daemonStart = daemonCpu();
  start = now();
  const mounted = await rn.render(h(List, { count: rows, changed: -1 }));
  const bridgedMount = now() - start;
  const bridgedCpu = cpu() - cpuStart;
  const bridgedDaemonCpu = daemonCpu() - daemonStart;
  const before = trace.length;
  start = now();
  await mounted.render(h(List, { count: rows, changed: 7 }));
  const bridgedChange = now() - start;
  if (round >= 0) {
    // Round -1 warms both up.
    mountInto.nothing.push(nothingMount);
    mountCpu.nothing.push(nothingCpu);
    mountCpu.bridged.push(bridgedCpu);
    mountCpu.daemon.push(bridgedDaemonCpu);
    change.nothing.push(nothingChange);
    mountInto.bridged.push(bridgedMount);
    change.bridged.push(bridgedChange);
  }
  const flushes = trace.slice(before).filter((s) => 'flush' in s);
  const calls = trace.slice(before).filter((s) => 'call' in s);
  opsOfChange = { batches: flushes.length, ops: flushes.reduce((n, s) => n + s.flush, 0), calls: calls.map((c) => c.call) };
  start = now();
  await bridge.request({ op: 'ping' });
  change.roundTrip.push(now() - start);
  await mounted.unmount();
  trace.length = 0;
}

// Memory: the daemon's RSS growth when 10 × rows rows are mounted, over the rows. A first mount of the same size,
// kept, grows the buffers a commit of that size needs (its frame, its parse); the second mount's growth is what
// its rows hold.
const warm = await rn.render(h(List, { count: rows * 10, changed: -1 }));
const baseline = rss();
const big = await rn.render(h(List, { count: rows * 10, changed: -1 }));
const perRow = (rss() - baseline) / (rows * 10);
await big.unmount();
await warm.unmount();
await rn.detach();
await bridge.close();
const exited = new Promise((resolve) => daemon.once('exit', resolve));
daemon.kill('SIGTERM');
await exited; // it saves its state file beside its socket as it exits
rmSync(dir, { recursive: true, force: true });

const m = (list) => Number(median(list).toFixed(2));
const mountRatio = median(mountInto.bridged) / median(mountInto.nothing);
const changeRatio = median(change.bridged) / (median(change.roundTrip) + median(change.nothing));
const result = {
  renderer: RENDERER.split('/').slice(-1)[0],
  daemon: bin.includes('release') ? 'release' : 'debug',
  rows,
  rounds,
  mountMs: { bridged: m(mountInto.bridged), nothing: m(mountInto.nothing), ratio: Number(mountRatio.toFixed(3)), target: 1.25 },
  mountCpuMs: {
    nothing: m(mountCpu.nothing),
    bridged: m(mountCpu.bridged),
    daemonMean: Number((mountCpu.daemon.reduce((a, b) => a + b, 0) / mountCpu.daemon.length).toFixed(2)),
    ratio: Number(((median(mountCpu.bridged) + mountCpu.daemon.reduce((a, b) => a + b, 0) / mountCpu.daemon.length) / median(mountCpu.nothing)).toFixed(3)),
  },
  oneRowChange: {
    ...opsOfChange,
    ms: { bridged: m(change.bridged), rendererAlone: m(change.nothing), daemonRoundTrip: m(change.roundTrip) },
    ratio: Number(changeRatio.toFixed(3)),
    target: 1.5,
  },
  daemonBytesPerRow: { bytes: Math.round(perRow), rowsMounted: rows * 10, target: 2048 },
};
console.log(JSON.stringify(result, null, 2));
