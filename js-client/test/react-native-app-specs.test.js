// What an app's dependencies declare of their native side, read from their own specs with the app's
// @react-native/codegen: a TurboModule from its spec (empty answers, recorded, implemented by a test, its events),
// a module nobody declares (the error), and the components of react-native-screens, -safe-area-context and -svg
// added to the session (`define`), or a component asked for by name with no spec, served untyped.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { appSkip, useTestApp } from '../test-support/react-native-app.js';

describe("openApp: native modules from the dependencies' specs", { skip: appSkip }, () => {
  let app;
  let React;
  let log;
  useTestApp({ packages: ['acme-storage'] }, (context) => ({ app, React, log } = context));

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

  test('AsyncStorage’s native module keeps what the app stores, in memory, with its callback API', async () => {
    const { NativeModules } = app.require('react-native');
    const storage = NativeModules.RNCAsyncStorage;
    const call = (method, ...args) => new Promise((resolve) => storage[method](...args, (...results) => resolve(results)));
    assert.deepEqual(await call('multiSet', [['user', '{"name":"ana"}'], ['theme', 'dark']]), [null]);
    assert.deepEqual(await call('multiMerge', [['user', '{"age":3}']]), [null]);
    assert.deepEqual(await call('multiGet', ['user', 'theme', 'missing']), [null, [['user', '{"name":"ana","age":3}'], ['theme', 'dark'], ['missing', null]]]);
    assert.deepEqual(await call('multiRemove', ['theme']), [null]);
    assert.deepEqual(await call('getAllKeys'), [null, ['user']]);
    assert.deepEqual(app.nativeCalls('RNCAsyncStorage').map((c) => c.method), ['multiSet', 'multiMerge', 'multiGet', 'multiRemove', 'getAllKeys']);
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

for (const architecture of ['paper', 'fabric'])
describe(`openApp: third-party components from their specs, and navigation (${architecture})`, { skip: appSkip }, () => {
  let bridge;
  let app;
  let React;
  let log;
  useTestApp({ window: { insets: { top: 59 } }, architecture }, (context) => ({ bridge, app, React, log } = context));
  const inspect = (handle) => bridge.request({ op: 'inspect', tag: handle.tag });

  test("the session serves react-native-screens', -safe-area-context's and -svg's components, typed from their specs", async () => {
    const { components } = await bridge.request({ op: 'components' });
    for (const name of ['RNSScreen', 'RNSScreenStack', 'RNCSafeAreaProvider', 'RNCSafeAreaView', 'RNSVGPath', 'RNSVGSvgView']) {
      assert.ok(components[name], `${name} is defined for the session`);
      assert.notEqual(components[name].untyped, true);
    }
    const hello = bridge.components;
    assert.equal(hello.RNSScreen, undefined, "hello's built-ins do not change");
  });

  test('a safe-area view gets the window’s insets; an SVG drawing’s props are typed, a wrong one refused with its path', async () => {
    const s = await app.render(React.createElement(app.require('./src/screens/ThirdPartyScreen').default));
    assert.ok(s.getByText('insets 59 34'), 'useSafeAreaInsets renders once the provider told its insets');
    assert.equal(s.getByTestId('safe').component, 'RNCSafeAreaView');
    const path = s.getByTestId('path');
    assert.equal(path.component, 'RNSVGPath');
    assert.equal((await inspect(path)).props.d, 'M10 10 L90 90');
    await assert.rejects(bridge.request({ op: 'update', tag: path.tag, props: { d: { not: 'a string' } } }), (error) => {
      assert.equal(error.code, 'invalid_props');
      assert.equal(error.details[0].path, 'd');
      return true;
    });
    assert.deepEqual(app.unknownProps(), {});
    await s.unmount();
  });

  test('a native stack mounts its first screen; navigate mounts the next in the daemon; the back gesture pops it', async () => {
    const s = await app.render(React.createElement(app.require('./src/screens/NavigationApp').default));
    assert.ok(s.getByText('Home screen'));
    assert.equal(s.queryByText(/Details of/), null);
    await app.press(s.getByText('Go to details'));
    assert.ok(s.getByText('Details of 7'));
    // The covered screen stays mounted, hidden from accessibility (React Navigation's accessibilityElementsHidden):
    // left out of queries unless asked for, as in React Native Testing Library 12.
    assert.equal(s.queryByText('Home screen'), null);
    assert.ok(s.getByText('Home screen', { includeHiddenElements: true }));
    app.defaultIncludeHiddenElements = true;
    assert.ok(s.getByText('Home screen'), "the app's default, read at each query");
    app.defaultIncludeHiddenElements = false;
    assert.equal(s.toJSON().children.length, 1);
    const stacks = [];
    const visit = (node) => {
      if (node.component === 'RNSScreenStack') stacks.push(node);
      node.children.forEach(visit);
    };
    visit(s.toJSON());
    assert.equal(stacks[0].children.filter((c) => c.component === 'RNSScreen').length, 2);
    assert.deepEqual(log.take(), ['routes Home,Details']);

    await app.goBack();
    assert.deepEqual(log.take(), ['routes Home']);
    assert.equal(s.queryByText(/Details of/), null);
    assert.ok(s.getByText('Home screen'));
    await assert.rejects(app.goBack(), /no native stack/);

    // The user leaves a screen only as it lets them: the swipe needs gestureEnabled, the back button a shown header.
    await app.press(s.getByText('Go to details'));
    await app.press(s.getByText('Lock'));
    assert.deepEqual(log.take(), ['routes Home,Details', 'routes Home,Details,Locked']);
    await assert.rejects(app.goBack({ via: 'gesture' }), /cannot leave the top screen \("Locked"\): its gestureEnabled is false$/);
    assert.deepEqual(log.take(), [], 'nothing was dismissed');
    await app.goBack({ via: 'button' });
    assert.deepEqual(log.take(), ['routes Home,Details']);
    // A full-screen modal is neither swiped down nor has a back button.
    await app.press(s.getByText('Full screen'));
    assert.deepEqual(log.take(), ['routes Home,Details,Full']);
    await assert.rejects(app.goBack(), /\("Full"\): a fullScreenModal is not swiped away and a fullScreenModal has no back button$/);
    assert.deepEqual(log.take(), []);
    await app.press(s.getByText('Close'));
    assert.deepEqual(log.take(), ['routes Home,Details']);
    await app.press(s.getByText('Lock'));
    await app.press(s.getByText('Finish'));
    assert.deepEqual(log.take(), ['routes Home,Details,Locked', 'routes Home,Details,Locked,Final']);
    await assert.rejects(app.goBack(), /cannot leave the top screen \("Final"\): its gestureEnabled is false and its header shows no back button$/);
    assert.deepEqual(log.take(), [], 'nothing was dismissed');
    assert.ok(s.getByText('The end'));
    await s.unmount();
  });
});

