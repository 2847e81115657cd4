// The cost of a picture (issue 44, item 7): the example app's screen (Examples/ReactNativeApp, opened with openApp,
// its layout on) drawn by the daemon with Cairo and Pango, `screenshot` N times: wall time of the round trip, the
// daemon's CPU per picture (from /proc), and the PNG's size, at the window's scale (3) and at 1.
//
//   node bench/screenshot.mjs [BIN]    (default .build/release/bridged; BENCH_RUNS=30)
//
// Needs the example's packages (make test-example links them from ../shared). Nothing here asserts a time.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../js-client/index.js';
import { openApp } from '../js-client/lib/react-native.js';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));
const BIN = process.argv[2] ?? path.join(REPOSITORY, '.build/release/bridged');
const APP = path.join(REPOSITORY, 'Examples/ReactNativeApp');
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

if (!existsSync(path.join(APP, 'node_modules/react-native/ReactCommon/yoga/yoga/Yoga.cpp'))) {
  console.log(`skipped: no react-native package in ${APP}/node_modules (make test-example links it)`);
  process.exit(0);
}

const dir = mkdtempSync(path.join(tmpdir(), 'bridged-screenshot-bench-'));
const socket = path.join(dir, 'bridged.sock');
const daemon = spawn(BIN, ['--socket', socket], { stdio: ['ignore', 'ignore', 'inherit'] });
for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 25));

/** The daemon's CPU time so far, in ms (its threads' schedstat). */
function cpuMs() {
  let ns = 0;
  for (const task of readdirSync(`/proc/${daemon.pid}/task`)) {
    ns += Number(readFileSync(`/proc/${daemon.pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
  }
  return ns / 1e6;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const bridge = await connect({ socket });
  const app = await openApp(bridge, { root: APP });
  const React = app.require('react');
  const { default: App } = app.require('./src/App');
  await app.render(React.createElement(App));
  await app.settled();
  console.log(`the example app's screen: ${app.window.width}x${app.window.height} points; ${RUNS} pictures each`);
  for (const scale of [app.window.scale, 1]) {
    const walls = [];
    const cpus = [];
    let bytes = 0;
    await bridge.screenshot({ scale }); // warm: fonts loaded, the first layouts shaped
    for (let i = 0; i < RUNS; i++) {
      const cpu = cpuMs();
      const start = process.hrtime.bigint();
      const { png } = await bridge.screenshot({ scale });
      walls.push(Number(process.hrtime.bigint() - start) / 1e6);
      cpus.push(cpuMs() - cpu);
      bytes = png.length;
    }
    console.log(
      `scale ${scale}: wall median ${median(walls).toFixed(1)} ms (min ${Math.min(...walls).toFixed(1)}), ` +
        `daemon CPU median ${median(cpus).toFixed(1)} ms, PNG ${bytes} bytes (${Math.ceil((bytes * 4) / 3)} in base64)`,
    );
  }
  await app.close();
  await bridge.close();
} finally {
  const exited = new Promise((resolve) => daemon.once('exit', resolve));
  daemon.kill('SIGTERM');
  await exited;
  rmSync(dir, { recursive: true, force: true });
}
