#!/usr/bin/env node
// run.mjs: runs the bridged benchmarks against the daemon and its two anchors, prints a table and
// writes bench/results.json. Zero dependencies; called by `make -C bench` after driver and refserver
// are built into bench/out/.
//
// Servers: daemon (.build/release/bridged, skipped with a note when missing), refserver (C +
// jansson, the floor), node (bench/peer/peer.mjs, what a user would write instead).
// Workloads: one table, WORKLOADS_TABLE (setup, servers, driver arguments, metrics, rows, ratios of each).
// Environment (all optional):
//   BENCH_SCALE=0.1        multiply every count (default 1; a full run takes a few minutes)
//   BENCH_RUNS=3           repetitions of each measurement (medians and min–max are reported)
//   BENCH_WINDOW=512       outstanding requests per client in pipelined workloads
//   BENCH_WORKLOADS=1,2,6  only these workloads (0 is the driver's own capacity)
//   BENCH_STORM_FRAMES, BENCH_CLIENT_FRAMES, BENCH_SCALE_VIEWS, …  one count (see COUNTS)
//   BENCH_SERVERS=node,refserver   only these servers
//   BRIDGED_BIN=/path      the daemon binary (default: ../.build/release/bridged)
//   BENCH_DAEMON_ARGS='…' extra daemon arguments (after --socket PATH)
//   BENCH_OUT=path         where to write the JSON (default: bench/results.json)
//   BENCH_OBSERVER=1       (3) also runs on the daemon with one observer attached (server "daemon+observer")
//   CHART_BIN=/path        (7)'s daemon: bridged plus Examples/CustomComponent's Chart
//                          (default: ../Examples/CustomComponent/.build/release/ChartDaemon)

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const env = process.env;

const SCALE = Number(env.BENCH_SCALE ?? 1);
const RUNS = Math.max(1, Number(env.BENCH_RUNS ?? 3) | 0);
const WINDOW = Number(env.BENCH_WINDOW ?? 512) | 0;
const WORKLOADS = (env.BENCH_WORKLOADS ?? '0,1,2,3,4,5,6,7').split(',').map((s) => Number(s.trim()));
const SERVER_FILTER = env.BENCH_SERVERS ? env.BENCH_SERVERS.split(',').map((s) => s.trim()) : null;
const DAEMON_BIN = env.BRIDGED_BIN ?? path.join(root, '.build/release/bridged');
const CHART_SCHEMA = path.join(root, 'bench/chart.schema.json');
const CHART_BIN = env.CHART_BIN ?? path.join(root, 'Examples/CustomComponent/.build/release/ChartDaemon');
const DAEMON_ARGS = (env.BENCH_DAEMON_ARGS ?? '').split(' ').filter(Boolean);
const OUT = env.BENCH_OUT ?? path.join(here, 'results.json');
const OBSERVER = env.BENCH_OBSERVER === '1';
const DRIVER = path.join(here, 'out/driver');
const REFSERVER = path.join(here, 'out/refserver');
const PEER = path.join(here, 'peer/peer.mjs');

const n = (base, min = 1) => Math.max(min, Math.round(base * SCALE));
const COUNTS = {
  buttons: 1000,
  stormFrames: n(1_000_000, 1000),
  rttSamples: n(20_000, 500),
  rttWarmup: 1000,
  pressFrames: n(500_000, 1000),
  batchSize: 100,
  batchFrames: n(10_000, 10), // × 100 updates each
  clients: 8,
  clientFrames: n(250_000, 1000), // per client
  scaleViews: n(1_000_000, 1000),
  scaleBatch: 1000, // creates per batch frame while building the big tree
  scaleStormFrames: n(500_000, 1000),
  nestedFrames: n(200_000, 1000),
};
// Any count can be set on its own: BENCH_STORM_FRAMES=200000, BENCH_CLIENT_FRAMES=1000000, …
for (const key of Object.keys(COUNTS)) {
  const name = 'BENCH_' + key.replace(/[A-Z]/g, (c) => '_' + c).toUpperCase();
  if (env[name] !== undefined) COUNTS[key] = Number(env[name]);
}
const UPDATE = '{"id":%i,"op":"update","tag":%t,"props":{"count":%c}}';
const PRESS = '{"id":%i,"op":"command","tag":%t,"name":"press"}';
// (7): a Chart's nested props, every one new each time (%c): an array of 10 points, an object (color, edge
// insets, optional string) and a float.
const NESTED_POINTS = Array.from({ length: 10 }, (_, i) => `{"x":${i},"y":%c.5}`).join(',');
const NESTED = `{"id":%i,"op":"update","tag":%t,"props":{"points":[${NESTED_POINTS}],` +
  '"style":{"color":"#3366CC","insets":{"top":%c,"left":2},"label":"cpu"},"lineWidth":%c.25}}';
