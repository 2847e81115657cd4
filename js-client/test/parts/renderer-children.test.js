// lib/react-native/renderer/children.js without a renderer: RendererChildren answers what paper's renderer asks of
// its child arrays exactly as an Array does, across the switch from a plain array to blocks and back; and the
// changes to the renderer's source apply where their text is found.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { RendererChildren } from '../../lib/react-native/renderer/children.js';
import { linearPaperRenderer } from '../../lib/react-native/renderer/linear-paper.js';

/** A fixed pseudo-random sequence (the same every run). */
function generator(seed) {
  return (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
}

/** Applies the renderer's own calls (appendChild, insertBefore, removeChild as ReactNativeRenderer-dev.js makes them) to both. */
function step(list, array, random, next) {
  const what = random(10);
  if (array.length === 0 || what < 4) {
    // appendChild: a new child pushed, or an existing one moved to the end.
    const child = array.length > 0 && what === 0 ? array[random(array.length)] : next();
    for (const children of [list, array]) {
      const index = children.indexOf(child);
      if (index >= 0) children.splice(index, 1);
      children.push(child);
    }
  } else if (what < 7) {
    // insertBefore: a new or existing child placed before another.
    const before = array[random(array.length)];
    const child = what === 4 ? array[random(array.length)] : next();
    if (child === before) return;
    for (const children of [list, array]) {
      const index = children.indexOf(child);
      if (index >= 0) children.splice(index, 1);
      children.splice(children.indexOf(before), 0, child);
    }
  } else {
    // removeChild.
    const child = array[random(array.length)];
    for (const children of [list, array]) children.splice(children.indexOf(child), 1);
  }
}

describe('RendererChildren', () => {
  test('splice answers as an Array’s in each of its forms: what it returns and what it leaves', () => {
    const forms = [[2], [2, 1], [2, 3], [0, 0, 'a'], [3, 0, 'a', 'b'], [1, 2, 'a'], [-2, 1], [-9, 1], [9, 1], [2, undefined], [2, -1], [1.7, 1.2], []];
    for (const args of forms) {
      const list = new RendererChildren();
      const array = [10, 11, 12, 13, 14, 15];
      for (const child of array) list.push(child);
      const removed = list.splice(...args);
      assert.deepEqual(removed, array.splice(...args), `splice(${args.join(', ')}) returned`);
      assert.ok(Array.isArray(removed));
      assert.deepEqual(list.toArray(), array, `splice(${args.join(', ')}) left`);
    }
  });

  test('answers as an Array through 20,000 of the renderer’s calls, growing past the switch to blocks and shrinking back', () => {
    const random = generator(7);
    let tag = 1;
    const list = new RendererChildren();
    const array = [];
    for (let i = 0; i < 20_000; i++) {
      // Grow for the first half, then shrink to nothing.
      if (i >= 10_000 && array.length > 0) {
        const child = array[random(array.length)];
        for (const children of [list, array]) children.splice(children.indexOf(child), 1);
        // Its place in the index is stale now (the index is kept through removals): not found.
        assert.equal(list.indexOf(child), -1);
      } else step(list, array, random, () => (tag += 2));
      if (i % 997 === 0 || array.length === 0) {
        assert.equal(list.length, array.length);
        assert.deepEqual(list.toArray(), array);
      }
    }
    assert.equal(list.length, 0);
    for (let i = 0; i < 5000; i++) step(list, array, random, () => (tag += 2));
    assert.ok(array.length > 1000, `the list grew again past several blocks (${array.length})`);
    assert.deepEqual(list.toArray(), array);
    assert.deepEqual(list.map((child, i) => [child, i]), array.map((child, i) => [child, i]));
    const seen = [];
    list.forEach((child, i) => seen.push([child, i]));
    assert.deepEqual(seen, array.map((child, i) => [child, i]));
    assert.deepEqual([...list], array);
    for (const i of [0, 1, 500, array.length - 1]) {
      assert.equal(list.indexOf(array[i]), i);
      assert.equal(list.at(i), array[i]);
    }
    assert.equal(list.indexOf(-5), -1);
  });

  test('splice as an Array splices: several removed and inserted at once, negative and clamped starts', () => {
    for (const size of [5, 300]) {
      const array = Array.from({ length: size }, (_, i) => i);
      const list = new RendererChildren();
      list.push(...array);
      for (const [start, count, ...items] of [[2, 3, 'a', 'b'], [-2, 1], [size * 2, 0, 'end'], [0, 0, 'first'], [1, 200, 'x', 'y', 'z']]) {
        assert.deepEqual(list.splice(start, count, ...items), array.splice(start, count, ...items));
        assert.deepEqual(list.toArray(), array);
      }
      assert.deepEqual(list.splice(3), array.splice(3));
      assert.deepEqual(list.toArray(), array);
      const seen = [];
      list.forEach((child, i) => seen.push([child, i]));
      assert.deepEqual(seen, array.map((child, i) => [child, i]));
      assert.deepEqual(list.map((child, i) => `${child}@${i}`), array.map((child, i) => `${child}@${i}`));
      assert.deepEqual([...list], array);
    }
  });

  test('linear-paper.js changes the paper renderer files where their text is React Native 0.72’s, and Fabric’s not at all', (t) => {
    const file = process.env.BRIDGED_RN_RENDERER;
    const fabric = process.env.BRIDGED_RN_FABRIC_RENDERER;
    assert.deepEqual(linearPaperRenderer('no constructor here').changes, []);
    if (!file || !fabric) return t.skip('no React Native renderer files: set BRIDGED_RN_RENDERER and BRIDGED_RN_FABRIC_RENDERER');
    // The minified builds name React's flags otherwise: only their child arrays change.
    const expected = { dev: ['children', 'hostSibling'], prod: ['children'], profiling: ['children'] };
    for (const [kind, changes] of Object.entries(expected)) {
      const source = readFileSync(file.replace(/-dev\.js$/, `-${kind}.js`), 'utf8');
      assert.deepEqual(linearPaperRenderer(source).changes, changes, kind);
    }
    assert.deepEqual(linearPaperRenderer(readFileSync(fabric, 'utf8')).changes, []);
  });
});
