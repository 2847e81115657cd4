// Lists that must name every case, checked against where the cases come from, so that adding one without the
// other fails here, naming it:
// - every prop type the daemon's hello describes (`propTypes`) is deep-diffed by the view configs exactly when its
//   descriptor says so (React Native's renderer compares such a prop by identity otherwise, and sends it again on
//   every render), and every type hello's components use is one `propTypes` describes;
// - every file of js-client/lib/react-native/modules/ is registered in modules/index.js, and every module file
//   index.js imports exists.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connect } from '../index.js';
import { viewConfigFor } from '../lib/react-native.js';
import { viewManagerConfig } from '../lib/react-native/modules/ui-manager.js';
import { deepDiffer } from '../lib/react-native/style.js';
import { NATIVE_MODULES } from '../lib/react-native/modules/index.js';
import { startDaemon } from '../test-support/daemon.js';

const MODULES = fileURLToPath(new URL('../lib/react-native/modules/', import.meta.url));

/** Every type a description uses, its elements' and fields' too. */
function typesIn(desc, into = new Set()) {
  if (!desc || typeof desc !== 'object') return into;
  if (typeof desc.type === 'string') into.add(desc.type);
  if (desc.elements) typesIn(desc.elements, into);
  for (const field of Object.values(desc.fields ?? {})) typesIn(field, into);
  return into;
}

describe("view configs: each prop type as hello's propTypes describes it", () => {
  let hello;
  before(async () => {
    const daemon = await startDaemon();
    try {
      const bridge = await connect({ socket: daemon.socket });
      hello = { components: bridge.components, propTypes: bridge.propTypes };
      await bridge.close();
    } finally {
      await daemon.stop();
    }
  });

  /** The validAttributes entry and the NativeProps type a component with one prop of `description` gets. */
  function configsOf(description) {
    const components = { RCTView: { props: {} }, Probe: { props: { probe: { ...description, default: null } }, events: {} } };
    return {
      attribute: viewConfigFor('Probe', components, hello.propTypes).validAttributes.probe,
      nativeType: viewManagerConfig('Probe', components.Probe, hello.propTypes).NativeProps.probe,
    };
  }

  test('every type propTypes describes is deep-diffed exactly when its descriptor says so, with its native type', () => {
    const names = Object.keys(hello.propTypes);
    assert.ok(names.length >= 16, `hello's propTypes describes ${names.length} types`);
    const wrong = [];
    for (const [type, info] of Object.entries(hello.propTypes)) {
      const { attribute, nativeType } = configsOf({ type });
      // A color is processed by processColor and compared deeply (iOS's PlatformColor objects): colorAttribute.
      const deep = attribute?.diff === deepDiffer && info.nativeType !== 'UIColor';
      if (deep !== info.deepDiffs) wrong.push(`${type}: deepDiffs ${info.deepDiffs}, view config ${JSON.stringify(attribute)}`);
      if (nativeType !== info.nativeType) wrong.push(`${type}: NativeProps ${nativeType}, propTypes ${info.nativeType}`);
    }
    assert.deepEqual(wrong, [], `view-configs.js or ui-manager.js disagree with hello's propTypes:\n${wrong.join('\n')}`);
  });

  test('an array of colors is UIColorArray, processed element by element; an unknown type is an error naming it', () => {
    const { attribute, nativeType } = configsOf({ type: 'array', elements: { type: 'color' } });
    assert.equal(nativeType, 'UIColorArray');
    assert.deepEqual(attribute.process(['#ff0000']), [0xffff0000]);
    assert.throws(() => configsOf({ type: 'hologram' }), /describes no prop type "hologram" \(its propTypes are int, /);
  });

  test("every type the daemon's hello uses is one its propTypes describes", () => {
    const used = new Set();
    for (const component of Object.values(hello.components)) for (const prop of Object.values(component.props ?? {})) typesIn(prop, used);
    const unknown = [...used].filter((type) => !Object.hasOwn(hello.propTypes, type));
    assert.deepEqual(unknown, [], `hello uses types its propTypes does not describe: ${unknown.join(', ')}`);
  });
});

describe('native modules: every file is registered', () => {
  const index = readFileSync(`${MODULES}index.js`, 'utf8');
  const imported = new Set([...index.matchAll(/from '\.\/([\w-]+\.js)'/g)].map((m) => m[1]));
  const files = readdirSync(MODULES).filter((f) => f.endsWith('.js') && f !== 'index.js');

  test('every file of modules/ is imported by modules/index.js', () => {
    const missing = files.filter((f) => !imported.has(f));
    assert.deepEqual(missing, [], `not imported by modules/index.js: ${missing.join(', ')}`);
  });

  test('every module file index.js imports exists', () => {
    const absent = [...imported].filter((f) => !files.includes(f));
    assert.deepEqual(absent, [], `modules/index.js imports files that do not exist: ${absent.join(', ')}`);
  });

  test('every file that makes a module (exports name and create) is served: in NATIVE_MODULES, or made by index.js', async () => {
    // `import * as expo from './expo.js'` → expo.js: expo (made only for an Expo app, by `expo.create(`).
    const aliases = new Map([...index.matchAll(/import \* as (\w+) from '\.\/([\w-]+\.js)'/g)].map((m) => [m[2], m[1]]));
    const unserved = [];
    for (const file of files) {
      const module = await import(pathToFileURL(`${MODULES}${file}`));
      if (typeof module.name !== 'string' || typeof module.create !== 'function') continue;
      const madeByIndex = aliases.has(file) && index.includes(`${aliases.get(file)}.create(`);
      if (NATIVE_MODULES[module.name] !== module.create && !madeByIndex) unserved.push(`${file} (${module.name})`);
    }
    assert.deepEqual(unserved, [], `module files neither in NATIVE_MODULES nor made by modules/index.js: ${unserved.join(', ')}`);
  });
});
