// Runs in each test file's module registry before the test (jest's setupFiles, awaited): loads the app's own React
// Native through jest's require, with bridged as its native side (environment.js made the session and the App).
// A file whose `@jest-environment` docblock names an environment of the app's own (jest picks it over any config;
// jest's node or jsdom one is kept in bridged's, docblock.cjs) has no native side: it runs as there, and only
// `@testing-library/react-native` refuses it, saying so (rntl.cjs), so that a file of plain logic tests (a hook
// with a DOM, a utility) passes as it does under React Native's preset.
module.exports = async function bridgedSetup() {
  if (!global.__bridged__) return;
  // The environment's stand-in until its ES module has loaded; the host in its place once `ready` resolves.
  await global.__bridged__.ready;
  global.__bridged__.load(require, jest);
};
