#!/usr/bin/env node
// react-native-scale.mjs: React Native's renderer files alone (paper's ReactNativeRenderer-dev.js, Fabric's
// ReactFabric-dev.js) into bridged through attachReactNative, against the same renderer file into a native side
// that does nothing (the floor: React's and the renderer's own work), in the same run.
//
//   mount     `rows` rows (an RCTView holding an RCTText) into a new root, until the daemon applied the commit, at
//             1,000 and 10,000 rows, alternated with the floor; bridged ÷ floor (target ≤ 1.25), wall and CPU; and,
//             in a process of its own, the attachment alone (its batches made into JSON and answered at once: no
//             socket, no daemon) ÷ the floor (`attachmentAlone`)
//   siblings  50,000 keyed RCTViews under one parent, then their reverse, a shuffle and their removal (clear),
//             each one commit: its time (target < 1 s), the largest batch in bytes (into a daemon with its default
//             frame, 1 MiB: a longer batch goes in parts, protocol.md "A batch in parts"), and this Node process's peak RSS (target < 300 MB), bridged and floor each in a process of
//             its own; on paper also the renderer file as React Native ships it into nothing (floorAsShipped:
//             without linear-paper.js's changes, which the floor and bridged both load)
//
// Both architectures render legacy (synchronous) roots here, so that the floor's time is the render call's.
//
//   NODE_PATH=/usr/share/nodejs BRIDGED_RN_RENDERER=… BRIDGED_RN_FABRIC_RENDERER=… node bench/react-native-scale.mjs
//
// Environment: BRIDGED_BIN (default ../.build/release/bridged), BENCH_RUNS (mount rounds, 7), BENCH_WARMUP (mount
// rounds not counted first, each of bridged and floor, 3), BENCH_ONLY (mount or siblings: that case alone), BENCH_SIBLINGS
// (50000), BENCH_TIMEOUT_S (each measuring process is killed after it, 300), BENCH_OUT (a JSON file for the figures, e.g. bench/recorded/<date>-<commit>-react-native-scale.json),
// BENCH_JS_CLIENT (the js-client directory to measure, default ../js-client: another checkout's, for a before).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fabricFloorManager, median } from './react-native-floor.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const CLIENT = path.resolve(process.env.BENCH_JS_CLIENT ?? path.join(root, 'js-client'));
const RENDERERS = { paper: process.env.BRIDGED_RN_RENDERER, fabric: process.env.BRIDGED_RN_FABRIC_RENDERER };
const BIN = process.env.BRIDGED_BIN ?? [path.join(root, '.build/release/bridged'), path.join(root, '.build/debug/bridged')].find((p) => fs.existsSync(p));
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 7) | 0);
const WARMUP = Math.max(0, Number(process.env.BENCH_WARMUP ?? 3) | 0);
const ONLY = process.env.BENCH_ONLY ?? null;
const SIBLINGS = Number(process.env.BENCH_SIBLINGS ?? 50_000);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S ?? 300) * 1000;

const require = createRequire(import.meta.url);
const React = require('react');
const scheduler = require('scheduler');
const h = React.createElement;
const round = (x) => Math.round(x * 1000) / 1000;
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function load() {
  const { connect } = await import(pathToFileURL(path.join(CLIENT, 'index.js')));
  const rn = await import(pathToFileURL(path.join(CLIENT, 'lib/react-native.js')));
  const loadModule = await import(pathToFileURL(path.join(CLIENT, 'lib/react-native/renderer/load.js')));
  const { startDaemon } = await import(pathToFileURL(path.join(CLIENT, 'test-support/daemon.js')));
  const { kRequest } = await import(pathToFileURL(path.join(CLIENT, 'lib/internal.js')));
  return { connect, ...rn, ...loadModule, startDaemon, kRequest };
}

/** The renderer file of `architecture` into nothing: {render(element, rootTag), unmount(rootTag)}. */
function floorRenderer(lib, architecture, components, { asShipped = false } = {}) {
  const registry = new lib.ViewConfigRegistry();
  for (const name of Object.keys(components)) registry.register(name, () => lib.viewConfigFor(name, components));
  const nothing = new Proxy({}, { get: (_, name) => (name === 'then' ? undefined : () => {}) });
  const modules = lib.privateModules({ React, scheduler, UIManager: nothing, registry, emitter: { register() {} }, onError() {} });
  if (architecture === 'fabric') {
    const renderer = lib.evaluateRenderer(RENDERERS.fabric, modules, { fabricUIManager: fabricFloorManager() });
    return { render: (element, tag) => renderer.render(element, tag, null, false), unmount: (tag) => renderer.stopSurface(tag) };
  }
  const renderer = lib.evaluateRenderer(RENDERERS.paper, modules, { asShipped });
  return { render: (element, tag) => renderer.render(element, tag), unmount: (tag) => renderer.unmountComponentAtNodeAndRemoveContainer(tag) };
}

