// `@testing-library/jest-native/extend-expect`: jest-native 5's matchers, with its own rules where they differ from
// RNTL 12.4's (toHaveTextContent matches a part of the text; toBeEmptyElement asks for children given), on bridged's
// elements.
const host = global.__bridged__;
// In a file whose docblock names an environment of the app's own (setup.cjs) there are no elements to match: nothing
// is added.
if (host) expect.extend(host.matchers({ jestNative: true }));
