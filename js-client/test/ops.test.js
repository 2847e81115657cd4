// lib/ops.js is the client's one list of ops: its shape, its order (protocol.md's), what derives from it, and
// what it says about batches, checked against a real daemon.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { OPS, opsWhere } from '../lib/ops.js';
import { SAFE_TO_REPEAT, SESSION_FREE } from '../lib/reconnect.js';
import { startDaemonWithBridge, stopDaemonWithBridge } from '../test-support/daemon.js';

const root = new URL('../../', import.meta.url);
const read = (path) => readFile(new URL(path, root), 'utf8');

let daemon;
let bridge;

before(async () => ({ daemon, bridge } = await startDaemonWithBridge()));
after(() => stopDaemonWithBridge({ daemon, bridge }));

describe('the op table (lib/ops.js)', () => {
  test('one line per op, `  <name>: { ... },`, the keys of OPS (the daemon\'s tests read them so)', async () => {
    const text = await read('js-client/lib/ops.js');
    const start = text.indexOf('export const OPS = Object.freeze({\n');
    assert.notEqual(start, -1);
    const body = text.slice(text.indexOf('\n', start) + 1, text.indexOf('\n});', start));
    const lines = body.split('\n');
    for (const line of lines) assert.match(line, /^  [A-Za-z]+: \{ .* \},$/);
    assert.deepEqual(lines.map((line) => line.match(/^  ([A-Za-z]+):/)[1]), Object.keys(OPS));
    assert.ok(Object.isFrozen(OPS));
  });

  test('the ops of protocol.md\'s table, in its order', async () => {
    const protocol = await read('protocol.md');
    const section = protocol.slice(protocol.indexOf('## Operations'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| op |')));
    const documented = [...table.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]);
    assert.ok(documented.length >= 18, `protocol.md's table: ${documented}`);
    assert.deepEqual(Object.keys(OPS), documented);
  });

  test('every entry says the same things, as booleans', () => {
    for (const [name, entry] of Object.entries(OPS)) {
      assert.deepEqual(Object.keys(entry), ['safeToRepeat', 'sessionFree', 'inBatch'], name);
      for (const value of Object.values(entry)) assert.equal(typeof value, 'boolean', name);
    }
  });

  test('reconnect.js\'s sets are derived from it', () => {
    assert.deepEqual(SAFE_TO_REPEAT, opsWhere('safeToRepeat'));
    assert.deepEqual(SESSION_FREE, opsWhere('sessionFree'));
  });

  test('index.d.ts RequestResults has exactly one result per op, in the same order', async () => {
    const types = await read('js-client/index.d.ts');
    const start = types.indexOf('export interface RequestResults {');
    assert.notEqual(start, -1);
    const body = types.slice(start, types.indexOf('\n}', start));
    const keys = [...body.matchAll(/^  ([A-Za-z]+): /gm)].map((m) => m[1]);
    assert.deepEqual(keys, Object.keys(OPS));
  });

  test('inBatch is what the daemon says: the others are refused in a batch as bad_request', async () => {
    const frames = {
      hello: { protocol: 1 },
      ack: { seq: 0 },
      observe: { session: bridge.session },
      unobserve: { session: bridge.session },
      batch: { ops: [] },
    };
    for (const [name, entry] of Object.entries(OPS)) {
      const op = { op: name, ...frames[name] };
      const err = await bridge.request({ op: 'batch', ops: [op] }).then(
        () => null,
        (e) => e,
      );
      const refused =
        err?.code === 'batch_failed' &&
        err.details?.code === 'bad_request' &&
        /cannot be part of a batch|cannot contain another batch/.test(err.details.message);
      assert.equal(refused, !entry.inBatch, `${name}: ${err?.details?.message ?? 'accepted'}`);
    }
  });
});
