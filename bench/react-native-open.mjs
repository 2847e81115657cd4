// Cold and warm opens of two apps with the same Babel preset, one after the other (issue 42, item 6): the same app
// code (bench/react-native-app: a ScrollView of rows) laid out twice in temporary folders, each folder's node_modules
// linked to the shared React Native packages, one transform cache for both. Each open runs in a fresh Node process:
//   1. app A, cold (the cache empty);  2. app B, cold (its first open, the cache holding A's transforms);
//   3. app A, warm;                     4. app B, warm.
// Reported per open: connect + openApp + first render (openMs), the child process's whole life (processMs), and the
// transform cache's hits and misses. ROUNDS rounds (default 3), each with a new cache, since a shared 2-core machine
// is noisy. PRESET=expo gives both apps babel-preset-expo instead of metro-react-native-babel-preset; APP=nav gives
// them bench/react-native-nav's code (a native stack: React Navigation, react-native-screens, -safe-area-context).
// Usage: node bench/react-native-open.mjs [--json out.json]; needs ../shared/react-native-0.72.6 (or
// $BRIDGED_RN_NODE_MODULES) and a daemon ($BRIDGED_BIN, else .build/release/bridged, else .build/debug/bridged).

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARED, median } from './react-native-floor.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ROWS = 20;
/** The apps' preset: 'metro' (metro-react-native-babel-preset, as the app's babel.config.js has it) or 'expo'. */
const PRESET = process.env.PRESET ?? 'metro';
/** The app code: 'rows' (bench/react-native-app, ROWS rows) or 'nav' (bench/react-native-nav: a native stack). */
const APP = process.env.APP ?? 'rows';
const SOURCE = path.join(here, APP === 'nav' ? 'react-native-nav' : 'react-native-app');
const release = path.join(here, '..', '.build', 'release', 'bridged');
const debug = path.join(here, '..', '.build', 'debug', 'bridged');
const BIN = process.env.BRIDGED_BIN ?? (existsSync(release) ? release : debug);

async function child(root, cache, socket) {
  const t0 = performance.now();
  const { connect } = await import('../js-client/index.js');
  const { openApp } = await import('../js-client/lib/react-native.js');
  const bridge = await connect({ socket });
  const app = await openApp(bridge, { root, cache });
  const React = app.require('react');
  const { default: Root } = app.require(APP === 'nav' ? './src/Nav' : './src/Rows');
  const screen = await app.render(React.createElement(Root, APP === 'nav' ? {} : { rows: ROWS }));
  await app.settled();
  const openMs = performance.now() - t0;
  const rendered = screen.queryAllByText(APP === 'nav' ? /./ : /^Row \d+:/).length;
  const { hits, misses } = app.transformCache;
  await screen.unmount();
  await app.close();
  await bridge.close();
  return { openMs, hits, misses, rendered };
}

function layout() {
  const root = mkdtempSync(path.join(tmpdir(), 'bridged-bench-open-'));
  cpSync(SOURCE, root, { recursive: true });
  if (PRESET === 'expo') {
    writeFileSync(path.join(root, 'babel.config.js'), "module.exports = { presets: ['babel-preset-expo'] };\n");
  }
  symlinkSync(SHARED, path.join(root, 'node_modules'));
  return root;
}

async function main() {
  if (!existsSync(path.join(SHARED, 'react-native', 'package.json'))) {
    console.log(`skipped: no React Native packages at ${SHARED}`);
    return;
  }
  const apps = { A: layout(), B: layout() };
  const socket = path.join(apps.A, 'b.sock');
  const daemon = spawn(BIN, ['--socket', socket], { stdio: ['ignore', 'ignore', 'ignore'] });
  await new Promise((r) => setTimeout(r, 500));
  const open = (name, cache) => {
    const start = performance.now();
    const args = [fileURLToPath(import.meta.url), '--child', apps[name], cache, socket];
    const out = spawnSync(process.execPath, args, { encoding: 'utf8' });
    const processMs = performance.now() - start;
    if (out.status !== 0) throw new Error(`${name}: ${out.stderr}`);
    return { ...JSON.parse(out.stdout.trim().split('\n').pop()), processMs };
  };
  const rounds = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const cache = mkdtempSync(path.join(tmpdir(), 'bridged-bench-open-cache-'));
      try {
        const load = loadavg()[0];
        const A_cold = open('A', cache);
        const B_cold = open('B', cache);
        rounds.push({ load, A_cold, B_cold, A_warm: open('A', cache), B_warm: open('B', cache) });
      } finally {
        rmSync(cache, { recursive: true, force: true });
      }
    }
  } finally {
    const exited = new Promise((resolve) => daemon.once('exit', resolve));
    daemon.kill('SIGTERM');
    await exited;
    for (const root of Object.values(apps)) rmSync(root, { recursive: true, force: true });
  }
  const opens = ['A_cold', 'B_cold', 'A_warm', 'B_warm'];
  const summary = {
    daemon: BIN,
    preset: PRESET,
    app: APP,
    rows: ROWS,
    rounds: rounds.length,
    medians: Object.fromEntries(
      opens.map((o) => {
        const of = (key) => median(rounds.map((r) => r[o][key]));
        return [o, { openMs: of('openMs'), processMs: of('processMs'), misses: of('misses') }];
      }),
    ),
    runs: rounds,
  };
  console.log(JSON.stringify(summary, null, 2));
  const out = process.argv.indexOf('--json');
  if (out > 0) writeFileSync(process.argv[out + 1], `${JSON.stringify(summary, null, 2)}\n`);
}

if (process.argv[2] === '--child') {
  const [, , , root, cache, socket] = process.argv;
  console.log(JSON.stringify(await child(root, cache, socket)));
  process.exit(0);
} else {
  await main();
}
