// preset: 'bridged-client': a React Native app's test files written only against React Native Testing Library's
// documented API (test-support/jest-app/__tests__: render, every query kind, fireEvent, userEvent, waitFor,
// matchers, jest.mock, fake timers, the app's own setupFiles and moduleNameMapper) pass under jest with the one
// line in the app's jest config; and the run's daemon is never left behind, not even when jest itself is killed.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { jestEnv, jestSkip, makeJestApp, runJest } from '../test-support/jest-app.js';

/** Whether lib/jest/runtime.cjs finds jest-runtime from this process (it looks beside the app's jest, else its own). */
function runtimeAtHand() {
  try {
    createRequire(import.meta.url)('../lib/jest/runtime.cjs');
    return true;
  } catch {
    return false;
  }
}

/** Debian's react-test-renderer (node-react-test-renderer), which a test copies into the app (a link loads a second React). */
const TEST_RENDERER = '/usr/share/nodejs/react-test-renderer';

/** The bridged daemons whose command line names `dir` (the run's own temporary folder). */
function daemonsIn(dir) {
  const found = spawnSync('pgrep', ['-f', `${dir}/bridged-jest-`], { encoding: 'utf8' });
  return found.stdout.split('\n').filter(Boolean).map(Number);
}

describe("preset: 'bridged-client'", { skip: jestSkip }, () => {
  let layout;
  let tmp;
  before(() => {
    layout = makeJestApp();
    tmp = mkdtempSync(path.join(tmpdir(), 'bridged-jest-run-'));
  });
  after(() => {
    layout?.remove();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** Runs `run` with `__tests__/name` (its lines) in the app, removed after, whatever happens. */
  async function withTestFile(name, lines, run) {
    const file = path.join(layout.root, '__tests__', name);
    writeFileSync(file, [...lines, ''].join('\n'));
    try {
      return await run();
    } finally {
      rmSync(file, { force: true });
    }
  }

  /** jest over `args` with its JSON report (`results`, in the run's folder): `{run, report}`; no report fails. */
  async function jestReport(args, results) {
    const file = path.join(tmp, results);
    const run = await runJest(layout.root, ['--ci', '--json', `--outputFile=${file}`, ...args], { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN });
    assert.ok(existsSync(file), `jest ended without its report: ${run.code} ${run.signal} ${run.stderr.slice(-1500)}`);
    return { run, report: JSON.parse(readFileSync(file, 'utf8')) };
  }

  /**
   * jest in band over `__tests__/<name>.test.js` (its lines, removed after) and the pure logic file after it: both
   * files pass and jest exits with 0. Resolves jest's run.
   */
  async function passesBesidePure(name, lines) {
    return withTestFile(`${name}.test.js`, lines, async () => {
      const { run, report } = await jestReport(['--runInBand', `__tests__/${name}`, '__tests__/pure'], `${name}-results.json`);
      const outcome = report.testResults.map((file) => [path.basename(file.name), file.status]);
      assert.deepEqual(outcome.sort(), [['pure.test.js', 'passed'], [`${name}.test.js`, 'passed']]);
      assert.equal(run.code, 0, run.stderr.slice(-1500));
      return run;
    });
  }

  /**
   * jest over the hooks and events files with the app's config changed by `changes(own)` (written beside it as
   * `jest.config.<name>.js`, removed after): both files pass.
   */
  async function passesWithConfig(name, changes) {
    const config = path.join(layout.root, `jest.config.${name}.js`);
    const own = JSON.parse(readFileSync(path.join(layout.root, 'package.json'), 'utf8')).jest;
    writeFileSync(config, `module.exports = ${JSON.stringify({ ...own, ...changes(own), rootDir: layout.root })};\n`);
    try {
      const run = await runJest(layout.root, ['--ci', `--config=${config}`, '__tests__/hooks', '__tests__/events'], { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN });
      assert.equal(run.code, 0, run.stderr.slice(-3000));
      assert.match(run.stderr, /PASS __tests__\/hooks\.test\.js/);
      assert.match(run.stderr, /PASS __tests__\/events\.test\.js/);
    } finally {
      rmSync(config, { force: true });
    }
  }

  test("an app's RNTL test files pass unchanged, and the run's daemon is stopped", async () => {
    const results = path.join(tmp, 'results.json');
    const run = await runJest(layout.root, ['--ci', '--json', `--outputFile=${results}`], { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN });
    const report = JSON.parse(readFileSync(results, 'utf8'));
    const failures = report.testResults.flatMap((file) =>
      file.assertionResults.filter((a) => a.status !== 'passed').map((a) => `${path.basename(file.name)}: ${a.fullName}: ${a.failureMessages.join('\n').slice(0, 600)}`),
    );
    const broken = report.testResults.filter((file) => file.status !== 'passed' && file.assertionResults.length === 0).map((f) => `${f.name}: ${f.message.slice(0, 800)}`);
    assert.deepEqual([...broken, ...failures], [], run.stderr.slice(-2000));
    assert.equal(run.code, 0);
    assert.equal(report.numTotalTestSuites, 17);
    assert.ok(report.numPassedTests >= 62, `${report.numPassedTests} tests passed`);
    assert.deepEqual(daemonsIn(tmp), [], 'the daemon outlived the run');
    // The schema of the app's specs (screens, safe-area) is kept in jest's cache folder, for the next files and runs.
    const caches = readdirSync(tmp).filter((name) => name.startsWith('jest_'));
    const schemas = caches.flatMap((name) => {
      const dir = path.join(tmp, name, 'bridged', 'schemas');
      return existsSync(dir) ? readdirSync(dir) : [];
    });
    assert.equal(schemas.filter((name) => name.endsWith('.json')).length, 1, `${caches}: ${schemas}`);
  });

  test("the code V8 compiled for a file's modules is kept in jest's cache folder, taken by the next run, and not with --no-cache", async () => {
    const cache = path.join(tmp, 'v8-cache');
    // jest's cache folder → bridged-v8-<V8's tag> → the project's config id → its packs.
    const packs = () => {
      const found = [];
      const walk = (dir, depth) => {
        if (!existsSync(dir)) return;
        for (const name of readdirSync(dir)) {
          if (depth === 0 && !name.startsWith('bridged-v8-')) continue;
          if (depth < 2) walk(path.join(dir, name), depth + 1);
          else found.push(path.relative(cache, path.join(dir, name)));
        }
      };
      walk(cache, 0);
      return found.sort();
    };
    const env = { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN };
    const first = await runJest(layout.root, ['--ci', `--cacheDirectory=${cache}`, '__tests__/hooks'], env);
    assert.equal(first.code, 0, first.stderr.slice(-2000));
    const written = packs();
    assert.equal(written.length, 1, `${written}`);
    assert.match(written[0], /\.pack$/);
    // The next run takes every module's data (V8 refusing any would have it written again, as a new pack).
    const second = await runJest(layout.root, ['--ci', `--cacheDirectory=${cache}`, '__tests__/hooks'], env);
    assert.equal(second.code, 0, second.stderr.slice(-2000));
    assert.deepEqual(packs(), written);
    // A module whose source changed (here to another of the same length) runs as it is now, not as the data kept for
    // it: a module's data is keyed by jest's transform cache file for it, which is named by the hash of its contents.
    const padding = `// ${'x'.repeat(1200)}\n`;
    mkdirSync(path.join(layout.root, 'src'), { recursive: true });
    writeFileSync(path.join(layout.root, 'src', 'answer.js'), `${padding}module.exports = 'first';\n`);
    writeFileSync(
      path.join(layout.root, '__tests__', 'answer.test.js'),
      "test('the module as it is now', () => { expect(require('../src/answer')).toBe(process.env.ANSWER); });\n",
    );
    try {
      for (const answer of ['first', 'other']) {
        writeFileSync(path.join(layout.root, 'src', 'answer.js'), `${padding}module.exports = '${answer}';\n`);
        for (let run = 0; run < 2; run++) {
          const ran = await runJest(layout.root, ['--ci', `--cacheDirectory=${cache}-answer`, '__tests__/answer'], { ...env, ANSWER: answer });
          assert.equal(ran.code, 0, `${answer}, run ${run}: ${ran.stderr.slice(-2000)}`);
        }
      }
    } finally {
      rmSync(path.join(layout.root, 'src', 'answer.js'), { force: true });
      rmSync(path.join(layout.root, '__tests__', 'answer.test.js'), { force: true });
      rmSync(`${cache}-answer`, { recursive: true, force: true });
    }
    // A pack whose data changed (V8 would take it as code) is passed over and removed: the run passes and writes the
    // data again (an entry is checked against its SHA-1 when first asked for).
    const pack = readFileSync(path.join(cache, written[0]));
    pack[pack.length - 100] ^= 0xff;
    writeFileSync(path.join(cache, written[0]), pack);
    const third = await runJest(layout.root, ['--ci', `--cacheDirectory=${cache}`, '__tests__/hooks'], env);
    assert.equal(third.code, 0, third.stderr.slice(-2000));
    const again = packs();
    assert.equal(again.length, 1, `${again}`);
    assert.notEqual(again[0], written[0]);
    rmSync(cache, { recursive: true, force: true });
    const none = await runJest(layout.root, ['--ci', '--no-cache', `--cacheDirectory=${cache}`, '__tests__/hooks'], env);
    assert.equal(none.code, 0, none.stderr.slice(-2000));
    assert.deepEqual(packs(), []);
    // Coverage instruments what V8 compiles: left to jest.
    const covered = await runJest(layout.root, ['--ci', '--coverage', `--coverageDirectory=${path.join(tmp, 'coverage')}`, `--cacheDirectory=${cache}`, '__tests__/hooks'], env);
    assert.equal(covered.code, 0, covered.stderr.slice(-2000));
    assert.deepEqual(packs(), []);
  });

  test('the code cache merges its packs past 16 into one, passes over damaged data, starts over past its size, and keeps one V8 flavour', { skip: runtimeAtHand() ? false : "jest-runtime is not at hand from here (Debian's jest: NODE_PATH=/usr/share/nodejs, as make test sets it)" }, () => {
    const { CodeCache } = createRequire(import.meta.url)('../lib/jest/runtime.cjs');
    const folder = path.join(tmp, 'packs');
    const cache = new CodeCache(folder);
    const names = () => readdirSync(folder).filter((name) => name.endsWith('.pack'));
    for (let i = 0; i < 16; i++) cache.write([[`h${i}`, Buffer.from(`data ${i}`)]]);
    assert.equal(names().length, 16);
    cache.write([['h16', Buffer.from('data 16')]]);
    assert.equal(names().length, 1);
    const reader = new CodeCache(folder);
    reader.refresh();
    for (let i = 0; i <= 16; i++) assert.equal(reader.get(`h${i}`)?.toString(), `data ${i}`);
    // Another process's new pack is read on the next refresh, each pack once.
    cache.write([['h17', Buffer.from('data 17')]]);
    reader.refresh();
    assert.equal(reader.get('h17')?.toString(), 'data 17');
    // A file that is not a pack is passed over, and removed.
    writeFileSync(path.join(folder, 'other.pack'), 'not a pack');
    const third = new CodeCache(folder);
    third.refresh();
    assert.equal(third.get('h17')?.toString(), 'data 17');
    assert.ok(!existsSync(path.join(folder, 'other.pack')));
    rmSync(folder, { recursive: true, force: true });
    // An entry whose data changed is not given out, and its pack is removed; the others are.
    const two = new CodeCache(folder);
    two.write([['x', Buffer.from('xxxxxxxx')], ['y', Buffer.from('yyyyyyyy')]]);
    const [pack] = names();
    const bytes = readFileSync(path.join(folder, pack));
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(path.join(folder, pack), bytes);
    const damaged = new CodeCache(folder);
    damaged.refresh();
    assert.equal(damaged.get('x')?.toString(), 'xxxxxxxx');
    assert.equal(damaged.get('y'), undefined);
    assert.deepEqual(names(), []);
    rmSync(folder, { recursive: true, force: true });
    // Past its size, a merge keeps only the data just written.
    const small = new CodeCache(folder, { maxPacks: 2, maxBytes: 12 });
    small.write([['a', Buffer.from('aaaaaaaa')]]);
    small.write([['b', Buffer.from('bbbbbbbb')]]);
    small.write([['c', Buffer.from('cccccccc')]]);
    assert.equal(names().length, 1);
    const after = new CodeCache(folder);
    after.refresh();
    assert.deepEqual(['a', 'b', 'c'].map((hash) => after.get(hash)?.toString()), [undefined, undefined, 'cccccccc']);
    rmSync(folder, { recursive: true, force: true });
    // A project's folder is under its V8 flavour's; a flavour's folder made anew removes another's (another Node's).
    const { projectFolder } = createRequire(import.meta.url)('../lib/jest/runtime.cjs');
    const root = path.join(tmp, 'flavours');
    mkdirSync(path.join(root, 'bridged-v8-0000', 'p'), { recursive: true });
    writeFileSync(path.join(root, 'bridged-v8-0000', 'p', 'a.pack'), 'old');
    mkdirSync(path.join(root, 'jest-transform-cache'));
    const project = projectFolder(root, 'p');
    assert.equal(path.basename(project), 'p');
    assert.deepEqual(readdirSync(root).sort(), [path.basename(path.dirname(project)), 'jest-transform-cache'].sort());
    assert.match(path.basename(path.dirname(project)), /^bridged-v8-[0-9a-f]+$/);
    rmSync(root, { recursive: true, force: true });
  });

  test("a warm run names each module's transform cache file without loading the app's Babel config, and a changed config is loaded and applied", async () => {
    const cache = path.join(tmp, 'keys-cache');
    const config = path.join(layout.root, 'babel.config.js');
    const original = readFileSync(config, 'utf8');
    const evaluations = path.join(tmp, 'babel-config-evaluations');
    const mark = path.join(tmp, 'mark');
    // A config that says each time Babel evaluates it (api.cache.never(): at each module's key and transform).
    const writeConfig = (plugin) =>
      writeFileSync(
        config,
        `module.exports = (api) => {
  api.cache.never();
  require('fs').appendFileSync(process.env.BABEL_EVALUATIONS, 'x\\n');
  return { presets: ['module:metro-react-native-babel-preset'], plugins: [${plugin}] };
};
`,
      );
    const evaluated = () => (existsSync(evaluations) ? readFileSync(evaluations, 'utf8').split('\n').filter(Boolean).length : 0);
    const env = { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN, BABEL_EVALUATIONS: evaluations, MARK: mark };
    const run = async (...args) => {
      rmSync(evaluations, { force: true });
      const ran = await runJest(layout.root, ['--ci', `--cacheDirectory=${cache}`, ...args, '__tests__/mark'], env);
      assert.equal(ran.code, 0, ran.stderr.slice(-2000));
      return { evaluated: evaluated(), mark: readFileSync(mark, 'utf8') };
    };
    writeConfig('');
    try {
      await withTestFile('mark.test.js', ["import { View } from 'react-native';", "test('the mark as Babel left it', () => { require('fs').writeFileSync(process.env.MARK, 'before-babel-change'); expect(View).toBeTruthy(); });"], async () => {
        const cold = await run();
        assert.ok(cold.evaluated > 0, 'a cold run loads the config');
        assert.equal(cold.mark, 'before-babel-change');
        const keys = path.join(cache, 'bridged-transform-keys');
        assert.equal(readdirSync(keys).filter((name) => name.endsWith('.json')).length, 1);
        const warm = await run();
        assert.deepEqual(warm, { evaluated: 0, mark: 'before-babel-change' });
        // The config changed (a plugin that rewrites the mark): loaded, and every module transformed by it again.
        writeConfig(`() => ({ visitor: { StringLiteral(p) { if (p.node.value === 'before-babel-change') p.node.value = 'after-babel-change'; } } })`);
        const changed = await run();
        assert.ok(changed.evaluated > 0, 'a changed config is loaded');
        assert.equal(changed.mark, 'after-babel-change');
        assert.deepEqual(await run(), { evaluated: 0, mark: 'after-babel-change' });
        // --no-cache asks babel-jest, as jest does, and keeps no names.
        rmSync(cache, { recursive: true, force: true });
        const uncached = await run('--no-cache');
        assert.ok(uncached.evaluated > 0);
        assert.ok(!existsSync(keys), 'no names kept under --no-cache');
      });
    } finally {
      writeFileSync(config, original);
      rmSync(cache, { recursive: true, force: true });
    }
  });

  test("a cold run transforms React Native's components in the file's setup, in a registry of their own; a warm one transforms nothing", async () => {
    // On a cold run Babel transforms each module the first time it is required: a test's first render of a field or
    // a list spent seconds of it against the test's timeout (an async test of the example's, 4.6 to 5 s on a slow
    // machine, failed 4 cold runs of 12 there). The app's Babel config here logs each file it transforms.
    const cache = path.join(tmp, 'cold-cache');
    const log = path.join(tmp, 'transform-log');
    const config = path.join(layout.root, 'babel.config.js');
    const original = readFileSync(config, 'utf8');
    writeFileSync(
      config,
      `module.exports = (api) => {
  api.cache.never();
  const logged = () => ({ pre(file) { require('fs').appendFileSync(process.env.TRANSFORM_LOG, file.opts.filename + '\\n'); } });
  return { presets: ['module:metro-react-native-babel-preset'], plugins: [logged] };
};
`,
    );
    const env = { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN, TRANSFORM_LOG: log };
    const lines = [
      "test('a field, required in the test', () => {",
      "  const fs = require('fs');",
      "  const loaded = Object.keys(require.cache).filter((file) => /TextInput[\\\\/]TextInput\\.js$/.test(file)).length;",
      "  fs.appendFileSync(process.env.TRANSFORM_LOG, `test-start ${loaded}\\n`);",
      "  expect(require('react-native').TextInput).toBeTruthy();",
      "  fs.appendFileSync(process.env.TRANSFORM_LOG, 'test-end\\n');",
      '});',
    ];
    const field = /[\\/]TextInput[\\/]TextInput\.js$/;
    /** The run's log: where TextInput.js was transformed, relative to the test's start and end. */
    const run = async (...args) => {
      rmSync(log, { force: true });
      const ran = await runJest(layout.root, ['--ci', ...args, '__tests__/zz-cold'], env);
      assert.equal(ran.code, 0, ran.stderr.slice(-2000));
      const entries = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      const start = entries.findIndex((line) => line.startsWith('test-start'));
      return {
        transformsBeforeTheTest: entries.slice(0, start).filter((line) => field.test(line)).length,
        transformsInTheTest: entries.slice(start).filter((line) => field.test(line)).length,
        inTheTestsRegistryBeforeIt: entries[start],
      };
    };
    try {
      await withTestFile('zz-cold.test.js', lines, async () => {
        const cold = { transformsBeforeTheTest: 1, transformsInTheTest: 0, inTheTestsRegistryBeforeIt: 'test-start 0' };
        assert.deepEqual(await run(`--cacheDirectory=${cache}`), cold, 'cold: transformed in the setup, loaded in the test');
        const warm = { transformsBeforeTheTest: 0, transformsInTheTest: 0, inTheTestsRegistryBeforeIt: 'test-start 0' };
        assert.deepEqual(await run(`--cacheDirectory=${cache}`), warm, 'warm: nothing transformed');
        assert.deepEqual(await run('--no-cache'), cold, "with jest's cache off every run is cold");
      });
    } finally {
      writeFileSync(config, original);
      rmSync(cache, { recursive: true, force: true });
    }
  });

  test("under the config's fakeTimers.enableGlobally, work React schedules outside act waits for the fake clock, as on React Native's preset", async () => {
    // React Native loads in the preset's setup file, before jest installs the config's fake timers: React's scheduler
    // kept the real ones, so work scheduled outside act (a react-test-renderer tree's effects) ran on its own, and
    // after the file ended, where a first require fails (jest's environment is gone), where React Native's preset
    // loads React after, with fake ones (cardiffinc/RNChallengeBeta's App test: bottom-tabs' effect requiring Easing).
    const lines = [
      "import 'react-native';",
      "import { unstable_scheduleCallback as schedule, unstable_NormalPriority as normal } from 'scheduler';",
      'const ran = [];',
      "const late = () => { ran.push('work'); require('react-native/Libraries/Animated/Easing'); };",
      "test('work scheduled outside act runs when the fake clock does', () => {",
      '  schedule(normal, late);',
      '  expect(ran).toEqual([]);',
      '  jest.runAllTimers();',
      "  expect(ran).toEqual(['work']);",
      '});',
      "test('work left pending at the end of the file', () => { schedule(normal, late); });",
    ];
    const config = path.join(layout.root, 'jest.config.fake-globally.js');
    const own = JSON.parse(readFileSync(path.join(layout.root, 'package.json'), 'utf8')).jest;
    writeFileSync(config, `module.exports = ${JSON.stringify({ ...own, fakeTimers: { enableGlobally: true }, rootDir: layout.root })};\n`);
    try {
      await withTestFile('zz-fake-globally.test.js', lines, async () => {
        const run = await runJest(layout.root, ['--ci', `--config=${config}`, '__tests__/zz-fake-globally'], { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN });
        assert.equal(run.code, 0, run.stderr.slice(-3000));
        assert.match(run.stderr, /Tests:\s+2 passed/);
        assert.doesNotMatch(run.stderr, /torn down/, 'no effect ran after the file ended');
      });
    } finally {
      rmSync(config, { force: true });
    }
  });

  test("React Native's renderer loads without its development replay copies, and as shipped under testEnvironmentOptions.bridged.rendererAsShipped", async () => {
    // dev-overhead.cjs, applied as jest reads the file (runtime.cjs readFile): a component that throws renders once,
    // as on react-test-renderer; as shipped, the development build renders it again to replay the error.
    const lines = [
      "import React from 'react';",
      "import { Text } from 'react-native';",
      "import { render, screen } from '@testing-library/react-native';",
      'class Boundary extends React.Component {',
      '  state = { error: null };',
      '  static getDerivedStateFromError(error) { return { error }; }',
      '  render() { return this.state.error ? <Text>caught</Text> : this.props.children; }',
      '}',
      "test('renders of a component that throws', () => {",
      "  jest.spyOn(console, 'error').mockImplementation(() => {});",
      '  let renders = 0;',
      "  const Throws = () => { renders += 1; throw new Error('cannot render'); };",
      '  render(<Boundary><Throws /></Boundary>);',
      "  expect(screen.getByText('caught')).toBeTruthy();",
      '  expect(renders).toBe(Number(process.env.EXPECTED_RENDERS));',
      '});',
    ];
    const own = JSON.parse(readFileSync(path.join(layout.root, 'package.json'), 'utf8')).jest;
    const config = path.join(layout.root, 'jest.config.as-shipped.js');
    writeFileSync(config, `module.exports = ${JSON.stringify({ ...own, testEnvironmentOptions: { bridged: { rendererAsShipped: true } }, rootDir: layout.root })};\n`);
    try {
      await withTestFile('zz-renders-once.test.js', lines, async () => {
        for (const [args, expected] of [[[], '1'], [[`--config=${config}`], '2']]) {
          const run = await runJest(layout.root, ['--ci', ...args, '__tests__/zz-renders-once'], { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN, EXPECTED_RENDERS: expected });
          assert.equal(run.code, 0, `${args.join(' ') || 'the app config'}: ${run.stderr.slice(-3000)}`);
          assert.match(run.stderr, /Tests:\s+1 passed/);
        }
      });
    } finally {
      rmSync(config, { force: true });
    }
  });

  test("an app's own transformIgnorePatterns (which replace the preset's) with the client linked from a checkout", async () => {
    // The client is a link to this checkout, so jest sees its files outside node_modules; the app's patterns are
    // React Native's template's and Debian's jest runner's. bridged's files are loaded by Node all the same.
    await passesWithConfig('own-patterns', () => ({
      transformIgnorePatterns: ['node_modules/(?!(jest-)?react-native|@react-native|@react-native-community|@react-navigation)', '^/usr/(share|lib)/nodejs/'],
    }));
  });

  for (const environment of ['node', 'jsdom', 'react-native/jest/react-native-env.js']) {
    test(`an app's config that says testEnvironment: '${environment}' (it overrides the preset's) runs its files on bridged`, async () => {
      // Many React Native apps' configs name jest's node or jsdom environment beside their preset, or React Native's
      // own (a path, copied from its preset); bridged's runner keeps their files in bridged's environment (a node
      // one, as a phone has no DOM), where they would load React Native with no native side.
      const named = environment.includes('/') ? path.join(layout.root, 'node_modules', environment) : environment;
      await passesWithConfig(`${path.basename(environment, '.js')}-environment`, () => ({ testEnvironment: named }));
    });
  }

  test("an app's config that names React Native's jest setup itself (setupFiles) still runs on bridged's native side", async () => {
    // Many apps list react-native/jest/setup.js in setupFiles beside the preset (by path, or require.resolve'd). Under
    // the preset it is nothing: its mocks loaded over bridged's native side swapped Text for a mock that is no text to
    // the renderer, and every render failed ("Text strings must be rendered within a <Text> component").
    await passesWithConfig('react-native-setup', (own) => ({
      setupFiles: ['<rootDir>/node_modules/react-native/jest/setup.js', ...own.setupFiles],
      setupFilesAfterEnv: [...own.setupFilesAfterEnv, 'react-native/jest/setup'],
    }));
  });

  test("an app's own globalSetup and globalTeardown (which replace the preset's): one daemon for the run all the same, and nothing left in the app", async () => {
    // jest runs one globalSetup per project: an app's own (a time zone, a mock server) replaces the preset's, which
    // starts the run's daemon. Each test file's session then spawned a daemon of its own on a socket in the app's
    // folder, and left the daemon's log there (`.bridged-jest.sock.log`); bridged's runner starts the run's daemon.
    const marker = path.join(tmp, 'own-global-setup.txt');
    const setup = path.join(layout.root, 'own-global-setup.js');
    const teardown = path.join(layout.root, 'own-global-teardown.js');
    writeFileSync(setup, `module.exports = async () => require('fs').writeFileSync(${JSON.stringify(marker)}, 'setup');\n`);
    writeFileSync(teardown, `module.exports = async () => require('fs').appendFileSync(${JSON.stringify(marker)}, ' teardown');\n`);
    try {
      await passesWithConfig('own-global-setup', () => ({ globalSetup: setup, globalTeardown: teardown }));
    } finally {
      rmSync(setup, { force: true });
      rmSync(teardown, { force: true });
    }
    assert.equal(readFileSync(marker, 'utf8'), 'setup teardown');
    assert.deepEqual(readdirSync(layout.root).filter((name) => name.startsWith('.bridged-jest')), []);
    assert.deepEqual(daemonsIn(tmp), [], 'the daemon outlived the run');
  });

  test("a TMPDIR too deep for a Unix socket's path (107 bytes): the run's daemon listens in /tmp, and nothing is left", async () => {
    // Some CI runners set TMPDIR deep in their workspace; the socket in the run's folder there was too long, and the
    // daemon could not listen ("socket path is too long"): no test file ran.
    const deep = path.join(tmp, 'd'.repeat(110));
    mkdirSync(deep);
    const run = await runJest(layout.root, ['--ci', '__tests__/hooks'], { ...jestEnv(deep), BRIDGED_BIN: process.env.BRIDGED_BIN });
    assert.equal(run.code, 0, run.stderr.slice(-3000));
    assert.match(run.stderr, /PASS __tests__\/hooks\.test\.js/);
    assert.deepEqual(readdirSync(deep).filter((name) => name.startsWith('bridged-jest-')), []);
  });

  test("a package's exports resolve under React Native's conditions, or under those of the environment the config names", async () => {
    // React Native's environment resolves `exports` with ['require', 'react-native']; jest's node one with ['node',
    // 'node-addons']. bridged's resolved with node's where the app's config named none (a package's node build in
    // place of its React Native one), so a file differed from the mocks before it ran.
    const probe = path.join(layout.root, 'node_modules', 'bridged-conditions-probe');
    mkdirSync(probe);
    const exports = { '.': { 'react-native': './rn.js', browser: './browser.js', node: './node.js', default: './default.js' } };
    writeFileSync(path.join(probe, 'package.json'), JSON.stringify({ name: 'bridged-conditions-probe', version: '1.0.0', exports }));
    for (const name of ['rn', 'browser', 'node', 'default']) writeFileSync(path.join(probe, `${name}.js`), `module.exports = '${name}';\n`);
    const config = path.join(layout.root, 'jest.config.node-conditions.js');
    const own = JSON.parse(readFileSync(path.join(layout.root, 'package.json'), 'utf8')).jest;
    writeFileSync(config, `module.exports = ${JSON.stringify({ ...own, testEnvironment: 'node', rootDir: layout.root })};\n`);
    const lines = ["test('resolves', () => { expect(require('bridged-conditions-probe')).toBe(process.env.BRIDGED_EXPECTED_BUILD); });"];
    try {
      await withTestFile('zz-conditions.test.js', lines, async () => {
        const env = { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN };
        const preset = await runJest(layout.root, ['--ci', '__tests__/zz-conditions'], { ...env, BRIDGED_EXPECTED_BUILD: 'rn' });
        assert.equal(preset.code, 0, preset.stderr.slice(-1500));
        const node = await runJest(layout.root, ['--ci', `--config=${config}`, '__tests__/zz-conditions'], { ...env, BRIDGED_EXPECTED_BUILD: 'node' });
        assert.equal(node.code, 0, node.stderr.slice(-1500));
      });
    } finally {
      rmSync(probe, { recursive: true, force: true });
      rmSync(config, { force: true });
    }
  });

  for (const runInBand of [true, false]) {
    test(`a file whose @jest-environment docblock names jest's node or jsdom environment runs on bridged (${runInBand ? 'in band' : 'in workers'}); one naming the app's own runs there`, async () => {
      // jest picks a docblock's environment over any config, in each worker (or in jest's process with --runInBand),
      // where the runner's config does not reach: such a file loaded the app's React Native with no native side
      // ("__DEV__ is not defined") where React Native's preset mocks it in any environment. Now kept in bridged's, as
      // a config's is; a docblock naming an environment of the app's own still names it, and RNTL there says why it
      // cannot run.
      const press = [
        "import React from 'react';",
        "import { Pressable, Text } from 'react-native';",
        "import { render, screen, fireEvent } from '@testing-library/react-native';",
        "test('presses', () => {",
        '  const onPress = jest.fn();',
        '  render(<Pressable onPress={onPress}><Text>Go</Text></Pressable>);',
        "  fireEvent.press(screen.getByText('Go'));",
        '  expect(onPress).toHaveBeenCalledTimes(1);',
        "  expect(typeof document).toBe('undefined');",
        '});',
        '',
      ];
      const files = {
        'zz-docblock-logic.test.js': ['/**', ' * @jest-environment node', ' */', "test('adds', () => { expect(1 + 1).toBe(2); });", ''],
        'zz-docblock-node.test.js': ['/**', ' * @jest-environment node', ' */', ...press],
        'zz-docblock-jsdom.test.js': ['/** @jest-environment jsdom */', ...press],
        'zz-docblock-own.test.js': [
          '/** @jest-environment ./zz-docblock-own-environment.js */',
          "import { render } from '@testing-library/react-native';",
          "test('renders', () => { expect(render).toBeDefined(); });",
          '',
        ],
      };
      for (const [name, lines] of Object.entries(files)) writeFileSync(path.join(layout.root, '__tests__', name), lines.join('\n'));
      // The app's own environment (a test file's folder would make it a test file).
      const own = path.join(layout.root, 'zz-docblock-own-environment.js');
      writeFileSync(own, "module.exports = require('jest-environment-node').TestEnvironment;\n");
      const results = path.join(tmp, 'docblock-results.json');
      try {
        const args = ['--ci', '--json', `--outputFile=${results}`, runInBand ? '--runInBand' : '--maxWorkers=2', '__tests__/zz-docblock'];
        await runJest(layout.root, args, { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN });
        const outcome = Object.fromEntries(
          JSON.parse(readFileSync(results, 'utf8')).testResults.map((file) => [path.basename(file.name), [file.status, file.message]]),
        );
        for (const name of ['zz-docblock-logic.test.js', 'zz-docblock-node.test.js', 'zz-docblock-jsdom.test.js']) {
          assert.equal(outcome[name]?.[0], 'passed', `${name}: ${outcome[name]?.[1]}`);
        }
        assert.equal(outcome['zz-docblock-own.test.js'][0], 'failed');
        assert.match(outcome['zz-docblock-own.test.js'][1], /@jest-environment` docblock/);
        assert.deepEqual(daemonsIn(tmp), [], 'the daemon outlived the run');
      } finally {
        for (const name of Object.keys(files)) rmSync(path.join(layout.root, '__tests__', name), { force: true });
        rmSync(own, { force: true });
      }
    });
  }

  test('a promise a component rejects after its test fails that test, as with RNTL, and the run goes on', async () => {
    // RNTL's cleanup after each test waits a turn of the event loop first: the rejection is jest's to report while the
    // test is still current. Without that turn it came once jest had let go of it, and Node ended the whole run.
    const lines = [
      "import React from 'react';",
      "import { Text } from 'react-native';",
      "import { render, screen } from '@testing-library/react-native';",
      'class Late extends React.Component {',
      "  async componentDidMount() { await null; throw new Error('rejected after mount'); }",
      "  render() { return <Text>late</Text>; }",
      '}',
      "test('mounts a component that rejects', () => { render(<Late />); expect(screen.getByText('late')).toBeTruthy(); });",
      "test('the next test', () => { render(<Text>next</Text>); expect(screen.getByText('next')).toBeTruthy(); });",
    ];
    await withTestFile('zz-late-rejection.test.js', lines, async () => {
      const { report } = await jestReport(['__tests__/zz-late-rejection'], 'late-results.json');
      const outcome = report.testResults[0].assertionResults.map((a) => [a.title, a.status, a.failureMessages.join('').includes('rejected after mount')]);
      assert.deepEqual(outcome, [
        ['mounts a component that rejects', 'failed', true],
        ['the next test', 'passed', false],
      ]);
    });
  });

  test("work a file left to React's scheduler runs after the file ends with React Native's globals, and the run goes on", async () => {
    // A react-test-renderer tree's passive effects (useColorScheme's subscription reads Appearance.getColorScheme(),
    // which reads __DEV__) are left to React's scheduler, a setImmediate that runs once the file has ended: React
    // Native's jest setup leaves its globals on the file's global, and so does bridged now. It removed them, and the
    // ReferenceError thrown outside any test ended jest (chelseafarley/expo-react-native-jest-testing-tutorial).
    const lines = [
      "import { Appearance } from 'react-native';",
      "import { unstable_scheduleCallback as schedule, unstable_NormalPriority as normalPriority } from 'scheduler';",
      "test('leaves work to the scheduler', () => {",
      '  const appearance = Appearance;',
      '  schedule(normalPriority, () => appearance.getColorScheme());',
      '  expect(appearance.getColorScheme()).toBeDefined();',
      '});',
    ];
    await passesBesidePure('zz-left-work', lines);
  });

  test(
    "fireEvent and jest-native's matchers on an instance of a tree the test rendered with react-test-renderer itself: its handler called, its props read, as RNTL's and jest-native's do",
    { skip: existsSync(TEST_RENDERER) ? false : `no react-test-renderer at ${TEST_RENDERER} (Debian's node-react-test-renderer)` },
    async () => {
      // `renderer.create(<Screen />).root.findByProps({ testID })`: no native view is behind that tree, so RNTL's
      // fireEvent, which calls the handler it finds, is the only event it can take; bridged refused it ("give an
      // element a query returned"), and a press inside a waitFor the test did not await then rejected after the test,
      // ending jest (relvok/SimonSays's EndGameModal and ResultsScreen tests). jest-native's matchers read any instance
      // react-test-renderer gives (its props, its children prop's strings); bridged's refused one ("received is not an
      // element a query returned").
      const copy = path.join(layout.root, 'node_modules', 'react-test-renderer');
      cpSync(TEST_RENDERER, copy, { recursive: true, dereference: true });
      const lines = [
        "import * as React from 'react';",
        "import { ScrollView, Text, TextInput, TouchableOpacity } from 'react-native';",
        "import renderer, { act } from 'react-test-renderer';",
        "import { fireEvent } from '@testing-library/react-native';",
        "import '@testing-library/jest-native/extend-expect';",
        'function EndGame({ onSubmit }) {',
        "  const [name, setName] = React.useState('');",
        '  const [scrolled, setScrolled] = React.useState(false);',
        '  return (',
        '    <ScrollView testID="scroll" style={{ flex: 1 }} onScroll={() => setScrolled(true)}>',
        '      <TextInput testID="name" value={name} onChangeText={setName} />',
        '      <TouchableOpacity testID="submit" onPress={() => onSubmit(name)}><Text>Submit</Text></TouchableOpacity>',
        "      <Text testID=\"state\">{scrolled ? 'scrolled' : 'still'}</Text>",
        '    </ScrollView>',
        '  );',
        '}',
        "test('events on a react-test-renderer tree', () => {",
        '  const onSubmit = jest.fn();',
        '  let tree;',
        '  act(() => { tree = renderer.create(<EndGame onSubmit={onSubmit} />); });',
        "  fireEvent.changeText(tree.root.findByProps({ testID: 'name' }), 'Ann');",
        "  fireEvent.press(tree.root.findByProps({ testID: 'submit' }));",
        "  expect(onSubmit).toHaveBeenCalledWith('Ann');",
        "  fireEvent.scroll(tree.root.findByProps({ testID: 'scroll' }), { nativeEvent: { contentOffset: { y: 10 } } });",
        "  expect(tree.root.findByProps({ testID: 'state' }).props.children).toBe('scrolled');",
        "  fireEvent(tree.root.findByProps({ testID: 'submit' }), 'press');",
        '  expect(onSubmit).toHaveBeenCalledTimes(2);',
        "  expect(tree.root.findByProps({ testID: 'state' })).toHaveTextContent('scrolled');",
        "  expect(tree.root.findByProps({ testID: 'name' })).toHaveProp('value', 'Ann');",
        "  expect(tree.root.findByProps({ testID: 'scroll' })).toHaveStyle({ flex: 1 });",
        "  expect(tree.root.findByProps({ testID: 'submit' })).toBeEnabled();",
        "  expect(tree.root.findByProps({ testID: 'state' })).toBeVisible();",
        "  expect(tree.root.findByProps({ testID: 'submit' })).not.toBeEmptyElement();",
        '});',
      ];
      try {
        await passesBesidePure('zz-test-renderer-events', lines);
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    },
  );

  test("a tree a file leaves mounted (rendered in its own afterEach, after RNTL's cleanup) is unmounted as its tests end, and jest exits with 0", async () => {
    // It was unmounted at the environment's teardown, after jest had torn the file's module registry down: the
    // unmount's first require failed ("You are trying to `import` a file after the Jest environment has been torn
    // down", and jest's exit code 1 with every test passed) and the tree stayed live, where a FlatList's pending
    // batch re-rendered it outside any test and React's error dialog, no longer loadable, threw and ended jest's
    // process with every file's results (crismegisto/to-do-app's navigator.test.tsx renders in its afterEach).
    const lines = [
      "import * as React from 'react';",
      "import { FlatList, Text } from 'react-native';",
      "import { render, screen } from '@testing-library/react-native';",
      'const items = Array.from({ length: 40 }, (_, i) => ({ id: String(i) }));',
      'const List = () => <FlatList data={items} keyExtractor={(item) => item.id} renderItem={({ item }) => <Text>item {item.id}</Text>} />;',
      'afterEach(() => { render(<List />); });',
      "test('renders a list', () => { render(<List />); expect(screen.getByText('item 0')).toBeTruthy(); });",
    ];
    const run = await passesBesidePure('zz-left-mounted', lines);
    assert.doesNotMatch(run.stderr, /after the Jest environment has been torn down/);
  });

  test('a vibration left repeating (Vibration.vibrate(pattern, true)) ends with its file, and jest exits', { timeout: 120_000 }, async () => {
    // On iOS React Native repeats it with a chain of its own timers until Vibration.cancel(); the mocks' vibrate
    // starts nothing. Left running, it kept jest's process alive (run in band, jest never ended). It stops once the
    // file's tests are over, as it does when an app ends.
    const lines = [
      "import { Vibration } from 'react-native';",
      "test('starts a repeating vibration', () => {",
      '  Vibration.vibrate([0, 100, 200], true);',
      '  expect(Vibration.vibrate).toHaveBeenCalledWith([0, 100, 200], true);',
      '});',
    ];
    await withTestFile('zz-vibrate.test.js', lines, async () => {
      const { run, report } = await jestReport(['--runInBand', '__tests__/zz-vibrate'], 'vibrate-results.json');
      assert.equal(report.numPassedTests, 1);
      assert.equal(run.code, 0, run.stderr.slice(-1500));
    });
  });

  test('a worker that crashes fails its file, the others pass, and no daemon is left', async () => {
    const crash = path.join(layout.root, '__tests__', 'zz-crash.test.js');
    writeFileSync(crash, "test('the worker dies', () => { process.kill(process.pid, 'SIGKILL'); });\n");
    try {
      // A cache of its own: with the timings of an earlier run, jest would run two fast files in its own process.
      const cache = path.join(tmp, 'jest-cache-crash');
      const run = await runJest(layout.root, ['--ci', '--maxWorkers=2', `--cacheDirectory=${cache}`, '__tests__/zz-crash', '__tests__/hooks'], { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN });
      assert.notEqual(run.code, 0, 'the crashed file fails the run');
      assert.match(run.stderr, /PASS __tests__\/hooks\.test\.js/, `${run.code} ${run.signal} ${run.stdout} ${run.stderr}`);
      assert.deepEqual(daemonsIn(tmp), [], 'the daemon outlived the run');
    } finally {
      rmSync(crash, { force: true });
    }
  });

  test('a bridged that cannot start fails the run with the reason, and leaves no socket folder', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'bridged-jest-nobin-'));
    try {
      const missing = path.join(own, 'no-such-bridged');
      const run = await runJest(layout.root, ['--ci', '__tests__/hooks'], { ...jestEnv(own), BRIDGED_BIN: missing });
      assert.notEqual(run.code, 0);
      assert.match(run.stderr + run.stdout, /could not start bridged: spawn .*no-such-bridged ENOENT/);
      assert.deepEqual(readdirSync(own).filter((name) => name.startsWith('bridged-jest-')), [], 'a socket folder was left');
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  test('jest itself killed (SIGKILL): its daemon ends once its workers are gone', async () => {
    const slow = path.join(layout.root, '__tests__', 'zz-slow.test.js');
    writeFileSync(slow, "test('waits', () => new Promise((resolve) => setTimeout(resolve, 60_000)), 70_000);\n");
    try {
      const running = runJest(layout.root, ['--ci', '__tests__/zz-slow'], { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN });
      let daemons = [];
      for (let i = 0; i < 600 && daemons.length === 0; i++) {
        await sleep(50);
        daemons = daemonsIn(tmp);
      }
      assert.equal(daemons.length, 1, 'the run started one daemon');
      await sleep(500);
      const jest = spawnSync('pgrep', ['-f', '-o', `jest --ci __tests__/zz-slow`], { encoding: 'utf8' }).stdout.trim();
      process.kill(Number(jest), 'SIGKILL');
      await running;
      for (let i = 0; i < 200 && daemonsIn(tmp).length > 0; i++) await sleep(50);
      assert.deepEqual(daemonsIn(tmp), [], 'the daemon outlived jest');
      // No globalTeardown ran: the run's folder stayed, with the daemon's log. The next run removes it (once a
      // minute old: made older here), and not a folder whose daemon runs, nor one holding anything else.
      const left = readdirSync(tmp).filter((name) => /^bridged-jest-[A-Za-z0-9]{6}$/.test(name));
      assert.equal(left.length, 1, 'the killed run left its folder');
      const kept = ['bridged-jest-Kept01', 'bridged-jest-Kept02'].map((name) => path.join(tmp, name));
      mkdirSync(kept[0]);
      writeFileSync(path.join(kept[0], 'notes.txt'), 'not the daemon\'s\n');
      mkdirSync(kept[1]);
      writeFileSync(path.join(kept[1], 'bridged.sock'), '');
      writeFileSync(path.join(kept[1], 'bridged.sock.lock'), `${process.pid}\n`);
      const old = new Date(Date.now() - 120_000);
      for (const dir of [path.join(tmp, left[0]), ...kept]) utimesSync(dir, old, old);
      writeFileSync(slow, "test('adds', () => { expect(1 + 1).toBe(2); });\n");
      const next = await runJest(layout.root, ['--ci', '__tests__/zz-slow'], { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN });
      assert.equal(next.code, 0, `${next.stdout}${next.stderr}`);
      assert.deepEqual(
        readdirSync(tmp).filter((name) => name.startsWith('bridged-jest-')).sort(),
        ['bridged-jest-Kept01', 'bridged-jest-Kept02'],
        'the left folder removed, the others kept, and the next run removed its own',
      );
      for (const dir of kept) rmSync(dir, { recursive: true, force: true });
    } finally {
      rmSync(slow, { force: true });
    }
  });
});
