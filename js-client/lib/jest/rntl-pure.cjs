// `@testing-library/react-native/pure` under preset: 'bridged-client': bridged's RNTL without the automatic cleanup
// after each test (the test calls cleanup() itself), as RNTL's own `pure` entry.
const host = global.__bridged__;
if (!host) throw new Error(require('./missing.cjs').missingEnvironment('@testing-library/react-native'));
require('./fake-clock.cjs')(host);
if (typeof expect === 'function' && typeof expect.extend === 'function') expect.extend(host.matchers());
module.exports = host.testingLibrary();
