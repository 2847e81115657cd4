// Every native module openApp serves (modules/, one file each, and system.js's entries) against React Native's own
// spec for it in the app's react-native package (Libraries/**/Native*.js, iOS's where there is one per platform),
// or a library's own spec for a module a library declares (react-native-safe-area-context), read with the app's
// codegen (app/module-specs.js). A served method no spec declares fails, naming the module, the method and the spec
// file; what the specs declare and nothing serves is printed, to know. Over the shared React Native 0.72.6.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NATIVE_MODULES } from '../lib/react-native/modules/index.js';
import { NOT_IN_SPEC, checkServed, dependencySpecs, reactNativeSpecs } from '../lib/react-native/app/module-specs.js';
import { TEST_CACHE, appSkip, useTestApp } from '../test-support/react-native-app.js';

const format = ({ module, method, file }) =>
  `modules/ serves ${module}.${method}(), which its spec ${file} does not declare: a misspelling, or a method of ` +
  `another React Native version (remove it, or say why React Native needs it in NOT_IN_SPEC, app/module-specs.js)`;

describe('served native modules against their specs', { skip: appSkip }, () => {
  const context = useTestApp();
  let specs;
  let served;
  const load = () => {
    if (specs) return;
    const root = context.app.root;
    const rn = reactNativeSpecs(root, { cacheDir: TEST_CACHE });
    const dependencies = dependencySpecs(root, { cacheDir: TEST_CACHE });
    assert.ok(rn && dependencies, "the app's @react-native/codegen reads the specs");
    specs = { ...rn, ...dependencies };
    // Each module as the app's JavaScript gets it: made by its file for this app (its object before recording).
    const made = (name) => [name, context.app.nativeModule(name)._source];
    served = Object.fromEntries(Object.keys(NATIVE_MODULES).map(made));
  };

  test("React Native's own specs are read, iOS's where a module has one per platform", () => {
    load();
    assert.match(specs.UIManager.file, /Libraries\/ReactNative\/NativeUIManager\.js$/);
    assert.match(specs.StatusBarManager.file, /NativeStatusBarManagerIOS\.js$/);
    assert.match(specs.PlatformConstants.file, /NativePlatformConstantsIOS\.js$/);
    assert.match(specs.ImageLoader.file, /NativeImageLoaderIOS\.js$/);
    assert.equal(specs.ToastAndroid, undefined, "Android's own modules are left out");
    assert.match(specs.RNCSafeAreaContext.file, /react-native-safe-area-context\/.*\/NativeSafeAreaContext\.ts$/);
  });

  test('every method a served module has is declared by its spec', (t) => {
    load();
    const { unknown, stale, unserved, withoutSpec } = checkServed(served, specs);
    assert.deepEqual(unknown.map(format), []);
    assert.deepEqual(
      stale.map(({ module, method, why }) => `NOT_IN_SPEC's ${module}.${method} (app/module-specs.js): ${why}`),
      [],
    );
    // To know, not a failure: what React Native declares and nothing here serves (a call of one is "not a function").
    for (const { module, methods, file } of unserved) {
      t.diagnostic(`not served: ${module}.${methods.join(', ')} (${file.replace(/^.*node_modules\//, '')})`);
    }
    t.diagnostic(`no spec in the app's packages: ${withoutSpec.join(', ') || 'none'}`);
    const checked = Object.keys(served).filter((name) => !withoutSpec.includes(name));
    const of = `${checked.length} of ${Object.keys(served).length}`;
    assert.ok(checked.length >= 30, `most served modules have a spec (${of})`);
  });

  test('a misspelt method fails, naming the module, the method and the spec file', () => {
    load();
    const linking = { ...served.LinkingManager, opneURL: async () => {} };
    const { unknown } = checkServed({ ...served, LinkingManager: linking }, specs);
    assert.equal(unknown.length, 1);
    assert.match(format(unknown[0]), /serves LinkingManager\.opneURL\(\), which its spec .*NativeLinkingManager\.js/);
  });

  test('an exception that no longer applies fails, as does one the spec came to declare', () => {
    load();
    const exceptions = { ...NOT_IN_SPEC, Clipboard: { getString: 'declared', paste: 'not served' } };
    const { stale } = checkServed(served, specs, exceptions);
    assert.deepEqual(
      stale.map(({ module, method }) => `${module}.${method}`),
      ['Clipboard.getString', 'Clipboard.paste'],
    );
  });
});
