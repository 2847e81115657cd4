// NativeEvents without an app (app/native-events.js): the daemon's events handed to React Native's JavaScript as
// iOS's touch handlers hand them, for paper and Fabric. A real NativeSide (its tag maps) over a bridge that sends
// nothing; React Native's RCTEventEmitter and Fabric's dispatch are recorders of what they are given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { kAllocateTag } from '../../lib/internal.js';
import { NativeSide } from '../../lib/react-native/native-side.js';
import { NativeEvents, TOUCH_EVENTS, fabricTouch, rootEvents } from '../../lib/react-native/app/native-events.js';
import { TimerCapture } from '../../lib/react-native/app/timers.js';

/** A NativeSide whose renderer tags 2, 4 and 6 are daemon tags 1, 2, 3 (a View, a text input, a View). */
function nativeSide() {
  let next = 0;
  const bridge = Object.assign(new EventEmitter(), { components: {}, [kAllocateTag]: () => ++next });
  const native = new NativeSide(bridge);
  native.mapTag(2, 'RCTView');
  native.mapTag(4, 'RCTSinglelineTextInputView');
  native.mapTag(6, 'RCTView');
  return native;
}

/** NativeEvents over `native`, with what it hands on recorded. */
function parts(native = nativeSide()) {
  const global = { setTimeout, clearTimeout };
  const timers = new TimerCapture(global);
  const keyboard = [];
  const animated = [];
  const events = new NativeEvents({
    native,
    timers,
    keyboard: { focused: (tag) => keyboard.push(['focused', tag]), blurred: (tag) => keyboard.push(['blurred', tag]) },
    animated: () => ({ _nativeEvent: (target, type) => animated.push([target, type]) }),
  });
  const emitter = { calls: [] };
  emitter.receiveTouches = (...args) => emitter.calls.push(['receiveTouches', ...args]);
  emitter.receiveEvent = (...args) => emitter.calls.push(['receiveEvent', ...args]);
  return { native, global, timers, keyboard, animated, events, emitter };
}

test('a root listens to the touches and to every bubbling event of the components, not to direct ones', () => {
  const components = {
    RCTSwitch: { events: { change: { bubbles: true, registrationName: 'onChange' } } },
    RCTImageView: { events: { load: { bubbles: false, registrationName: 'onLoad' } } },
    RCTView: {},
  };
  assert.deepEqual(rootEvents(components), [...TOUCH_EVENTS, 'change']);
});

test('Fabric: a touch as RCTSurfaceTouchHandler sends it (the changed touch, those still down, renderer tags)', () => {
  const rendererTag = (daemonTag) => ({ 1: 2, 3: 6 })[daemonTag];
  const touches = [
    { identifier: 0, target: 1, pageX: 10 },
    { identifier: 1, target: 3, pageX: 20 },
  ];
  const moved = fabricTouch('topTouchMove', { touches, changedIndices: [1] }, rendererTag);
  assert.equal(moved.identifier, 1);
  assert.equal(moved.target, 6);
  assert.deepEqual(
    moved.touches.map((t) => t.target),
    [2, 6],
  );
  assert.deepEqual(
    moved.changedTouches.map((t) => t.identifier),
    [1],
  );
  assert.deepEqual(
    moved.targetTouches.map((t) => t.identifier),
    [1],
  );
  const ended = fabricTouch('topTouchEnd', { touches, changedIndices: [1] }, rendererTag);
  assert.deepEqual(
    ended.touches.map((t) => t.identifier),
    [0],
    'an ended touch is no longer among the touches down',
  );
  assert.deepEqual(ended.targetTouches, []);
  // A target the renderer does not know (its view left) stays the daemon's tag; no changedIndices is the first.
  const lone = fabricTouch('topTouchStart', { touches: [{ identifier: 0, target: 9 }] }, rendererTag);
  assert.equal(lone.target, 9);
  assert.equal(lone.changedTouches.length, 1);
});

