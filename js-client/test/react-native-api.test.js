// React Native's side of the client is one list kept true in two places: what lib/react-native.js exports and the
// members of the objects it hands out (an attachment, its roots, an opened app, a screen), and react-native.d.ts.
// A member added to one and not the other fails here, naming it and the file to edit. A member for the client's own
// parts is marked `@internal` in its doc comment, or named with a leading `_`. No daemon, no renderer: the classes
// are compared by their prototypes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as reactNative from '../lib/react-native.js';
import { App } from '../lib/react-native/app/open-app.js';
import { ReactNativeAttachment } from '../lib/react-native/renderer/attachment.js';
import { Screen } from '../lib/react-native/testing/screen.js';
import { declaredExports, declaredMembers, markedInternal, ownMembers } from '../test-support/declarations.js';

const read = (path) => readFile(new URL(path, new URL('../', import.meta.url)), 'utf8');

/** What react-native.d.ts declares → the class behind it, and its file. */
const OBJECTS = [
  { declared: 'ReactNativeAttachment', cls: ReactNativeAttachment, file: 'lib/react-native/renderer/attachment.js' },
  { declared: 'App', cls: App, file: 'lib/react-native/app/open-app.js' },
  { declared: 'Screen', cls: Screen, file: 'lib/react-native/testing/screen.js' },
];

test('every value lib/react-native.js exports is declared in react-native.d.ts, and the reverse', async () => {
  const text = await read('react-native.d.ts');
  const declared = declaredExports(text);
  // Declared as an interface (what a caller holds) rather than as a value (a class a caller would construct).
  const asTypes = new Set([...text.matchAll(/^export interface ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]));
  const problems = [];
  for (const name of Object.keys(reactNative)) {
    if (!declared.has(name) && !asTypes.has(name)) problems.push(`lib/react-native.js exports ${name}: declare it in react-native.d.ts`);
  }
  for (const name of declared) if (!(name in reactNative)) problems.push(`react-native.d.ts declares ${name}: lib/react-native.js does not export it`);
  assert.deepEqual(problems, []);
});

/**
 * Whether react-native.d.ts's `Queries` declares a query of this name: `getBy`, `getAllBy`, `queryBy`, `queryAllBy`,
 * `findBy` or `findAllBy` with a kind of its `QueryKind` union or its `ObjectQueryKinds` (and `Screen` is made of it).
 */
function declaredQueries(text) {
  assert.match(text, /export type Screen = Queries & \{/, 'react-native.d.ts: Screen is no longer Queries & {…}');
  const union = text.match(/type QueryKind =([^;]+);/)?.[1] ?? '';
  const objects = text.match(/interface ObjectQueryKinds \{([\s\S]*?)\n\}/)?.[1] ?? '';
  const kinds = new Set([...[...union.matchAll(/'(\w+)'/g)].map((m) => m[1]), ...[...objects.matchAll(/^\s*(\w+):/gm)].map((m) => m[1])]);
  return (member) => {
    const match = /^(?:get|getAll|query|queryAll|find|findAll)By(\w+)$/.exec(member);
    return match !== null && kinds.has(match[1]);
  };
}

for (const { declared: name, cls, file } of OBJECTS) {
  test(`${name}: its methods and getters (${file}) are declared in react-native.d.ts, and nothing more`, async () => {
    const text = await read('react-native.d.ts');
    const source = await read(file);
    const declared = declaredMembers(text, name, 'react-native.d.ts');
    const own = ownMembers(cls);
    const problems = [];
    const internal = (member) => member.startsWith('_') || markedInternal(source, member);
    for (const method of own.methods) {
      if (declared.methods.has(method) || internal(method)) continue;
      problems.push(`${name}.${method}() (${file}) is not declared in react-native.d.ts's ${name}, nor marked @internal in its doc comment`);
    }
    // A screen's queries are getters (bound at the first read), declared by the `Queries` its type is made of.
    const query = name === 'Screen' ? declaredQueries(text) : () => false;
    for (const getter of own.getters) {
      if (declared.properties.has(getter) || internal(getter) || query(getter)) continue;
      problems.push(`${name}'s getter ${getter} (${file}) is not declared in react-native.d.ts's ${name}, nor marked @internal`);
    }
    for (const method of declared.methods) {
      if (typeof cls.prototype[method] !== 'function') problems.push(`react-native.d.ts declares ${name}.${method}(): ${file} has no such method`);
    }
    assert.deepEqual(problems, []);
  });
}