const BATCH = '{"id":%i,"op":"batch","ops":[%B]}';
const BATCH_INNER = '{"op":"update","tag":%t,"props":{"count":%c}}';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bridged-bench-'));
const notes = [];
const log = (...a) => process.stderr.write(a.join(' ') + '\n');

// ---------- setup files ----------

/** `make` called once, its result kept: a setup file that several workloads use is written once. */
function once(make) {
  let made;
  return () => (made ??= make());
}

function writeLines(name, lines) {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** (7): 1000 Charts, tags 1…1000. */
function chartsSetup() {
  const lines = [];
  for (let t = 1; t <= COUNTS.buttons; t++) {
    lines.push(`{"id":${t},"op":"create","tag":${t},"component":"Chart","props":{"title":"c${t}"}}`);
  }
  return writeLines('charts.jsonl', lines);
}

/** 1000 SwiftUIButtons, tags 1…1000. */
const buttonsSetup = once(() => {
  const lines = [];
  for (let t = 1; t <= COUNTS.buttons; t++) {
    lines.push(`{"id":${t},"op":"create","tag":${t},"component":"SwiftUIButton","props":{"title":"b${t}"}}`);
  }
  return writeLines('buttons.jsonl', lines);
});

// View → View → SwiftUIButton: 10 roots × 10 middles × 10 buttons. Buttons are tags 1…1000.
function pressSetup() {
  const lines = [];
  let id = 0;
  const roots = 10, mids = 10, perMid = COUNTS.buttons / (roots * mids);
  const rootTag = (r) => 1001 + r;
  const midTag = (r, m) => 1001 + roots + r * mids + m;
  for (let r = 0; r < roots; r++) {
    lines.push(`{"id":${++id},"op":"create","tag":${rootTag(r)},"component":"View","props":{"testID":"root${r}"}}`);
    lines.push(`{"id":${++id},"op":"subscribe","tag":${rootTag(r)},"event":"countChange","phase":"capture"}`);
    lines.push(`{"id":${++id},"op":"subscribe","tag":${rootTag(r)},"event":"countChange","phase":"bubble"}`);
    for (let m = 0; m < mids; m++) {
      const mt = midTag(r, m);
      lines.push(`{"id":${++id},"op":"create","tag":${mt},"component":"View","parent":${rootTag(r)}}`);
      lines.push(`{"id":${++id},"op":"subscribe","tag":${mt},"event":"countChange"}`);
      for (let b = 0; b < perMid; b++) {
        const bt = 1 + (r * mids + m) * perMid + b;
        lines.push(`{"id":${++id},"op":"create","tag":${bt},"component":"SwiftUIButton","parent":${mt},"props":{"title":"b${bt}"}}`);
        lines.push(`{"id":${++id},"op":"subscribe","tag":${bt},"event":"countChange"}`);
      }
    }
  }
  return writeLines('press.jsonl', lines);
}

// The big tree: each batch frame creates one View and (scaleBatch − 1) SwiftUIButtons under it.
function scaleSetup(views) {
  const lines = [];
  let tag = 0;
  for (let id = 1; tag < views; id++) {
    const ops = [];
    const parent = ++tag;
    ops.push(`{"op":"create","tag":${parent},"component":"View"}`);
    while (ops.length < COUNTS.scaleBatch && tag < views) {
      ops.push(`{"op":"create","tag":${++tag},"component":"SwiftUIButton","parent":${parent}}`);
    }
    lines.push(`{"id":${id},"op":"batch","ops":[${ops.join(',')}]}`);
  }
  return writeLines('scale.jsonl', lines);
}

// ---------- processes ----------

function connectOnce(sock) {
  return new Promise((resolve) => {
    const c = net.connect(sock);
    c.once('connect', () => { c.destroy(); resolve(true); });
    c.once('error', () => resolve(false));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Every start gets a socket path of its own: the daemon saves its sessions to `<socket>.state` when it stops and
// loads them when it starts, so a daemon started on an earlier workload's path would begin with that workload's
// sessions (bench/README.md, "the bench's daemons inherited each other's sessions", has what that did to (6)).
let starts = 0;

async function startServer(name) {
  const sock = path.join(tmp, `${name}-${++starts}.sock`);
  let cmd, args;
  if (name === 'daemon') [cmd, args] = [DAEMON_BIN, ['--socket', sock, ...DAEMON_ARGS]];
  else if (name === 'chart') [cmd, args] = [CHART_BIN, ['--socket', sock, ...DAEMON_ARGS]];
  else if (name === 'schema') [cmd, args] = [DAEMON_BIN, ['--socket', sock, '--components', CHART_SCHEMA, ...DAEMON_ARGS]];
  else if (name === 'refserver') [cmd, args] = [REFSERVER, ['--socket', sock]];
  else if (name === 'sink') [cmd, args] = [REFSERVER, ['--socket', sock, '--sink']];
  else [cmd, args] = [process.execPath, [PEER, '--socket', sock]];
  const logFile = path.join(tmp, `${name}.log`);
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, { stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  let exited = null;
  child.on('exit', (code, sig) => { exited = { code, sig }; });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited) break;
    if (await connectOnce(sock)) return { name, sock, child, pid: child.pid, logFile };
    await sleep(50);
  }
  if (!exited) child.kill('SIGKILL');
  const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-5).join('\n');
  throw new Error(`${name} did not accept connections on ${sock}${exited ? ` (exited ${JSON.stringify(exited)})` : ''}\n${tail}`);
}

async function stopServer(s) {
  if (!s || s.child.exitCode !== null) return;
  const done = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  const t = setTimeout(() => s.child.kill('SIGKILL'), 5000);
  await done;
  clearTimeout(t);
}

function rssKiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

const TICK = 100; // USER_HZ on Linux
/** What `/proc/<pid>/stat` says of `pid` so far: CPU seconds (user + system) and minor page faults (memory the
 * kernel had to map, and zero, for it); NaN for both once it is gone. */
function usage(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { cpu: (Number(f[11]) + Number(f[12])) / TICK, faults: Number(f[7]) }; // utime, stime; minflt
  } catch { return { cpu: NaN, faults: NaN }; }
}

/** Runs the driver to completion; resolves with its JSON result (plus server CPU seconds used). */
function drive(server, args, timeoutMs = 600_000) {
  return new Promise((resolve, reject) => {
    const before = usage(server.pid);
    const child = spawn(DRIVER, ['--socket', server.sock, '--window', String(WINDOW), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const t = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, sig) => {
      clearTimeout(t);
      if (code !== 0) return reject(new Error(`driver ${sig ?? `exit ${code}`}: ${err.trim()}`));
      const r = JSON.parse(out.trim().split('\n').pop());
      const after = usage(server.pid);
      const cpu = after.cpu - before.cpu;
      r.server_cpu_s = +cpu.toFixed(2);
      // The server's CPU per frame and per op, in µs (issue 30 item 7: the CPU an update costs, whatever the
      // cores used). The setup's frames are not counted in `frames`; theirs is a few ms of the run's CPU.
      r.server_cpu_us_per_frame = r.frames ? +((cpu * 1e6) / r.frames).toFixed(3) : NaN;
      r.server_cpu_us_per_op = r.ops ? +((cpu * 1e6) / r.ops).toFixed(3) : NaN;
      r.server_minor_faults = after.faults - before.faults;
      resolve(r);
    });
  });
}

/**
 * Runs `fn` (a driver run) with one observer on the daemon: a connection that observes (protocol.md,
 * "Observing sessions") the first new session to appear, and reads every change frame it is sent, counting
 * them without parsing. Resolves `fn`'s result with the observer's counts.
 */
async function withObserver(server, fn) {
  const socket = net.connect(server.sock);
  await new Promise((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); });
  let text = '';
  let wanted = null;
  let frames = 0;
  let cutOff = false;
  let counting = false;
  const pending = [];
  socket.on('data', (chunk) => {
    if (counting) {
      // Observing: count the change frames, no parsing.
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) frames++;
      if (chunk.includes('"change":"cutoff"')) cutOff = true;
      return;
    }
    text += chunk.toString('utf8');
    let nl;
    while ((nl = text.indexOf('\n')) !== -1) {
      const line = text.slice(0, nl);
      text = text.slice(nl + 1);
      if (line.startsWith('{"observe"')) {
        frames++;
        if (line.includes('"change":"cutoff"')) cutOff = true;
      } else {
        pending.shift()?.(line);
      }
    }
  });
  const request = (frame) => new Promise((resolve) => {
    pending.push((line) => resolve(JSON.parse(line)));
    socket.write(JSON.stringify(frame) + '\n');
  });
  const hello = await request({ id: 1, op: 'hello', protocol: 1, client: 'bench-observer' });
  const before = new Set((await request({ id: 2, op: 'sessions' })).result.sessions.map((s) => s.session));
  before.add(hello.result.session);
  const run = fn();
  let finished = false;
  run.then(() => { finished = true; }, () => { finished = true; });
  while (!finished && wanted === null) {
    const { sessions } = (await request({ id: 3, op: 'sessions' })).result;
    const fresh = sessions.find((s) => !before.has(s.session) && s.connected);
    if (fresh) {
      const answer = await request({ id: 4, op: 'observe', session: fresh.session });
      if (answer.ok) {
        wanted = fresh.session;
        counting = true;
      } else {
        before.add(fresh.session);
      }
    }
  }
  const result = await run;
  socket.destroy();
  result.observer_frames = frames;
  result.observer_cut_off = cutOff;
  result.observer_attached = wanted !== null;
  return result;
}

