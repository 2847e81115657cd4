// The test environment of preset: 'bridged-client': jest's node environment, plus, for each test file, a session
// of the run's daemon reached synchronously (sync-bridge.js) and an App (openApp's, loading nothing itself: the
// setup file loads the app's React Native through jest's registry). `global.__bridged__` is the host the setup
// file, `@testing-library/react-native` and the matchers reach it through.
import { createRequire } from 'node:module';
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

const requireFromProject = createRequire(path.join(process.cwd(), 'package.json'));
let NodeEnvironment;
try {
  const module = requireFromProject('jest-environment-node');
  NodeEnvironment = module.TestEnvironment ?? module.default ?? module;
} catch {
  const module = createRequire(import.meta.url)('jest-environment-node');
  NodeEnvironment = module.TestEnvironment ?? module.default ?? module;
}

export default class BridgedEnvironment extends NodeEnvironment {
  #options;
  #bridge = null;
  #app = null;

  constructor(config, context) {
    super(config, context);
    const projectConfig = config.projectConfig ?? config;
    const options = projectConfig.testEnvironmentOptions?.bridged ?? {};
    this.#options = { root: projectConfig.rootDir, ...options };
    // Made here, not in setup(): jest runs the setup files (setup.cjs, which awaits `ready`, then loads the app)
    // before setup().
    const socket = process.env.BRIDGED_JEST_SOCKET;
    const architecture = paperOnly(this.#options);
    const host = new JestHost(this);
    host.ready = (async () => {
      this.#bridge = await SyncBridge.connect(
        socket ? { socket } : { socket: path.join(this.#options.root, '.bridged-jest.sock'), bin: process.env.BRIDGED_BIN, spawn: true },
      );
      const app = new App(this.#bridge, {
        root: this.#options.root,
        platform: 'ios',
        architecture,
        window: this.#options.window,
        cache: false,
        global: this.global,
        defaultIncludeHiddenElements: false,
      });
      this.#app = app;
      host.attach(app);
      // As openApp opens an app: its specs' components defined, then the phone's layout (Yoga from its package).
      await app._describeNative();
      await enableLayout(app, { layout: this.#options.layout });
    })();
    host.ready.catch(() => {});
    this.global.__bridged__ = host;
  }

  async teardown() {
    try {
      this.global.__bridged__?.dispose();
    } catch {}
    try {
      this.#app?._teardown();
    } catch {}
    await this.#bridge?.close();
    await super.teardown();
  }
}
