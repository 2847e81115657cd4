// An Expo app's own screens over Expo SDK 49's own packages (the shared test data ../shared/expo-49/node_modules,
// beside React Native 0.72.6's): its native modules are the ones its installed packages declare in their ios/
// sources, served with their arities and constants, and behaving where a headless phone has the behaviour: an
// icon font loads from its .ttf (so an icon-only button shows its glyph and is pressed), files are real files in
// the app's sandbox, expo-constants answers from app.json. A module no package declares is absent, named. Each on
// paper and on Fabric.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SHARED_NODE_MODULES, TEST_CACHE, appSkip } from '../test-support/react-native-app.js';
import { startDaemon } from '../test-support/daemon.js';
import { connect } from '../index.js';
import { openApp } from '../lib/react-native.js';
import { parseObjectiveC, parseSwift } from '../lib/react-native/modules/expo/declarations.js';
import { readAppConfig } from '../lib/react-native/modules/expo/constants.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
/** Expo SDK 49's packages from the shared test data, or $BRIDGED_EXPO_NODE_MODULES. */
const EXPO_NODE_MODULES = path.resolve(
  process.env.BRIDGED_EXPO_NODE_MODULES ?? path.join(REPOSITORY, '..', 'shared', 'expo-49', 'node_modules'),
);
const expoSkip =
  appSkip ||
  (existsSync(path.join(EXPO_NODE_MODULES, 'expo-modules-core', 'package.json')) &&
  existsSync(path.join(EXPO_NODE_MODULES, '@expo', 'vector-icons'))
    ? false
    : `no Expo packages at ${EXPO_NODE_MODULES} (the shared test data ../shared/expo-49/, or $BRIDGED_EXPO_NODE_MODULES)`);
const ICONS = path.join(EXPO_NODE_MODULES, '@expo', 'vector-icons', 'build', 'vendor', 'react-native-vector-icons');
/** An icon family's glyph map (name → code point). */
const glyphs = (family) => JSON.parse(readFileSync(path.join(ICONS, 'glyphmaps', `${family}.json`), 'utf8'));

