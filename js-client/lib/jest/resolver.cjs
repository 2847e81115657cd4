// jest's resolver under preset: 'bridged-client': React Native Testing Library's and jest-native's entry points are
// bridged's, whether or not they are installed (jest resolves setupFilesAfterEnv with the resolver, before any
// moduleNameMapper); everything else resolves as jest's default resolver resolves it.
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

module.exports = function resolve(request, options) {
  return OURS[request] ?? options.defaultResolver(request, options);
};
