// The test app (test-support/apps/basic: an app's own files, importing from 'react-native') laid out in a
// temporary folder whose node_modules is React Native 0.72.6's JavaScript packages from the shared test data
// (../shared/react-native-0.72.6/node_modules beside the repository, or $BRIDGED_RN_NODE_MODULES). Where that
// folder is absent (a user's machine), the tests that need it skip, naming it.

import { after, before } from 'node:test';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

/** React Native 0.72.6's node_modules from the shared test data, or $BRIDGED_RN_NODE_MODULES. */
export const SHARED_NODE_MODULES = path.resolve(
  process.env.BRIDGED_RN_NODE_MODULES ?? path.join(REPOSITORY, '..', 'shared', 'react-native-0.72.6', 'node_modules'),
);

/** False when the shared node_modules is there; else why the tests that need it skip. */
export const appSkip = existsSync(path.join(SHARED_NODE_MODULES, 'react-native', 'package.json'))
  ? false
  : `no React Native app packages at ${SHARED_NODE_MODULES} (the shared test data ../shared/react-native-0.72.6/, or $BRIDGED_RN_NODE_MODULES)`;

/** Where the tests keep transforms: one folder per user, so a second run is warm. */
export const TEST_CACHE = path.join(tmpdir(), `bridged-test-transforms-${process.getuid?.() ?? 'user'}`);

/**
 * A copy of the app folder `source` (default: the test app) in a temporary folder, its node_modules linked to
 * the shared one; `{ root, remove() }`.
 */
export function makeApp(source = fileURLToPath(new URL('./apps/basic', import.meta.url)), { packages = [] } = {}) {
  const root = mkdtempSync(path.join(tmpdir(), 'bridged-app-'));
  cpSync(source, root, { recursive: true });
  if (packages.length === 0) {
    symlinkSync(SHARED_NODE_MODULES, path.join(root, 'node_modules'));
  } else {
    // The shared packages linked one by one, and the app's own packages (test-support/apps/packages/<name>) beside.
    mkdirSync(path.join(root, 'node_modules'));
    for (const entry of readdirSync(SHARED_NODE_MODULES)) symlinkSync(path.join(SHARED_NODE_MODULES, entry), path.join(root, 'node_modules', entry));
    for (const name of packages) cpSync(fileURLToPath(new URL(`./apps/packages/${name}`, import.meta.url)), path.join(root, 'node_modules', name), { recursive: true });
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Registers the hooks of a suite that drives the test app: before it, a daemon, a bridge, the app laid out
 * (`packages` from test-support/apps/packages beside the shared ones) and opened with `options`; `ready(context)`
 * is given `{ daemon, bridge, layout, app, React, log }` (log: the app's src/log, emptied). After it, all closed.
 */
export function useTestApp({ packages = [], ...options } = {}, ready = () => {}) {
  const context = {};
  before(async () => {
    const [{ startDaemon }, { connect }, { openApp }] = await Promise.all([
      import('./daemon.js'),
      import('../index.js'),
      import('../lib/react-native.js'),
    ]);
    context.daemon = await startDaemon();
    context.bridge = await connect({ socket: context.daemon.socket });
    context.layout = makeApp(undefined, { packages });
    context.app = await openApp(context.bridge, { root: context.layout.root, cache: TEST_CACHE, ...options });
    context.React = context.app.require('react');
    context.log = context.app.require('./src/log');
    context.log.take();
    ready(context);
  });
  after(async () => {
    await context.app?.close();
    await context.bridge?.close();
    await context.daemon?.stop();
    context.layout?.remove();
  });
  return context;
}
