// The app's own setupFilesAfterEnv: expect is there, and so are bridged's matchers.
expect.extend({
  toBeAppSetUp(received) {
    return { pass: received === true, message: () => 'the app setup file did not run' };
  },
});
