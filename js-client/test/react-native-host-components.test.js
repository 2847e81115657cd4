// HostComponents and NativeHost without an app (app/components.js, app/native-host.js): the test app's specs read
// with its codegen and defined in a real daemon, as openApp does before loading React Native; a module nobody
// serves named by TurboModuleRegistry.getEnforcing. Over the shared React Native 0.72.6's packages.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NativeSide } from '../lib/react-native/native-side.js';
import { HostComponents } from '../lib/react-native/app/components.js';
import { buildSchema } from '../lib/react-native/app/codegen.js';
import { NativeHost } from '../lib/react-native/app/native-host.js';
import { GENERIC_BUBBLING, viewManagerConfig } from '../lib/react-native/modules/ui-manager.js';
import { startDaemonWithBridge, stopDaemonWithBridge } from '../test-support/daemon.js';
import { TEST_CACHE, appSkip, makeApp } from '../test-support/react-native-app.js';

describe("the app's specs in the daemon", { skip: appSkip }, () => {
  let ctx = {};
  let layout;
  before(async () => {
    ctx = await startDaemonWithBridge();
    layout = makeApp(undefined, { packages: ['acme-storage'] });
  });
  after(async () => {
    await stopDaemonWithBridge(ctx);
    layout?.remove();
  });

  test("its dependencies' components are defined for the session, their modules handed on", async () => {
    const native = new NativeSide(ctx.bridge);
    const components = new HostComponents(ctx.bridge, native);
    const before = Object.keys(native.components);
    assert.equal(native.components.RNCSafeAreaProvider, undefined, 'not a built-in');
    const modules = {};
    const { specPackages, specsSkipped } = await components.describe(layout.root, {
      cache: TEST_CACHE,
      addModuleSpecs: (specs) => Object.assign(modules, specs),
    });
    assert.equal(specsSkipped, undefined);
    assert.deepEqual(
      specPackages.map((p) => p.name),
      ['acme-storage', 'react-native-safe-area-context', 'react-native-screens', 'react-native-svg'],
    );
    assert.ok(components.canDefine);
    for (const name of ['RNCSafeAreaProvider', 'RNSScreen', 'RNSVGPath']) {
      assert.ok(native.components[name], `${name} is described to the NativeSide`);
    }
    assert.ok(Object.keys(native.components).length > before.length);
    // The daemon serves them now: a view of one can be created in this session.
    await ctx.bridge.request({ op: 'create', tag: 1, component: 'RNCSafeAreaProvider' });
    assert.equal((await ctx.bridge.request({ op: 'inspect', tag: 1 })).component, 'RNCSafeAreaProvider');
    assert.ok(modules.RNCSafeAreaContext, "a library's TurboModule spec is handed on, to be served from");
    assert.ok(modules.AcmeStorage, "the app's own package's spec (acme-storage) too");
  });

  test('creating a component the daemon does not serve fails, naming it; an untyped one is defined', async () => {
    const native = new NativeSide(ctx.bridge);
    native.addComponents({ LegacyThing: { props: {}, events: {}, commands: {}, untyped: true } });
    const components = new HostComponents(ctx.bridge, native);
    assert.throws(() => components.beforeCreate('NoSuchView'), { code: 'unknown_component', component: 'NoSuchView' });
    components.beforeCreate('LegacyThing');
    components.beforeCreate('LegacyThing');
    assert.deepEqual(components.untyped(), ['LegacyThing']);
    // The define went out before anything that follows it.
    await ctx.bridge.request({ op: 'create', tag: 2, component: 'LegacyThing', props: { anything: 1 } });
    assert.equal((await ctx.bridge.request({ op: 'inspect', tag: 2 })).component, 'LegacyThing');
    assert.deepEqual(components.unknown(), ['LegacyThing', 'NoSuchView']);
  });

  // rnmapbox/maps' RNMBXMapViewNativeComponent.ts (a spec written for the new architecture) declares `onPress:
  // DirectEventHandler`; every iOS view bubbles topPress (RCTViewManager's customBubblingEventTypes, in each view
  // config), so React Native's renderer refused the view config at the first MapView ("Event cannot be both direct
  // and bubbling: topPress"). The library's own iOS code declares it RCTBubblingEventBlock: so is it served.
  test("a spec's direct event named as one every view bubbles (onPress) is served bubbling", async () => {
    const layout = makeApp();
    try {
      const file = path.join(layout.root, 'AcmeMapNativeComponent.js');
      writeFileSync(
        file,
        "// @flow\nimport type {ViewProps} from 'react-native/Libraries/Components/View/ViewPropTypes';\n" +
          "import type {HostComponent} from 'react-native/Libraries/Renderer/shims/ReactNativeTypes';\n" +
          "import codegenNativeComponent from 'react-native/Libraries/Utilities/codegenNativeComponent';\n" +
          "import type {DirectEventHandler} from 'react-native/Libraries/Types/CodegenTypes';\n" +
          'type PressEvent = $ReadOnly<{|type: string, payload: string|}>;\n' +
          'type NativeProps = $ReadOnly<{|...ViewProps, onPress?: DirectEventHandler<PressEvent>, ' +
          'onMapChange?: DirectEventHandler<PressEvent>|}>;\n' +
          "export default (codegenNativeComponent<NativeProps>('AcmeMap'): HostComponent<NativeProps>);\n",
      );
      const schema = buildSchema(layout.root, [file]);
      const { components } = await ctx.bridge.request({ op: 'define', schema: { modules: schema.modules } });
      const config = viewManagerConfig('AcmeMap', components.AcmeMap, ctx.bridge.propTypes);
      assert.deepEqual(config.bubblingEventTypes, {
        topPress: { phasedRegistrationNames: { bubbled: 'onPress', captured: 'onPressCapture' } },
      });
      assert.deepEqual(config.directEventTypes, { topMapChange: { registrationName: 'onMapChange' } });
      assert.equal(config.NativeProps.onPress, 'RCTBubblingEventBlock');
      assert.equal(config.NativeProps.onMapChange, 'RCTDirectEventBlock');
      const both = Object.keys(config.directEventTypes).filter((top) => GENERIC_BUBBLING.includes(top));
      assert.deepEqual(both, [], 'no direct event is one every view bubbles');
    } finally {
      layout.remove();
    }
  });
});

