// lib/client/pending.js without a socket: ids, limits, timeouts on a fake clock, and which response answers which.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PendingRequests } from '../../lib/client/pending.js';
import { FakeTimers, outcome, settle } from '../../test-support/fakes.js';

function requests(options = {}) {
  const timers = new FakeTimers();
  return { timers, pending: new PendingRequests({ timers, ...options }) };
}

describe('PendingRequests', () => {
  test('ids count up from 1; the id comes first and wins over one in the frame', () => {
    const { pending } = requests();
    const a = pending.add({ op: 'ping' });
    const b = pending.add({ op: 'inspect', id: 99, tag: 3 });
    assert.equal(a.line, '{"id":1,"op":"ping"}');
    assert.equal(b.line, '{"id":2,"op":"inspect","tag":3}');
    assert.equal(b.op, 'inspect');
    assert.deepEqual([...pending].map(([id]) => id), [1, 2]);
  });

  test('a frame JSON cannot carry is bad_request, and uses its id up', () => {
    const { pending } = requests();
    assert.throws(() => pending.add({ op: 'emit', payload: { big: 1n } }), { code: 'bad_request', message: /^the request cannot be sent: / });
    assert.equal(pending.add({ op: 'ping' }).id, 2);
    assert.equal(pending.size, 1);
  });

  test('queue_full once maxQueuedBytes of unsent requests wait; sent ones and internal ones do not count', () => {
    const { pending } = requests({ maxQueuedBytes: 50 });
    const first = pending.add({ op: 'update', tag: 1, props: { title: 'x'.repeat(20) } }); // 72 bytes, alone: allowed
    assert.equal(pending.unsentBytes, first.bytes);
    assert.throws(() => pending.add({ op: 'ping' }), {
      code: 'queue_full',
      message: `${first.bytes} bytes of requests already wait to be written (maxQueuedBytes 50)`,
    });
    pending.add({ op: 'ack', seq: 1 }, { internal: 'ack' });
    pending.markSent(first);
    pending.add({ op: 'ping' });
    assert.equal(pending.size, 3);
  });

  test('timeout: a request without an answer within timeoutMs rejects with timeout', async () => {
    const { pending, timers } = requests();
    const entry = pending.add({ op: 'ping' }, { timeoutMs: 100 });
    const { promise } = entry;
    pending.markSent(entry);
    const result = outcome(promise);
    timers.advance(99);
    await settle();
    assert.deepEqual(result, {});
    timers.advance(1);
    await settle();
    assert.equal(result.error.code, 'timeout');
    assert.equal(result.error.message, 'no response to ping within 100 ms (requestTimeoutMs)');
    // Sent: its answer is still read (and ignored), so it stays until then.
    assert.equal(pending.get(1).aborted, true);
    assert.equal(pending.claim({ id: 1, ok: true, result: {} }, null), entry);
  });

  test('an answer in time clears its timer', async () => {
    const { pending, timers } = requests();
    const entry = pending.add({ op: 'ping' }, { timeoutMs: 100 });
    const { promise } = entry;
    pending.markSent(entry);
    pending.claim({ id: 1, ok: true, result: {} }, null).resolve('done');
    assert.equal(await promise, 'done');
    assert.equal(timers.size, 0);
  });

  test('while requests wait for a reconnection, their timeout does not run; reconnect.requestTimeoutMs does', async () => {
    let waiting = true;
    const { pending, timers } = requests({ isWaiting: () => waiting });
    const entry = pending.add({ op: 'update', tag: 1, props: {} }, { timeoutMs: 100 });
    const { promise } = entry;
    pending.waitForReconnect(entry, 500);
    const result = outcome(promise);
    timers.advance(100);
    await settle();
    assert.deepEqual(result, {});
    timers.advance(400);
    await settle();
    assert.equal(result.error.code, 'connection_closed');
    assert.equal(result.error.message, 'the connection to bridged was not back within 500 ms (reconnect.requestTimeoutMs)');
    assert.equal(result.error.cause.name, 'TimeoutError');
    assert.equal(pending.size, 0);
    assert.equal(pending.unsentBytes, 0);
    waiting = false;
  });

  test('a request sent before its reconnect wait ends is not failed by it', async () => {
    const { pending, timers } = requests();
    const entry = pending.add({ op: 'ping' });
    const { promise } = entry;
    pending.waitForReconnect(entry, 10);
    pending.markSent(entry);
    const result = outcome(promise);
    timers.advance(10);
    await settle();
    assert.deepEqual(result, {});
    assert.equal(pending.size, 1);
  });

  test('abort: unsent, the request is dropped; sent, it is kept to read its answer', async () => {
    const { pending } = requests();
    const unsent = new AbortController();
    const sent = new AbortController();
    const a = pending.add({ op: 'ping' }, { signal: unsent.signal });
    const b = pending.add({ op: 'ping' }, { signal: sent.signal });
    pending.markSent(b);
    const results = [outcome(a.promise), outcome(b.promise)];
    unsent.abort();
    sent.abort();
    await settle();
    assert.deepEqual(results.map((r) => r.error.code), ['aborted', 'aborted']);
    assert.deepEqual([...pending].map(([id]) => id), [2]);
    assert.equal(b.line, null);
    assert.equal(pending.unsentBytes, 0);
  });

  test('claim: a response with a null id (frame_too_large) answers the oldest request sent', () => {
    const { pending } = requests();
    const a = pending.add({ op: 'ping' });
    const b = pending.add({ op: 'ping' });
    pending.add({ op: 'ping' });
    pending.markSent(b);
    assert.equal(pending.oldestSent(), 2);
    assert.equal(pending.claim({ id: null, ok: false, error: { code: 'frame_too_large' } }, null), b);
    assert.equal(pending.oldestSent(), undefined);
    pending.markSent(a);
    assert.equal(pending.claim({ id: null, ok: false }, null), a);
  });

  test('claim refuses an answer to no request of this client: unknown, unsent, or already answered', () => {
    const { pending } = requests();
    const entry = pending.add({ op: 'ping' });
    const refused = (frame) => pending.claim(frame, null);
    assert.equal(refused({ id: 1, ok: true }), 'the daemon sent a response to no request of this client (id 1)');
    pending.markSent(entry);
    assert.equal(refused({ id: 7, ok: true }), 'the daemon sent a response to no request of this client (id 7)');
    assert.equal(refused({ id: null, ok: true, result: {} }), entry); // answers request 1
    assert.equal(refused({ id: 1, ok: true }), 'the daemon sent a response to no request of this client (id 1)');
  });

  test('claim with a problem: the request it names is returned to fail with it; otherwise refused', () => {
    const { pending } = requests();
    const entry = pending.add({ op: 'ping' });
    assert.equal(pending.claim({ id: 1, ok: 'x' }, 'ok is not a boolean'), 'the daemon sent a response whose ok is not a boolean');
    pending.markSent(entry);
    assert.equal(pending.claim({ id: 1, ok: 'x' }, 'ok is not a boolean'), entry);
  });

  test('failAll rejects every request, each with an error of its own, and forgets them', async () => {
    const { pending } = requests();
    const promises = [pending.add({ op: 'ping' }).promise, pending.add({ op: 'stats' }).promise];
    pending.failAll(() => new Error('closed'));
    const errors = await Promise.all(promises.map((p) => p.catch((e) => e)));
    assert.deepEqual(errors.map((e) => e.message), ['closed', 'closed']);
    assert.notEqual(errors[0], errors[1]);
    assert.equal(pending.size, 0);
    assert.equal(pending.unsentBytes, 0);
  });

  test('dropInternal fails only the client\'s own requests of that kind', async () => {
    const { pending } = requests();
    const hello = pending.add({ op: 'hello' }, { internal: 'hello' });
    pending.add({ op: 'ping' });
    pending.dropInternal('hello', new Error('no hello'));
    assert.equal((await hello.promise.catch((e) => e)).message, 'no hello');
    assert.deepEqual([...pending].map(([, e]) => e.op), ['ping']);
  });
});