/** The app's own files. */
const FILES = {
  'package.json': JSON.stringify({
    name: 'expo-shop',
    version: '1.0.0',
    main: 'node_modules/expo/AppEntry.js',
    dependencies: {
      expo: '~49.0.18',
      'expo-constants': '~14.4.2',
      'expo-file-system': '~15.4.5',
      'expo-font': '~11.4.0',
      'expo-keep-awake': '~12.3.0',
      'expo-linear-gradient': '~12.3.0',
      '@expo/vector-icons': '^13.0.0',
      react: '18.2.0',
      'react-native': '0.72.6',
    },
  }),
  'app.json': JSON.stringify({
    expo: {
      name: 'Expo Shop',
      slug: 'expo-shop',
      version: '2.3.0',
      ios: { bundleIdentifier: 'com.example.shop', buildNumber: '7' },
      extra: { apiUrl: 'https://shop.example' },
    },
  }),
  'babel.config.js': "module.exports = function (api) {\n  api.cache(true);\n  return { presets: ['babel-preset-expo'] };\n};\n",
  'src/ShopScreen.js': `
import React, {useState} from 'react';
import {Pressable, Text, View} from 'react-native';
import {Ionicons} from '@expo/vector-icons';
import Constants from 'expo-constants';

export default function ShopScreen() {
  const [cart, setCart] = useState(false);
  return (
    <View>
      <Text>{Constants.expoConfig.name} {Constants.expoConfig.version}</Text>
      <Pressable accessibilityLabel="cart" accessibilityRole="button" onPress={() => setCart(true)}>
        <Ionicons name="cart" size={24} color="black" />
      </Pressable>
      {cart ? <Text>Your cart is empty</Text> : null}
    </View>
  );
}
`,
  // Written for react-native-vector-icons: babel-preset-expo rewrites the import to @expo/vector-icons, when it
  // finds that package from where it is installed (the app's node_modules, hence a copy of the preset there).
  'src/LegacyIcon.js': `
import React from 'react';
import Icon from 'react-native-vector-icons/MaterialIcons';
export default function LegacyIcon() {
  return <Icon name="home" size={20} testID="home-icon" />;
}
`,
  'src/FontsScreen.js': `
import React from 'react';
import {Text} from 'react-native';
import {useFonts} from 'expo-font';

export default function FontsScreen() {
  const [loaded, error] = useFonts({Brand: require('../assets/Brand.ttf')});
  if (error) return <Text>font error {error.code}</Text>;
  return <Text style={loaded ? {fontFamily: 'Brand'} : null}>{loaded ? 'Brand font ready' : 'loading fonts'}</Text>;
}
`,
  'src/NotesScreen.js': `
import React, {useState} from 'react';
import {Pressable, Text, TextInput, View} from 'react-native';
import * as FileSystem from 'expo-file-system';

const NOTE = FileSystem.documentDirectory + 'notes/today.txt';

export default function NotesScreen() {
  const [text, setText] = useState('');
  const [status, setStatus] = useState('nothing saved');
  const save = async () => {
    await FileSystem.makeDirectoryAsync(FileSystem.documentDirectory + 'notes', {intermediates: true});
    await FileSystem.writeAsStringAsync(NOTE, text);
    const info = await FileSystem.getInfoAsync(NOTE);
    setStatus('saved ' + info.size + ' bytes');
  };
  const load = async () => setStatus('loaded: ' + (await FileSystem.readAsStringAsync(NOTE)));
  return (
    <View>
      <TextInput placeholder="Note" value={text} onChangeText={setText} />
      <Pressable onPress={() => save().catch((e) => setStatus('failed ' + e.message))}><Text>Save</Text></Pressable>
      <Pressable onPress={() => load().catch((e) => setStatus('failed ' + e.message))}><Text>Load</Text></Pressable>
      <Text>{status}</Text>
    </View>
  );
}
`,
  'src/GradientScreen.js': `
import React from 'react';
import {LinearGradient} from 'expo-linear-gradient';
export default function GradientScreen() {
  return <LinearGradient testID="gradient" colors={['red', 'blue']} style={{height: 40}} />;
}
`,
};

/**
 * The app laid out in a temporary folder: its files, and a node_modules of React Native's packages as links and
 * Expo's as copies (12 MB), a scope present in both merged. Expo's packages require `react-native`, which a link's
 * real path (the Expo folder) does not reach: a copy finds it in the app's node_modules, as an installed app's
 * packages find each other. babel-preset-expo is copied too: it probes for @expo/vector-icons from where it is.
 */
