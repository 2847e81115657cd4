// The test runner of preset: 'bridged-client': jest's own (jest-runner), with each test file kept in bridged's
// environment where the app's config names jest's node or jsdom environment. Many React Native apps' configs say
// `testEnvironment: 'node'` or `'jsdom'` beside `preset: 'react-native'` (React Native's preset's environment is a
// node one), and an app's config overrides its preset's: the app's React Native would then load with no native side.
// bridged's environment (environment.cjs) is jest's node environment with bridged's half added, so the file runs as
// on a phone, which has no DOM (`document` is undefined there, as it is here). An app's own environment is left be.
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
const JEST_ENVIRONMENT = /[\\/]jest-environment-(node|jsdom)[\\/]/;

/** `test` (jest's Test: its path and context) with its project's environment bridged's, where it was jest's own. */
function inBridgedEnvironment(test) {
  const config = test.context.config;
  if (!JEST_ENVIRONMENT.test(config.testEnvironment)) return test;
  return { ...test, context: { ...test.context, config: { ...config, testEnvironment: BRIDGED_ENVIRONMENT } } };
}

class BridgedRunner extends jestRunner() {
  runTests(tests, watcher, options) {
    return super.runTests(tests.map(inBridgedEnvironment), watcher, options);
  }
}

module.exports = BridgedRunner;
