// make soak: 200 clients against a real daemon for a few minutes, with faults, then a verdict.
//
// Faults: worker processes (each running many clients) killed with SIGKILL at random and right after
// writing half a frame, connections cut mid-line by their client, a client that floods and never reads,
// and the daemon restarted once with SIGTERM (its state file carries the sessions). Afterwards: the daemon
// answers ping, its RSS is back within bounds, every event owed to every client was received exactly once
// (seq continuity and payload), and every live view's props are what its client last set.
//
// Environment: SOAK_SECONDS (load phase, default 180), SOAK_CLIENTS (200), SOAK_WORKERS (8),
// SOAK_TTL (the daemon's --session-ttl, 60), SOAK_MEAN_MS (mean pause between a client's requests, 60),
// SOAK_KILL_EVERY (seconds between worker kills, 6), SOAK_JS_CLIENTS (how many of the clients are js-client
// Bridges with reconnect, in a worker of their own that is not killed, 20), BRIDGED_BIN (default: release build, else debug).
// SOAK_KEEP=1 keeps the temporary directory (journals) also after a passing run.
// Exit status 0 when every check passed.
import { execFileSync, fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { foldJournal } from './model.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const env = (k, d) => (process.env[k] !== undefined && process.env[k] !== '' ? Number(process.env[k]) : d);
const SECONDS = env('SOAK_SECONDS', 180);
const CLIENTS = env('SOAK_CLIENTS', 200);
const WORKERS = env('SOAK_WORKERS', 8);
const TTL = env('SOAK_TTL', 60);
const MEAN_MS = env('SOAK_MEAN_MS', 60);
const KILL_EVERY = env('SOAK_KILL_EVERY', 6);
const JS_CLIENTS = Math.min(env('SOAK_JS_CLIENTS', 20), CLIENTS);
const RAW_CLIENTS = CLIENTS - JS_CLIENTS;
const BIN = process.env.BRIDGED_BIN ||
  [join(ROOT, '.build/release/bridged'), join(ROOT, '.build/debug/bridged')].find((p) => existsSync(p));
if (!BIN || !existsSync(BIN)) {
  console.error('soak: no bridged binary (make release, or set BRIDGED_BIN)');
  process.exit(2);
}

const started = Date.now();
const elapsed = () => ((Date.now() - started) / 1000).toFixed(1);
const log = (msg) => console.log(`[${elapsed().padStart(6)}s] ${msg}`);
const dir = mkdtempSync(join(tmpdir(), 'bridged-soak-'));
const SOCKET = join(dir, 'b.sock');
const STATE = join(dir, 'bridged.state');
const checks = [];
function check(name, ok, detail = '') {
  checks.push({ name, ok: !!ok, detail });
  log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
}
const faults = { workerSigkill: 0, workerSigkillMidFrame: 0, workerSigkillAfterPress: 0, socketCutMidLine: 0, nonReaders: 0, daemonRestarts: 0 };

// ---- the daemon --------------------------------------------------------------------------------------

let daemon = null; // {child, pid, exited, stderr}
const rss = { baseline: 0, baselineAfterRestart: 0, peak: 0, peakDuringNonReader: 0, final: 0 };
let nonReaderActive = false;

function readStatus(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number((s.match(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm')) ?? [0, 0])[1]);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}
const mib = (kb) => `${(kb / 1024).toFixed(1)} MiB`;

async function startDaemon() {
  const args = ['serve', '--socket', SOCKET, '--state-file', STATE, '--session-ttl', String(TTL), '--log-level', 'warning'];
  const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s) => {
    stderr = (stderr + s).slice(-20000);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s) => {
      out += s;
      if (out.includes('bridged listening on')) resolve();
    });
    exited.then(({ code }) => reject(new Error(`bridged exited (${code}) before listening: ${stderr}`)));
  });
  daemon = { child, pid: child.pid, exited, stderr: () => stderr };
  log(`daemon pid ${child.pid} listening on ${SOCKET} (${BIN})`);
}

const sampler = setInterval(() => {
  const st = daemon && readStatus(daemon.pid);
  if (!st) return;
  rss.peak = Math.max(rss.peak, st.rss, st.hwm);
  if (nonReaderActive) rss.peakDuringNonReader = Math.max(rss.peakDuringNonReader, st.rss);
}, 200);

// ---- a raw connection for pings and stats (the probe) ---------------------------------------------------

class Probe {
  async open(client = 'soak-probe') {
    for (let i = 0; ; i++) {
      try {
        this.sock = await new Promise((resolve, reject) => {
          const s = createConnection(SOCKET);
          s.once('error', reject);
          s.once('connect', () => resolve(s));
        });
        break;
      } catch (err) {
        if (i > 200) throw err;
        await sleep(25);
      }
    }
    this.sock.setEncoding('utf8');
    this.buf = '';
    this.waiting = new Map();
    this.nextId = 1;
    this.sock.on('error', () => {});
    this.sock.on('data', (chunk) => {
      this.buf += chunk;
      let nl;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const frame = JSON.parse(this.buf.slice(0, nl));
        this.buf = this.buf.slice(nl + 1);
        this.waiting.get(frame.id)?.(frame);
        this.waiting.delete(frame.id);
      }
    });
    this.sock.on('close', () => {
      for (const resolve of this.waiting.values()) resolve(null);
      this.waiting.clear();
      this.sock = null;
    });
    const hello = await this.request({ op: 'hello', protocol: 1, client });
    if (!hello?.ok) throw new Error(`probe hello: ${JSON.stringify(hello)}`);
  }
  request(frame) {
    if (!this.sock) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.sock.write(JSON.stringify({ id, ...frame }) + '\n');
    });
  }
  close() {
    this.sock?.destroy();
  }
}