/** Starts a driver that builds views and keeps its session open; resolves once they exist. */
function hold(server, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(DRIVER, ['--socket', server.sock, '--window', '64', '--mode', 'hold', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '', err = '';
    const t0 = Date.now();
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('"ready":true')) {
        resolve({
          seconds: (Date.now() - t0) / 1000,
          release: () => new Promise((r) => { child.once('exit', r); child.stdin.end(); }),
        });
      }
    });
    child.on('exit', (code) => { if (!out.includes('"ready"')) reject(new Error(`hold driver exit ${code}: ${err.trim()}`)); });
  });
}

// ---------- statistics ----------

function summarize(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = v.length >> 1;
  const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  return { median, min: v[0], max: v[v.length - 1], runs: v.length };
}

// ---------- workloads ----------

const results = { meta: {}, workloads: {}, ratios: [], notes };

function record(workload, server, metric, runs) {
  const w = (results.workloads[workload] ??= {});
  const s = (w[server] ??= {});
  s[metric] = { ...summarize(runs.map((r) => r[metric])), values: runs.map((r) => r[metric]) };
}

async function measure(workload, servers, makeArgs, metrics) {
  // Interleave servers within each repetition so that drift on a shared machine hits all alike.
  const runs = Object.fromEntries(servers.map((s) => [s.name, []]));
  for (let rep = 0; rep < RUNS; rep++) {
    for (const s of servers) {
      if (runs[s.name] === null) continue;
      try {
        const r = s.observe ? await withObserver(s, () => drive(s, makeArgs(s))) : await drive(s, makeArgs(s));
        if (s.observe) log(`  ${workload} ${s.name}: the observer got ${r.observer_frames} change frames${r.observer_cut_off ? ', then was cut off' : ''}`);
        if (r.errors) notes.push(`${workload} ${s.name}: ${r.errors} error responses, first: ${r.first_error}`);
        runs[s.name].push(r);
        log(`  ${workload} ${s.name} run ${rep + 1}: ${metrics.map((m) => `${m}=${fmt(r[m])}`).join(' ')} (server cpu ${r.server_cpu_s}s, driver cpu ${r.driver_cpu_s}s)`);
      } catch (e) {
        notes.push(`${workload} ${s.name}: ${e.message.split('\n')[0]}`);
        log(`  ${workload} ${s.name}: FAILED ${e.message}`);
        runs[s.name] = null;
      }
    }
  }
  for (const s of servers) {
    if (!runs[s.name] || !runs[s.name].length) continue;
    for (const m of metrics) record(workload, s.name, m, runs[s.name]);
    results.workloads[workload][s.name].raw = runs[s.name];
  }
}

