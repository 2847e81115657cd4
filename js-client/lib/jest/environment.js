// The bridged half of preset: 'bridged-client''s test environment (environment.cjs is jest's node environment):
// for each test file, a session of the run's daemon reached synchronously (sync-bridge.js) and an App (openApp's,
// loading nothing itself: the setup file loads the app's React Native through jest's registry).
// `global.__bridged__` is the host the setup file, `@testing-library/react-native` and the matchers reach it through.
import path from 'node:path';
import { App } from '../react-native/app/open-app.js';
import { enableLayout } from '../react-native/app/layout.js';
import { SyncBridge } from './sync-bridge.js';

/**
 * The preset renders through paper, React Native 0.72's default, whatever the app's native projects enable (as
 * React Native's own jest preset does). testEnvironmentOptions.bridged.architecture 'fabric' is refused with a
 * clear error: under jest, Fabric's concurrent roots and host instances are not served yet (openApp serves them).
 */
function paperOnly(options) {
  const asked = options.architecture ?? 'paper';
  if (asked !== 'paper') {
    throw new Error(
      `preset: 'bridged-client' renders through paper; testEnvironmentOptions.bridged.architecture is '${asked}': ` +
        "under jest Fabric is not served yet (openApp serves it: openApp(bridge, { architecture: 'fabric' }))",
    );
  }
  return 'paper';
}
import { JestHost } from './host.js';

/**
 * Starts a test file's bridged half in `env` (environment.cjs's jest environment): its host in
 * `env.global.__bridged__`, a session of the run's daemon and an App over it. Made as jest constructs the
 * environment, not in setup(): jest runs the setup files (setup.cjs, which awaits `ready`, then loads the app)
 * first. Resolves `{ready, teardown}`.
 */
export function start(env, config) {
  const projectConfig = config.projectConfig ?? config;
  const options = { root: projectConfig.rootDir, ...(projectConfig.testEnvironmentOptions?.bridged ?? {}) };
  const socket = process.env.BRIDGED_JEST_SOCKET;
  const architecture = paperOnly(options);
  const host = new JestHost(env, { fakeTimersGlobally: projectConfig.fakeTimers?.enableGlobally === true });
  let bridge = null;
  let app = null;
  host.ready = (async () => {
    // The run's daemon (global-setup.js) may still be starting: waited for while it lives.
    const startedPid = Number(process.env.BRIDGED_JEST_DAEMON_PID) || undefined;
    bridge = await SyncBridge.connect(
      socket
        ? { socket, startedPid }
        : { socket: path.join(options.root, '.bridged-jest.sock'), bin: process.env.BRIDGED_BIN, spawn: true },
    );
    app = new App(bridge, {
      root: options.root,
      platform: 'ios',
      architecture,
      window: options.window,
      colorScheme: options.colorScheme,
      // The schemas of the app's specs are kept in jest's own cache folder (none with jest's cache off), read
      // again by each test file (app/codegen.js); transforms are jest's.
      cache: projectConfig.cache === false || !projectConfig.cacheDirectory ? false : path.join(projectConfig.cacheDirectory, 'bridged', 'transforms'),
      global: env.global,
      defaultIncludeHiddenElements: false,
      // Frames are read from the daemon when needed (measure, onLayout's events): none ride along with each change.
      layoutFrames: false,
    });
    host.attach(app);
    // As openApp opens an app: its specs' components defined, then the phone's layout (Yoga from its package).
    await app._describeNative();
    await enableLayout(app, { layout: options.layout });
  })();
  host.ready.catch(() => {});
  env.global.__bridged__ = host;
  return {
    ready: host.ready,
    async teardown() {
      try {
        host.dispose();
      } catch {}
      try {
        // Its globals (__DEV__, nativeModuleProxy, …) stay on the file's global, as React Native's jest setup leaves
        // them: a render the test left to the scheduler, or a timer, may run once the file has ended (a
        // react-test-renderer tree whose passive effects re-render it), and without them it throws outside any
        // test, which ends jest's worker.
        app?._teardown({ keepGlobals: true });
      } catch {}
      await bridge?.close();
    },
  };
}
