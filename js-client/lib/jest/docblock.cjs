// The environments preset: 'bridged-client' keeps a test file from, and a test file's `@jest-environment` docblock
// as jest's runner reads it under the preset.
//
// jest picks a docblock's environment over any config, in jest-runner's runTest (in each worker, or in jest's own
// process with --runInBand), where bridged's runner (runner.cjs) does not reach: a file that says
// `@jest-environment node` (or `jsdom`, or React Native's own environment) would load the app's React Native with no
// native side, where under React Native's preset its setup file mocks it in any environment. Loaded in jest's
// process by the runner, and in each worker through NODE_OPTIONS (which the runner sets before it starts them), this
// module has jest-docblock's `parse` (what runTest reads the docblock with) answer bridged's environment in place of
// those, with the export conditions of the one named, as the runner does for a config's `testEnvironment`.
'use strict';

const BRIDGED_ENVIRONMENT = require.resolve('./environment.cjs');
const NODE_CONDITIONS = ['node', 'node-addons'];

/**
 * The environments a file is kept from, as a config names them resolved (`pattern`) or as a docblock names them
 * (`named`), each with the export conditions packages resolve with there: node's as in jest's node environment;
 * under jsdom's, node's too, not its `browser` ones (a browser build may reach for the DOM that bridged's
 * environment, as a phone, does not have); React Native's own resolves as bridged's does already (null).
 */
const KEPT = [
  { pattern: /[\\/]jest-environment-node[\\/]/, named: /^(jest-environment-)?node$/, conditions: NODE_CONDITIONS },
  { pattern: /[\\/]jest-environment-jsdom[\\/]/, named: /^(jest-environment-)?jsdom$/, conditions: NODE_CONDITIONS },
  {
    pattern: /[\\/]react-native[\\/]jest[\\/]react-native-env\.js$/,
    named: /(^|[\\/])react-native[\\/]jest[\\/]react-native-env(\.js)?$/,
    conditions: null,
  },
];

/** The kept environment `environment` (a resolved path, or a docblock's name for one) is, or undefined. */
function keptEnvironment(environment) {
  if (typeof environment !== 'string') return undefined;
  const name = environment.trim();
  return KEPT.find(({ pattern, named }) => pattern.test(name) || named.test(name));
}

/**
 * Wraps the `parse` of jest-docblock's module `docblock` (once): a `jest-environment` pragma naming a kept
 * environment names bridged's, with that environment's export conditions in `jest-environment-options` unless the
 * docblock gives its own (a docblock's options are merged over the config's `testEnvironmentOptions`).
 */
function keepDocblocksInBridged(docblock) {
  if (!docblock || typeof docblock.parse !== 'function' || docblock.parse.bridged) return;
  const parse = docblock.parse;
  const parseKeepingBridged = function (...args) {
    const pragmas = parse.apply(this, args);
    const kept = keptEnvironment(pragmas?.['jest-environment']);
    if (!kept) return pragmas;
    pragmas['jest-environment'] = BRIDGED_ENVIRONMENT;
    if (kept.conditions) {
      const given = pragmas['jest-environment-options'];
      let options = {};
      try {
        if (typeof given === 'string') options = JSON.parse(given);
      } catch {
        // jest reports the options it cannot read.
        return pragmas;
      }
      if (options && typeof options === 'object' && !('customExportConditions' in options)) {
        pragmas['jest-environment-options'] = JSON.stringify({ ...options, customExportConditions: kept.conditions });
      }
    }
    return pragmas;
  };
  parseKeepingBridged.bridged = true;
  docblock.parse = parseKeepingBridged;
}

// In a worker: the jest-docblock jest-runner requires, as the runner resolved it.
if (process.env.BRIDGED_JEST_DOCBLOCK) {
  try {
    keepDocblocksInBridged(require(process.env.BRIDGED_JEST_DOCBLOCK));
  } catch {}
}

module.exports = { BRIDGED_ENVIRONMENT, keptEnvironment, keepDocblocksInBridged };
