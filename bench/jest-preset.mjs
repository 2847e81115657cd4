// preset: 'bridged-client' against preset: 'react-native' (React Native's mocks with React Native Testing Library) on
// the same test files, in the same run, alternated: the example app's RNTL test file whole (warm and cold), a press
// to its re-render, a 200-row ScrollView's mount (each both as the first of a file, 200 presses and 10 mounts, and
// steady, 1,000 and 30 more once the JavaScript engine has compiled their code), and the example's flows through
// openApp (virtual time) against the same file on the mocks. Issue 43, item 6.
//
//   node bench/jest-preset.mjs            # BENCH_RUNS (default 5) alternated runs of each
//
// Needs the shared React Native 0.72.6 packages and jest (make deps-jest). The mocks' side needs React Native
// Testing Library 12.4, which npm's registry would give and this machine cannot reach: RNTL_NODE_MODULES names a
// folder holding `@testing-library/react-native` (built from its sources) and what it requires that Debian lacks
// (`redent`); Debian's react-test-renderer is copied in beside the app's React. Without it, the mocks' figures and
// the ratios are `pending`. The daemon is the release build (make release), else the debug one, said in the output.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SHARED = process.env.BRIDGED_RN_NODE_MODULES ?? path.join(REPO, '..', 'shared', 'react-native-0.72.6', 'node_modules');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const RNTL = process.env.RNTL_NODE_MODULES;
const release = path.join(REPO, '.build', 'release', 'bridged');
// Absolute: jest runs in the app's copy, where a path relative to here would name nothing.
const BIN = path.resolve(process.env.BRIDGED_BIN ?? (existsSync(release) ? release : path.join(REPO, '.build', 'debug', 'bridged')));

if (!existsSync(path.join(SHARED, 'react-native', 'package.json'))) {
  console.log(`no React Native packages at ${SHARED}: nothing to measure`);
  process.exit(0);
}
if (spawnSync('sh', ['-c', 'command -v jest']).status !== 0) {
  console.log('no jest on PATH (make deps-jest): nothing to measure');
  process.exit(0);
}
const haveMocks = Boolean(RNTL && existsSync(path.join(RNTL, '@testing-library', 'react-native', 'package.json')));

// The example app as a repository, with both presets' configs and the micro benchmarks as one more test file.
const root = mkdtempSync(path.join(tmpdir(), 'bridged-bench-jest-'));
const example = path.join(REPO, 'Examples', 'ReactNativeApp');
for (const entry of ['src', '__tests__', 'test', 'babel.config.js', 'package.json', 'jest.config.js', 'jest.config.mocks.js']) {
  cpSync(path.join(example, entry), path.join(root, entry), { recursive: true });
}
mkdirSync(path.join(root, 'node_modules'));
for (const entry of readdirSync(SHARED)) symlinkSync(path.join(SHARED, entry), path.join(root, 'node_modules', entry));
symlinkSync(path.join(REPO, 'js-client'), path.join(root, 'node_modules', 'bridged-client'));
if (haveMocks) {
  for (const entry of readdirSync(RNTL)) {
    if (entry === '@testing-library') {
      mkdirSync(path.join(root, 'node_modules', '@testing-library'), { recursive: true });
      for (const inner of readdirSync(path.join(RNTL, entry))) cpSync(path.join(RNTL, entry, inner), path.join(root, 'node_modules', entry, inner), { recursive: true });
    } else cpSync(path.join(RNTL, entry), path.join(root, 'node_modules', entry), { recursive: true });
  }
  // A copy, not a link: linked, it would load Debian's React beside the app's.
  cpSync('/usr/share/nodejs/react-test-renderer', path.join(root, 'node_modules', 'react-test-renderer'), { recursive: true, dereference: true });
  const mocks = path.join(root, 'jest.config.mocks.js');
  writeFileSync(mocks, readFileSync(mocks, 'utf8').replace('@testing-library/jest-native/extend-expect', '@testing-library/react-native/extend-expect'));
}
writeFileSync(
  path.join(root, '__tests__', 'zz-micro.test.js'),
  `import React from 'react';
import { ScrollView, Text, View } from 'react-native';
import { render, screen, fireEvent } from '@testing-library/react-native';
import { writeFileSync } from 'fs';
import Counter from '../src/components/Counter';

const out = {};
afterAll(() => writeFileSync(process.env.BENCH_OUT, JSON.stringify(out)));

test('a press to its re-render', () => {
  render(<Counter label="Likes" />);
  fireEvent.press(screen.getByText('+1'));
  const n = 200;
  let t = performance.now();
  for (let i = 0; i < n; i++) fireEvent.press(screen.getByText('+1'));
  out.pressMs = (performance.now() - t) / n;
  // Steady state: the same presses once the JavaScript engine has compiled their code (the 200 above warmed it).
  const m = 1000;
  t = performance.now();
  for (let i = 0; i < m; i++) fireEvent.press(screen.getByText('+1'));
  out.pressSteadyMs = (performance.now() - t) / m;
  expect(screen.getByText('pressed ' + (n + m + 1) + ' times')).toBeTruthy();
});

test('a 200-row ScrollView mounted', () => {
  const rows = Array.from({ length: 200 }, (_, i) => i);
  const List = () => (
    <ScrollView>{rows.map((i) => <View key={i} testID={'row-' + i}><Text>Row {i}</Text></View>)}</ScrollView>
  );
  render(<List />).unmount();
  const mount = () => {
    const view = render(<List />);
    expect(screen.getByText('Row 199')).toBeTruthy();
    view.unmount();
  };
  const n = 10;
  let t = performance.now();
  for (let i = 0; i < n; i++) mount();
  out.mount200Ms = (performance.now() - t) / n;
  // Steady state, after the 10 above.
  const m = 30;
  t = performance.now();
  for (let i = 0; i < m; i++) mount();
  out.mount200SteadyMs = (performance.now() - t) / m;
});
`,
);

