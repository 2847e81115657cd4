// What an app's dependencies declare of their native side, read from their own specs with the app's
// @react-native/codegen: a TurboModule from its spec (empty answers, recorded, implemented by a test, its events),
// a module nobody declares (the error), and the components of react-native-screens, -safe-area-context and -svg
// added to the session (`define`), or a component asked for by name with no spec, served untyped.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../index.js';
import { openApp } from '../lib/react-native.js';
import { startDaemon } from '../test-support/daemon.js';
import { TEST_CACHE, appSkip, makeApp } from '../test-support/react-native-app.js';

describe("openApp: native modules from the dependencies' specs", { skip: appSkip }, () => {
  let daemon;
  let bridge;
  let layout;
  let app;
  let React;
  let log;

  before(async () => {
    daemon = await startDaemon();
    bridge = await connect({ socket: daemon.socket });
    layout = makeApp(undefined, { packages: ['acme-storage'] });
    app = await openApp(bridge, { root: layout.root, cache: TEST_CACHE });
    React = app.require('react');
    log = app.require('./src/log');
  });

  after(async () => {
    await app?.close();
    await bridge?.close();
    await daemon?.stop();
    layout?.remove();
  });

  test('a module with a spec answers its empty values, every method with its arity, and its calls are recorded', async () => {
    const storage = app.nativeModule('AcmeStorage');
    assert.deepEqual(
      ['multiGet', 'setItem', 'isReady', 'getCount'].map((m) => [m, typeof storage[m], storage[m].length]),
      [['multiGet', 'function', 1], ['setItem', 'function', 2], ['isReady', 'function', 0], ['getCount', 'function', 0]],
    );
    const s = await app.render(React.createElement(app.require('./src/screens/StorageScreen').default));
    assert.ok(s.getByText('values []'), 'a promise method resolves to the empty array of its spec');
    assert.ok(s.getByText('not ready'));
    assert.equal(storage.getCount(), 0);
    assert.equal(storage.setItem('a', 'b'), undefined);
    assert.deepEqual(
      app.nativeCalls('AcmeStorage').filter((c) => c.method !== 'addListener'),
      [
        { method: 'isReady', args: [] }, // the first render
        { method: 'multiGet', args: [['a', 'b']] }, // its effect
        { method: 'isReady', args: [] }, // the render with the values
        { method: 'getCount', args: [] },
        { method: 'setItem', args: ['a', 'b'] },
      ],
    );

    await app.emitNativeModuleEvent('AcmeStorage', 'changed', { key: 'a' });
    assert.deepEqual(log.take(), ['changed a'], 'NativeEventEmitter listeners hear the module’s events');
    await s.unmount();
  });

  test('a test implements a module, checked against its spec; the app, holding the module already, sees it', async () => {
    assert.throws(() => app.implementNativeModule('AcmeStorage', { multiGett: async () => [] }), /declares no method 'multiGett'/);
    app.implementNativeModule('AcmeStorage', { multiGet: async (keys) => keys.map((k) => [k, `value of ${k}`]), isReady: () => true });
    const s = await app.render(React.createElement(app.require('./src/screens/StorageScreen').default));
    assert.ok(s.getByText('values [["a","value of a"],["b","value of b"]]'));
    assert.ok(s.getByText('ready'));
    await s.unmount();
  });

  test('a module nobody serves and no spec declares: an error naming it and how to give it', () => {
    assert.throws(() => app.require('./src/screens/StorageScreen').missingModule(), (error) => {
      assert.match(error.message, /bridged serves no native module 'AcmeMissing'/);
      assert.match(error.message, /nativeModules: \{ AcmeMissing/);
      assert.equal(error.code, 'unknown_native_module');
      return true;
    });
  });
});
