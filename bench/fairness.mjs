// Fairness probe (issue 30, item 6): while one client runs a long request, how long do the other clients wait?
//
//   node bench/fairness.mjs [--bin PATH]... [--runs N] [--ping-interval-ms MS] [--json OUT]
//
// For each binary (default ../.build/release/bridged; several --bin are run interleaved, run by run, so that
// load from other work on the machine falls on all of them alike), a fresh daemon on a temporary socket:
//
// - a long client L (the first connection) runs, `--runs` times each, the three long requests of the issue:
//   a batch of 100,000 creates, a setChildren of 50,000 children (the order reversed each time) and the bye
//   of a session of 100,000 views (a new connection each time);
// - four pingers (worker threads, one connection each, opened right after L: the daemon's two event loops
//   take connections in turn, so pingers 2 and 4 share L's loop and 1 and 3 have the other one; the count of
//   connections says which loop each later one is on) send pings,
//   one in flight each, `--ping-interval-ms` (default 1; 0: back to back) after the last answer, all along;
// - all through each long request, new clients connect and say hello, one after the other, from a
//   thread of their own, 10 ms apart ("late hello": connect to answer; they take turns between the loops).
//
// Reported per binary and long request: the long request's own time (L's send to its answer) with the pingers
// running, and alone (pingers stopped); the p50/p99/max of the pings in flight while it ran, by loop (that of
// the connection running it / the other); the late hellos' latencies, by loop. The anchor is the pings' p50/p99 with nothing long running, in the same
// run. Nothing here asserts a time.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const now = () => Number(process.hrtime.bigint()) / 1e6; // ms, CLOCK_MONOTONIC: the same in every thread

/// A connection that answers requests by id, one JSON line each.
async function open(socket) {
  const conn = net.createConnection(socket);
  conn.setNoDelay?.(true);
  await new Promise((resolve, reject) => {
    conn.once('connect', resolve);
    conn.once('error', reject);
  });
  const waiting = new Map();
  let rest = '';
  conn.setEncoding('utf8');
  conn.on('data', (chunk) => {
    rest += chunk;
    let nl;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (line.startsWith('{"event"')) continue;
      const match = /^\{"id":(\d+)/.exec(line);
      const id = match ? Number(match[1]) : null;
      const waiter = waiting.get(id);
      if (!waiter) continue;
      waiting.delete(id);
      if (line.includes('"ok":false')) waiter.reject(new Error(line.slice(0, 300)));
      else waiter.resolve(now());
    }
  });
  conn.on('error', (error) => {
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  });
  let next = 1;
  return {
    conn,
    /// Sends `line` (a string or Buffer made by `make(id)`); resolves with the time its answer arrived.
    request(make) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        const line = make(id);
        if (Array.isArray(line)) for (const part of line) conn.write(part);
        else conn.write(line);
      });
    },
    close() {
      conn.destroy();
    },
  };
}

const hello = (id) => `{"id":${id},"op":"hello","protocol":1}\n`;
const ping = (id) => `{"id":${id},"op":"ping"}\n`;

// ---- pinger thread ---------------------------------------------------------------------------------------

