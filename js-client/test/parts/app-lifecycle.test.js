// The parts of an open app that wait and keep, without an app (app/lifecycle.js, app/native-host.js,
// app/components.js): Settling's waits over a settle of the test's own, the unhandled rejections kept, the alerts
// on screen, and the errors that name an unserved component or module and who asked for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { kAllocateTag } from '../../lib/internal.js';
import { NativeSide } from '../../lib/react-native/native-side.js';
import { Rejections, Settling } from '../../lib/react-native/app/lifecycle.js';
import { Alerts, missingModule } from '../../lib/react-native/app/native-host.js';
import { HostComponents, callerFile, packageOf, stackFiles } from '../../lib/react-native/app/components.js';

test('settled() settles, then wakes whoever waits for the next settle; a closed app refuses', async () => {
  let settles = 0;
  let closed = false;
  const settling = new Settling(
    async () => void settles++,
    (what) => {
      if (closed) throw new Error(`app.${what}(): the app is closed`);
    },
  );
  const next = settling.nextSettle();
  let woken = false;
  next.then(() => (woken = true));
  await Promise.resolve();
  assert.equal(woken, false);
  await settling.settled();
  await next;
  assert.equal(settles, 1);
  closed = true;
  await assert.rejects(settling.settled(), /app\.settled\(\): the app is closed/);
  await assert.rejects(
    settling.waitFor(() => {}),
    /app\.waitFor\(\): the app is closed/,
  );
});

test('waitFor runs the expectation after each settle until it returns, and resolves with its value', async () => {
  let state = 0;
  const settling = new Settling(async () => void state++);
  // Each settle is a change here; the expectation passes at the third.
  const value = await settling.waitFor(
    () => {
      if (state < 3) throw new Error(`state ${state}`);
      return `state ${state}`;
    },
    { timeout: 60_000, interval: 1 },
  );
  assert.equal(value, 'state 3');
  await assert.rejects(settling.waitFor('not a function'), TypeError);
});

test('waitFor rejects with the expectation’s last error once its time is up', async () => {
  const settling = new Settling(async () => {});
  let tries = 0;
  await assert.rejects(
    settling.waitFor(
      () => {
        throw new Error(`try ${++tries}`);
      },
      { timeout: 0, interval: 1 },
    ),
    (error) => error.message === `try ${tries}`,
  );
});

test('waitForElementToBeRemoved: something must be there first; it resolves once the query finds nothing', async () => {
  let rows = ['a', 'b'];
  const settling = new Settling(async () => void rows.pop());
  await settling.waitForElementToBeRemoved(() => rows, { timeout: 60_000, interval: 1 });
  assert.deepEqual(rows, []);
  await assert.rejects(
    settling.waitForElementToBeRemoved(() => null),
    /the query finds nothing at first/,
  );
  // A getBy* query that throws finds nothing.
  await assert.rejects(
    settling.waitForElementToBeRemoved(() => {
      throw new Error('Unable to find an element');
    }),
    /the query finds nothing at first/,
  );
});

test('an unhandled rejection is warned about with its stack and kept; with a fail, failed too', () => {
  const warnings = [];
  const failed = [];
  const rejections = new Rejections(
    (message) => warnings.push(message),
    (error) => failed.push(error),
  );
  const error = new Error('no network');
  rejections.rejected(error);
  rejections.rejected('a string');
  assert.deepEqual(
    rejections.list().map(({ id, message }) => [id, message]),
    [
      [0, 'no network'],
      [1, 'a string'],
    ],
  );
  assert.match(warnings[0], /^Possible Unhandled Promise Rejection \(id: 0\):\nError: no network/);
  assert.equal(failed[0], error);
  assert.ok(failed[1] instanceof Error && failed[1].message === 'a string');
  const kept = new Rejections(() => {}, null);
  kept.rejected(error);
  assert.equal(kept.list().length, 1, 'without a fail, only kept');
});

test('alerts: iOS’s own buttons when none are given; the newest alert with the button is answered', () => {
  const alerts = new Alerts();
  const answers = [];
  alerts.alert({ title: 'Saved' }, (index) => answers.push(['saved', index]));
  alerts.alert({ title: 'Name?', type: 'plain-text', defaultValue: 'Ada' }, (index, value) =>
    answers.push(['name', index, value]),
  );
  alerts.actionSheet({ title: 'Share', options: ['Mail', 'Cancel'] }, (index) => answers.push(['sheet', index]));
  assert.deepEqual(alerts.list(), [
    { title: 'Saved', message: null, buttons: ['OK'] },
    { title: 'Name?', message: null, buttons: ['OK', 'Cancel'] },
    { title: 'Share', message: null, buttons: ['Mail', 'Cancel'], style: 'actionSheet' },
  ]);
  const fail = (error) => assert.fail(error);
  alerts.press('OK', undefined, fail);
  alerts.press('Cancel', undefined, fail);
  alerts.press('OK', undefined, fail);
  assert.deepEqual(answers, [
    ['name', 0, 'Ada'],
    ['sheet', 1],
    ['saved', 0],
  ]);
  assert.throws(() => alerts.press('OK', undefined, fail), /no alert has a button 'OK' \(alerts: \[\]\)/);
});

