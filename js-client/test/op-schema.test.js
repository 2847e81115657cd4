// The schema language of the daemon's op descriptions (lib/op-schema.js): what op-results.test.js checks every op's
// live result with, and what index.d.ts's RequestResults is written from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { problems, typeOf } from '../lib/op-schema.js';

test('a value of the shape has no problems; each difference is named by its path', () => {
  const schema = { changed: ['string'], 'parent?': 'integer|null', nested: { '*': 'number' } };
  assert.deepEqual(problems({ changed: ['a'], nested: { x: 1.5 } }, schema), []);
  assert.deepEqual(problems({ changed: ['a'], parent: null, nested: {} }, schema), []);
  assert.deepEqual(problems({ changed: [1], nested: {} }, schema), ['result.changed[0]: expected string, got 1']);
  assert.deepEqual(problems({ nested: {} }, schema), ['result.changed: missing']);
  const extra = problems({ changed: [], nested: {}, extra: 1 }, schema);
  assert.deepEqual(extra, ["result.extra: not in the op's result schema"]);
  const inRecord = problems({ changed: [], nested: { y: 'no' } }, schema);
  assert.deepEqual(inRecord, ['result.nested.y: expected number, got "no"']);
  assert.deepEqual(problems({ changed: [], parent: 1.5, nested: {} }, schema), [
    'result.parent: expected integer|null, got 1.5',
  ]);
});

test('$oneOf takes any of its shapes and names each when none fits; $name is checked by its members', () => {
  const schema = { $name: 'R', $oneOf: [{ results: ['object'] }, { staged: 'integer' }] };
  assert.deepEqual(problems({ staged: 2 }, schema), []);
  assert.equal(problems({ staged: 'two' }, schema).length, 1);
  assert.deepEqual(problems({ tag: 'x' }, { $name: 'T', tag: 'integer' }), ['result.tag: expected integer, got "x"']);
  assert.throws(() => problems(1, 'int'), /unknown type 'int'/);
});

test('as TypeScript: inline shapes, arrays, records, unions and the names index.d.ts declares', () => {
  assert.equal(typeOf({}), 'Record<string, never>');
  assert.equal(typeOf({ changed: ['string'] }), '{ changed: string[] }');
  assert.equal(typeOf({ 'a?': 'integer|null', 'b-c': 'json' }), '{ a?: number | null; "b-c": JsonValue }');
  assert.equal(typeOf(['integer|null']), 'Array<number | null>');
  assert.equal(typeOf({ '*': 'object' }), 'Record<string, JsonObject>');
  assert.equal(typeOf({ $name: 'StatsResult', seq: 'integer' }), 'StatsResult');
  const union = typeOf({ $oneOf: [{ results: ['object'] }, { staged: 'integer' }] });
  assert.equal(union, '{ results: JsonObject[] } | { staged: number }');
});
