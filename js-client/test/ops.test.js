// lib/ops.js is the client's one list of ops: its shape, its order (protocol.md's), and what it says about each
// op (safe to repeat, free of the session) checked against a real daemon.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { OPS, opsWhere } from '../lib/ops.js';
import { connect } from '../index.js';
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
      assert.deepEqual(Object.keys(entry), ['safeToRepeat', 'sessionFree'], name);
      for (const value of Object.values(entry)) assert.equal(typeof value, 'boolean', name);
    }
  });

  test('index.d.ts RequestResults has exactly one result per op, in the same order', async () => {
    const types = await read('js-client/index.d.ts');
    const start = types.indexOf('export interface RequestResults {');
    assert.notEqual(start, -1);
    const body = types.slice(start, types.indexOf('\n}', start));
    const keys = [...body.matchAll(/^  ([A-Za-z]+): /gm)].map((m) => m[1]);
    assert.deepEqual(keys, Object.keys(OPS));
  });

  test('safeToRepeat is what a live daemon does: the op sent twice is answered alike and changes nothing', async () => {
    await bridge.request({ op: 'create', tag: 9001, component: 'SwiftUIButton', props: { count: 1 } });
    const frames = { inspect: { tag: 9001 } };
    const state = async () => [await bridge.request({ op: 'stats' }), await bridge.request({ op: 'inspect', tag: 9001 })];
    const repeatable = [...opsWhere('safeToRepeat')];
    assert.ok(repeatable.length > 0);
    for (const name of repeatable) {
      const before = await state();
      // An op this session cannot run (screenshot, with layout off) must be refused alike.
      const answer = (frame) => bridge.request(frame).catch((error) => ({ code: error.code, message: error.message }));
      const first = await answer({ op: name, ...frames[name] });
      const second = await answer({ op: name, ...frames[name] });
      assert.deepEqual(second, first, `${name} (lib/ops.js says safeToRepeat) answers the same twice`);
      assert.deepEqual(await state(), before, `${name} (lib/ops.js says safeToRepeat) changes nothing`);
    }
  });

  test('sessionFree is what a live daemon does: the op is answered on a fresh session, which has no views', async () => {
    const fresh = await connect({ socket: daemon.socket });
    try {
      for (const name of opsWhere('sessionFree')) {
        await assert.doesNotReject(fresh.request({ op: name }), `${name} (lib/ops.js says sessionFree) on a fresh session`);
      }
    } finally {
      await fresh.close();
    }
  });
});
