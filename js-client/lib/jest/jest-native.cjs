// `@testing-library/jest-native`: its matchers, by name, on bridged's elements.
const host = global.__bridged__;
if (!host) throw new Error(require('./missing.cjs').missingEnvironment('@testing-library/jest-native'));
module.exports = host.matchers({ jestNative: true });
