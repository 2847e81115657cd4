// A batch longer than the daemon's frame goes in parts (protocol.md, "batch"), through a real daemon: it applies
// as one batch, all or nothing, and the client's promise settles once, with every result or the first error.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../index.js';
import { startDaemon } from '../test-support/daemon.js';

let daemon;
before(async () => {
  daemon = await startDaemon(['--max-frame-bytes', '65536']);
});
after(() => daemon.stop());

const creates = (n, from = 1) =>
  Array.from({ length: n }, (_, i) => ({ op: 'create', tag: from + i, component: 'View', props: { nativeID: `row-${from + i}` } }));

describe('a batch in parts', () => {
  test('a batch 10 times the daemon\'s frame applies whole, with one result per op, sent as parts', async () => {
    const frames = [];
    const bridge = await connect({ socket: daemon.socket, batchPartBytes: 32_768, record: (entry) => frames.push(entry) });
    try {
      const ops = creates(10_000);
      const bytes = Buffer.byteLength(JSON.stringify({ op: 'batch', ops }));
      assert.ok(bytes > 10 * 65_536, `${bytes} bytes`);
      const { results } = await bridge.request({ op: 'batch', ops });
      assert.equal(results.length, 10_000);
      assert.deepEqual(results[9_999], { tag: 10_000 });
      const parts = frames.filter((f) => f.dir === 'in' && f.frame.op === 'batch');
      assert.ok(parts.length >= 20, `${parts.length} parts`);
      assert.ok(parts.slice(0, -1).every((p) => p.frame.more === true) && parts.at(-1).frame.more === undefined);
      assert.equal(new Set(parts.map((p) => p.frame.id)).size, 1, 'one request, one id');
      assert.equal((await bridge.stats()).sessionViews, 10_000);
      // Requests after it are answered after it, in order.
      const [after1, after2] = await Promise.all([bridge.request({ op: 'batch', ops: creates(3_000, 20_001) }), bridge.stats()]);
      assert.equal(after1.results.length, 3_000);
      assert.equal(after2.sessionViews, 13_000);
    } finally {
      await bridge.close();
    }
  });

  test('an op that fails in the last part fails the whole batch, named by its place in it; nothing is applied', async () => {
    const bridge = await connect({ socket: daemon.socket, batchPartBytes: 32_768 });
    try {
      const ops = [...creates(6_000), { op: 'update', tag: 5_999, props: { bogus: 1 } }];
      const error = await bridge.request({ op: 'batch', ops }).then(() => null, (e) => e);
      assert.equal(error?.code, 'batch_failed');
      assert.equal(error.index, 6_000);
      assert.equal(error.cause.code, 'invalid_props');
      assert.equal((await bridge.stats()).sessionViews, 0);
      // One in the first part, too: the parts after it are refused, the promise rejects once.
      const early = [{ op: 'update', tag: 1, props: {} }, ...creates(6_000, 2)];
      const first = await bridge.request({ op: 'batch', ops: early }).then(() => null, (e) => e);
      assert.equal(first?.code, 'batch_failed');
      assert.equal(first.index, 0);
      assert.equal((await bridge.stats()).sessionViews, 0);
      assert.deepEqual(await bridge.ping(), {});
    } finally {
      await bridge.close();
    }
  });

  test('an op too long for a part of its own, or any request longer than the frame, is refused before anything is sent', async () => {
    const frames = [];
    const bridge = await connect({ socket: daemon.socket, batchPartBytes: 32_768, record: (e) => e.dir === 'in' && frames.push(e.frame) });
    try {
      const huge = { op: 'create', tag: 99_999, component: 'View', props: { nativeID: 'x'.repeat(70_000) } };
      const sentBefore = frames.length;
      const error = await bridge.request({ op: 'batch', ops: [...creates(2_000), huge, ...creates(2_000, 3_000)] }).then(
        () => null,
        (e) => e,
      );
      assert.equal(error?.code, 'frame_too_large');
      assert.match(error.message, /not sent.*maxFrameBytes 65536/);
      const view = await bridge.create('View');
      const update = await view.update({ nativeID: 'y'.repeat(70_000) }).then(() => null, (e) => e);
      assert.equal(update?.code, 'frame_too_large');
      assert.deepEqual(
        frames.slice(sentBefore).map((f) => f.op),
        ['create'],
        'only the create was written: nothing of the refused batch or update',
      );
      assert.equal((await bridge.stats()).sessionViews, 1);
      assert.deepEqual(await bridge.ping(), {});
    } finally {
      await bridge.close();
    }
  });

  test("parts are no longer than the daemon's maxFrameBytes, which hello reports, unless batchPartBytes is shorter", async () => {
    const lines = [];
    const bridge = await connect({ socket: daemon.socket, record: (e) => e.dir === 'in' && lines.push(JSON.stringify(e.frame)) });
    try {
      const { results } = await bridge.request({ op: 'batch', ops: creates(3_000) });
      assert.equal(results.length, 3_000);
      const parts = lines.filter((l) => l.includes('"op":"batch"'));
      assert.ok(parts.length >= 3, `${parts.length} parts`);
      for (const part of parts) assert.ok(Buffer.byteLength(part) <= 65_536, `a part of ${Buffer.byteLength(part)} bytes`);
    } finally {
      await bridge.close();
    }
    await assert.rejects(connect({ socket: daemon.socket, batchPartBytes: 10 }), TypeError);
  });

  test('a transaction larger than the frame commits in parts', async () => {
    const bridge = await connect({ socket: daemon.socket, batchPartBytes: 32_768 });
    try {
      const tx = bridge.transaction();
      const parent = tx.create('View');
      for (let i = 0; i < 6_000; i++) tx.create('TextField', { text: `row ${i} ${'·'.repeat(20)}` }, { parent });
      await tx.commit();
      assert.equal((await bridge.stats()).sessionViews, 6_001);
    } finally {
      await bridge.close();
    }
  });
});
