// bridged-client installed into an app as npm installs it, offline: from the js-client folder (a link) and from a
// tarball of `npm pack` (a copy), zero dependencies, both entry points importable by name, its command on
// node_modules/.bin. Then the README's steps ("Add bridged to your app") followed in a copy of a real app: the example
// app laid out as an app's repository in a temporary folder, its packages from the shared React Native 0.72.6 test
// data, bridged-client installed with npm, and a test of the app's screen that imports 'bridged-client' run with
// `node --test`. Skips, saying why, where npm or the shared test data is absent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { BRIDGED_BIN, tempDir } from '../test-support/daemon.js';

const CLIENT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const ROOT = dirname(CLIENT);
const EXAMPLE = join(ROOT, 'Examples', 'ReactNativeApp');
const SHARED = join(dirname(ROOT), 'shared', 'react-native-0.72.6', 'node_modules');
const LIMIT = { timeout: 300_000 };

const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' });
const NO_NPM = npmVersion.status === 0 ? false : `npm is not installed (${npmVersion.error?.message ?? npmVersion.stderr})`;
const NO_SHARED = existsSync(join(SHARED, 'react-native', 'package.json'))
  ? false
  : `no React Native 0.72.6 test data in ${SHARED} (the shared folder beside the repository)`;

/** Runs a command to its end; resolves {code, stdout, stderr} whatever the exit code. */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    execFile(command, args, { maxBuffer: 64 << 20, ...options }, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** npm with no registry to reach: every package comes from the paths given, and nothing is fetched or audited. */
function npm(args, cwd) {
  return run('npm', [...args, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

let dir;
let tarball;
let packed;

before(async () => {
  if (NO_NPM) return;
  dir = await tempDir();
  const pack = await npm(['pack', CLIENT, '--pack-destination', dir, '--json'], dir);
  assert.equal(pack.code, 0, pack.stderr);
  [packed] = JSON.parse(pack.stdout);
  tarball = join(dir, packed.filename);
});

after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A new app folder: a package.json of an ES module app, nothing installed. */
async function emptyApp(name) {
  const app = join(dir, name);
  await mkdir(app);
  await writeFile(join(app, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  return app;
}

/** A script the app runs: imports both entry points by name, connects (spawning the daemon), pings. */
const SMOKE = `
import { connect, VERSION } from 'bridged-client';
import { openApp } from 'bridged-client/react-native';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const bridge = await connect({ spawn: true, bin: process.env.BRIDGED_BIN, socket: process.env.BRIDGED_SOCKET });
await bridge.request({ op: 'ping' });
const view = await bridge.create('View', { testID: 'installed' });
const { props } = await view.inspect();
await bridge.close();
console.log(JSON.stringify({
  VERSION, openApp: typeof openApp, testID: props.testID,
  resolved: require.resolve('bridged-client'), daemonPid: bridge.daemonPid,
}));
`;

async function runSmoke(app) {
  await writeFile(join(app, 'smoke.mjs'), SMOKE);
  const socket = join(app, 'b.sock');
  const result = await run(process.execPath, ['smoke.mjs'], {
    cwd: app,
    env: { ...process.env, BRIDGED_BIN, BRIDGED_SOCKET: socket },
  });
  assert.equal(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout.trim().split('\n').at(-1));
  assert.equal(out.VERSION, JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')).version);
  assert.equal(out.openApp, 'function');
  assert.equal(out.testID, 'installed');
  assert.equal(typeof out.daemonPid, 'number', 'the script spawned its daemon');
  await daemonStopped(socket);
  return out;
}

/** The daemon the app's process spawned ended with it: its socket is removed (polled, bounded). */
async function daemonStopped(socket) {
  for (let round = 0; round < 1500 && existsSync(socket); round++) await sleep(20);
  assert.equal(existsSync(socket), false, `the daemon on ${socket} outlived the process that spawned it`);
}

describe('installing bridged-client with npm, offline', { skip: NO_NPM }, () => {
  test('npm pack: the package, its entry points and types, no tests, no dependencies', () => {
    const files = new Set(packed.files.map((f) => f.path));
    const pkg = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8'));
    assert.equal(pkg.dependencies, undefined, 'zero dependencies');
    assert.equal(pkg.bundleDependencies ?? pkg.bundledDependencies, undefined);
    for (const file of ['package.json', 'README.md', 'index.js', 'index.d.ts', 'builtins.d.ts', 'react-native.d.ts']) {
      assert.ok(files.has(file), `${file} is packed`);
    }
    // Every file the exports, bin and types name is in the tarball.
    const named = [pkg.main, pkg.types, ...Object.values(pkg.bin)];
    for (const target of Object.values(pkg.exports)) {
      named.push(...(typeof target === 'string' ? [target] : Object.values(target)));
    }
    for (const path of named) {
      const file = path.replace(/^\.\//, '');
      // jest-preset.js is another engineer's to add; once it is in the checkout, it must be packed.
      if (file === 'jest-preset.js' && !existsSync(join(CLIENT, file))) continue;
      assert.ok(files.has(file), `${file} (named by package.json) is packed`);
    }
    // Whatever lib/ holds (lib/jest/ included) is packed, and nothing of the tests.
    const walk = (folder) =>
      readdirSync(join(CLIENT, folder), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? walk(join(folder, entry.name)) : [join(folder, entry.name)],
      );
    for (const file of walk('lib')) assert.ok(files.has(file), `${file} is packed`);
    for (const file of files) assert.doesNotMatch(file, /^(test|test-support)\//, `${file} is not for the package`);
  });

  test('npm install <js-client folder>: a link; both entry points import by name; the command runs', LIMIT, async () => {
    const app = await emptyApp('folder-app');
    const install = await npm(['install', '--save-dev', CLIENT], app);
    assert.equal(install.code, 0, install.stderr);
    const pkg = JSON.parse(await readFile(join(app, 'package.json'), 'utf8'));
    assert.match(pkg.devDependencies['bridged-client'], /^file:/);
    assert.ok(lstatSync(join(app, 'node_modules', 'bridged-client')).isSymbolicLink(), 'npm links a folder');
    const out = await runSmoke(app);
    assert.equal(out.resolved, join(CLIENT, 'index.js'), 'the checkout itself');
    const help = await run(join(app, 'node_modules', '.bin', 'bridged-client'), ['--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /--spawn/);
  });

  test('npm install <tarball of npm pack>: a copy with nothing of its own to install', LIMIT, async () => {
    const app = await emptyApp('tarball-app');
    const install = await npm(['install', '--save-dev', tarball], app);
    assert.equal(install.code, 0, install.stderr);
    const installed = join(app, 'node_modules', 'bridged-client');
    assert.ok(lstatSync(installed).isDirectory() && !lstatSync(installed).isSymbolicLink(), 'a copy');
    assert.deepEqual(
      readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.')),
      ['bridged-client'],
      'zero dependencies: nothing else is installed',
    );
    assert.equal(existsSync(join(installed, 'node_modules')), false);
    const out = await runSmoke(app);
    assert.equal(out.resolved, join(installed, 'index.js'));
    if (existsSync(join(CLIENT, 'jest-preset.js'))) {
      // jest finds `preset: 'bridged-client'` as `bridged-client/jest-preset`, through the package's exports.
      const preset = await run(process.execPath, ['-p', "require.resolve('bridged-client/jest-preset')"], { cwd: app });
      assert.equal(preset.code, 0, preset.stderr);
      assert.equal(preset.stdout.trim(), join(installed, 'jest-preset.js'));
    }
    const help = await run(join(app, 'node_modules', '.bin', 'bridged-client'), ['--help']);
    assert.equal(help.code, 0, help.stderr);
  });
});

/** The test of README.md's "Add bridged to your app": the section's JavaScript block, its indentation removed. */
function readmeTest() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Add bridged to your app\n'));
  assert.ok(section, 'README.md has a section "Add bridged to your app"');
  const block = /^( *)```js\n([\s\S]*?)^ *```$/m.exec(section);
  assert.ok(block, 'the section shows the test');
  const indent = block[1].length;
  return block[2]
    .split('\n')
    .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
    .join('\n');
}

describe("the README's steps in a copy of a real app", { skip: NO_NPM || NO_SHARED }, () => {
  test('install bridged-client, have the binary, openApp in a test: the app test passes', LIMIT, async () => {
    // The example app as an app's repository before bridged: its own files, its package.json without
    // bridged-client, its packages in node_modules (each linked from the shared test data, which is read-only).
    const app = join(dir, 'my-app');
    await mkdir(app);
    for (const file of ['src', 'index.js', 'babel.config.js']) await cp(join(EXAMPLE, file), join(app, file), { recursive: true });
    const pkg = JSON.parse(await readFile(join(EXAMPLE, 'package.json'), 'utf8'));
    delete pkg.devDependencies['bridged-client'];
    delete pkg.scripts;
    await writeFile(join(app, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    const linkShared = () => {
      for (const name of readdirSync(SHARED)) {
        if (name.startsWith('.')) continue;
        const target = join(app, 'node_modules', name);
        if (!name.startsWith('@')) {
          if (!existsSync(target)) symlinkSync(join(SHARED, name), target);
          continue;
        }
        spawnSync('mkdir', ['-p', target]);
        for (const scoped of readdirSync(join(SHARED, name))) {
          if (!existsSync(join(target, scoped))) symlinkSync(join(SHARED, name, scoped), join(target, scoped));
        }
      }
    };
    await mkdir(join(app, 'node_modules'));
    linkShared();

    // Step 1: install the client (a tarball of `npm pack`, as a team would keep one; the folder works as above).
    const install = await npm(['install', '--save-dev', tarball], app);
    assert.equal(install.code, 0, install.stderr);
    assert.match(JSON.parse(await readFile(join(app, 'package.json'), 'utf8')).devDependencies['bridged-client'], /^file:/);
    // npm drops the linked packages its package.json does not name (React Native's own dependencies): the test data
    // is laid out again. An app installed from a registry has them in its lock file instead.
    linkShared();

    // Steps 2 and 3: the binary (BRIDGED_BIN here; else bridged on PATH), and a test that opens the app.
    await mkdir(join(app, 'test'));
    // The test is the README's own, as written there.
    await writeFile(join(app, 'test', 'app.test.mjs'), readmeTest());
    const socket = join(app, 'bridged.sock');
    // As the app's own `node --test` runs, not as a test of this runner (which tells its child runners so).
    const env = { ...process.env, BRIDGED_BIN, BRIDGED_SOCKET: socket };
    delete env.NODE_TEST_CONTEXT;
    const result = await run(process.execPath, ['--test', '--test-reporter=tap', 'test/'], { cwd: app, env });
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /# pass 1\b/);
    assert.match(result.stdout, /# fail 0\b/);
    // The daemon the test spawned ended with it.
    await daemonStopped(socket);
  });
});
