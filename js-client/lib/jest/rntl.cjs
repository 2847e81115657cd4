// `@testing-library/react-native` under preset: 'bridged-client': bridged's implementation of its API
// (testing-library.js), with RNTL's cleanup after each test and its matchers.
const host = global.__bridged__;
if (!host) throw new Error(require('./missing.cjs').missingEnvironment('@testing-library/react-native'));
const library = host.testingLibrary();
require('./fake-clock.cjs')(host);
if (typeof afterEach === 'function' && !process.env.RNTL_SKIP_AUTO_CLEANUP) {
  // As RNTL's: a turn of the event loop first (Node's own setImmediate, whatever timers the test faked), so that what
  // the test left pending (a promise rejected after a mount) surfaces while jest still counts it as this test's.
  const { setImmediate } = require('node:timers');
  afterEach(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    library.cleanup();
  });
}
if (typeof expect === 'function' && typeof expect.extend === 'function') {
  // Its matchers come with it (as RNTL 12.8's do), but not over jest-native's own forms that the app's setup
  // registered (RNTL 12.4, which adds none on import, leaves those as they are).
  const JEST_NATIVE = Symbol.for('bridged.jestNativeMatcher'); // matchers.js's mark
  const registered = globalThis[Symbol.for('$$jest-matchers-object')]?.matchers ?? {};
  const matchers = host.matchers();
  for (const name of Object.keys(matchers)) if (registered[name]?.[JEST_NATIVE]) delete matchers[name];
  expect.extend(matchers);
}
module.exports = library;