// ---- the non-reading client ---------------------------------------------------------------------------

/** Floods presses on a subscribed button and never reads; returns a stop function. */
function startNonReader() {
  faults.nonReaders++;
  const sock = createConnection(SOCKET);
  sock.on('error', () => {});
  sock.pause();
  let written = 0;
  let stopped = false;
  const lines = [
    { id: 1, op: 'hello', protocol: 1, client: 'soak-non-reader' },
    { id: 2, op: 'create', tag: 1, component: 'SwiftUIButton', props: { title: 'flood' } },
    { id: 3, op: 'subscribe', tag: 1, event: 'countChange' },
  ].map((f) => JSON.stringify(f) + '\n').join('');
  const press = JSON.stringify({ op: 'command', tag: 1, name: 'press' }) + '\n';
  const chunk = press.repeat(2000);
  const pump = () => {
    while (!stopped && !sock.destroyed && sock.writableLength < 4 * 1024 * 1024) {
      sock.write(chunk);
      written += 2000;
    }
  };
  sock.once('connect', () => {
    sock.write(lines);
    pump();
  });
  const timer = setInterval(pump, 200);
  return {
    written: () => written,
    stop() {
      stopped = true;
      clearInterval(timer);
      sock.destroy();
    },
  };
}

// ---- a cursor moved back ----------------------------------------------------------------------------

/** Three events, `ack 2`, a new connection resuming with `ack: 1`: returns the hello result and re-sent seqs. */
async function rewoundResume() {
  const session = async (lines) => {
    const sock = createConnection(SOCKET);
    sock.on('error', () => {});
    let out = '';
    sock.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
    });
    await new Promise((resolve) => sock.once('connect', resolve));
    sock.write(lines.map((l) => JSON.stringify(l) + '\n').join(''));
    for (let i = 0; i < 100 && out.split('\n').filter((l) => l.includes('"id":')).length < lines.length; i++) await sleep(20);
    sock.destroy();
    await sleep(100);
    return out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  };
  const press = (id) => ({ id, op: 'command', tag: 1, name: 'press' });
  const first = await session([
    { id: 1, op: 'hello', protocol: 1, client: 'soak-rewind' },
    { id: 2, op: 'create', tag: 1, component: 'SwiftUIButton' },
    { id: 3, op: 'subscribe', tag: 1, event: 'countChange' },
    press(4), press(5), press(6),
    { id: 7, op: 'ack', seq: 2 },
  ]);
  const { session: id, token } = first[0]?.result ?? {};
  const resume = { session: id, token, ack: 1 };
  const second = await session([{ id: 1, op: 'hello', protocol: 1, client: 'soak-rewind', resume }, { id: 2, op: 'ping' }]);
  const hello = second.find((f) => f.id === 1) ?? {};
  const result = hello.result && Object.fromEntries(Object.entries(hello.result).filter(([k]) => k !== 'components'));
  return { result, resent: second.filter((f) => f.event).map((f) => f.seq) };
}

