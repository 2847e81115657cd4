// The test runner of preset: 'bridged-client': jest's own (jest-runner), with each test file kept in bridged's
// environment where the app's config names jest's node or jsdom environment, or React Native's own. Many React
// Native apps' configs say `testEnvironment: 'node'` or `'jsdom'` beside `preset: 'react-native'` (React Native's
// preset's environment is a node one), or copy its `require.resolve('react-native/jest/react-native-env.js')`, and an
// app's config overrides its preset's: the app's React Native would then load with no native side. bridged's
// environment (environment.cjs) is jest's node environment with bridged's half added, so the file runs as on a
// phone, which has no DOM (`document` is undefined there, as it is here); packages' `exports` resolve under React
// Native's conditions, or jest's node environment's where the config names node's or jsdom's. An app's own
// environment is left be.
const { createRequire } = require('node:module');
const path = require('node:path');

function jestRunner() {
  for (const from of [path.join(process.cwd(), 'package.json'), __filename]) {
    try {
      const module = createRequire(from)('jest-runner');
      return module.default ?? module;
    } catch {}
  }
  throw new Error("preset: 'bridged-client' needs jest-runner (jest's own; install jest in the app)");
}

const BRIDGED_ENVIRONMENT = require.resolve('./environment.cjs');
/**
 * The environments a file is kept from, each with the export conditions packages resolve with there: node's as in
 * jest's node environment; under jsdom's, node's too, not its `browser` ones (a browser build may reach for the DOM
 * that bridged's environment, as a phone, does not have).
 */
const KEPT = [
  { pattern: /[\\/]jest-environment-node[\\/]/, conditions: ['node', 'node-addons'] },
  { pattern: /[\\/]jest-environment-jsdom[\\/]/, conditions: ['node', 'node-addons'] },
  // React Native's (bridged's environment resolves with its conditions already).
  { pattern: /[\\/]react-native[\\/]jest[\\/]react-native-env\.js$/, conditions: null },
];

/**
 * `test` (jest's Test: its path and context) with its project's environment bridged's, where it was jest's own or
 * React Native's, and the export conditions packages resolve with there (unless the config's testEnvironmentOptions name
 * theirs).
 */
function inBridgedEnvironment(test) {
  const config = test.context.config;
  const kept = KEPT.find(({ pattern }) => pattern.test(config.testEnvironment));
  if (!kept) return test;
  let options = config.testEnvironmentOptions ?? {};
  if (kept.conditions && !('customExportConditions' in options)) options = { ...options, customExportConditions: kept.conditions };
  return { ...test, context: { ...test.context, config: { ...config, testEnvironment: BRIDGED_ENVIRONMENT, testEnvironmentOptions: options } } };
}

class BridgedRunner extends jestRunner() {
  runTests(tests, watcher, options) {
    return super.runTests(tests.map(inBridgedEnvironment), watcher, options);
  }
}

module.exports = BridgedRunner;
