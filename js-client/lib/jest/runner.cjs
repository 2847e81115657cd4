// The test runner of preset: 'bridged-client': jest's own (jest-runner), with each test file kept in bridged's
// environment where the app's config names jest's node or jsdom environment, or React Native's own. Many React
// Native apps' configs say `testEnvironment: 'node'` or `'jsdom'` beside `preset: 'react-native'` (React Native's
// preset's environment is a node one), or copy its `require.resolve('react-native/jest/react-native-env.js')`, and an
// app's config overrides its preset's: the app's React Native would then load with no native side. bridged's
// environment (environment.cjs) is jest's node environment with bridged's half added, so the file runs as on a
// phone, which has no DOM (`document` is undefined there, as it is here); packages' `exports` resolve under React
// Native's conditions, or jest's node environment's where the config names node's or jsdom's. A file whose
// `@jest-environment` docblock names one of those is kept so as well (docblock.cjs). An app's own environment is
// left be.
const { createRequire } = require('node:module');
const path = require('node:path');

const { BRIDGED_ENVIRONMENT, keptEnvironment, keepDocblocksInBridged } = require('./docblock.cjs');
const { load } = require('./entry.cjs');

/** jest-runner's entry point: the app's own, else the one beside this package. */
function jestRunnerPath() {
  for (const from of [path.join(process.cwd(), 'package.json'), __filename]) {
    try {
      return createRequire(from).resolve('jest-runner');
    } catch {}
  }
  throw new Error("preset: 'bridged-client' needs jest-runner (jest's own; install jest in the app)");
}

const RUNNER = jestRunnerPath();

// A docblock's environment (docblock.cjs): kept in bridged's here (--runInBand) and in the workers jest-runner starts
// (a fork each, whose NODE_OPTIONS load docblock.cjs first, told which jest-docblock jest-runner reads with).
try {
  const docblock = createRequire(RUNNER).resolve('jest-docblock');
  keepDocblocksInBridged(require(docblock));
  if (process.env.BRIDGED_JEST_DOCBLOCK !== docblock) {
    process.env.BRIDGED_JEST_DOCBLOCK = docblock;
    process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(require.resolve('./docblock.cjs'))}`.trim();
  }
} catch {}

/**
 * `test` (jest's Test: its path and context) with its project's environment bridged's, where it was jest's own or
 * React Native's, and the export conditions packages resolve with there (unless the config's testEnvironmentOptions name
 * theirs).
 */
function inBridgedEnvironment(test) {
  const config = test.context.config;
  const kept = keptEnvironment(config.testEnvironment);
  if (!kept) return test;
  let options = config.testEnvironmentOptions ?? {};
  if (kept.conditions && !('customExportConditions' in options)) options = { ...options, customExportConditions: kept.conditions };
  return { ...test, context: { ...test.context, config: { ...config, testEnvironment: BRIDGED_ENVIRONMENT, testEnvironmentOptions: options } } };
}

const jestRunner = require(RUNNER);

class BridgedRunner extends (jestRunner.default ?? jestRunner) {
  /**
   * The run's daemon is the preset's globalSetup's, unless the app's config names a globalSetup of its own (jest runs
   * one per project: the preset's is then not run, nor its globalTeardown). The runner then starts it as that one
   * would, before the tests and their workers, and stops it once they are over, whatever their outcome: one daemon
   * for the run still, never one per worker spawned in the app's folder.
   */
  async runTests(tests, watcher, options) {
    const startsDaemon = !process.env.BRIDGED_JEST_SOCKET;
    if (startsDaemon) await (await load('global-setup.js')).default();
    try {
      return await super.runTests(tests.map(inBridgedEnvironment), watcher, options);
    } finally {
      if (startsDaemon) await (await load('global-teardown.js')).default();
    }
  }
}

module.exports = BridgedRunner;
