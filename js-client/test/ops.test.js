// lib/ops.js is the client's one list of ops, generated from the daemon's op table (generated.test.js): its order
// (protocol.md's), its samples' fields, and what it says about each op (safe to repeat, free of the session, refused
// in a batch) checked against a real daemon.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { OPS, SAMPLE_SETUP, opsWhere } from '../lib/ops.js';
import { problems } from '../lib/op-schema.js';
import { connect } from '../index.js';
import { startDaemonWithBridge, stopDaemonWithBridge } from '../test-support/daemon.js';

const root = new URL('../../', import.meta.url);
const read = (path) => readFile(new URL(path, root), 'utf8');

let daemon;
let bridge;

before(async () => ({ daemon, bridge } = await startDaemonWithBridge()));
after(() => stopDaemonWithBridge({ daemon, bridge }));

describe('the op table (lib/ops.js, generated from `bridged ops`)', () => {
  test('the ops of protocol.md\'s table, in its order', async () => {
    const protocol = await read('protocol.md');
    const section = protocol.slice(protocol.indexOf('## Operations'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| op |')));
    const documented = [...table.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]);
    assert.ok(documented.length >= 18, `protocol.md's table: ${documented}`);
    assert.deepEqual(Object.keys(OPS), documented);
    assert.ok(Object.isFrozen(OPS) && Object.isFrozen(OPS.update.sample));
  });

  test('each op\'s sample request has its fields: every required one, no other', () => {
    for (const [name, op] of Object.entries(OPS)) {
      const { op: sent, ...fields } = op.sample;
      assert.equal(sent, name, `${name}'s sample sends op ${sent}`);
      const found = problems(fields, op.fields, `${name}'s sample`);
      assert.deepEqual(found, [], found.join('; '));
    }
  });

  /** A Bridge on a session of its own, set up as each sample expects (SAMPLE_SETUP but its hello). */
  async function sampleSession() {
    const fresh = await connect({ socket: daemon.socket });
    for (const frame of SAMPLE_SETUP.slice(1)) await fresh.request(frame);
    return fresh;
  }

  test('safeToRepeat is what a live daemon does: its sample twice is answered alike, changing nothing', async () => {
    const fresh = await sampleSession();
    try {
      const state = async () => [await fresh.request({ op: 'stats' }), await fresh.request({ op: 'inspect', tag: 2 })];
      const repeatable = [...opsWhere('safeToRepeat')];
      assert.ok(repeatable.length > 0);
      for (const name of repeatable) {
        const before = await state();
        // An op this session cannot run (screenshot, with layout off) must be refused alike.
        const answer = (frame) => fresh.request(frame).catch((error) => ({ code: error.code, message: error.message }));
        const first = await answer(OPS[name].sample);
        const second = await answer(OPS[name].sample);
        assert.deepEqual(second, first, `${name} (its spec says safeToRepeat) answers the same twice`);
        assert.deepEqual(await state(), before, `${name} (its spec says safeToRepeat) changes nothing`);
      }
    } finally {
      await fresh.close();
    }
  });

  test('sessionFree is what a live daemon does: the sample is answered on a fresh session (no views)', async () => {
    const fresh = await connect({ socket: daemon.socket });
    try {
      for (const name of opsWhere('sessionFree')) {
        const message = `${name} (its spec says sessionFree) on a fresh session`;
        await assert.doesNotReject(fresh.request(OPS[name].sample), message);
      }
    } finally {
      await fresh.close();
    }
  });

  test('a batch holding an op its spec refuses there fails with the spec\'s message, and changes nothing', async () => {
    const fresh = await sampleSession();
    try {
      const refused = Object.entries(OPS).filter(([, op]) => op.batch !== true);
      assert.ok(refused.length > 0);
      for (const [name, op] of refused) {
        const ops = [{ op: 'create', tag: 50, component: 'View' }, op.sample];
        const error = await fresh.request({ op: 'batch', ops }).then(() => null, (err) => err);
        assert.equal(error?.code, 'batch_failed', `a batch holding ${name}'s sample`);
        assert.equal(error.index, 1, name);
        assert.equal(error.details?.message, op.batch, `a batch holding ${name}: the message its spec gives`);
        await assert.rejects(fresh.request({ op: 'inspect', tag: 50 }), { code: 'unknown_tag' }, name);
      }
    } finally {
      await fresh.close();
    }
  });
});
