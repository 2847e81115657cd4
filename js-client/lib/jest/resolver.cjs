// jest's resolver under preset: 'bridged-client': React Native Testing Library's and jest-native's entry points are
// bridged's, whether or not they are installed (jest resolves setupFilesAfterEnv with the resolver, before any
// moduleNameMapper), and so is React Native's own jest setup where an app's config names it (it is the preset's to
// replace); everything else resolves as jest's default resolver resolves it.
const path = require('node:path');

const here = (file) => path.join(__dirname, file);
const OURS = {
  '@testing-library/react-native': here('rntl.cjs'),
  '@testing-library/react-native/pure': here('rntl-pure.cjs'),
  '@testing-library/react-native/dont-cleanup-after-each': here('dont-cleanup-after-each.cjs'),
  '@testing-library/react-native/extend-expect': here('extend-expect.cjs'),
  '@testing-library/react-native/extend-expect.js': here('extend-expect.cjs'),
  '@testing-library/jest-native': here('jest-native.cjs'),
  '@testing-library/jest-native/extend-expect': here('jest-native-extend-expect.cjs'),
  '@testing-library/jest-native/extend-expect.js': here('jest-native-extend-expect.cjs'),
  '@testing-library/jest-native/legacy-extend-expect': here('legacy-extend-expect.cjs'),
  '@testing-library/jest-native/legacy-extend-expect.js': here('legacy-extend-expect.cjs'),
};

/** React Native's `jest/setup.js`, however named (`react-native/jest/setup`, `<rootDir>/node_modules/…`, a path). */
const REACT_NATIVE_SETUP = /[\\/]react-native[\\/]jest[\\/]setup\.js$/;

module.exports = function resolve(request, options) {
  if (Object.hasOwn(OURS, request)) return OURS[request];
  const resolved = options.defaultResolver(request, options);
  return REACT_NATIVE_SETUP.test(resolved) ? here('react-native-setup.cjs') : resolved;
};
