// The renderer used alone (attachReactNative, no app package): its View and Text apply React Native 0.72's own
// rules before the native side sees the props, so the daemon holds what an app's View and Text would send on
// iOS. Each case names the file of React Native's it comes from; each runs live on paper and on Fabric (React
// Native's renderer files from $BRIDGED_RN_RENDERER / $BRIDGED_RN_FABRIC_RENDERER), checked on the daemon's side.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../index.js';
import { attachReactNative } from '../lib/react-native.js';
import { deepFreezeAndThrowOnMutationInDev } from '../lib/react-native/style.js';
import { textProps, viewProps } from '../lib/react-native/renderer/host-components.js';
import { startDaemon } from '../test-support/daemon.js';
import { byTestID, find, loadReact, tree } from '../test-support/react-native.js';

const react = loadReact();

/** [name, the element under test (made with rn's View/Text), what the daemon must hold: testID → props subset]. */
const cases = [
  ['View.js: pointerEvents is sent', ({ h, View }) => h(View, { testID: 'v', pointerEvents: 'box-none' }), { v: { pointerEvents: 'box-none' } }],
  ['View.js: a style pointerEvents wins over the prop', ({ h, View }) => h(View, { testID: 'v', pointerEvents: 'auto', style: { pointerEvents: 'none' } }), { v: { pointerEvents: 'none' } }],
  ['View.js: aria-label is accessibilityLabel', ({ h, View }) => h(View, { testID: 'v', 'aria-label': 'Close', accessibilityLabel: 'ignored' }), { v: { accessibilityLabel: 'Close' } }],
  ['View.js: id is nativeID', ({ h, View }) => h(View, { testID: 'v', id: 'header' }), { v: { nativeID: 'header' } }],
  [
    'View.js: aria-hidden hides the view and its descendants',
    ({ h, View }) => h(View, { testID: 'v', 'aria-hidden': true }),
    { v: { accessibilityElementsHidden: true, importantForAccessibility: 'no-hide-descendants' } },
  ],
  [
    'View.js: aria-disabled and the other aria states are accessibilityState',
    ({ h, View }) => h(View, { testID: 'v', 'aria-disabled': true, accessibilityState: { selected: true, disabled: false } }),
    { v: { accessibilityState: { disabled: true, selected: true } } },
  ],
  [
    'View.js: role is accessibilityRole (AcessibilityMapping.js), aria-value* is accessibilityValue',
    ({ h, View }) => h(View, { testID: 'v', role: 'slider', 'aria-valuenow': 3, 'aria-valuemax': 10 }),
    { v: { accessibilityRole: 'adjustable', accessibilityValue: { now: 3, max: 10 } } },
  ],
  [
    'BaseViewConfig.ios.js: a style attribute given as a View prop is sent (opacity={0.5})',
    ({ h, View }) => h(View, { testID: 'v', opacity: 0.5, backgroundColor: 'red' }),
    { v: { opacity: 0.5, backgroundColor: '#ff0000ff' } },
  ],
  [
    'Text.js: an iOS text is accessible, scales its font and ellipsizes at the tail unless told otherwise',
    ({ h, Text }) => h(Text, { testID: 't' }, 'hi'),
    { t: { accessible: true, allowFontScaling: true, ellipsizeMode: 'tail', isHighlighted: false } },
  ],
  [
    'Text.js: aria-label, id and aria-disabled',
    ({ h, Text }) => h(Text, { testID: 't', 'aria-label': 'Greeting', id: 'greeting', 'aria-disabled': true, accessible: false }, 'hi'),
    { t: { accessibilityLabel: 'Greeting', nativeID: 'greeting', disabled: true, accessibilityState: { disabled: true }, accessible: false } },
  ],
  ['Text.js: numberOfLines below 0 is sent as 0', ({ h, Text }) => h(Text, { testID: 't', numberOfLines: -1 }, 'hi'), { t: { numberOfLines: 0 } }],
  [
    'Text.js: a numeric fontWeight is a string, userSelect is selectable, verticalAlign is textAlignVertical',
    ({ h, Text }) => h(Text, { testID: 't', style: { fontWeight: 700, userSelect: 'none', verticalAlign: 'middle' } }, 'hi'),
    { t: { fontWeight: '700', selectable: false, textAlignVertical: 'center' } },
  ],
  [
    'deepFreezeAndThrowOnMutationInDev.js: a style holding a cycle under an unrelated key renders',
    ({ h, View }) => {
      const style = { opacity: 0.25 };
      style.self = style;
      return h(View, { testID: 'v', style });
    },
    { v: { opacity: 0.25 } },
  ],
];