const env = (extra = {}) => ({
  ...process.env,
  NODE_PATH: '/usr/share/nodejs:/usr/lib/nodejs',
  NODE_OPTIONS: `--require ${path.join(REPO, 'js-client', 'lib', 'jest', 'debian-node.cjs')}`,
  BRIDGED_BIN: BIN,
  ...extra,
});

/** One jest run: its wall time (ms) and whether every test passed. */
function jest(config, args, extra) {
  const t = performance.now();
  const run = spawnSync('jest', ['--ci', '--config', config, ...args], { cwd: root, env: env(extra), encoding: 'utf8' });
  return { ms: performance.now() - t, ok: run.status === 0, tail: run.stderr.slice(-400) };
}

const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  return s.length === 0 ? null : s[Math.floor(s.length / 2)];
};

const presets = haveMocks ? ['jest.config.js', 'jest.config.mocks.js'] : ['jest.config.js'];
const name = (config) => (config === 'jest.config.js' ? 'bridged' : 'mocks');
const results = { warm: {}, cold: {}, pressMs: {}, mount200Ms: {}, pressSteadyMs: {}, mount200SteadyMs: {}, passed: {} };
for (const config of presets) {
  // A first run fills jest's transform cache for the warm runs.
  jest(config, ['__tests__/App.test.js']);
  for (const key of ['warm', 'cold', 'pressMs', 'mount200Ms', 'pressSteadyMs', 'mount200SteadyMs']) results[key][name(config)] = [];
}
// Each measure runs under one preset, then at once under the other, so that the two of a pair see the same load (on a
// busy machine a run's time swings by 2x from one minute to the next): `pairedRatios` are the medians of each pair's
// ratio, beside `ratios`, the ratios of the medians.
for (let run = 0; run < RUNS; run++) {
  for (const config of presets) {
    const warm = jest(config, ['__tests__/App.test.js']);
    results.warm[name(config)].push(warm.ms);
    results.passed[name(config)] = warm.ok ? 'all' : `not all (${warm.tail.split('\n').find((l) => /Tests:/.test(l)) ?? 'see jest'})`;
  }
  for (const config of presets) {
    const cache = mkdtempSync(path.join(tmpdir(), 'bridged-bench-jest-cache-'));
    results.cold[name(config)].push(jest(config, ['__tests__/App.test.js', `--cacheDirectory=${cache}`]).ms);
    rmSync(cache, { recursive: true, force: true });
  }
  for (const config of presets) {
    const out = path.join(root, `micro-${name(config)}.json`);
    rmSync(out, { force: true });
    jest(config, ['__tests__/zz-micro'], { BENCH_OUT: out });
    const micro = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
    results.pressMs[name(config)].push(micro.pressMs ?? null);
    results.mount200Ms[name(config)].push(micro.mount200Ms ?? null);
    results.pressSteadyMs[name(config)].push(micro.pressSteadyMs ?? null);
    results.mount200SteadyMs[name(config)].push(micro.mount200SteadyMs ?? null);
  }
}