async function withServers(names, fn) {
  const started = [];
  try {
    for (const name of names) {
      try { started.push(await startServer(name)); } catch (e) {
        notes.push(`${name}: ${e.message.split('\n')[0]}`);
        log(`  ${e.message}`);
      }
    }
    await fn(started);
  } finally {
    for (const s of started) await stopServer(s);
  }
}

function fmt(x) {
  if (x === undefined || x === null || !Number.isFinite(x)) return '—';
  if (Math.abs(x) >= 100_000) return `${(x / 1000).toFixed(0)}k`;
  if (Math.abs(x) >= 1000) return `${(x / 1000).toFixed(1)}k`;
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

// ---------- the workloads ----------

const med = (w, s, m) => results.workloads[w]?.[s]?.[m]?.median;
const STORM_ARGS = () => ['--frames', String(COUNTS.stormFrames), '--template', UPDATE, '--tags', `1-${COUNTS.buttons}`];
/** A table row with the three servers' cells of one metric. */
const line = (label, metric, key) => ({ label, metric, key });
/**
 * The ratios of the daemon's CPU per frame (or per op) to the Node peer's (judged against `target`, or `info`)
 * and to the refserver's (info), for workload `n`'s `what`.
 */
const cpuRatios = (n, w, what, metric = 'server_cpu_us_per_frame', target = null) => [
  [`(${n}) daemon CPU per ${what} ÷ node peer's`, `server CPU µs per ${what}`, med(w, 'daemon', metric), med(w, 'node', metric),
    target ?? 1.0, '<=', { info: target === null }],
  [`(${n}) daemon CPU per ${what} ÷ refserver's`, `server CPU µs per ${what}`, med(w, 'daemon', metric),
    med(w, 'refserver', metric), 1.0, '<=', { info: true }],
];
/** A table row with one server's cell in one column, the others empty. */
const single = (label, metric, column, server, key) => ({ label, metric, key, only: { column, server } });

/**
 * Each workload: `id` (its number, as BENCH_WORKLOADS names it), `key` (its name in the JSON), what `log` says,
 * the `servers` it runs on (of those asked for), its `setup` file, the driver's `args` (given the setup file),
 * the `metrics` the driver reports, the `rows` of the printed table and the `ratios` it is judged by (each
 * `[name, what, numerator, denominator, target, comparison, options]`, numerator and denominator medians or
 * values, read once every workload has run). A workload that is not a plain driver run has its own `run`.
 */
const WORKLOADS_TABLE = [
  {
    id: 0,
    key: '0_driver_capacity',
    log: () => `(0) driver capacity: ${COUNTS.stormFrames} pipelined updates into a sink that answers without parsing`,
    servers: () => ['sink'],
    args: () => ['--no-hello', ...STORM_ARGS()],
    metrics: ['frames_per_s', 'driver_cpu_s'],
    rows: [{ ...single('(0) driver into a sink, frames/s', 'frames_per_s', 'refserver', 'sink'), ifMeasured: true }],
    ratios: () => [
      ['driver: sink ÷ daemon', 'driver capacity ÷ daemon update storm', med('0_driver_capacity', 'sink', 'frames_per_s'),
        med('1_update_storm', 'daemon', 'frames_per_s'), 3.0, '>='],
    ],
  },
  {
    id: 1,
    key: '1_update_storm',
    log: () => `(1) update storm: ${COUNTS.stormFrames} pipelined updates over ${COUNTS.buttons} buttons`,
    servers: (all) => all,
    setup: buttonsSetup,
    args: (setup) => ['--setup', setup, ...STORM_ARGS()],
    metrics: ['frames_per_s', 'driver_cpu_s', 'server_cpu_s', 'server_cpu_us_per_frame'],
    rows: [line('(1) update storm, frames/s', 'frames_per_s'), line('(1) server CPU per update, µs', 'server_cpu_us_per_frame')],
    ratios: (w) => [
      ['(1) daemon ÷ refserver', 'update storm frames/s', med(w, 'daemon', 'frames_per_s'), med(w, 'refserver', 'frames_per_s'), 1.0, '>='],
      ['(1) daemon ÷ node peer', 'update storm frames/s', med(w, 'daemon', 'frames_per_s'), med(w, 'node', 'frames_per_s'), 1.0, '>='],
      ...cpuRatios(1, w, 'update', 'server_cpu_us_per_frame', 1.0),
      ['driver: refserver ÷ daemon', 'update storm frames/s, as the issue states it', med(w, 'refserver', 'frames_per_s'),
        med(w, 'daemon', 'frames_per_s'), 3.0, '>='],
      // The anchors against each other, for context.
      ['node peer ÷ refserver', 'update storm frames/s', med(w, 'node', 'frames_per_s'), med(w, 'refserver', 'frames_per_s'), 1, '>=', { info: true }],
    ],
  },
  {
    id: 2,
    key: '2_round_trip',
    log: () => `(2) round trip: ${COUNTS.rttSamples} sequential updates (after ${COUNTS.rttWarmup} warm-up)`,
    servers: (all) => all,
    setup: buttonsSetup,
    args: (setup) => ['--mode', 'rtt', '--setup', setup, '--frames', String(COUNTS.rttSamples), '--warmup', String(COUNTS.rttWarmup),
      '--template', UPDATE, '--tags', `1-${COUNTS.buttons}`],
    metrics: ['p50_us', 'p99_us', 'mean_us'],
    rows: [line('(2) round trip p50, µs', 'p50_us'), line('(2) round trip p99, µs', 'p99_us')],
    ratios: (w) => [
      ['(2) daemon p50 ÷ refserver p50', 'round-trip latency', med(w, 'daemon', 'p50_us'), med(w, 'refserver', 'p50_us'), 1.1, '<='],
      ['node p50 ÷ refserver p50', 'round-trip latency', med(w, 'node', 'p50_us'), med(w, 'refserver', 'p50_us'), 1, '<=', { info: true }],
    ],
  },
  {
    id: 3,
    key: '3_press_storm',
    log: () => `(3) press storm: ${COUNTS.pressFrames} pipelined presses over ${COUNTS.buttons} subscribed buttons, 3 levels deep`,
    servers: (all) => all.filter((s) => s !== 'refserver'),
    // With BENCH_OBSERVER=1 the daemon is measured a second time, in the same repetitions, with an observer.
    measured: (ss) => {
      const daemon = ss.find((s) => s.name === 'daemon');
      return OBSERVER && daemon ? [daemon, { ...daemon, name: 'daemon+observer', observe: true }, ...ss.slice(1)] : ss;
    },
    setup: pressSetup,
    args: (setup) => ['--setup', setup, '--frames', String(COUNTS.pressFrames), '--template', PRESS, '--tags', `1-${COUNTS.buttons}`],
    metrics: ['frames_per_s', 'events_per_s', 'server_cpu_s', 'server_cpu_us_per_frame'],
    rows: [
      line('(3) press storm, frames/s', 'frames_per_s'),
      line('(3) press storm, events/s', 'events_per_s'),
      line('(3) server CPU per press, µs', 'server_cpu_us_per_frame'),
      { ...single('(3) press storm, one observer, frames/s', 'frames_per_s', 'daemon', 'daemon+observer'), when: () => OBSERVER },
    ],
    ratios: (w) => [
      ['(3) daemon ÷ node peer', 'press storm frames/s', med(w, 'daemon', 'frames_per_s'), med(w, 'node', 'frames_per_s'), 1.2, '>='],
      // The refserver emits no events and is not run here: its ratio stays pending.
      cpuRatios(3, w, 'press', 'server_cpu_us_per_frame', 1.0)[0],
      ...(OBSERVER
        ? [['(3) daemon with one observer ÷ without', 'press storm frames/s', med(w, 'daemon+observer', 'frames_per_s'),
            med(w, 'daemon', 'frames_per_s'), 0.9, '>=']]
        : []),
    ],
  },
  {
    id: 4,
    key: '4_batch_updates',
    log: () => `(4) batches: ${COUNTS.batchFrames} pipelined batch frames of ${COUNTS.batchSize} updates`,
    servers: (all) => all,
    setup: buttonsSetup,
    args: (setup) => ['--setup', setup, '--frames', String(COUNTS.batchFrames), '--template', BATCH, '--inner', BATCH_INNER,
      '--batch', String(COUNTS.batchSize), '--tags', `1-${COUNTS.buttons}`],
    metrics: ['ops_per_s', 'frames_per_s', 'server_cpu_s', 'server_cpu_us_per_op'],
    rows: [line('(4) batches of 100, updates/s', 'ops_per_s'), line('(4) server CPU per batched update, µs', 'server_cpu_us_per_op')],
    ratios: (w) => [
      ['(4) daemon batch ÷ refserver batch', 'updates/s in batches of 100', med(w, 'daemon', 'ops_per_s'), med(w, 'refserver', 'ops_per_s'), 1.0, '>='],
      ['(4) daemon batch ÷ node batch', 'updates/s in batches of 100', med(w, 'daemon', 'ops_per_s'), med(w, 'node', 'ops_per_s'), 1.0, '>='],
      ['(4) daemon batch ÷ (1)', 'updates/s in batches ÷ storm frames/s', med(w, 'daemon', 'ops_per_s'), med('1_update_storm', 'daemon', 'frames_per_s'),
        3.0, '>=', { info: true }],
      ['node batch ÷ node (1)', 'updates/s in batches ÷ storm frames/s', med(w, 'node', 'ops_per_s'), med('1_update_storm', 'node', 'frames_per_s'),
        3, '>=', { info: true }],
      ...cpuRatios(4, w, 'batched update', 'server_cpu_us_per_op'),
    ],
  },
  {
    id: 5,
    key: '5_concurrent_clients',
    log: () => `(5) ${COUNTS.clients} concurrent clients × ${COUNTS.clientFrames} pipelined updates, each its own session and buttons`,
    servers: (all) => all,
    setup: buttonsSetup,
    args: (setup) => ['--clients', String(COUNTS.clients), '--setup', setup, '--frames', String(COUNTS.clientFrames),
      '--template', UPDATE, '--tags', `1-${COUNTS.buttons}`],
    metrics: ['frames_per_s', 'server_cpu_s', 'server_cpu_us_per_frame'],
    rows: [line('(5) 8 clients, frames/s (total)', 'frames_per_s'), line('(5) server CPU per update, µs', 'server_cpu_us_per_frame')],
    ratios: (w) => [
      ['(5) daemon ÷ node peer', '8 clients frames/s', med(w, 'daemon', 'frames_per_s'), med(w, 'node', 'frames_per_s'), 1.2, '>='],
      ...cpuRatios(5, w, 'update'),
    ],
  },
  {
    id: 6,
    key: '6_scale', // its results: 6_scale_storm_1k_views, 6_scale_storm_1m_views, 6_scale_memory
    log: () => `(6) scale: ${COUNTS.scaleViews} live views; update storm of ${COUNTS.scaleStormFrames} at 1k and at ${COUNTS.scaleViews} views`,
    servers: (all) => all.filter((s) => s !== 'refserver'),
    setup: () => scaleSetup(COUNTS.scaleViews),
    run: runScale,
    rows: [
      line(() => `(6) storm at ${COUNTS.buttons} views, frames/s`, 'frames_per_s', '6_scale_storm_1k_views'),
      line(() => `(6) storm at ${COUNTS.scaleViews + COUNTS.buttons} views, frames/s`, 'frames_per_s', '6_scale_storm_1m_views'),
      { label: '(6) memory, bytes/view', key: '6_scale_memory', value: (m) => m.bytes_per_view.toFixed(0) },
      { label: '(6) creates, views/s', key: '6_scale_memory', value: (m) => fmt(m.create_views_per_s) },
    ],
    ratios: () => {
      const mem = results.workloads['6_scale_memory'];
      const [k1, m1] = ['6_scale_storm_1k_views', '6_scale_storm_1m_views'];
      return [
        ['(6) daemon memory per view', 'bytes (RSS delta ÷ views)', mem?.daemon?.bytes_per_view, 1, 1024, '<='],
        ['(6) daemon at 1M ÷ at 1k views', 'update storm frames/s', med(m1, 'daemon', 'frames_per_s'), med(k1, 'daemon', 'frames_per_s'), 0.8, '>='],
        ['node memory per view', 'bytes (RSS delta ÷ views)', mem?.node?.bytes_per_view, 1, 1024, '<=', { info: true }],
        ['node at 1M ÷ at 1k views', 'update storm frames/s', med(m1, 'node', 'frames_per_s'), med(k1, 'node', 'frames_per_s'), 0.8, '>=', { info: true }],
      ];
    },
  },
  {
    id: 7,
    key: '7_nested_props',
    log: () => `(7) nested props: ${COUNTS.nestedFrames} pipelined updates of 10 points + an object + a float over ${COUNTS.buttons} Charts`,
    // The daemon's built-ins have no nested prop. The daemon's column is bridged serving the codegen schema
    // bench/chart.schema.json (what a team with a schema runs); "chart" is ChartDaemon (bridged + the Swift
    // Chart of Examples/CustomComponent, props bound to Swift types), when built. The Node peer declares the
    // same Chart and converts the same way.
    servers: (all) => {
      const names = all.filter((s) => s === 'node' || s === 'daemon').map((s) => (s === 'daemon' ? 'schema' : s));
      if (SERVER_FILTER && !SERVER_FILTER.includes('daemon')) {
        // daemon not asked for
      } else if (fs.existsSync(CHART_BIN)) names.push('chart');
      else notes.push(`7 chart skipped: ${CHART_BIN} does not exist (build it with \`swift build -c release\` in Examples/CustomComponent)`);
      return names;
    },
    measured: (ss) => ss.map((s) => (s.name === 'schema' ? { ...s, name: 'daemon' } : s)),
    setup: chartsSetup,
    args: (setup) => ['--setup', setup, '--frames', String(COUNTS.nestedFrames), '--template', NESTED, '--tags', `1-${COUNTS.buttons}`],
    metrics: ['frames_per_s', 'server_cpu_s', 'server_cpu_us_per_frame'],
    rows: [
      line('(7) nested props storm, frames/s', 'frames_per_s'),
      line('(7) server CPU per nested update, µs', 'server_cpu_us_per_frame'),
      single('(7) the same, ChartDaemon (Swift Chart)', 'frames_per_s', 'daemon', 'chart'),
    ],
    ratios: (w) => [
      ['(7) daemon ÷ node peer', 'nested props update storm frames/s (codegen schema Chart)', med(w, 'daemon', 'frames_per_s'),
        med(w, 'node', 'frames_per_s'), 1.0, '>='],
      ['(7) ChartDaemon ÷ node peer', 'nested props update storm frames/s (Swift Chart)', med(w, 'chart', 'frames_per_s'),
        med(w, 'node', 'frames_per_s'), 1.0, '>='],
      cpuRatios(7, w, 'nested update')[0],
    ],
  },
];

/** (6): per server, an update storm at 1k views, then a million views held open (their memory and creation
 * rate), then the same storm beside them. */
async function runScale(entry, servers, scale) {
  for (const name of servers) {
    await withServers([name], async ([s]) => {
      if (!s) return;
      const storm = ['--setup', buttonsSetup(), '--frames', String(COUNTS.scaleStormFrames), '--template', UPDATE, '--tags', `1-${COUNTS.buttons}`];
      await measure('6_scale_storm_1k_views', [s], () => storm, ['frames_per_s']);
      const before = rssKiB(s.pid);
      let held;
      try {
        held = await hold(s, ['--setup', scale]);
      } catch (e) {
        notes.push(`6 ${name}: ${e.message.split('\n')[0]}`);
        log(`  6 ${name}: FAILED ${e.message}`);
        return;
      }
      const after = rssKiB(s.pid);
      const w = (results.workloads['6_scale_memory'] ??= {});
      w[name] = {
        views: COUNTS.scaleViews, rss_before_kib: before, rss_after_kib: after,
        bytes_per_view: ((after - before) * 1024) / COUNTS.scaleViews,
        create_views_per_s: COUNTS.scaleViews / held.seconds,
      };
      log(`  6 ${name}: RSS ${before} → ${after} KiB, ${w[name].bytes_per_view.toFixed(0)} B/view, created at ${fmt(w[name].create_views_per_s)} views/s`);
      await measure('6_scale_storm_1m_views', [s], () => storm, ['frames_per_s']);
      await held.release();
      await sleep(200);
      w[name].rss_after_close_kib = rssKiB(s.pid);
    });
  }
}

/** Runs one workload of the table on the servers asked for. */
async function runWorkload(entry, servers) {
  const names = entry.servers(servers);
  const setup = entry.setup?.();
  log(entry.log());
  if (entry.run) return entry.run(entry, names, setup);
  await withServers(names, (ss) => measure(entry.key, entry.measured ? entry.measured(ss) : ss, () => entry.args(setup), entry.metrics));
}

// ---------- main ----------

function gitCommit() {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch { return null; }
}

async function main() {
  for (const f of [DRIVER, REFSERVER]) {
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: run \`make -C bench\``);
  }
  let servers = ['daemon', 'refserver', 'node'];
  if (!fs.existsSync(DAEMON_BIN)) {
    notes.push(`daemon skipped: ${DAEMON_BIN} does not exist (build it with \`swift build -c release\`); its column and every ratio needing it are pending`);
    servers = servers.filter((s) => s !== 'daemon');
  }
  if (SERVER_FILTER) servers = servers.filter((s) => SERVER_FILTER.includes(s));
  const loadavg = os.loadavg().map((x) => x.toFixed(2));
  results.meta = {
    date: new Date().toISOString(), host: os.hostname(), cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model,
    node: process.version, loadavgAtStart: loadavg, scale: SCALE, runs: RUNS, window: WINDOW, counts: COUNTS,
    servers, daemonBin: DAEMON_BIN, daemonArgs: DAEMON_ARGS, commit: gitCommit(),
  };
  log(`bench: servers ${servers.join(', ')}; scale ${SCALE}; ${RUNS} runs; window ${WINDOW}; load ${loadavg.join(' ')}`);
  for (const entry of WORKLOADS_TABLE) {
    if (WORKLOADS.includes(entry.id)) await runWorkload(entry, servers);
  }
  computeRatios();
  printTables();
  fs.writeFileSync(OUT, JSON.stringify(results, null, 2) + '\n');
  log(`\nwrote ${path.relative(process.cwd(), OUT) || OUT}`);
}