test('getEnforcing names a module nobody serves and how to serve it; a served one is React Native’s', () => {
  const host = new NativeHost({});
  host.modules.provide('Served', { ping: () => 'pong' });
  const asked = [];
  const registry = { getEnforcing: (name) => asked.push(name) && { name } };
  host.explainMissingModules(registry);
  assert.deepEqual(registry.getEnforcing('Served'), { name: 'Served' });
  assert.throws(
    () => registry.getEnforcing('RNNobody'),
    (error) =>
      error.code === 'unknown_native_module' &&
      error.module === 'RNNobody' &&
      /openApp\(bridge, \{ nativeModules: \{ RNNobody/.test(error.message),
  );
  assert.deepEqual(asked, ['Served']);
  host.explainMissingModules(undefined);
});

// react-native-picker/picker's spec (written for React Native 0.76) declares an event field `UnsafeMixed`, which
// 0.72's codegen cannot read: that file is left out, named, and the others are read all the same, where the whole
// schema (and every test file of such an app) failed before ("Unable to determine event type for "newValue"").
test("a spec file the app's codegen cannot read is left out and named; the others are read", { skip: appSkip }, () => {
  const layout = makeApp();
  try {
    const dir = path.join(layout.root, 'specs');
    mkdirSync(dir);
    const head =
      "import type {ViewProps} from 'react-native/Libraries/Components/View/ViewPropTypes';\n" +
      "import type {HostComponent} from 'react-native/Libraries/Renderer/shims/ReactNativeTypes';\n" +
      "import codegenNativeComponent from 'react-native/Libraries/Utilities/codegenNativeComponent';\n";
    const good = path.join(dir, 'AcmeDialNativeComponent.js');
    writeFileSync(
      good,
      `// @flow\n${head}import type {Int32} from 'react-native/Libraries/Types/CodegenTypes';\n` +
        'type NativeProps = $ReadOnly<{|...ViewProps, turns?: Int32|}>;\n' +
        "export default (codegenNativeComponent<NativeProps>('AcmeDial'): HostComponent<NativeProps>);\n",
    );
    const later = path.join(dir, 'AcmePickerNativeComponent.js');
    writeFileSync(
      later,
      `// @flow\n${head}` +
        "import type {BubblingEventHandler, UnsafeMixed} from 'react-native/Libraries/Types/CodegenTypes';\n" +
        'type ChangeEvent = $ReadOnly<{|newValue: UnsafeMixed|}>;\n' +
        'type NativeProps = $ReadOnly<{|...ViewProps, onChange: BubblingEventHandler<ChangeEvent>|}>;\n' +
        "export default (codegenNativeComponent<NativeProps>('AcmePicker'): HostComponent<NativeProps>);\n",
    );
    const schema = buildSchema(layout.root, [good, later]);
    assert.deepEqual(Object.keys(schema.modules), ['AcmeDial'], 'the readable spec is read, the other left out');
    assert.ok(schema.modules.AcmeDial.components.AcmeDial);
    assert.deepEqual(
      schema.unread.map((u) => u.file),
      [later],
    );
    assert.match(schema.unread[0].message, /UnsafeMixed/);
  } finally {
    layout.remove();
  }
});
