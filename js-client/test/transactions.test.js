// bridge.transaction(): one atomic batch; commit and rollback.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BridgeError, Transaction } from '../index.js';
import { startDaemonWithBridge, stopDaemonWithBridge } from '../test-support/daemon.js';

let daemon;
let bridge;

before(async () => ({ daemon, bridge } = await startDaemonWithBridge()));
after(() => stopDaemonWithBridge({ daemon, bridge }));

describe('transactions', () => {
  test('commit: views, handler props, updates and commands in one batch', async () => {
    const log = [];
    const tx = bridge.transaction();
    assert.ok(tx instanceof Transaction);
    const root = tx.create('View', { testID: 'root', onCountChange: (e) => log.push(['root', e.payload.count]) });
    const button = tx.create('SwiftUIButton', { title: 'a' }, { parent: root });
    const first = tx.create('View', {}, { parent: root, index: 0 });
    assert.equal(button.tag, root.tag + 1, 'tags are allocated at once');
    assert.equal(button.state, 'pending');
    await assert.rejects(button.inspect(), { code: 'unknown_tag', details: { tag: button.tag, state: 'pending' } });
    tx.update(button, { title: 'b', onCountChange: (e) => log.push(['button', e.payload.count]) });
    tx.command(button, 'press');
    assert.equal(tx.size, 7); // 3 creates + 1 subscribe, update + subscribe, command
    const { results } = await tx.commit();
    assert.equal(tx.state, 'committed');
    assert.equal(results.length, 7);
    assert.deepEqual(results[0], { tag: root.tag });
    assert.deepEqual(log, [
      ['button', 1],
      ['root', 1],
    ], 'the events of the batch were handled before commit resolved');
    assert.equal(button.state, 'live');
    const inspected = await button.inspect();
    assert.equal(inspected.props.title, 'b');
    assert.equal(inspected.parent, root.tag);
    assert.deepEqual((await root.inspect()).children, [first.tag, button.tag]);
  });

  test('setChildren and delete in a transaction', async () => {
    const a = await bridge.create('View');
    const b = await bridge.create('View');
    const tx = bridge.transaction();
    const c = tx.create('View');
    tx.setChildren(a, [b, c]).delete(b);
    const { results } = await tx.commit();
    assert.deepEqual(results[1], { children: [b.tag, c.tag] });
    assert.deepEqual(results[2], { deleted: [b.tag] });
    assert.equal(b.state, 'deleted');
    assert.deepEqual((await a.inspect()).children, [c.tag]);
  });

  test('rollback: batch_failed with index and the inner error; created views unusable', async () => {
    const { sessionViews } = await bridge.request({ op: 'stats' });
    const existing = await bridge.create('SwiftUIButton');
    const tx = bridge.transaction();
    const a = tx.create('View');
    const b = tx.create('SwiftUIButton', {}, { parent: a });
    tx.update(existing, { count: 9 });
    tx.update(b, { count: 'abc' });
    const err = await tx.commit().catch((e) => e);
    assert.ok(err instanceof BridgeError);
    assert.equal(err.code, 'batch_failed');
    assert.equal(err.index, 3);
    assert.equal(err.details.code, 'invalid_props');
    assert.equal(err.details.details[0].prop, 'count');
    assert.equal(err.cause.code, 'invalid_props');
    assert.equal(tx.state, 'failed');
    for (const view of [a, b]) {
      assert.equal(view.state, 'rolledBack');
      await assert.rejects(view.inspect(), {
        code: 'unknown_tag',
        details: { tag: view.tag, state: 'rolledBack' },
      });
      await assert.rejects(view.update({ count: 1 }), { code: 'unknown_tag' });
      await assert.rejects(view.on('countChange', () => {}), { code: 'unknown_tag' });
      await assert.rejects(bridge.request({ op: 'inspect', tag: view.tag }), { code: 'unknown_tag' });
    }
    assert.equal((await existing.inspect()).props.count, 0, 'nothing of the batch took effect');
    assert.equal((await bridge.request({ op: 'stats' })).sessionViews, sessionViews + 1);
  });

  test('a rolled-back command emits no event', async () => {
    const seen = [];
    const button = await bridge.create('SwiftUIButton', { onCountChange: () => seen.push('event') });
    const tx = bridge.transaction();
    tx.command(button, 'press');
    tx.command(button, 'explode');
    const err = await tx.commit().catch((e) => e);
    assert.equal(err.code, 'batch_failed');
    assert.equal(err.index, 1);
    assert.equal(err.details.code, 'unknown_command');
    assert.deepEqual(seen, []);
  });

  test('a transaction is used once', async () => {
    const tx = bridge.transaction();
    tx.create('View');
    await tx.commit();
    assert.throws(() => tx.create('View'), { code: 'transaction_closed' });
    await assert.rejects(tx.commit(), { code: 'transaction_closed' });
  });

  test('an empty transaction commits nothing', async () => {
    assert.deepEqual(await bridge.transaction().commit(), { results: [] });
  });
});