// ---------- ratios ----------

function ratio(name, what, num, den, target, cmp, { info = false, needs = [] } = {}) {
  const value = Number.isFinite(num) && Number.isFinite(den) && den !== 0 ? num / den : undefined;
  let status;
  if (value === undefined) status = 'pending';
  else if (info) status = 'info';
  else status = (cmp === '>=' ? value >= target : value <= target) ? 'pass' : 'miss';
  results.ratios.push({ name, what, value, target: `${cmp} ${target}`, status, needs });
}

/** Every workload's ratios, also of one that did not run (then `pending`). */
function computeRatios() {
  for (const entry of WORKLOADS_TABLE) {
    for (const r of entry.ratios(entry.key)) ratio(...r);
  }
  const d = results.workloads['1_update_storm']?.refserver?.raw;
  if (d?.length) {
    const busy = summarize(d.map((r) => r.driver_cpu_s / r.elapsed_s));
    results.driverBusy = busy;
  }
}

// ---------- output ----------

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')).join('\n');
}

function cell(w, s, m) {
  const x = results.workloads[w]?.[s]?.[m];
  if (!x || !Number.isFinite(x.median)) return '—';
  return x.runs > 1 ? `${fmt(x.median)} [${fmt(x.min)}–${fmt(x.max)}]` : fmt(x.median);
}

