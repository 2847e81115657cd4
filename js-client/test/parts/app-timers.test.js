// TimerCapture without an app (app/timers.js): the timers an app starts while a native input is delivered, as the
// actions' virtual time finds them. Real Node timers on a global object of the test's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TimerCapture } from '../../lib/react-native/app/timers.js';

/** A global object as the app's code sees one: Node's own timers. */
const appGlobal = () => ({ setTimeout, clearTimeout });

test('outside capture(), run() starts timers as the app would, and none is captured', async () => {
  const global = appGlobal();
  const timers = new TimerCapture(global);
  assert.equal(timers.active, false);
  let ran = false;
  await new Promise((resolve) => timers.run(() => global.setTimeout(() => resolve((ran = true)), 0)));
  assert.equal(ran, true);
  assert.equal(global.setTimeout, setTimeout, 'setTimeout is the app global’s own again');
});

test('the timers started while an input is delivered are captured: delay, fire() now, cleared', async () => {
  const global = appGlobal();
  const timers = new TimerCapture(global);
  const order = [];
  const captured = await timers.capture(async () => {
    assert.equal(timers.active, true);
    timers.run(() => {
      global.setTimeout((label) => order.push(label), 500, 'press-out');
      const cancelled = global.setTimeout(() => order.push('never'), 800);
      global.clearTimeout(cancelled);
    });
    // A timer started outside a delivery, during the input, is not the touch's.
    global.setTimeout(() => order.push('elsewhere'), 0);
  });
  assert.equal(timers.active, false);
  assert.equal(global.setTimeout, setTimeout);
  assert.deepEqual(
    captured.map((t) => t.delay),
    [500, 800],
  );
  const [pressOut, cancelled] = captured;
  assert.equal(cancelled.cleared, true, 'a timer the app cleared says so');
  assert.equal(cancelled.fire(), false, 'and is not run');
  assert.equal(pressOut.fired, false);
  assert.equal(pressOut.fire(), true, 'fire() runs it now, without waiting 500 ms');
  await pressOut.done;
  assert.equal(pressOut.fired, true);
  assert.equal(pressOut.fire(), false, 'once');
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(order, ['press-out', 'elsewhere']);
});

test('a timer that comes due on its own is seen as fired, and its callback’s arguments reach it', async () => {
  const global = appGlobal();
  const timers = new TimerCapture(global);
  const seen = [];
  const [timer] = await timers.capture(async () => {
    timers.run(() => global.setTimeout((a, b) => seen.push(a + b), 1, 2, 3));
  });
  await timer.done;
  assert.deepEqual(seen, [5]);
  assert.equal(timer.fired, true);
  assert.equal(timer.cleared, false);
});

test('capture() ends even when the input throws, and the error is the input’s', async () => {
  const global = appGlobal();
  const timers = new TimerCapture(global);
  await assert.rejects(
    timers.capture(async () => {
      throw new Error('the input failed');
    }),
    /the input failed/,
  );
  assert.equal(timers.active, false);
  timers.run(() => assert.equal(global.setTimeout, setTimeout, 'nothing is captured after it'));
});
