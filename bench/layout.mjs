// The cost of layout (issue 44, item 7): mounting a screen of N rows in one batch with the session's layout on
// against off, and a one-prop change on that screen (a round trip with layout on against off: the difference is
// the layout pass, incremental: only the changed row and its list are laid out again).
//
//   node bench/layout.mjs [BIN]        (default .build/release/bridged; BENCH_ROWS=1000, BENCH_RUNS=7)
//
// Needs React Native 0.72.6's ReactCommon/yoga (../shared, or $BRIDGED_YOGA); the daemon builds it once into its
// cache. Nothing here asserts a time.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../js-client/index.js';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));
const BIN = process.argv[2] ?? path.join(REPOSITORY, '.build/release/bridged');
const YOGA = process.env.BRIDGED_YOGA ?? path.join(REPOSITORY, '../shared/react-native-0.72.6/node_modules/react-native/ReactCommon/yoga');
const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const UPDATES = 300;

if (!existsSync(path.join(YOGA, 'yoga/Yoga.cpp'))) {
  console.log(`skipped: no Yoga sources at ${YOGA}`);
  process.exit(0);
}

const dir = mkdtempSync(path.join(tmpdir(), 'bridged-layout-bench-'));
const socket = path.join(dir, 'bridged.sock');
const daemon = spawn(BIN, ['--socket', socket], { stdio: ['ignore', 'ignore', 'inherit'] });
for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 25));

/** A list screen: a scroll view of ROWS rows, each an icon and a text. */
function mountOps() {
  const ops = [
    { op: 'create', tag: 1, component: 'RCTView', props: { flex: 1 } },
    { op: 'create', tag: 2, component: 'RCTScrollView', props: { flex: 1, overflow: 'scroll' }, parent: 1 },
    { op: 'create', tag: 3, component: 'RCTScrollContentView', props: {}, parent: 2 },
  ];
  let tag = 10;
  for (let i = 0; i < ROWS; i++) {
    const row = tag++;
    ops.push({ op: 'create', tag: row, component: 'RCTView', props: { flexDirection: 'row', alignItems: 'center', padding: 8, height: 56 }, parent: 3 });
    ops.push({ op: 'create', tag: tag++, component: 'RCTView', props: { width: 40, height: 40, borderRadius: 20 }, parent: row });
    const text = tag++;
    ops.push({ op: 'create', tag: text, component: 'RCTText', props: { flex: 1, marginLeft: 8, fontSize: 17 }, parent: row });
    ops.push({ op: 'create', tag: tag++, component: 'RCTRawText', props: { text: `Row ${i}` }, parent: text });
  }
  return ops;
}

/** The daemon's CPU time so far, in ms: the sum over its threads of /proc's schedstat (ns), robust on a busy machine. */
function cpuMs() {
  let ns = 0;
  for (const task of readdirSync(`/proc/${daemon.pid}/task`)) {
    ns += Number(readFileSync(`/proc/${daemon.pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
  }
  return ns / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ops = mountOps();

async function session(layout) {
  const bridge = await connect({ socket });
  let loaded;
  if (layout) loaded = await bridge.request({ op: 'layout', yoga: YOGA, window: { width: 390, height: 844, scale: 3 } });
  return { bridge, loaded };
}

const mount = { off: [], on: [] };
const mountCpu = { off: [], on: [] };
const update = { off: [], on: [] };
const updateCpu = { off: [], on: [] };
let loadMs;
for (let run = 0; run < RUNS; run++) {
  for (const mode of ['off', 'on']) {
    const t0 = performance.now();
    const { bridge } = await session(mode === 'on');
    if (mode === 'on' && run === 0) loadMs = performance.now() - t0;
    const start = performance.now();
    const cpu = cpuMs();
    await bridge.request({ op: 'batch', ops });
    mountCpu[mode].push(cpuMs() - cpu);
    mount[mode].push(performance.now() - start);
    if (mode === 'on' && run === 0) {
      // What was measured is a layout: the middle row is where 500 rows of 56 pt put it.
      const { layout } = await bridge.request({ op: 'inspect', tag: 10 + 4 * Math.floor(ROWS / 2) });
      if (layout?.y !== 56 * Math.floor(ROWS / 2)) throw new Error(`the middle row is at ${JSON.stringify(layout)}`);
    }
    // A one-prop change of a row in the middle (its height): round trips.
    const tag = 10 + 4 * Math.floor(ROWS / 2);
    const updatesCpu = cpuMs();
    for (let i = 0; i < UPDATES; i++) {
      const s = performance.now();
      await bridge.request({ op: 'update', tag, props: { height: i % 2 ? 56 : 60 } });
      if (i >= 20) update[mode].push(performance.now() - s);
    }
    updateCpu[mode].push((cpuMs() - updatesCpu) / UPDATES);
    await bridge.close();
  }
}
daemon.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });

const r = (x) => Math.round(x * 1000) / 1000;
const result = {
  rows: ROWS,
  views: ops.length,
  runs: RUNS,
  firstLayoutOpMs: r(loadMs),
  mountMs: { off: r(median(mount.off)), on: r(median(mount.on)), ratio: r(median(mount.on) / median(mount.off)) },
  mountDaemonCpuMs: { off: r(median(mountCpu.off)), on: r(median(mountCpu.on)), ratio: r(median(mountCpu.on) / median(mountCpu.off)) },
  oneRowUpdateDaemonCpuMs: { off: r(median(updateCpu.off)), on: r(median(updateCpu.on)), layoutPassMs: r(median(updateCpu.on) - median(updateCpu.off)) },
  oneRowUpdateRoundTripMs: { off: r(median(update.off)), on: r(median(update.on)), layoutPassMs: r(median(update.on) - median(update.off)) },
};
console.log(JSON.stringify(result, null, 2));
