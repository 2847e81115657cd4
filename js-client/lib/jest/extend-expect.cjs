// RNTL 12.4's (and jest-native's) matchers, on bridged's elements.
const host = global.__bridged__;
if (!host) throw new Error("these matchers are bridged's under preset: 'bridged-client' (its test environment is missing)");
expect.extend(host.matchers());
