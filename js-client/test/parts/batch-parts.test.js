// client/batch-parts.js: how a batch too long for one line is cut into parts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchParts } from '../../lib/client/batch-parts.js';

const ops = (n, pad = 'x') => Array.from({ length: n }, (_, i) => ({ op: 'create', tag: i + 1, component: 'View', props: { nativeID: `${pad}${i}` } }));

test('parts of whole ops, each line within the part length, that put back together are the batch', () => {
  for (const [count, partBytes] of [[1_000, 1_024], [5_000, 4_096], [333, 10_000], [2, 1_024]]) {
    const batch = ops(count);
    const { lines, bytes, longest } = batchParts({ op: 'batch', ops: batch }, 7, partBytes);
    assert.equal(bytes, lines.reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0), 'the bytes of the lines, newlines included');
    assert.equal(longest, Math.max(...lines.map((l) => Buffer.byteLength(l))));
    assert.ok(lines.length >= 1);
    let at = 0;
    const back = [];
    lines.forEach((line, i) => {
      assert.ok(Buffer.byteLength(line) <= partBytes, `part ${i} is ${Buffer.byteLength(line)} bytes`);
      const part = JSON.parse(line);
      assert.equal(part.id, 7);
      assert.equal(part.op, 'batch');
      assert.equal(part.at, at, 'at counts the ops of the parts before');
      assert.equal(part.more, i < lines.length - 1 ? true : undefined, 'every part but the last says more');
      assert.ok(part.ops.length > 0);
      at += part.ops.length;
      back.push(...part.ops);
    });
    assert.deepEqual(back, batch);
  }
});

test('an op longer than a part goes alone; non-ASCII text is counted in bytes', () => {
  const big = { op: 'update', tag: 1, props: { text: 'é'.repeat(3_000) } };
  const { lines, longest } = batchParts({ op: 'batch', ops: [{ op: 'ping' }, big, { op: 'ping' }] }, 1, 2_048);
  assert.equal(longest, Math.max(...lines.map((l) => Buffer.byteLength(l))), 'counted in UTF-8 bytes');
  assert.deepEqual(lines.map((l) => JSON.parse(l).ops.length), [1, 1, 1]);
  const accented = ops(400, 'ééé');
  for (const line of batchParts({ op: 'batch', ops: accented }, 1, 2_048).lines) assert.ok(Buffer.byteLength(line) <= 2_048);
});

test('only a batch of ops alone, of two ops or more, is cut', () => {
  assert.equal(batchParts({ op: 'batch', ops: [{ op: 'ping' }] }, 1, 1_024), null);
  assert.equal(batchParts({ op: 'batch', ops: 'no' }, 1, 1_024), null);
  assert.equal(batchParts({ op: 'batch', ops: ops(100), label: 'x' }, 1, 1_024), null, 'another member');
  assert.equal(batchParts({ op: 'batch', ops: ops(100), at: -1 }, 1, 1_024), null, 'a negative at');
  assert.equal(batchParts({ op: 'batch', ops: ops(100), more: 'yes' }, 1, 1_024), null, 'a more that is no boolean');
});

test('a batch that is itself a part is cut into parts from its at, the last with its more', () => {
  const held = batchParts({ op: 'batch', ops: ops(100), at: 40, more: true }, 1, 1_024).lines.map((line) => JSON.parse(line));
  assert.ok(held.length > 1);
  assert.ok(held.every((part) => part.more === true), 'every part held, the last too');
  let at = 40;
  for (const part of held) {
    assert.equal(part.at, at);
    at += part.ops.length;
  }
  assert.equal(at, 140);
  const last = batchParts({ op: 'batch', ops: ops(100), at: 40 }, 1, 1_024).lines.map((line) => JSON.parse(line));
  assert.equal(last[last.length - 1].more, undefined, 'the last runs the batch');
  assert.ok(last.slice(0, -1).every((part) => part.more === true));
  assert.equal(last[0].at, 40);
});