function Rows({ count }) {
  const items = [];
  for (let i = 0; i < count; i++) items.push(h('RCTView', { key: i, testID: `row-${i}`, style: { padding: 4 } }, h('RCTText', null, `row ${i}`)));
  return h('RCTView', { testID: 'list' }, items);
}

function Siblings({ order }) {
  return h('RCTView', { testID: 'list' }, order.map((i) => h('RCTView', { key: i, testID: `r${i}` })));
}

/** A fixed shuffle of `list` (a linear congruential generator, the same every run). */
function shuffled(list) {
  const out = [...list];
  let seed = 12345;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * A Bridge for the attachment alone (`mountAlone`): its batches are made into their JSON line and answered at once,
 * never written. A mount through it is the attachment's own JavaScript (the ops, their bookkeeping,
 * `JSON.stringify`) over React's: what the attachment costs before the socket and the daemon do anything.
 */
function answeredAtOnce(lib, bridge) {
  const answered = (send) => (frame, options) => {
    if (frame.op !== 'batch') return send(frame, options);
    JSON.stringify(frame);
    return Promise.resolve(frame.more ? { staged: (frame.at ?? 0) + frame.ops.length } : { results: [] });
  };
  bridge.request = answered(bridge.request.bind(bridge));
  bridge[lib.kRequest] = answered(bridge[lib.kRequest].bind(bridge));
  return bridge;
}

/** Mount ratios of one architecture: bridged and floor alternated, `RUNS` rounds after `WARMUP` to warm up (V8's
 *  compilers: the first rounds of either side are up to three times its median). With `alone`, the attachment
 *  alone (answeredAtOnce) in place of bridged, in a process of its own. */
async function mount(lib, architecture, alone = false) {
  const daemon = await lib.startDaemon(['--max-frame-bytes', String(64 << 20)]);
  const bridge = await lib.connect({ socket: daemon.socket });
  const results = {};
  try {
    const floor = floorRenderer(lib, architecture, bridge.components);
    if (alone) answeredAtOnce(lib, bridge);
    const rn = await lib.attachReactNative(bridge, { architecture, renderer: RENDERERS[architecture], react: React, scheduler, concurrentRoot: false });
    let floorTag = 1;
    for (const rows of [1000, 10_000]) {
      const wall = { bridged: [], floor: [] };
      const cpus = { bridged: [], floor: [] };
      for (let r = -WARMUP; r < RUNS; r++) {
        const tag = floorTag;
        floorTag += 10;
        let c = cpu();
        let start = performance.now();
        floor.render(h(Rows, { count: rows }), tag);
        const floorWall = performance.now() - start;
        const floorCpu = cpu() - c;
        floor.unmount(tag);
        // The attachment alone is never idle (its batches are answered at once), so what it leaves for the collector
        // would be collected during the floor's next round: each side's garbage is collected after it instead.
        if (alone) globalThis.gc();
        c = cpu();
        start = performance.now();
        const mounted = await rn.render(h(Rows, { count: rows }));
        const bridgedWall = performance.now() - start;
        const bridgedCpu = cpu() - c;
        await mounted.unmount();
        if (alone) globalThis.gc();
        if (r < 0) continue;
        wall.floor.push(floorWall);
        wall.bridged.push(bridgedWall);
        cpus.floor.push(floorCpu);
        cpus.bridged.push(bridgedCpu);
      }
      results[rows] = {
        ms: { bridged: round(median(wall.bridged)), floor: round(median(wall.floor)) },
        ratio: round(median(wall.bridged) / median(wall.floor)),
        cpuMs: { bridged: round(median(cpus.bridged)), floor: round(median(cpus.floor)) },
        cpuRatio: round(median(cpus.bridged) / median(cpus.floor)),
        values: { bridged: wall.bridged.map(round), floor: wall.floor.map(round) },
      };
    }
    await rn.detach();
  } finally {
    await bridge.close();
    await daemon.stop();
  }
  return results;
}

