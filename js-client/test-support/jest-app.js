// The jest test app (test-support/jest-app: React Native Testing Library test files) laid out in a temporary folder
// as an app's repository: node_modules holds React Native 0.72.6's packages from the shared test data, linked one by
// one, and bridged-client linked to this checkout's js-client. jest is Debian's (make deps-jest installs it).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';
import { SHARED_NODE_MODULES, appSkip } from './react-native-app.js';

const CLIENT = fileURLToPath(new URL('..', import.meta.url));

function findJest() {
  const found = spawnSync('sh', ['-c', 'command -v jest'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

export const JEST = findJest();
export const jestSkip = appSkip || (JEST ? false : 'no jest on PATH (make deps-jest installs Debian\'s jest 29)');

export function makeJestApp(extraFiles = {}) {
  const root = mkdtempSync(path.join(tmpdir(), 'bridged-jest-app-'));
  cpSync(fileURLToPath(new URL('./jest-app', import.meta.url)), root, { recursive: true });
  mkdirSync(path.join(root, 'node_modules'));
  for (const entry of readdirSync(SHARED_NODE_MODULES)) symlinkSync(path.join(SHARED_NODE_MODULES, entry), path.join(root, 'node_modules', entry));
  symlinkSync(CLIENT, path.join(root, 'node_modules', 'bridged-client'));
  for (const [file, text] of Object.entries(extraFiles)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    cpSync(text, path.join(root, file));
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The environment Debian's jest needs under this Node, with a temporary folder of the run's own. */
export function jestEnv(tmp) {
  return {
    ...process.env,
    TMPDIR: tmp,
    NODE_PATH: '/usr/share/nodejs:/usr/lib/nodejs',
    NODE_OPTIONS: `--require ${path.join(CLIENT, 'lib', 'jest', 'debian-node.cjs')}`,
  };
}

/** Runs jest in `root` with `args`; resolves to `{ code, stdout, stderr }`. */
export function runJest(root, args, env) {
  return new Promise((resolve) => {
    const child = spawn(JEST, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, child }));
  });
}

export { existsSync };