// ---- workers ---------------------------------------------------------------------------------------------

const slots = [];
const perWorker = Math.ceil(RAW_CLIENTS / WORKERS);
let phase = 'load';

function spawnWorker(slot) {
  const s = slots[slot];
  const child = fork(fileURLToPath(new URL(s.js ? './js-worker.mjs' : './worker.mjs', import.meta.url)), [], {
    env: { ...process.env, SOAK_SOCKET: SOCKET, SOAK_JOURNAL: s.journal, SOAK_CLIENTS: `${s.first},${s.count}`, SOAK_MEAN_MS: String(MEAN_MS) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  s.child = child;
  s.incarnations++;
  s.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  s.exited.then(({ code, signal }) => {
    if (s.child !== child) return;
    if (!s.killing && !(phase === 'verify' && code === 0)) {
      s.crashed = `worker ${slot} exited with ${signal ?? code}`;
      log(s.crashed);
      if (phase === 'load') spawnWorker(slot); // its clients go on; the crash fails the run
    }
  });
  child.on('message', (msg) => s.onMessage?.(msg));
  child.on('error', (err) => log(`worker ${slot}: ${err.message}`)); // e.g. a send to a worker that just died
  return child;
}

/**
 * SIGKILLs a worker and starts its replacement: `kind` 'random' at once, 'mid' after it wrote half a frame,
 * 'press' after it wrote a whole press line (unanswered as far as the worker knows).
 */
async function killWorker(slot, kind) {
  const midFrame = kind !== 'random';
  const s = slots[slot];
  s.killing = true;
  let mid = false;
  if (midFrame) {
    const answer = new Promise((resolve) => {
      s.onMessage = (msg) => {
        if ('halfwritten' in msg) resolve(msg.halfwritten);
      };
    });
    s.child.send({ cmd: 'halfkill', whole: kind === 'press' });
    mid = await Promise.race([answer, sleep(2000).then(() => false)]);
  }
  s.child.kill('SIGKILL');
  await s.exited;
  if (mid && kind === 'press') faults.workerSigkillAfterPress++;
  else if (mid) faults.workerSigkillMidFrame++;
  else faults.workerSigkill++;
  s.killing = false;
  s.onMessage = null;
  spawnWorker(slot);
}

// ---- the run ---------------------------------------------------------------------------------------------

async function main() {
  log(`soak: ${CLIENTS} clients in ${WORKERS} workers for ${SECONDS}s, session ttl ${TTL}s, mean pause ${MEAN_MS} ms`);
  await startDaemon();
  const probe = new Probe();
  await probe.open();
  await sleep(500);
  rss.baseline = readStatus(daemon.pid).rss;

  for (let i = 0; i < WORKERS; i++) {
    const first = 1 + i * perWorker;
    const count = Math.min(perWorker, RAW_CLIENTS - i * perWorker);
    if (count <= 0) break;
    slots.push({ slot: i, first, count, journal: join(dir, `journal-${i}.ndjson`), incarnations: 0, killing: false });
    spawnWorker(i);
  }
  const rawSlots = slots.length;
  if (JS_CLIENTS > 0) {
    slots.push({ slot: rawSlots, first: RAW_CLIENTS + 1, count: JS_CLIENTS, js: true, incarnations: 0, killing: false });
    spawnWorker(rawSlots);
  }

  // Probe pings every 100 ms: how long the others wait while the non-reader floods, or a long request runs.
  const latencies = [];
  let longInFlight = false;
  let unanswered = 0;
  let probing = true;
  const probeLoop = (async () => {
    while (probing) {
      const t0 = performance.now();
      const res = await Promise.race([probe.request({ op: 'ping' }), sleep(5000).then(() => 'timeout')]);
      if (res === 'timeout') unanswered++;
      else if (res?.ok) latencies.push({ ms: performance.now() - t0, flood: nonReaderActive, long: longInFlight });
      else if (!probe.sock && phase === 'load') {
        await sleep(100);
        try {
          await probe.open();
        } catch {}
      }
      await sleep(100);
    }
  })();

  const loadEnd = started + SECONDS * 1000;
  const at = (fraction) => started + fraction * SECONDS * 1000;
  const until = (t) => sleep(Math.max(0, t - Date.now()));

  // Faults run on their own timeline.
  const killLoop = (async () => {
    const kinds = ['random', 'mid', 'press'];
    let n = 0;
    await until(at(0.1));
    while (Date.now() < at(0.85)) {
      const slot = Math.floor(Math.random() * rawSlots);
      if (!slots[slot].killing) await killWorker(slot, kinds[n++ % kinds.length]);
      await sleep(KILL_EVERY * 1000 * (0.5 + Math.random()));
    }
  })();

  let nonReader = null;
  let nonReaderWritten = 0;
  const nonReaderLoop = (async () => {
    await until(at(0.15));
    rss.beforeNonReader = readStatus(daemon.pid).rss;
    nonReader = startNonReader();
    nonReaderActive = true;
    await until(at(0.48));
    nonReaderWritten += nonReader.written();
    nonReader.stop();
    nonReaderActive = false;
    await until(at(0.55));
    nonReader = startNonReader(); // one more across the restart: it cannot hold up the shutdown
    await until(at(0.75));
    nonReaderWritten += nonReader.written();
    nonReader.stop();
  })();

  // Long requests (run off the daemon's event loops): a client in a session of its own, again and again, sends
  // a batch of 3,000 creates (about 200 KB) and then `bye`s the 3,000-view session. Each answer must be right;
  // a connection lost to the restart is only counted.
  const long = { rounds: 0, lost: 0, failures: [] };
  const longLoop = (async () => {
    await until(at(0.1));
    let base = 1;
    while (Date.now() < at(0.85)) {
      const client = new Probe();
      try {
        await client.open('soak-long');
      } catch {
        long.lost++;
        await sleep(500);
        continue;
      }
      const ops = [];
      for (let tag = base; tag < base + 3000; tag++) ops.push({ op: 'create', tag, component: 'View', props: { testID: `l${tag}` } });
      base += 3000;
      longInFlight = true;
      const batch = await client.request({ op: 'batch', ops });
      const bye = batch ? await client.request({ op: 'bye' }) : null;
      longInFlight = false;
      if (!batch || !bye) long.lost++;
      else if (!batch.ok || batch.result?.results?.length !== 3000 || batch.result.results[2999].tag !== base - 1) {
        long.failures.push(`batch: ${JSON.stringify(batch).slice(0, 200)}`);
      } else if (!bye.ok) long.failures.push(`bye: ${JSON.stringify(bye).slice(0, 200)}`);
      else long.rounds++;
      client.close();
      await sleep(200);
    }
  })();

  const restartLoop = (async () => {
    await until(at(0.6));
    const pid = daemon.pid;
    const st = readStatus(pid);
    rss.firstDaemonPeak = st.hwm;
    const t0 = Date.now();
    daemon.child.kill('SIGTERM');
    const { code, signal } = await daemon.exited;
    const stopMs = Date.now() - t0;
    faults.daemonRestarts++;
    check('daemon stops on SIGTERM with status 0 within --shutdown-timeout + 2 s', code === 0 && stopMs < 5000,
      `status ${signal ?? code}, ${stopMs} ms, a non-reader connected`);
    check('the state file is written on a clean stop', existsSync(STATE));
    await startDaemon();
    check('the restarted daemon consumed its state file', !existsSync(STATE));
    log(`daemon restarted: pid ${pid} -> ${daemon.pid}, down for ${Date.now() - t0} ms`);
    await sleep(1000);
    rss.baselineAfterRestart = readStatus(daemon.pid).rss;
  })();

  const progress = setInterval(() => {
    const st = readStatus(daemon.pid);
    log(`load: daemon rss ${st ? mib(st.rss) : '?'}, faults ${JSON.stringify(faults)}`);
  }, 15000);

  await until(loadEnd);
  await Promise.all([killLoop, nonReaderLoop, restartLoop, longLoop]);
  clearInterval(progress);

  // Verification: each worker stops its clients, resumes any it must, inspects every view, closes.
  phase = 'verify';
  log('load over: verifying every client');
  let js = null;
  await Promise.all(slots.map(async (s) => {
    const done = new Promise((resolve) => {
      s.onMessage = (msg) => {
        if (msg.js) js = msg.js;
        if (msg.verified) resolve(true);
      };
    });
    if (s.child.connected) s.child.send({ cmd: 'verify' });
    const ok = await Promise.race([done, sleep(120000).then(() => false)]);
    if (!ok) {
      s.crashed = `worker ${s.slot} did not finish verifying`;
      s.child.kill('SIGKILL');
    }
    await s.exited;
  }));
  const verifyDone = Date.now();
  log(`verification done in ${((verifyDone - loadEnd) / 1000).toFixed(1)} s`);

  // A cursor that moved back: protocol.md promises `overflow` when events after the resume's `ack` were
  // dropped, "never a silent gap"; an acknowledgement drops them as surely as a full buffer does.
  const back = await rewoundResume();
  check('a resume from an ack below an earlier ack is refused with overflow, never a silent gap',
    back.result?.resumed === false && back.result?.reason === 'overflow',
    `ack 2, then hello resume {ack: 1}: ${JSON.stringify(back.result ?? back)}, then re-sent seqs [${back.resent}]`);

  // Every session but the probe's is detached now; they expire after the ttl.
  rss.afterClients = readStatus(daemon.pid).rss;
  let stats = null;
  const expiryDeadline = verifyDone + (TTL + 20) * 1000;
  while (Date.now() < expiryDeadline) {
    stats = (await probe.request({ op: 'stats' }))?.result;
    if (stats && stats.sessions === 1 && stats.views === 0) break;
    await sleep(1000);
  }
  const expiredAfter = (Date.now() - verifyDone) / 1000;
  check('every detached session expired after the ttl, with its views', stats?.sessions === 1 && stats?.views === 0,
    `stats ${JSON.stringify(stats)} ${expiredAfter.toFixed(1)} s after the clients left (ttl ${TTL} s)`);
  probing = false;
  await probeLoop;
  await sleep(2000);
  rss.final = readStatus(daemon.pid)?.rss ?? 0;

  // ---- the verdict ----
  const ping = await Promise.race([probe.request({ op: 'ping' }), sleep(5000).then(() => null)]);
  check('the daemon is alive and answers ping', daemon.child.exitCode === null && ping?.ok === true);

  const models = new Map();
  let journalBytes = 0;
  for (const s of slots.filter((x) => !x.js)) {
    const text = readFileSync(s.journal, 'utf8');
    journalBytes += text.length;
    foldJournal(models, text);
  }
  const total = {};
  const failures = [];
  let unverified = 0;
  for (const c of models.values()) {
    for (const [k, v] of Object.entries(c.stats)) total[k] = (total[k] ?? 0) + v;
    failures.push(...c.failures);
    if (!c.verified) unverified++;
  }
  faults.socketCutMidLine = total.cuts ?? 0;
  for (const s of slots) check(`worker ${s.slot} ran to the end without crashing`, !s.crashed, s.crashed ?? `${s.incarnations} processes`);
  check(`all ${RAW_CLIENTS} raw clients took part`, models.size === RAW_CLIENTS, `${models.size}`);
  check('every event owed was received exactly once', total.owed === total.received && total.missing === 0 && total.gaps === 0,
    `owed ${total.owed}, received ${total.received}, missing ${total.missing}, gaps ${total.gaps}`);
  check('no event that was not owed (no event after a failed batch, none without a listener, none twice)',
    total.unexpected === 0, `${total.unexpected} unexpected, ${total.duplicates} duplicates dropped`);
  check('every resume resumed (no reset: ttl, buffer and state file kept every session)', total.resets === 0,
    `${total.resumesOk} resumed, ${total.resets} reset`);
  check('a line cut short by a SIGKILL or a cut connection never took effect',
    total.halfNotApplied >= faults.workerSigkillMidFrame, `${total.halfNotApplied} checked by inspect`);
  check('every client verified every live view after the load', unverified === 0, `${unverified} not verified`);
  check('every response, event and inspect matched the model', total.failures === 0, `${total.failures} failures`);
  for (const f of failures.slice(0, 30)) console.log(`  ${f}`);
  if (JS_CLIENTS > 0) {
    const t = js?.totals;
    check(`js-client (reconnect: true): every press that resolved brought its event exactly once, in seq order`,
      t && t.owed === t.received && t.missing === 0 && t.gaps === 0 && t.unexpected === 0,
      t ? `owed ${t.owed}, received ${t.received}, missing ${t.missing}, gaps/repeats ${t.gaps}, unexpected ${t.unexpected}` : 'no report');
    check('js-client: no reset, no close, props as last set, no other failure', t && t.failures === 0 && t.resets === 0,
      t ? `${t.resumed} resumed, ${t.resets} reset, ${t.inspects} inspects, ${t.failures} failures` : 'no report');
    for (const f of js?.failures ?? []) console.log(`  ${f}`);
  }

  const flood = latencies.filter((l) => l.flood).map((l) => l.ms).sort((a, b) => a - b);
  const p = (xs, q) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(q * xs.length))].toFixed(1) : '-');
  check('a non-reading client does not stop the others (every probe ping answered within 5 s)', unanswered === 0 && flood.length > 0,
    `${flood.length} pings while flooding, p50 ${p(flood, 0.5)} ms, p99 ${p(flood, 0.99)} ms, max ${p(flood, 1)} ms`);
  const duringLong = latencies.filter((l) => l.long).map((l) => l.ms).sort((a, b) => a - b);
  check('long requests (a 3,000-create batch, then the bye of its session) answered right, the others answered meanwhile',
    long.rounds > 0 && long.failures.length === 0 && unanswered === 0,
    `${long.rounds} rounds, ${long.lost} lost to the restart, ${long.failures.length} wrong; ${duringLong.length} probe pings ` +
    `while one ran, p50 ${p(duringLong, 0.5)} ms, p99 ${p(duringLong, 0.99)} ms, max ${p(duringLong, 1)} ms`);
  for (const f of long.failures.slice(0, 5)) console.log(`  ${f}`);
  const nrGrowth = rss.peakDuringNonReader - rss.beforeNonReader;
  check('a non-reading client holds bounded memory (RSS growth while it floods < 64 MiB)', nrGrowth < 64 * 1024,
    `${mib(rss.beforeNonReader)} -> peak ${mib(rss.peakDuringNonReader)} while flooding, ${nonReaderWritten} presses written`);
  // The bound: the idle daemon's RSS + 64 MiB. What the daemon must hold at the end is nothing (no session,
  // no view); what it may keep is what its allocator retains from the peak working set (200 sessions of a few
  // dozen views, the non-readers' 1 MiB of unsent output and up to --event-buffer retained events). A leak
  // of L bytes per request over the run's requests would exceed it once L > 64 MiB / requests (printed).
  const bound = rss.baseline + 64 * 1024;
  check('RSS after every session expired is within the idle baseline + 64 MiB, and not above the peak',
    rss.final > 0 && rss.final <= bound && rss.final <= rss.peak,
    `baseline ${mib(rss.baseline)}, final ${mib(rss.final)}, peak ${mib(rss.peak)}; ` +
    `a leak above ${Math.ceil((64 * 1024 * 1024) / Math.max(1, total.frames + nonReaderWritten))} bytes per request would fail`);

  const passed = checks.filter((c) => c.ok).length;
  const failed = checks.length - passed;
  const seconds = (Date.now() - started) / 1000;
  const git = (...args) => {
    try {
      return execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).trim();
    } catch {
      return '?';
    }
  };
  const dirty = git('status', '--porcelain', '--', 'Sources', 'Package.swift') ? ', uncommitted edits in Sources/' : '';
  const figures = [
    `daemon: ${BIN} (built ${statSync(BIN).mtime.toISOString()}), tree at ${git('rev-parse', '--short', 'HEAD')}${dirty}`,
    `duration: ${seconds.toFixed(0)} s (load ${SECONDS} s, verify ${((verifyDone - loadEnd) / 1000).toFixed(0)} s, expiry wait ${expiredAfter.toFixed(0)} s)`,
    `clients: ${models.size} raw in ${rawSlots} worker processes + ${JS_CLIENTS} js-client Bridges in 1 (${slots.reduce((n, s) => n + s.incarnations, 0)} processes in all), sessions started ${total.sessions}`,
    `frames sent by clients: ${total.frames} (+ ${nonReaderWritten} by the non-readers), inspects checked ${total.inspects}, journal ${mib(journalBytes / 1024)}`,
    ...(js ? [`js-client: requests ${js.totals.frames}, press events owed ${js.totals.owed}, received ${js.totals.received}; ` +
      `${js.totals.cuts} connections cut (${js.totals.socketErrors} socket errors reported), ${js.totals.resumed} resumed, ${js.totals.resets} reset; ${js.totals.lostRequests} requests ` +
      `rejected with connection_closed (re-done), ${js.totals.maybeEmitted} of whose presses emitted`] : []),
    `faults: ${faults.workerSigkill} worker SIGKILLs at random, ${faults.workerSigkillMidFrame} worker SIGKILLs mid-frame, ` +
      `${faults.workerSigkillAfterPress} worker SIGKILLs right after a whole press line (${total.wholePresses ?? 0} left unanswered), ` +
      `${faults.socketCutMidLine} connections cut mid-line, ${faults.nonReaders} non-reading clients, ${faults.daemonRestarts} daemon restart (SIGTERM)`,
    `connections lost by clients: ${total.lost}; resumes ok ${total.resumesOk}, reset ${total.resets}; requests re-sent after a loss ${total.resent}`,
    `events owed ${total.owed}, received exactly once ${total.received}, missing ${total.missing}, gaps ${total.gaps}, unexpected ${total.unexpected}, duplicates dropped ${total.duplicates}`,
    `presses whose response was lost: ${total.maybeEmitted} emitted (received once, with the resume), ${total.maybeNotEmitted} not emitted or not subscribed`,
    `daemon RSS: idle ${mib(rss.baseline)}, 1 s after the restart under load ${mib(rss.baselineAfterRestart)}, peak ${mib(rss.peak)}, ` +
      `${mib(rss.afterClients)} when the clients left, final ${mib(rss.final)} after the sessions expired`,
  ];
  console.log('\n' + figures.join('\n'));
  console.log(`${passed} passed, ${failed} failed`);

  clearInterval(sampler);
  probe.close();
  daemon.child.kill('SIGTERM');
  await daemon.exited;
  if (failed === 0 && !process.env.SOAK_KEEP) rmSync(dir, { recursive: true, force: true });
  else console.log(`journals and daemon state kept in ${dir}; daemon stderr tail:\n${daemon.stderr().slice(-2000)}`);
  process.exit(failed === 0 ? 0 : 1);
}

/** Whatever goes wrong in the soak itself, it leaves no daemon or worker behind. */
function abort(err) {
  console.error(err);
  daemon?.child.kill('SIGKILL');
  for (const s of slots) s.child?.kill('SIGKILL');
  console.log(`soak aborted; journals kept in ${dir}`);
  process.exit(1);
}
process.on('uncaughtException', abort);
main().catch(abort);
