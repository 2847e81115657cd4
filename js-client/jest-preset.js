// `preset: 'bridged-client'` in an app's jest config: the app's React Native Testing Library tests, unchanged, on
// bridged. It transforms and resolves as React Native's own preset (react-native/jest-preset.js) does, but where
// that preset loads react-native/jest/setup.js (a mock of every native module), this one installs bridged's native
// side: the modules openApp serves, with the app's own react-native package unmocked, over one daemon for the run.
// `@testing-library/react-native` (and jest-native's matchers) are bridged's implementation of RNTL 12's API.
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
/** This package's own folder, as a pattern: its files load as Node loads them, never through the app's Babel. */
const self = here('./').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default {
  haste: { defaultPlatform: 'ios', platforms: ['android', 'ios', 'native'] },
  transform: {
    '^.+\\.(js|jsx|ts|tsx|mjs|cjs)$': 'babel-jest',
    '^.+\\.(bmp|gif|jpg|jpeg|mp4|png|psd|svg|webp|ttf|otf)$': here('./lib/jest/asset-transformer.js'),
  },
  // React Native's own list, and Debian's jest runner (in /usr/share/nodejs), which must never go through Babel.
  transformIgnorePatterns: [
    'node_modules/(?!((jest-)?react-native|@react-native(-community)?|@react-navigation|react-navigation|expo(nent)?|@expo(nent)?/.*|@expo-google-fonts/.*|@unimodules/.*|unimodules|sentry-expo|native-base|react-native-svg)/)',
    '^/usr/(share|lib)/nodejs/',
    `^${self}`,
  ],
  // bridged-client may live outside the app (linked): the app's packages are found from its root all the same.
  modulePaths: ['<rootDir>/node_modules'],
  // RNTL's and jest-native's entry points are bridged's (lib/jest/resolver.cjs holds the one list of them).
  resolver: here('./lib/jest/resolver.cjs'),
  testEnvironment: here('./lib/jest/environment.cjs'),
  // jest's own runner, which keeps a file in that environment where the app's config says testEnvironment: 'node'.
  runner: here('./lib/jest/runner.cjs'),
  // jest's own module runtime, with the code V8 compiled for a module kept between runs.
  runtime: here('./lib/jest/runtime.cjs'),
  setupFiles: [here('./lib/jest/setup.cjs')],
  globalSetup: here('./lib/jest/global-setup.cjs'),
  globalTeardown: here('./lib/jest/global-teardown.cjs'),
};
