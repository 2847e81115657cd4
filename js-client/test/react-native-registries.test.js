// Lists that must name every case, checked against where the cases come from, so that adding one without the
// other fails here, naming it:
// - every prop type whose values are objects or arrays (protocol.md's "Typed props" table, and every type the
//   daemon's hello uses) is deep-diffed by the view configs (view-configs.js): React Native's renderer compares
//   such a prop by identity otherwise, and sends it again on every render;
// - every file of js-client/lib/react-native/modules/ is registered in modules/index.js, and every module file
//   index.js imports exists.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connect } from '../index.js';
import { viewConfigFor } from '../lib/react-native.js';
import { deepDiffer } from '../lib/react-native/style.js';
import { NATIVE_MODULES } from '../lib/react-native/modules/index.js';
import { startDaemon } from '../test-support/daemon.js';

const PROTOCOL = fileURLToPath(new URL('../../protocol.md', import.meta.url));
const MODULES = fileURLToPath(new URL('../lib/react-native/modules/', import.meta.url));

/** protocol.md's "Typed props" table: type → what it accepts. */
function typedProps() {
  const text = readFileSync(PROTOCOL, 'utf8');
  const section = text.slice(text.indexOf('## Typed props'));
  const rows = new Map();
  for (const line of section.split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    const match = /^\| `(\w+)` \| (.*?) \|/.exec(line);
    if (match) rows.set(match[1], match[2]);
  }
  return rows;
}

/** Whether a type accepts objects or arrays, by its table row: `{…}`, a JSON array or object, any JSON value. */
const takesObjects = (accepts) => /\{|JSON array|JSON object|any JSON value/.test(accepts);

/** A complete type description of `type` (what `values`, `elements` or `fields` it needs). */
function description(type) {
  switch (type) {
    case 'enum':
      return { type, values: ['a'] };
    case 'int32Enum':
      return { type, values: [0] };
    case 'array':
      return { type, elements: { type: 'double' } };
    case 'object':
      return { type, fields: { x: { type: 'double', optional: true, default: null } } };
    default:
      return { type };
  }
}

/** Every type a description uses, its elements' and fields' too. */
function typesIn(desc, into = new Set()) {
  if (!desc || typeof desc !== 'object') return into;
  if (typeof desc.type === 'string') into.add(desc.type);
  if (desc.elements) typesIn(desc.elements, into);
  for (const field of Object.values(desc.fields ?? {})) typesIn(field, into);
  return into;
}

/** The validAttributes entry a view config gives a prop of `type`. */
function attributeOf(type) {
  const components = { RCTView: { props: {} }, Probe: { props: { probe: { ...description(type), default: null } }, events: {} } };
  return viewConfigFor('Probe', components).validAttributes.probe;
}

describe('view configs: object prop types are deep-diffed', () => {
  test("every type of protocol.md's table that takes objects or arrays gets deepDiffer, the others do not", () => {
    const table = typedProps();
    assert.ok(table.size >= 15, `read ${table.size} types from protocol.md's "Typed props"`);
    const missing = [];
    const extra = [];
    for (const [type, accepts] of table) {
      const diff = attributeOf(type)?.diff;
      if (takesObjects(accepts) && diff !== deepDiffer) missing.push(type);
      if (!takesObjects(accepts) && diff !== undefined) extra.push(type);
    }
    assert.deepEqual(missing, [], `object types without deepDiffer in view-configs.js: ${missing.join(', ')}`);
    assert.deepEqual(extra, [], `scalar types deep-diffed: ${extra.join(', ')}`);
  });

  test("every type the daemon's hello uses is in protocol.md's table", async () => {
    const daemon = await startDaemon();
    try {
      const bridge = await connect({ socket: daemon.socket });
      const used = new Set();
      for (const component of Object.values(bridge.components)) for (const prop of Object.values(component.props ?? {})) typesIn(prop, used);
      await bridge.close();
      const table = typedProps();
      const unknown = [...used].filter((type) => !table.has(type));
      assert.deepEqual(unknown, [], `hello uses types protocol.md's table does not list: ${unknown.join(', ')}`);
    } finally {
      await daemon.stop();
    }
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