if (!isMainThread && workerData.role === 'hello') {
  // Late hellos, from a thread of their own so that the main thread's work does not count: from a 'start' message
  // to a 'stop', clients connect and say hello one after the other (10 ms apart); then the times go back.
  const { socket } = workerData;
  let running = false;
  parentPort.on('message', async (message) => {
    if (message === 'stop') {
      running = false;
      return;
    }
    running = true;
    const times = [];
    while (running) {
      const start = now();
      const client = await open(socket);
      const connected = now();
      const answered = await client.request(hello);
      times.push([answered - start, connected - start]);
      client.close();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    parentPort.postMessage(times);
  });
  parentPort.postMessage('ready');
} else if (!isMainThread) {
  const { socket } = workerData;
  const client = await open(socket);
  await client.request(hello);
  let running = true;
  const samples = []; // [sent, rtt]
  parentPort.on('message', (message) => {
    if (message === 'stop') running = false;
  });
  parentPort.postMessage('ready');
  const pause = () => new Promise((resolve) => setTimeout(resolve, workerData.intervalMs));
  while (running) {
    const sent = now();
    const answered = await client.request(ping);
    samples.push(sent, answered - sent);
    if (workerData.intervalMs > 0) await pause();
  }
  client.close();
  parentPort.postMessage(samples);
  process.exit(0);
}

// ---- main ------------------------------------------------------------------------------------------------

if (isMainThread) {

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const bins = [];
let runs = 5;
let jsonOut = null;
let intervalMs = 1;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--bin') bins.push(args[++i]);
  else if (args[i] === '--ping-interval-ms') intervalMs = Number(args[++i]);
  else if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--json') jsonOut = args[++i];
  else throw new Error(`unknown argument ${args[i]}`);
}
if (bins.length === 0) bins.push(process.env.BRIDGED_BIN ?? join(here, '..', '.build', 'release', 'bridged'));

async function startDaemon(bin) {
  const dir = mkdtempSync(join(tmpdir(), 'bridged-fair-'));
  const socket = join(dir, 'd.sock');
  const child = spawn(bin, ['--socket', socket, '--max-frame-bytes', String(64 << 20), '--session-ttl', '0'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    try {
      const probe = await open(socket);
      probe.close();
      break;
    } catch (error) {
      if (i > 200) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  // The probe's connection took a loop: open one more so that the next connection (L) is on the first loop
  // again and the count below holds.
  const filler = await open(socket);
  filler.close();
  return {
    socket,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/// A batch creating `tags`, as a function of the request id: its body built once, so that sending it costs the
/// probe no more than the socket's write.
function createLine(tags) {
  const ops = [];
  for (const tag of tags) ops.push(`{"op":"create","tag":${tag},"component":"View","props":{"testID":"v${tag}"}}`);
  const body = Buffer.from(`"op":"batch","ops":[${ops.join(',')}]}\n`);
  return (id) => [Buffer.from(`{"id":${id},`), body];
}

const range = (from, count) => Array.from({ length: count }, (_, i) => from + i);

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : null,
  };
}

/// One run of one binary: every long request `repeats` times, pings all along.
async function runOnce(bin, repeats) {
  const daemon = await startDaemon(bin);
  const { socket } = daemon;
  let connections = 0; // connections opened since L (L is 0): even ones share L's loop
  const L = await open(socket);
  connections++;
  await L.request(hello);
  const pingers = [];
  for (let i = 0; i < 4; i++) {
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { socket, intervalMs } });
    await new Promise((r) => worker.once('message', r));
    pingers.push({ worker, sameLoop: connections % 2 === 0 });
    connections++;
  }
  const windows = []; // {kind, from, to, loaded}
  const hellos = []; // {kind, ms, sameLoop}
  const alone = []; // {kind, ms}

  // 20 ms into the long request, a new client connects and says hello.
  const helloer = new Worker(fileURLToPath(import.meta.url), { workerData: { socket, role: 'hello' } });
  await new Promise((r) => helloer.once('message', r));
  /// Hellos from the helloer thread, one after the other, until `stop()`: they take turns between the loops.
  const startHellos = (kind, longSameLoop) => {
    const first = connections;
    const done = new Promise((resolve) => {
      helloer.once('message', (times) => {
        connections = first + times.length;
        times.forEach(([ms, connectMs], i) =>
          hellos.push({ kind, ms, connectMs, sameLoop: ((first + i) % 2 === 0) === longSameLoop }),
        );
        resolve();
      });
    });
    helloer.postMessage('start');
    return () => {
      helloer.postMessage('stop');
      return done;
    };
  };

  /// Runs a long request on `conn` (whose loop is L's when `sameLoop`); returns its time.
  async function long(kind, conn, sameLoop, line, record = true) {
    const from = now();
    const stopHellos = record ? startHellos(kind, sameLoop) : null;
    const to = await conn.request(line);
    if (stopHellos) await stopHellos();
    if (record) windows.push({ kind, from, to, sameLoop });
    return to - from;
  }

  // The anchor: hellos with nothing long running.
  const stopIdle = startHellos('idle', true);
  await new Promise((r) => setTimeout(r, 100));
  await stopIdle();

  let nextTag = 1;
  // Views for setChildren: a parent and 50,000 children, made in batches of 10,000.
  const parent = nextTag++;
  await L.request(createLine([parent]));
  const children = range(nextTag, 50_000);
  nextTag += 50_000;
  for (let i = 0; i < children.length; i += 10_000) {
    await L.request(createLine(children.slice(i, i + 10_000)));
  }
  const setChildren = (order) => {
    const body = Buffer.from(`"op":"setChildren","tag":${parent},"children":[${order.join(',')}]}\n`);
    return (id) => [Buffer.from(`{"id":${id},`), body];
  };

  for (let r = 0; r < repeats; r++) {
    // batch of 100,000 creates (in L's session, deleted afterwards by a delete of their parent... no: created
    // under no parent; a fresh tag range each time keeps them apart).
    const batch = createLine(range(nextTag, 100_000));
    nextTag += 100_000;
    await long('batch100k', L, true, batch);
    // setChildren of 50,000 children, reversed each time so that every one moves.
    children.reverse();
    const reordered = setChildren(children);
    await long('setChildren50k', L, true, reordered);
    // bye of a session of 100,000 views: its own connection, filled first.
    const bSameLoop = connections % 2 === 0;
    const B = await open(socket);
    connections++;
    await B.request(hello);
    for (let i = 0; i < 10; i++) await B.request(createLine(range(1 + i * 10_000, 10_000)));
    await long('bye100k', B, bSameLoop, (id) => `{"id":${id},"op":"bye"}\n`);
    B.close();
  }

  // The same long requests with the pingers stopped: the long request's own time, alone.
  const samples = await Promise.all(
    pingers.map(
      (p) =>
        new Promise((resolve) => {
          p.worker.once('message', resolve);
          p.worker.postMessage('stop');
        }),
    ),
  );
  for (let r = 0; r < repeats; r++) {
    const batch = createLine(range(nextTag, 100_000));
    nextTag += 100_000;
    alone.push({ kind: 'batch100k', ms: await long('batch100k', L, true, batch, false) });
    children.reverse();
    const reordered = setChildren(children);
    alone.push({ kind: 'setChildren50k', ms: await long('setChildren50k', L, true, reordered, false) });
    const B = await open(socket);
    await B.request(hello);
    for (let i = 0; i < 10; i++) await B.request(createLine(range(1 + i * 10_000, 10_000)));
    alone.push({ kind: 'bye100k', ms: await long('bye100k', B, true, (id) => `{"id":${id},"op":"bye"}\n`, false) });
    B.close();
  }
  L.close();
  await helloer.terminate();
  await daemon.stop();

  // Pings by window.
  const pings = [];
  samples.forEach((flat, i) => {
    for (let k = 0; k < flat.length; k += 2) pings.push({ sent: flat[k], rtt: flat[k + 1], sameLoop: pingers[i].sameLoop });
  });
  const during = [];
  const idle = [];
  for (const ping of pings) {
    const window = windows.find((w) => ping.sent < w.to && ping.sent + ping.rtt > w.from);
    // `sameLoop` from here on: on the loop of the connection running the long request.
    if (window) during.push({ ...ping, kind: window.kind, sameLoop: ping.sameLoop === window.sameLoop });
    else idle.push(ping);
  }
  return { windows, hellos, alone, during, idle };
}

const kinds = ['batch100k', 'setChildren50k', 'bye100k'];
const results = Object.fromEntries(bins.map((bin) => [bin, []]));
for (let run = 0; run < runs; run++) {
  for (const bin of bins) {
    process.stderr.write(`run ${run + 1}/${runs}: ${bin}\n`);
    results[bin].push(await runOnce(bin, 2));
  }
}

const report = { date: new Date().toISOString(), runs, pingIntervalMs: intervalMs, bins: {} };
for (const bin of bins) {
  const all = results[bin];
  const flat = (key) => all.flatMap((r) => r[key]);
  const byBin = { idlePings: {}, idleHelloMs: summary(flat('hellos').filter((h) => h.kind === 'idle').map((h) => h.ms)), long: {} };
  const idle = flat('idle');
  byBin.idlePings = { sameLoop: summary(idle.filter((p) => p.sameLoop).map((p) => p.rtt)), otherLoop: summary(idle.filter((p) => !p.sameLoop).map((p) => p.rtt)) };
  for (const kind of kinds) {
    const during = flat('during').filter((p) => p.kind === kind);
    const hellos = flat('hellos').filter((h) => h.kind === kind);
    byBin.long[kind] = {
      requestMs: summary(flat('windows').filter((w) => w.kind === kind).map((w) => w.to - w.from)),
      requestAloneMs: summary(flat('alone').filter((a) => a.kind === kind).map((a) => a.ms)),
      pingsSameLoopMs: summary(during.filter((p) => p.sameLoop).map((p) => p.rtt)),
      pingsOtherLoopMs: summary(during.filter((p) => !p.sameLoop).map((p) => p.rtt)),
      lateHelloMs: summary(hellos.map((h) => h.ms)),
      lateHelloSameLoopMs: summary(hellos.filter((h) => h.sameLoop).map((h) => h.ms)),
      lateHelloOtherLoopMs: summary(hellos.filter((h) => !h.sameLoop).map((h) => h.ms)),
      lateHelloConnectMs: summary(hellos.map((h) => h.connectMs)),
    };
  }
  report.bins[bin] = byBin;
}

const fmt = (s) => (s.n ? `p50 ${s.p50.toFixed(2)} p99 ${s.p99.toFixed(2)} max ${s.max.toFixed(2)} (n=${s.n})` : 'none');
for (const [bin, r] of Object.entries(report.bins)) {
  console.log(`\n${bin}`);
  console.log(`  idle pings   same loop ${fmt(r.idlePings.sameLoop)}; other loop ${fmt(r.idlePings.otherLoop)}`);
  console.log(`  idle hello   ${fmt(r.idleHelloMs)}`);
  for (const kind of kinds) {
    const k = r.long[kind];
    console.log(`  ${kind}`);
    console.log(`    request (pings running) ms ${fmt(k.requestMs)}`);
    console.log(`    request alone ms           ${fmt(k.requestAloneMs)}`);
    console.log(`    pings, its loop ms         ${fmt(k.pingsSameLoopMs)}`);
    console.log(`    pings, other loop ms       ${fmt(k.pingsOtherLoopMs)}`);
    console.log(`    late hello ms              ${fmt(k.lateHelloMs)}`);
    console.log(`      on its loop              ${fmt(k.lateHelloSameLoopMs)}`);
    console.log(`      on the other loop        ${fmt(k.lateHelloOtherLoopMs)}`);
    console.log(`      of which connect         ${fmt(k.lateHelloConnectMs)}`);
  }
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(report, null, 2) + '\n');
}