test('a prompt’s value, a login-password default, and a button whose callback throws', () => {
  const alerts = new Alerts();
  const values = [];
  alerts.alert({ type: 'login-password', defaultValue: 'ada' }, (_, value) => values.push(value));
  alerts.alert({ type: 'secure-text' }, (_, value) => values.push(value));
  alerts.press('OK', 'typed', () => {});
  alerts.press('OK', undefined, () => {});
  assert.deepEqual(values, ['typed', { login: 'ada', password: '' }]);
  alerts.alert({ title: 'Boom' }, () => {
    throw new Error('onPress threw');
  });
  const failed = [];
  alerts.press('OK', undefined, (error) => failed.push(error.message));
  assert.deepEqual(failed, ['onPress threw']);
  assert.deepEqual(alerts.list(), []);
});

test('who asked: the package of a file, and the first caller outside React Native’s component machinery', () => {
  assert.equal(packageOf('/app/node_modules/react-native-maps/lib/MapView.js'), 'react-native-maps');
  assert.equal(packageOf('/app/node_modules/a/node_modules/@scope/b/index.js'), '@scope/b');
  assert.equal(packageOf('/app/src/App.js'), null);
  const stack = [
    'Error',
    '    at requireNativeComponent (/app/node_modules/react-native/Libraries/ReactNative/require.js:1:1)',
    '    at wrapped (/work/js-client/lib/react-native/app/components.js:2:2)',
    '    at Object.<anonymous> (/app/node_modules/react-native-maps/lib/MapView.js:3:3)',
  ].join('\n');
  assert.equal(callerFile(stack, null), '/app/node_modules/react-native-maps/lib/MapView.js');
  assert.equal(callerFile('Error\n    at x (/app/node_modules/react-native/Libraries/Renderer/a.js:1:1)', null), null);
  const error = missingModule('RNMaps', '/app/node_modules/react-native-maps/lib/MapView.js');
  assert.equal(error.code, 'unknown_native_module');
  assert.equal(error.module, 'RNMaps');
  assert.match(error.message, /no native module 'RNMaps' \(asked for by the package 'react-native-maps'\)/);
  assert.match(error.message, /openApp\(bridge, \{ nativeModules: \{ RNMaps:/);
});

test('the stack read for who asked bypasses an installed Error.prepareStackTrace (jest source-maps each frame)', () => {
  const installed = () => 'formatted by the installed hook';
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = installed;
  try {
    const stack = stackFiles();
    assert.match(stack, /app-lifecycle\.test\.js:\d+:\d+\)/);
    assert.equal(Error.prepareStackTrace, installed, 'the installed hook is put back');
  } finally {
    Error.prepareStackTrace = previous;
  }
});

test('host components: an unserved one is named (and remembered), React Native’s own error becomes that one', () => {
  const bridge = Object.assign(new EventEmitter(), {
    components: { RCTView: { props: { opacity: 'number' } } },
    [kAllocateTag]: () => 1,
  });
  const native = new NativeSide(bridge);
  const components = new HostComponents(bridge, native);
  components.beforeCreate('RCTView');
  assert.throws(
    () => components.beforeCreate('AIRMap'),
    (error) => error.code === 'unknown_component' && error.component === 'AIRMap' && /--components/.test(error.message),
  );
  const thrown = new Error('requireNativeComponent: "RNSScreen" was not found in the UIManager.');
  const explained = components.explain(thrown);
  assert.equal(explained.code, 'unknown_component');
  assert.equal(explained.component, 'RNSScreen');
  const other = new Error('something else');
  assert.equal(components.explain(other), other);
  assert.deepEqual(components.unknown(), ['AIRMap', 'RNSScreen']);
  assert.deepEqual(components.untyped(), []);
  components.unknownProp('RCTView', 'zIndexx');
  components.unknownProp('RCTView', 'aProp');
  components.unknownProp('RCTView', 'zIndexx');
  assert.deepEqual(components.unknownProps(), { RCTView: ['aProp', 'zIndexx'] });
});
