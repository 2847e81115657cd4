// Issue 28's figures, in one run: the codegen schemas of every spec of the app's dependencies (react-native-screens,
// -safe-area-context, -svg from ../shared/react-native-0.72.6) built cold and warm; openApp plus the first render of
// a two-screen native stack (bench/react-native-nav) on paper and on Fabric, against the same app with a UIManager
// and a Fabric manager that do nothing; and a navigation: from the touch's end on "Next" to the batch that mounts
// the next screen applied in the daemon (median of ROUNDS). Each open runs in a fresh Node process.
// Usage: node bench/react-native-nav.mjs [--json out.json]; needs a release daemon (or $BRIDGED_BIN).

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { touchOp } from '../js-client/lib/command-op.js';
import { BIN, SHARED, floorBridge, floorUIManager, median } from './react-native-floor.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 15);

async function child(mode, architecture, root, cache, socket) {
  const { connect } = await import('../js-client/index.js');
  const { openApp } = await import('../js-client/lib/react-native.js');
  const t0 = performance.now();
  let bridge;
  let real = null;
  const options = { root, cache, architecture };
  if (mode === 'floor') {
    // The daemon is asked only what describes components (hello, define); nothing is created there.
    real = await connect({ socket });
    bridge = floorBridge(real, { forward: ['define'] });
    options.nativeModules = { UIManager: floorUIManager() };
  } else {
    bridge = await connect({ socket });
  }
  const app = await openApp(bridge, options);
  if (mode === 'floor' && architecture === 'fabric') {
    // Fabric's floor: the manager builds its nodes but sends nothing.
    app.native.flush = async () => {};
    app.native.enqueue = () => {};
  }
  const React = app.require('react');
  const screen = await app.render(React.createElement(app.require('./src/Nav').default));
  const openMs = performance.now() - t0;
  const navigate = [];
  if (mode === 'bridged') {
    const original = bridge.request.bind(bridge);
    for (let i = 0; i < ROUNDS; i++) {
      const next = screen.getByText('Next');
      let mounted = null;
      let start = 0;
      bridge.request = (frame, ...rest) => {
        const sent = original(frame, ...rest);
        if (frame.op === 'batch' && start > 0 && mounted === null && frame.ops.some((op) => op.op === 'create' && op.component === 'RNSScreen')) {
          mounted = sent.then(() => performance.now() - start);
        }
        return sent;
      };
      await original(touchOp(next.tag, 'start'));
      await app.settled();
      start = performance.now();
      await original(touchOp(next.tag, 'end'));
      await new Promise((resolve) => setTimeout(resolve, 150));
      await app.settled();
      if (!mounted) throw new Error('no batch mounted the next screen');
      navigate.push(await mounted);
      bridge.request = original;
      if (!screen.queryByText('Line 19')) throw new Error('the next screen is not in the daemon');
      await app.goBack();
    }
  }
  await app.close();
  await (real ?? bridge).close();
  return { openMs, navigateMedianMs: navigate.length ? median(navigate) : null };
}

async function main() {
  if (!existsSync(path.join(SHARED, 'react-native', 'package.json'))) return console.log(`skipped: no React Native packages at ${SHARED}`);
  const root = mkdtempSync(path.join(tmpdir(), 'bridged-bench-nav-'));
  cpSync(path.join(here, 'react-native-nav'), root, { recursive: true });
  symlinkSync(SHARED, path.join(root, 'node_modules'));
  const cache = mkdtempSync(path.join(tmpdir(), 'bridged-bench-cache-'));
  const { buildSchema, findSpecs } = await import('../js-client/lib/react-native/app/codegen.js');
  const files = findSpecs(root).flatMap((p) => p.files);
  let t = performance.now();
  buildSchema(root, files, { cacheDir: cache });
  const schemaCold = performance.now() - t;
  t = performance.now();
  buildSchema(root, files, { cacheDir: cache });
  const schemaWarm = performance.now() - t;
  const socket = path.join(root, 'b.sock');
  const daemon = spawn(BIN, ['--socket', socket], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  const run = (mode, architecture) => {
    const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, architecture, root, cache, socket], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${mode} ${architecture}: ${out.stderr}`);
    return JSON.parse(out.stdout.trim().split('\n').pop());
  };
  run('bridged', 'paper'); // fill the transform cache: each renderer's files, and the floor's
  run('bridged', 'fabric');
  run('floor', 'paper');
  const results = {};
  for (const architecture of ['paper', 'fabric']) {
    results[architecture] = { bridged: run('bridged', architecture), floor: run('floor', architecture) };
  }
  const exited = new Promise((resolve) => daemon.once('exit', resolve));
  daemon.kill('SIGTERM');
  await exited;
  rmSync(root, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
  const summary = {
    specFiles: files.length,
    schemaMs: { cold: schemaCold, warm: schemaWarm },
    openAndFirstRenderMs: Object.fromEntries(
      Object.entries(results).map(([a, r]) => [a, { bridged: r.bridged.openMs, floor: r.floor.openMs, ratio: r.bridged.openMs / r.floor.openMs }]),
    ),
    navigateMedianMs: { paper: results.paper.bridged.navigateMedianMs, fabric: results.fabric.bridged.navigateMedianMs },
    rounds: ROUNDS,
  };
  console.log(JSON.stringify(summary, null, 2));
  const out = process.argv.indexOf('--json');
  if (out > 0) writeFileSync(process.argv[out + 1], `${JSON.stringify(summary, null, 2)}\n`);
}

if (process.argv[2] === '--child') {
  const [, , , mode, architecture, root, cache, socket] = process.argv;
  console.log(JSON.stringify(await child(mode, architecture, root, cache, socket)));
  process.exit(0);
} else {
  await main();
}
