// `@testing-library/react-native/extend-expect`: RNTL 12.4's matchers, on bridged's elements.
const host = global.__bridged__;
// In a file whose docblock names an environment of the app's own (setup.cjs) there are no elements to match: nothing
// is added.
if (host) expect.extend(host.matchers());