function layOut() {
  const root = mkdtempSync(path.join(tmpdir(), 'bridged-expo-app-'));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  mkdirSync(path.join(root, 'assets'));
  cpSync(path.join(ICONS, 'Fonts', 'Ionicons.ttf'), path.join(root, 'assets', 'Brand.ttf'));
  writeFileSync(path.join(root, 'assets', 'NotAFont.ttf'), 'this is not a font\n');
  const modules = path.join(root, 'node_modules');
  mkdirSync(modules);
  for (const folder of [SHARED_NODE_MODULES, EXPO_NODE_MODULES]) {
    for (const entry of readdirSync(folder)) {
      if (entry.startsWith('.')) continue;
      const place = (from, to) => {
        if (existsSync(to)) return;
        const copied = folder === EXPO_NODE_MODULES || path.basename(from) === 'babel-preset-expo';
        if (copied) cpSync(from, to, { recursive: true, dereference: true });
        else symlinkSync(from, to);
      };
      if (entry.startsWith('@')) {
        mkdirSync(path.join(modules, entry), { recursive: true });
        for (const inner of readdirSync(path.join(folder, entry))) {
          place(path.join(folder, entry, inner), path.join(modules, entry, inner));
        }
      } else {
        place(path.join(folder, entry), path.join(modules, entry));
      }
    }
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

describe('Expo native sources: what the reader takes from a ModuleDefinition and EX_EXPORT_METHOD_AS', () => {
  test('Swift: Name, Function and AsyncFunction arities (a Promise not counted, optionals not required), Constants, Events, View props', () => {
    const [module] = parseSwift(`
      import ExpoModulesCore
      // class Commented: Module { func definition() -> ModuleDefinition { Name("Nope") } }
      public class ShopModule: Module {
        public func definition() -> ModuleDefinition {
          Name("ExpoShop")
          Constants(["currency": "EUR", "rate": 2, "computed": Locale.current.identifier])
          Events("onSale", "onRestock")
          Function("total") { (items: [Int], discount: Double?) -> Double in items.reduce(0, +) }
          AsyncFunction("checkout") { (cartId: String, options: [String: Any], promise: Promise) in
            promise.resolve(nil)
          }.runOnQueue(.main)
          AsyncFunction("ping") { () -> String in "pong" }
          View(ShopView.self) {
            Prop("title") { (view: ShopView, title: String) in view.title = title }
            Prop("items") { (view: ShopView, items: [String]) in }
            AsyncFunction("scrollTo") { (view: ShopView, index: Int) in }
          }
        }
      }`);
    assert.equal(module.name, 'ExpoShop');
    assert.deepEqual(module.constants, { currency: 'EUR', rate: 2, computed: null });
    assert.deepEqual(module.events, ['onSale', 'onRestock']);
    assert.deepEqual(
      module.functions.map((f) => [f.name, f.async, f.argumentsCount, f.requiredArgumentsCount]),
      [['total', false, 2, 1], ['checkout', true, 2, 2], ['ping', true, 0, 0]],
    );
    assert.deepEqual(module.view, { propsNames: ['title', 'items'] });
  });

  test("SDK 45's lower-case DSL (function async unless runSynchronously), a Property, a function given by reference", () => {
    const [old, current] = parseSwift(`
      public class OldModule: Module {
        public func definition() -> ModuleDefinition {
          name("ExpoOld")
          constants { ["a": 1] }
          function("slow") { (x: Int) -> Int in x }
          function("fast") { (x: Int) throws -> Int in x }.runSynchronously()
          viewManager { view { OldView() }; prop("tint") { (v: OldView, c: UIColor) in } }
        }
      }
      public final class NewModule: Module {
        public func definition() -> ModuleDefinition {
          Name("ExpoNew")
          Property("version") { 3 }
          AsyncFunction("byReference", byReference)
          AsyncFunction("throwing") { [weak self] (a: String) async throws in }
          Function("untyped") { a, b in a }
        }
      }`);
    assert.equal(old.name, 'ExpoOld');
    assert.deepEqual(old.constants, { a: 1 });
    assert.deepEqual(
      old.functions.map((f) => [f.name, f.async, f.argumentsCount]),
      [['slow', true, 1], ['fast', false, 1]],
    );
    assert.deepEqual(old.view, { propsNames: ['tint'] });
    assert.deepEqual(current.constants, { version: null });
    assert.deepEqual(
      current.functions.map((f) => [f.name, f.async, f.argumentsCount, f.arityUnknown === true]),
      [['byReference', true, 0, true], ['throwing', true, 1, false], ['untyped', false, 2, false]],
    );
  });

  test("expo-constants' manifest: app.config.js called with app.json's expo config, else app.json's expo", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'bridged-expo-config-'));
    try {
      writeFileSync(path.join(root, 'app.json'), JSON.stringify({ expo: { name: 'From JSON', version: '1.2.0' } }));
      assert.deepEqual(readAppConfig(root), { name: 'From JSON', version: '1.2.0' });
      writeFileSync(path.join(root, 'app.config.js'), 'module.exports = ({ config }) => ({ ...config, extra: { env: "test" } });\n');
      assert.deepEqual(readAppConfig(root), { name: 'From JSON', version: '1.2.0', extra: { env: 'test' } });
      writeFileSync(path.join(root, 'app.config.js'), 'module.exports = { expo: { name: "Object" } };\n');
      assert.deepEqual(readAppConfig(root), { name: 'Object' });
      writeFileSync(path.join(root, 'app.config.js'), 'module.exports = (;\n');
      assert.throws(() => readAppConfig(root), /cannot load .*app\.config\.js \(the app's Expo config, for expo-constants\)/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('Objective-C: EX_EXPORT_MODULE or an exportedModuleName, each method less its resolver and rejecter, constants, events', () => {
    const [fonts] = parseObjectiveC(`
      @implementation EXFontLoader
      EX_EXPORT_MODULE(ExpoFontLoader);
      EX_EXPORT_METHOD_AS(loadAsync,
                          loadAsyncWithFontFamilyName:(NSString *)fontFamilyName
                          withLocalUri:(NSString *)path
                          resolver:(EXPromiseResolveBlock)resolve
                          rejecter:(EXPromiseRejectBlock)reject)
      { resolve(nil); }
      @end`);
    assert.equal(fonts.name, 'ExpoFontLoader');
    assert.deepEqual(fonts.functions.map((f) => [f.name, f.argumentsCount]), [['loadAsync', 2]]);
    const [files] = parseObjectiveC(`
      static NSString * const EXDownloadProgress = @"files.downloadProgress";
      @implementation EXFiles
      EX_REGISTER_MODULE();
      + (const NSString *)exportedModuleName { return @"ExponentFiles"; }
      - (NSDictionary *)constantsToExport { return @{ @"root": _root, @"version": @3, @"ready": @(YES) }; }
      - (NSArray<NSString *> *)supportedEvents { return @[EXDownloadProgress, @"files.other"]; }
      EX_EXPORT_METHOD_AS(freeAsync, freeAsyncWithResolver:(EXPromiseResolveBlock)resolve rejecter:(EXPromiseRejectBlock)reject) {}
      @end
      @implementation EXInternalService
      EX_REGISTER_MODULE();
      @end`);
    assert.equal(files.name, 'ExponentFiles');
    assert.deepEqual(files.constants, { root: null, version: 3, ready: true });
    assert.deepEqual(files.events, ['files.downloadProgress', 'files.other']);
    assert.deepEqual(files.functions.map((f) => [f.name, f.argumentsCount]), [['freeAsync', 0]]);
  });
});

const layout = expoSkip ? null : layOut();
after(() => layout?.remove());

for (const architecture of ['paper', 'fabric'])
describe(`openApp: an Expo app's native modules as its device has them, from Expo 49's packages (${architecture})`, { skip: expoSkip }, () => {
  let daemon;
  let bridge;
  let app;
  let React;
  const h = (...args) => React.createElement(...args);
  const screen = (name) => app.require(`./src/${name}`).default;
  const inspect = (handle) => bridge.request({ op: 'inspect', tag: handle.tag });

  before(async () => {
    daemon = await startDaemon();
    bridge = await connect({ socket: daemon.socket });
    app = await openApp(bridge, { root: layout.root, cache: TEST_CACHE, architecture });
    React = app.require('react');
  });
  after(async () => {
    await app?.close();
    await bridge?.close();
    await daemon?.stop();
  });

  test('an icon-only @expo/vector-icons button: its font loads from its .ttf, the icon shows its glyph, a press reaches it', async () => {
    assert.equal(app.isExpo, true);
    const s = await app.render(h(screen('ShopScreen')));
    const glyph = String.fromCodePoint(glyphs('Ionicons').cart);
    const icon = await s.findByText(glyph);
    assert.equal((await inspect(icon)).props.fontFamily, 'ionicons');
    assert.equal(app.require('expo-font').isLoaded('ionicons'), true, 'the family is known to expo-font');
    const loads = app.nativeCalls('ExpoFontLoader');
    assert.equal(loads.length, 1);
    assert.equal(loads[0].method, 'loadAsync');
    const icons = path.join(layout.root, 'node_modules', path.relative(EXPO_NODE_MODULES, ICONS));
    const font = realpathSync(path.join(icons, 'Fonts', 'Ionicons.ttf'));
    assert.deepEqual(loads[0].args, ['ionicons', pathToFileURL(font).href], "the font's own file in the app");
    // The daemon measures the glyph in the loaded font (layout's `fonts`), not in Inter.
    const inspected = await inspect(icon);
    if (app._layoutState?.enabled) {
      assert.equal(inspected.layout.height, inspected.props.fontSize, 'a line of Ionicons is one em high (of Inter, 1.21 em)');
    }
    await app.press(s.getByLabelText('cart'));
    assert.ok(s.getByText('Your cart is empty'));
    assert.ok(s.getByText('Expo Shop 2.3.0'), "expo-constants' expoConfig is the app's app.json");
    await s.unmount();
  });

  test("an import of react-native-vector-icons, rewritten by the app's babel-preset-expo, renders its glyph", async () => {
    const s = await app.render(h(screen('LegacyIcon')));
    const glyph = String.fromCodePoint(glyphs('MaterialIcons').home);
    const icon = await s.findByText(glyph);
    assert.equal(icon.tag, s.getByTestId('home-icon').tag);
    await s.unmount();
  });

  test("useFonts resolves from the app's font file; a file that is no font rejects as EXFontLoader does", async () => {
    const s = await app.render(h(screen('FontsScreen')));
    const ready = await s.findByText('Brand font ready');
    assert.equal((await inspect(ready)).props.fontFamily, 'Brand');
    await s.unmount();
    const Font = app.require('expo-font');
    await assert.rejects(Font.loadAsync({ Broken: app.require('./assets/NotAFont.ttf') }), (error) => {
      assert.equal(error.code, 'E_FONT_CREATION_FAILED');
      assert.match(error.message, /'Broken'/);
      return true;
    });
    assert.equal(Font.isLoaded('Broken'), false);
  });

  test("expo-asset resolves a local asset to its file's URI, and expo-file-system reads it there", async () => {
    const { Asset } = app.require('expo-asset');
    const asset = await Asset.fromModule(app.require('./assets/Brand.ttf')).downloadAsync();
    assert.equal(asset.downloaded, true);
    assert.equal(asset.localUri, pathToFileURL(path.join(realpathSync(layout.root), 'assets', 'Brand.ttf')).href);
    const info = await app.require('expo-file-system').getInfoAsync(asset.localUri);
    assert.equal(info.exists, true);
    assert.equal(info.size, readFileSync(path.join(layout.root, 'assets', 'Brand.ttf')).length);
  });

  test("expo-file-system works on real files in the app's sandbox: a note typed, saved, loaded; copy, move, list, delete", async () => {
    const FileSystem = app.require('expo-file-system');
    assert.match(FileSystem.documentDirectory, /^file:\/\/\/.+\/Documents\/$/);
    assert.match(FileSystem.cacheDirectory, /^file:\/\/\/.+\/Library\/Caches\/$/);
    const documents = fileURLToPath(FileSystem.documentDirectory);
    assert.ok(!documents.startsWith(layout.root), 'the sandbox is not the app’s folder');

    const s = await app.render(h(screen('NotesScreen')));
    await app.type(s.getByPlaceholderText('Note'), 'buy milk');
    await app.press(s.getByText('Save'));
    assert.ok(await s.findByText('saved 8 bytes'));
    assert.equal(readFileSync(path.join(documents, 'notes', 'today.txt'), 'utf8'), 'buy milk', 'a real file');
    await app.press(s.getByText('Load'));
    assert.ok(await s.findByText('loaded: buy milk'));
    await s.unmount();

    const note = `${FileSystem.documentDirectory}notes/today.txt`;
    const copy = `${FileSystem.cacheDirectory}copy.txt`;
    await FileSystem.copyAsync({ from: note, to: copy });
    await FileSystem.moveAsync({ from: copy, to: `${FileSystem.documentDirectory}notes/moved.txt` });
    const listed = await FileSystem.readDirectoryAsync(`${FileSystem.documentDirectory}notes`);
    assert.deepEqual(listed.sort(), ['moved.txt', 'today.txt']);
    assert.equal((await FileSystem.getInfoAsync(copy)).exists, false);
    const info = await FileSystem.getInfoAsync(note, { md5: true });
    assert.equal(info.exists, true);
    assert.equal(info.isDirectory, false);
    assert.equal(info.md5, createHash('md5').update('buy milk').digest('hex'));
    const base64 = await FileSystem.readAsStringAsync(note, { encoding: 'base64' });
    assert.equal(base64, Buffer.from('buy milk').toString('base64'));
    await FileSystem.deleteAsync(`${FileSystem.documentDirectory}notes`);
    assert.equal(existsSync(path.join(documents, 'notes')), false);
    await assert.rejects(FileSystem.deleteAsync(note), { code: 'ERR_FILESYSTEM_CANNOT_FIND_FILE' });
    await FileSystem.deleteAsync(note, { idempotent: true });
    await assert.rejects(FileSystem.writeAsStringAsync(pathToFileURL(path.join(layout.root, 'x.txt')).href, 'no'), {
      code: 'ERR_FILESYSTEM_NO_PERMISSIONS',
    });
    const download = FileSystem.downloadAsync('https://example.com/a.txt', `${FileSystem.cacheDirectory}a.txt`);
    await assert.rejects(download, /no network/);
    const methods = app.nativeCalls('ExponentFileSystem').map((c) => c.method);
    const used = ['makeDirectoryAsync', 'writeAsStringAsync', 'getInfoAsync', 'readAsStringAsync', 'copyAsync', 'moveAsync'];
    for (const method of [...used, 'readDirectoryAsync', 'deleteAsync']) {
      assert.ok(methods.includes(method), `${method} was recorded`);
    }
  });

  test("expo-constants answers from the app's app.json", () => {
    const Constants = app.require('expo-constants').default;
    assert.equal(Constants.expoConfig.name, 'Expo Shop');
    assert.equal(Constants.expoConfig.extra.apiUrl, 'https://shop.example');
    assert.equal(Constants.expoConfig.ios.bundleIdentifier, 'com.example.shop');
    assert.equal(Constants.executionEnvironment, 'bare');
    assert.equal(Constants.appOwnership, null);
    assert.equal(Constants.nativeAppVersion, '2.3.0');
    assert.equal(Constants.nativeBuildVersion, '7');
  });

  test("the modules are the packages' declared ones, with arities and constants as expo-modules-core reads them", async () => {
    const { NativeModules } = app.require('react-native');
    const { exportedMethods, modulesConstants, viewManagersMetadata } = NativeModules.NativeUnimoduleProxy;
    assert.deepEqual(Object.keys(exportedMethods).sort(), [
      'ExpoApplication', 'ExpoFontLoader', 'ExpoKeepAwake', 'ExpoLinearGradient', 'ExponentConstants', 'ExponentFileSystem',
    ]);
    assert.deepEqual(exportedMethods.ExpoFontLoader, [{ name: 'loadAsync', argumentsCount: 2, key: 0 }]);
    assert.deepEqual(
      exportedMethods.ExponentFileSystem.find((m) => m.name === 'writeAsStringAsync'),
      { name: 'writeAsStringAsync', argumentsCount: 3, key: 2 },
    );
    assert.deepEqual(
      exportedMethods.ExpoKeepAwake.map((m) => [m.name, m.argumentsCount, m.key]),
      [['activate', 1, 'activate'], ['deactivate', 1, 'deactivate'], ['isActivated', 0, 'isActivated']],
    );
    assert.deepEqual(viewManagersMetadata, {
      ExpoLinearGradient: { propsNames: ['colors', 'startPoint', 'endPoint', 'locations'] },
    });
    assert.deepEqual(Object.keys(modulesConstants.ExpoApplication).sort(), [
      'applicationId', 'applicationName', 'nativeApplicationVersion', 'nativeBuildVersion',
    ]);

    // The JSI host object (the app's globalThis.expo.modules) holds the Swift modules and NativeModulesProxy; the
    // Objective-C ones are the proxy's.
    const jsi = (app.global ?? globalThis).expo.modules;
    assert.deepEqual(Object.keys(jsi).sort(), ['ExpoKeepAwake', 'ExpoLinearGradient', 'ExponentConstants', 'NativeModulesProxy']);
    assert.equal(jsi.ExpoKeepAwake.activate.length, 1);
    assert.equal(jsi.ExpoKeepAwake.__expo_module_name__, 'ExpoKeepAwake');
    assert.equal(jsi.ExpoFontLoader, undefined);

    const { requireNativeModule, NativeModulesProxy } = app.require('expo-modules-core');
    assert.equal(requireNativeModule('ExpoFontLoader'), NativeModulesProxy.ExpoFontLoader);
    const KeepAwake = app.require('expo-keep-awake');
    await KeepAwake.activateKeepAwakeAsync('reading');
    assert.deepEqual(app.nativeCalls('ExpoKeepAwake'), [{ method: 'activate', args: ['reading'] }]);
    await assert.rejects(jsi.ExpoKeepAwake.activate(), /Received 0 arguments, but 1 was expected/);
    app.implementNativeModule('ExpoKeepAwake', { isActivated: async () => true });
    assert.equal(await requireNativeModule('ExpoKeepAwake').isActivated(), true, "a test's implementation answers");
    assert.throws(
      () => app.implementNativeModule('ExpoKeepAwake', { sleep() {} }),
      /expo-keep-awake's native source declares no function 'sleep'/,
    );
  });

  test("an Expo module's event reaches an EventEmitter's listener through EXReactNativeEventEmitter, as on a device", async () => {
    const { EventEmitter, NativeModulesProxy } = app.require('expo-modules-core');
    const heard = [];
    const emitter = new EventEmitter(NativeModulesProxy.ExponentFileSystem);
    const subscription = emitter.addListener('expo-file-system.downloadProgress', (event) => heard.push(event));
    assert.deepEqual(app.nativeCalls('EXReactNativeEventEmitter').at(-1), {
      method: 'addProxiedListener',
      args: ['ExponentFileSystem', 'expo-file-system.downloadProgress'],
    });
    await app.emitDeviceEvent('expo-file-system.downloadProgress', { uuid: 'a', data: { totalBytesWritten: 5 } });
    assert.deepEqual(heard, [{ uuid: 'a', data: { totalBytesWritten: 5 } }]);
    subscription.remove();
  });

  test('a module no installed package declares is absent, as on a device, with an error naming it', () => {
    const { requireNativeModule, NativeModulesProxy } = app.require('expo-modules-core');
    assert.throws(() => requireNativeModule('ExpoCamera'), /Cannot find native module 'ExpoCamera'/);
    assert.equal(NativeModulesProxy.ExpoCamera, undefined);
    assert.equal((app.global ?? globalThis).expo.modules.ExpoCamera, undefined);
    assert.throws(() => app.implementNativeModule('ExpoCamera', {}), (error) => {
      assert.match(error.message, /no installed package of the app declares the Expo native module 'ExpoCamera'/);
      assert.match(error.message, /declared: .*ExpoFontLoader/);
      assert.equal(error.code, 'unknown_native_module');
      return true;
    });
    assert.throws(() => app.nativeModule('ExpoCamera'), /'ExpoCamera'/);
  });

  test("expo-linear-gradient's view is its view manager's adapter, with the props its Swift View declares", async () => {
    const s = await app.render(h(screen('GradientScreen')));
    const gradient = s.getByTestId('gradient');
    assert.equal(gradient.component, 'ViewManagerAdapter_ExpoLinearGradient');
    assert.equal((await inspect(gradient)).props.colors.length, 2);
    await s.unmount();
  });
});