test('paper: touches go to RCTEventEmitter.receiveTouches with renderer tags, other events to receiveEvent', () => {
  const { native, events, emitter, animated } = parts();
  events.eventEmitter = emitter;
  assert.equal(native.deliver, null, 'nothing is delivered before React Native is loaded');
  events.start();
  assert.equal(typeof native.deliver, 'function');
  native.deliver(2, 'topTouchStart', { touches: [{ identifier: 0, target: 1 }], changedIndices: [0] });
  native.deliver(6, 'topChange', { value: true });
  assert.deepEqual(emitter.calls, [
    ['receiveTouches', 'topTouchStart', [{ identifier: 0, target: 2 }], [0]],
    ['receiveEvent', 6, 'topChange', { value: true, target: 6 }],
  ]);
  assert.deepEqual(animated, [[6, 'topChange']], "NativeAnimatedModule's event drivers hear a non-touch event");
});

test("a text input's focus and blur show and hide the keyboard; another view's do not", () => {
  const { events, emitter, keyboard } = parts();
  events.eventEmitter = emitter;
  events.start();
  events.deliver(4, 'topFocus', {});
  events.deliver(2, 'topFocus', {});
  events.deliver(4, 'topBlur', {});
  assert.deepEqual(keyboard, [
    ['focused', 4],
    ['blurred', 4],
  ]);
  assert.equal(emitter.calls.length, 3, 'every one reaches the JavaScript');
});

test('the timers a delivery starts during a captured input are the input’s', async () => {
  const { events, global, timers, emitter } = parts();
  emitter.receiveEvent = () => global.setTimeout(() => {}, 250);
  events.eventEmitter = emitter;
  events.start();
  const captured = await timers.capture(async () => events.deliver(6, 'topPress', {}));
  assert.deepEqual(
    captured.map((t) => t.delay),
    [250],
  );
  captured[0].fire();
});

test('Fabric: the renderer’s dispatch is taken over, and touches are shaped for it first', () => {
  const { native, events } = parts();
  events.takeFabricDispatch();
  const dispatched = [];
  // ReactFabric registers its handler with the manager, which sets the NativeSide's `deliver`.
  native.deliver = (target, type, event) => dispatched.push([target, type, event]);
  assert.equal(native.deliver, null, 'nothing is delivered before React Native is loaded');
  events.start();
  native.deliver(2, 'topTouchEnd', { touches: [{ identifier: 0, target: 1 }], changedIndices: [0] });
  native.deliver(6, 'topChange', { value: 1 });
  assert.equal(dispatched.length, 2);
  const [touch, change] = dispatched;
  assert.deepEqual(touch.slice(0, 2), [2, 'topTouchEnd']);
  assert.deepEqual(touch[2].changedTouches, [{ identifier: 0, target: 2 }]);
  assert.deepEqual(touch[2].touches, []);
  assert.deepEqual(change, [6, 'topChange', { value: 1, target: 6 }]);
});

test('touches handed to the responder directly: paper forwards them, Fabric drops them, a throw is kept', () => {
  const paper = parts();
  paper.events.eventEmitter = paper.emitter;
  paper.events.receiveTouches('topTouchEnd', [{ target: 2 }], [0]);
  assert.deepEqual(paper.emitter.calls, [['receiveTouches', 'topTouchEnd', [{ target: 2 }], [0]]]);
  paper.emitter.receiveTouches = () => {
    throw new Error('the responder threw');
  };
  paper.events.receiveTouches('topTouchEnd', [{ target: 2 }], [0]);
  assert.throws(() => paper.native.throwPending(), /the responder threw/, 'kept for the next settled()');

  const fabric = parts();
  fabric.events.takeFabricDispatch();
  fabric.events.eventEmitter = fabric.emitter;
  fabric.events.receiveTouches('topTouchEnd', [{ target: 2 }], [0]);
  assert.deepEqual(fabric.emitter.calls, []);
});
