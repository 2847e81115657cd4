// Runs in each test file's module registry before the test (jest's setupFiles, awaited): loads the app's own React
// Native through jest's require, with bridged as its native side (environment.js made the session and the App).
module.exports = async function bridgedSetup() {
  if (!global.__bridged__) throw new Error("bridged-client's jest setup needs its environment: use preset: 'bridged-client' (testEnvironment)");
  // The environment's stand-in until its ES module has loaded; the host in its place once `ready` resolves.
  await global.__bridged__.ready;
  global.__bridged__.load(require, jest);
};
