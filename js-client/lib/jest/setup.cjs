// Runs in each test file's module registry before the test (jest's setupFiles, awaited): loads the app's own React
// Native through jest's require, with bridged as its native side (environment.js made the session and the App).
module.exports = async function bridgedSetup() {
  const host = global.__bridged__;
  if (!host) throw new Error("bridged-client's jest setup needs its environment: use preset: 'bridged-client' (testEnvironment)");
  await host.ready;
  host.load(require, jest);
};
