// The jest preset's synchronous bridge (lib/jest/sync-bridge.js) against a real daemon: a request answered with the
// frames before it; the parts of a batch written ahead (sendAhead) and answered as the batch's end is read, each
// part's answer known synchronously then; a refused part's error kept on its part, nothing applied.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SyncBridge } from '../lib/jest/sync-bridge.js';
import { startDaemon } from '../test-support/daemon.js';

const views = (from, count) =>
  Array.from({ length: count }, (_, i) => ({ op: 'create', tag: from + i, component: 'View', props: { testID: `v${from + i}` } }));

describe('SyncBridge (the jest preset)', () => {
  let daemon;
  let bridge;
  before(async () => {
    daemon = await startDaemon(['--max-frame-bytes', String(8 << 20)]);
    bridge = await SyncBridge.connect({ socket: daemon.socket });
  });
  after(async () => {
    await bridge?.close();
    await daemon?.stop?.();
  });

  test("the reads of an empty socket leave Error.stackTraceLimit as it was (they build their errors with none)", () => {
    const before = Error.stackTraceLimit;
    Error.stackTraceLimit = 57;
    try {
      for (let i = 0; i < 20; i++) bridge.requestSync({ op: 'ping' });
      assert.equal(Error.stackTraceLimit, 57);
    } finally {
      Error.stackTraceLimit = before;
    }
  });

  test('parts written ahead are answered with the batch end, their answers known when requestSync returns', () => {
    const first = bridge.sendAhead({ op: 'batch', more: true, at: 0, ops: views(1, 3) });
    const second = bridge.sendAhead({ op: 'batch', more: true, at: 3, ops: views(4, 2) });
    assert.equal(first.answer, null, 'nothing is read while the renderer goes on');
    // A request between the parts is answered as usual (the daemon holds the parts unapplied meanwhile).
    bridge.requestSync({ op: 'ping' });
    const result = bridge.requestSync({ op: 'batch', at: 5, ops: [{ op: 'setChildren', tag: 1, children: [2, 3, 4, 5] }] });
    assert.deepEqual(first.answer, { ok: true, result: { staged: 3 } });
    assert.deepEqual(second.answer, { ok: true, result: { staged: 5 } });
    assert.equal(result.results.length, 6);
    const snapshot = bridge.requestSync({ op: 'inspect', tag: 1 });
    assert.deepEqual(snapshot.children, [2, 3, 4, 5]);
  });

  test('an op that fails in a part ahead fails the batch at its end, named by its place in the whole batch', () => {
    const good = bridge.sendAhead({ op: 'batch', more: true, at: 0, ops: views(10, 2) });
    const bad = bridge.sendAhead({
      op: 'batch',
      more: true,
      at: 2,
      ops: [...views(12, 1), { op: 'create', tag: 13, component: 'View', props: { width: '10px' } }],
    });
    assert.throws(
      () => bridge.requestSync({ op: 'batch', at: 4, ops: views(14, 1) }),
      (error) => error.code === 'batch_failed' && error.cause?.code === 'invalid_props' && error.index === 3 && /'width'/.test(error.message),
    );
    // Held, not refused: a part's op runs ahead, and the batch fails or not as a whole at its end.
    assert.deepEqual(good.answer, { ok: true, result: { staged: 2 } });
    assert.deepEqual(bad.answer, { ok: true, result: { staged: 4 } });
    for (const tag of [10, 11, 12, 13, 14]) {
      assert.throws(() => bridge.requestSync({ op: 'inspect', tag }), (error) => error.code === 'unknown_tag', `view ${tag}`);
    }
  });

  test('a part refused for its shape: the error is on its part, the end refused for the parts it misses', async () => {
    const bad = bridge.sendAhead({ op: 'batch', more: true, at: 0, ops: [{ tag: 20 }] });
    assert.throws(() => bridge.requestSync({ op: 'batch', at: 1, ops: views(21, 1) }), (error) => error.code === 'bad_request');
    assert.equal(bad.answer.ok, false);
    assert.equal(bad.answer.error.cause?.code, 'bad_request');
    assert.match(bad.answer.error.message, /op 0 has no 'op' string/);
    await assert.rejects(bad.promise, (error) => error === bad.answer.error);
    assert.throws(() => bridge.requestSync({ op: 'inspect', tag: 21 }), (error) => error.code === 'unknown_tag');
  });

  test('text whose characters a read splits (an answer larger than the socket holds) is read whole', () => {
    // 1.5 MB of four-byte characters, answered in reads of what the socket holds (a few hundred KB each): nearly
    // every read ends inside a character, which decoded alone would become U+FFFD.
    const text = '😀é€'.repeat(60_000);
    bridge.requestSync({ op: 'create', tag: 30, component: 'View', props: { testID: text } });
    const snapshot = bridge.requestSync({ op: 'inspect', tag: 30 });
    assert.equal(snapshot.props.testID.length, text.length);
    assert.ok(snapshot.props.testID === text, 'the text came back changed');
  });
});
