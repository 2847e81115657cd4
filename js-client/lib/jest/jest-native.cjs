// `@testing-library/jest-native`: its matchers, by name, on bridged's elements.
const host = global.__bridged__;
if (!host) throw new Error("these matchers are bridged's under preset: 'bridged-client' (its test environment is missing)");
module.exports = host.matchers();
