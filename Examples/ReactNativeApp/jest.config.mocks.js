// The same tests on React Native's own jest preset (its mocks) and React Native Testing Library, for comparison
// (make test runs it where @testing-library/react-native is installed; bench/ times both).
module.exports = {
  preset: 'react-native',
  setupFilesAfterEnv: ['@testing-library/react-native/extend-expect'],
  transformIgnorePatterns: [
    'node_modules/(?!((jest-)?react-native|@react-native(-community)?|@react-navigation)/)',
    '^/usr/(share|lib)/nodejs/',
  ],
};
