// RNTL's import under fake timers: its helpers/timers.js takes its own timer functions with jest's real timers
// (jest.useRealTimers(), then jest.useFakeTimers() of the same kind again), so the test's fake clock is a new one from
// then on. What was set on the one before stays there, never run: jest's own timeout of each test, when the app's
// setupFiles faked the timers before jest took its setTimeout (`jest.runAllTimers()` or an advance past 5 s would
// run it, and the test would fail at once with "Exceeded timeout"), and any timer set before the import. bridged's
// RNTL does the same on its import, as its own helpers need no real timers.
module.exports = function newFakeClock(host) {
  const fake = host.fakeTimers();
  if (!fake || typeof jest === 'undefined' || process.env.RNTL_SKIP_AUTO_DETECT_FAKE_TIMERS) return;
  jest.useRealTimers();
  jest.useFakeTimers({ legacyFakeTimers: fake === 'legacy' });
};
