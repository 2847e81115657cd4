// What bridged's entry points say in a test file that runs without bridged's environment: one whose
// `@jest-environment` docblock names an environment of the app's own (jest picks it over any config; one naming
// jest's node or jsdom environment is kept in bridged's, docblock.cjs), or a config that is not the preset's.

/** The message for `what` (a package's name) imported there. */
function missingEnvironment(what) {
  return (
    `${what} is bridged's under preset: 'bridged-client', and this test file runs without bridged's environment: ` +
    "a `@jest-environment` docblock at the file's top names an environment of the app's own, which replaces the " +
    "preset's for it (remove it: the preset's environment is jest's node one with bridged's native side added), or " +
    "the jest config is not the preset's"
  );
}

module.exports = { missingEnvironment };