/** The siblings case of one architecture into `into` ('bridged' or 'floor'), in this process. */
async function siblings(lib, architecture, into) {
  const n = SIBLINGS;
  // The daemon's default frame (1 MiB): the mount's batch (about 90 bytes a row) goes in parts.
  const daemon = await lib.startDaemon();
  const bridge = await lib.connect({ socket: daemon.socket });
  const out = { n, steps: {} };
  try {
    let batchBytes = [];
    const request = bridge.request.bind(bridge);
    // Every batch the attachment sends, its parts too (they go by kRequest, not request()): the frame's size, as
    // the Bridge writes it (its id aside), measured outside the timed steps' own work.
    const sendRequest = bridge[lib.kRequest].bind(bridge);
    bridge[lib.kRequest] = (frame, options) => {
      if (frame.op === 'batch') batchBytes.push(frame);
      return sendRequest(frame, options);
    };
    const order0 = Array.from({ length: n }, (_, i) => i);
    const steps = [
      ['mount', order0],
      ['reverse', [...order0].reverse()],
      ['shuffle', shuffled(order0)],
      ['clear', []],
    ];
    let render;
    if (into === 'floor' || into === 'shipped') {
      const floor = floorRenderer(lib, architecture, bridge.components, { asShipped: into === 'shipped' });
      render = async (element) => floor.render(element, 1);
    } else {
      const rn = await lib.attachReactNative(bridge, { architecture, renderer: RENDERERS[architecture], react: React, scheduler, concurrentRoot: false });
      let mounted = null;
      render = async (element) => {
        if (mounted === null) mounted = await rn.render(element);
        else await mounted.render(element);
      };
    }
    for (const [name, order] of steps) {
      batchBytes = [];
      const c = cpu();
      const start = performance.now();
      await render(h(Siblings, { order }));
      const ms = performance.now() - start;
      const cpuMs = cpu() - c;
      const bytes = batchBytes.map((frame) => Buffer.byteLength(JSON.stringify(frame)) + 10);
      const memory = process.memoryUsage();
      out.steps[name] = {
        ms: round(ms),
        cpuMs: round(cpuMs),
        batches: bytes.length,
        largestBatchBytes: bytes.length ? Math.max(...bytes) : 0,
        // After the step: where the peak comes from (the process's RSS, V8's heap and what it holds).
        rssMB: round(memory.rss / 2 ** 20),
        heapTotalMB: round(memory.heapTotal / 2 ** 20),
        heapUsedMB: round(memory.heapUsed / 2 ** 20),
        peakRssMB: round(process.resourceUsage().maxRSS / 1024),
      };
    }
    out.views = (await request({ op: 'stats' })).sessionViews;
  } finally {
    await bridge.close();
    await daemon.stop();
  }
  out.peakRssMB = round(process.resourceUsage().maxRSS / 1024);
  return out;
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const lib = await load();
  const [, what, architecture, into] = args;
  const result = what === 'mount' || what === 'mountAlone' ? await mount(lib, architecture, what === 'mountAlone') : await siblings(lib, architecture, into);
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

const child = (...rest) => {
  const flags = rest[0] === 'mountAlone' ? ['--expose-gc'] : [];
  const run = spawnSync(process.execPath, [...flags, fileURLToPath(import.meta.url), '--child', ...rest], {
    encoding: 'utf8',
    env: { ...process.env, BRIDGED_BIN: BIN },
    maxBuffer: 64 << 20,
    timeout: TIMEOUT_MS,
  });
  if (run.error?.code === 'ETIMEDOUT' || run.signal === 'SIGTERM') return { failed: `not done in ${TIMEOUT_MS / 1000} s (killed)` };
  if (run.status !== 0) return { failed: (run.stderr || run.stdout || `signal ${run.signal}`).split('\n').slice(-8).join('\n') };
  return JSON.parse(run.stdout);
};

const result = { daemon: BIN.includes('release') ? 'release' : 'debug', jsClient: path.relative(root, CLIENT) || CLIENT, runs: RUNS, warmup: WARMUP, mount: {}, siblings: {} };
for (const architecture of ['paper', 'fabric']) {
  if (!RENDERERS[architecture]) {
    result.mount[architecture] = 'skipped: no renderer file';
    continue;
  }
  if (ONLY !== 'siblings') {
    result.mount[architecture] = child('mount', architecture);
    // The attachment's JavaScript alone over the floor: the mount ratio before the socket and the daemon do anything.
    result.mount[architecture].attachmentAlone = child('mountAlone', architecture);
  }
  if (ONLY === 'mount') continue;
  result.siblings[architecture] = { bridged: child('siblings', architecture, 'bridged'), floor: child('siblings', architecture, 'floor') };
  // Paper's file as React Native ships it, without linear-paper.js's two changes (the floor and bridged load it with them).
  if (architecture === 'paper') result.siblings.paper.floorAsShipped = child('siblings', architecture, 'shipped');
}
const text = JSON.stringify(result, null, 1);
console.log(text);
if (process.env.BENCH_OUT) fs.writeFileSync(process.env.BENCH_OUT, text + '\n');