// The example's flows through openApp (node --test, virtual time), against the same file on the mocks (warm).
const flows = [];
for (let run = 0; run < RUNS; run++) {
  const t = performance.now();
  spawnSync(process.execPath, ['--test', 'test/'], { cwd: root, env: { ...process.env, NODE_PATH: '/usr/share/nodejs', BRIDGED_BIN: BIN }, encoding: 'utf8' });
  flows.push(performance.now() - t);
}

const summary = {};
for (const key of ['warm', 'cold', 'pressMs', 'mount200Ms', 'pressSteadyMs', 'mount200SteadyMs']) {
  summary[key] = Object.fromEntries(Object.entries(results[key]).map(([k, v]) => [k, median(v)]));
}
summary.openAppFlowsMs = median(flows);
const ratio = (a, b) => (a != null && b != null ? Number((a / b).toFixed(2)) : 'pending');
const ratios = {
  'whole file, warm (target <= 1.0)': ratio(summary.warm.bridged, summary.warm.mocks),
  'whole file, cold (target <= 1.2)': ratio(summary.cold.bridged, summary.cold.mocks),
  'a press to its re-render (target <= 1.5)': ratio(summary.pressMs.bridged, summary.pressMs.mocks),
  'a 200-row mount (target <= 2)': ratio(summary.mount200Ms.bridged, summary.mount200Ms.mocks),
  'a press, steady state (target <= 1.5)': ratio(summary.pressSteadyMs.bridged, summary.pressSteadyMs.mocks),
  'a 200-row mount, steady state (target <= 2)': ratio(summary.mount200SteadyMs.bridged, summary.mount200SteadyMs.mocks),
  "openApp's flows, virtual time, against the file on the mocks (target <= 0.5)": ratio(summary.openAppFlowsMs, summary.warm.mocks),
};
/** The median of each run's bridged ÷ mocks (the two measured one after the other). */
const paired = (key) => {
  const { bridged = [], mocks = [] } = results[key];
  const each = bridged.map((b, i) => (b != null && mocks[i] != null ? b / mocks[i] : null)).filter((r) => r != null);
  return each.length === 0 ? 'pending' : Number(median(each).toFixed(2));
};
const pairedRatios = {
  'whole file, warm (target <= 1.0)': paired('warm'),
  'whole file, cold (target <= 1.2)': paired('cold'),
  'a press to its re-render (target <= 1.5)': paired('pressMs'),
  'a 200-row mount (target <= 2)': paired('mount200Ms'),
  'a press, steady state (target <= 1.5)': paired('pressSteadyMs'),
  'a 200-row mount, steady state (target <= 2)': paired('mount200SteadyMs'),
};
const load = (await import('node:os')).loadavg().map((l) => Number(l.toFixed(2)));
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).stdout.trim();
const report = {
  commit,
  daemon: path.relative(REPO, BIN),
  runs: RUNS,
  loadAtEnd: load,
  passed: results.passed,
  medians: summary,
  ratios,
  pairedRatios,
  raw: { ...results, openAppFlowsMs: flows },
};
const { raw, ...shown } = report;
console.log(JSON.stringify(shown, null, 2));
if (process.env.BENCH_RECORD) writeFileSync(process.env.BENCH_RECORD, JSON.stringify(report, null, 2) + '\n');
rmSync(root, { recursive: true, force: true });