/** `actual` holds every field of `expected` (deeply, for objects), whatever else it holds. */
function assertHolds(actual, expected, where) {
  for (const [key, value] of Object.entries(expected)) {
    if (value !== null && typeof value === 'object') {
      assert.ok(actual[key] !== null && typeof actual[key] === 'object', `${where}.${key}: expected an object, got ${JSON.stringify(actual[key])}`);
      assertHolds(actual[key], value, `${where}.${key}`);
    } else {
      assert.deepEqual(actual[key], value, `${where}.${key}`);
    }
  }
}

for (const [architecture, env] of [
  ['paper', 'BRIDGED_RN_RENDERER'],
  ['fabric', 'BRIDGED_RN_FABRIC_RENDERER'],
]) {
  const renderer = process.env[env];
  const skip = !renderer ? `${env} names no React Native renderer file` : !react ? 'no React (node-react)' : false;
  describe(`React Native's View and Text rules, renderer alone, ${architecture}`, { skip }, () => {
    let daemon;
    before(async () => {
      daemon = await startDaemon();
    });
    after(() => daemon?.stop());

    for (const [name, element, expected] of cases) {
      test(name, async () => {
        const bridge = await connect({ socket: daemon.socket });
        const errors = [];
        const consoleError = console.error;
        console.error = (...args) => errors.push(args.join(' '));
        try {
          const rn = await attachReactNative(bridge, { renderer, react: react.React, scheduler: react.scheduler, architecture });
          const root = await rn.render(element({ h: react.React.createElement, View: rn.View, Text: rn.Text }));
          const native = await tree(bridge, root.tag);
          for (const [testID, props] of Object.entries(expected)) {
            const node = find(native, byTestID(testID));
            assert.ok(node, `no view with testID ${testID} in the daemon`);
            assertHolds(node.props, props, `${testID}.props`);
          }
          await root.unmount();
          await rn.detach();
        } finally {
          console.error = consoleError;
          await bridge.close();
        }
        if (name.includes('numberOfLines')) assert.ok(errors.some((e) => e.includes("'numberOfLines' in <Text> must be a non-negative number")), 'the error Text.js logs');
      });
    }
  });
}

describe('the rules without a renderer', () => {
  test('a View with none of the mapped props passes its props on as they are', () => {
    const style = { opacity: 1 };
    const props = viewProps({ testID: 'x', style, onLayout: null });
    assert.equal(props.testID, 'x');
    assert.equal(props.style, style, 'a style object is not copied (flattenStyle returns it as it is)');
    for (const key of ['accessibilityLabel', 'nativeID', 'accessibilityState', 'pointerEvents']) assert.equal(props[key], undefined, key);
  });

  test("a nested Text is a virtual text: pressable when it has onPress, without the outer text's defaults", () => {
    const props = textProps({ onPress() {}, children: 'x' }, { virtual: true });
    assert.equal(props.isPressable, true);
    assert.equal(props.isHighlighted, false);
    assert.equal(props.accessible, undefined);
    assert.equal(textProps({ onPress() {}, disabled: true }, { virtual: true }).isPressable, false);
  });

  test('a frozen props value throws when written, and a cycle is frozen without overflowing', () => {
    const style = { a: { b: 1 } };
    style.self = style;
    deepFreezeAndThrowOnMutationInDev(style);
    assert.ok(Object.isFrozen(style) && Object.isFrozen(style.a));
    assert.throws(() => {
      style.a.b = 2;
    }, /You attempted to set the key `b` with the value `2`/);
    assert.equal(style.a.b, 1);
  });
});