function printTables() {
  const servers = ['daemon', 'refserver', 'node'];
  const rows = [['workload (median [min–max])', ...servers]];
  for (const entry of WORKLOADS_TABLE) {
    for (const row of entry.rows) {
      const key = row.key ?? entry.key;
      if (row.when && !row.when()) continue;
      if (row.ifMeasured && !results.workloads[key]) continue;
      const label = typeof row.label === 'function' ? row.label() : row.label;
      if (row.value) {
        const w = results.workloads[key] ?? {};
        rows.push([label, ...servers.map((s) => (w[s] ? row.value(w[s]) : '—'))]);
      } else if (row.only) {
        rows.push([label, ...servers.map((s) => (s === row.only.column ? cell(key, row.only.server, row.metric) : ''))]);
      } else {
        rows.push([label, ...servers.map((s) => cell(key, s, row.metric))]);
      }
    }
  }
  console.log(`\nbridged bench — scale ${SCALE}, ${RUNS} runs, window ${WINDOW}, ${os.cpus().length} cpus\n`);
  console.log(table(rows));
  console.log('');
  const rrows = [['ratio', 'value', 'target', 'status']];
  for (const r of results.ratios) rrows.push([r.name, r.value === undefined ? '—' : r.value.toFixed(2), r.target, r.status]);
  console.log(table(rrows));
  if (results.driverBusy) {
    console.log(`\ndriver CPU while driving the refserver (1): ${(results.driverBusy.median * 100).toFixed(0)}% of one core (median)`);
  }
  if (notes.length) console.log('\nnotes:\n' + notes.map((x) => `  - ${x}`).join('\n'));
}

main()
  .catch((e) => {
    console.error(`bench: ${e.stack ?? e}`);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
