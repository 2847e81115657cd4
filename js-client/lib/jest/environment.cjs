// The test environment of preset: 'bridged-client' (see environment.js): jest's node environment, whose bridged half
// is an ES module loaded by Node (entry.cjs). `global.__bridged__` holds, until that module has loaded, a stand-in
// whose `ready` the setup file awaits; the host then takes its place.
const { createRequire } = require('node:module');
const path = require('node:path');
const { load } = require('./entry.cjs');

function nodeEnvironment() {
  for (const from of [path.join(process.cwd(), 'package.json'), __filename]) {
    try {
      const module = createRequire(from)('jest-environment-node');
      return module.TestEnvironment ?? module.default ?? module;
    } catch {}
  }
  throw new Error("preset: 'bridged-client' needs jest-environment-node (jest's own; install jest in the app)");
}

const NodeEnvironment = nodeEnvironment();
const started = new WeakMap();

class BridgedEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    // As React Native's own environment (react-native/jest/react-native-env.js, its preset's): a package's `exports`
    // resolve under the `require` and `react-native` conditions, not node's; unless the config names others (the
    // runner names node's for a config that chose jest's node or jsdom environment).
    const options = (config.projectConfig ?? config).testEnvironmentOptions ?? {};
    const conditions = options.customExportConditions;
    this.customExportConditions = Array.isArray(conditions) && conditions.every((c) => typeof c === 'string') ? conditions : ['require', 'react-native'];
    const ready = load('environment.js').then((module) => {
      const session = module.start(this, config);
      started.set(this, session);
      return session.ready;
    });
    ready.catch(() => {});
    this.global.__bridged__ = { ready };
    // jest.resetModules() clears the legacy fake clock's timers (jest-runtime's resetModules, whatever timers the
    // test uses): the host hears of the reset there (jest.clearAllTimers() under legacy timers as well, which costs
    // nothing but a getter's next require).
    const legacy = this.fakeTimers;
    if (legacy && typeof legacy.clearAllTimers === 'function') {
      const clearAllTimers = legacy.clearAllTimers;
      legacy.clearAllTimers = (...args) => {
        this.global.__bridged__?.modulesReset?.();
        return clearAllTimers.apply(legacy, args);
      };
    }
  }

  /** jest-circus's events: once the file's tests are over, the app's end (host.endOfFile). */
  handleTestEvent(event) {
    if (event.name === 'run_finish') this.global.__bridged__?.endOfFile?.();
  }

  async teardown() {
    try {
      await started.get(this)?.teardown();
    } finally {
      await super.teardown();
    }
  }
}

module.exports = BridgedEnvironment;
