// lib/client/reader.js without a socket: lines told apart, responses matched to their requests and settled after
// the handlers of the events before them, and every malformed line a protocol_error that throws nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Dispatcher } from '../../lib/client/dispatch.js';
import { PendingRequests } from '../../lib/client/pending.js';
import { FrameReader, abbreviate } from '../../lib/client/reader.js';
import { SubscriptionTable } from '../../lib/events.js';
import { FakeTimers, outcome, settle } from '../../test-support/fakes.js';

function setup() {
  const pending = new PendingRequests({ timers: new FakeTimers() });
  const reported = [];
  const dispatch = new Dispatcher({ report: (err) => reported.push(err) });
  const seen = { events: [], takenOver: [], recorded: [], before: 0 };
  const reader = new FrameReader({
    pending,
    dispatch,
    report: (err) => reported.push(err),
    record: (entry) => seen.recorded.push(entry),
    onEvent: (frame) => seen.events.push(frame),
    onTakenOver: (error) => seen.takenOver.push(error),
    beforeResponse: () => seen.before++,
  });
  /** A request as the Bridge makes one: added, then written. */
  const send = (frame, options) => {
    const entry = pending.add(frame, options);
    pending.markSent(entry);
    return entry;
  };
  return { pending, dispatch, reader, reported, seen, send };
}

const event = (seq) => ({ event: 'countChange', seq, target: 2, payload: { count: seq }, path: [{ tag: 2, phase: 'bubble' }] });

describe('FrameReader', () => {
  test('a response settles its request with its result, or a BridgeError with the protocol\'s code', async () => {
    const { reader, send, seen, reported } = setup();
    const a = outcome(send({ op: 'ping' }).promise);
    const b = outcome(send({ op: 'inspect', tag: 9 }).promise);
    reader.read('{"id":1,"ok":true,"result":{}}');
    reader.read('{"id":2,"ok":false,"error":{"code":"unknown_tag","message":"no view 9"}}');
    await settle();
    assert.deepEqual(a, { value: {} });
    assert.equal(b.error.code, 'unknown_tag');
    assert.equal(b.error.message, 'no view 9');
    assert.equal(seen.before, 2);
    assert.deepEqual(seen.recorded.map((r) => [r.dir, r.frame.id]), [['out', 1], ['out', 2]]);
    assert.deepEqual(reported, []);
  });

  test('an event goes to onEvent; a response waits for the handlers the events before it started', async () => {
    const { reader, send, seen, dispatch } = setup();
    const table = new SubscriptionTable();
    let finish;
    table.add(2, 'countChange', 'bubble', { handler: () => new Promise((resolve) => (finish = resolve)) });
    const reply = outcome(send({ op: 'command', tag: 2, name: 'press' }).promise);
    reader.read(JSON.stringify(event(1)));
    assert.deepEqual(seen.events, [event(1)]);
    // What the Bridge's onEvent does: the event's handlers run, and the next response waits for them.
    dispatch.dispatch(seen.events[0], table);
    reader.read('{"id":1,"ok":true,"result":{}}');
    await settle();
    assert.deepEqual(reply, {}, 'not settled while the handler runs');
    finish();
    await settle();
    assert.deepEqual(reply, { value: {} });
  });

  test('onResponse runs as soon as the response is read; one that throws is reported and the request still settles', async () => {
    const { reader, send, reported } = setup();
    const order = [];
    const ok = outcome(send({ op: 'delete', tag: 3 }, { onResponse: (frame) => order.push(frame.result.deleted) }).promise);
    const bad = outcome(
      send({ op: 'delete', tag: 4 }, {
        onResponse: () => {
          throw new TypeError('deleted is not an array');
        },
      }).promise,
    );
    reader.read('{"id":1,"ok":true,"result":{"deleted":[3]}}');
    assert.deepEqual(order, [[3]]);
    reader.read('{"id":2,"ok":true,"result":{"deleted":4}}');
    await settle();
    assert.deepEqual(ok, { value: { deleted: [3] } });
    assert.deepEqual(bad, { value: { deleted: 4 } });
    assert.equal(reported.length, 1);
    assert.equal(reported[0].code, 'protocol_error');
    assert.match(reported[0].message, /^the daemon's answer to delete could not be used: deleted is not an array/);
  });

  test('a response with a null id answers the oldest request sent (frame_too_large)', async () => {
    const { reader, send } = setup();
    const first = outcome(send({ op: 'update', tag: 1, props: {} }).promise);
    const second = outcome(send({ op: 'ping' }).promise);
    reader.read('{"id":null,"ok":false,"error":{"code":"frame_too_large","message":"too large"}}');
    await settle();
    assert.equal(first.error?.code, 'frame_too_large');
    assert.deepEqual(second, {});
  });

  test('session_taken_over with a null id goes to onTakenOver, and answers no request', async () => {
    const { reader, send, seen, reported } = setup();
    const waiting = outcome(send({ op: 'ping' }).promise);
    reader.read('{"id":null,"ok":false,"error":{"code":"session_taken_over","message":"resumed elsewhere"}}');
    await settle();
    assert.equal(seen.takenOver.length, 1);
    assert.equal(seen.takenOver[0].code, 'session_taken_over');
    assert.equal(seen.before, 0);
    assert.deepEqual(waiting, {});
    assert.deepEqual(reported, []);
  });

  test('malformed lines are protocol errors naming what is wrong; nothing throws; empty lines are skipped', async () => {
    const { reader, send, seen, reported } = setup();
    const request = outcome(send({ op: 'ping' }).promise);
    const lines = [
      '',
      'not json',
      '[1,2]',
      '{"event":"countChange","seq":0,"target":2,"path":[]}',
      '{"id":7,"ok":true,"result":{}}',
      '{"id":1,"ok":true,"result":[]}',
    ];
    for (const line of lines) assert.doesNotThrow(() => reader.read(line), line);
    await settle();
    assert.deepEqual(seen.events, []);
    assert.deepEqual(
      reported.map((err) => [err.code, err.message]),
      [
        ['protocol_error', 'the daemon sent a line that is not JSON: not json'],
        ['protocol_error', 'the daemon sent a line that is neither a response nor an event: [1,2]'],
        ['protocol_error', `the daemon sent an event frame whose seq is not a positive integer: ${lines[3]}`],
        ['protocol_error', `the daemon sent a response to no request of this client (id 7): ${lines[4]}`],
        ['protocol_error', `the daemon sent a response whose result is not an object: ${lines[5]}`],
      ],
    );
    // The request the malformed response names fails with the same error, rather than waiting.
    assert.equal(request.error, reported[4]);
  });

  test('a long line is quoted cut short', () => {
    assert.equal(abbreviate('x'.repeat(300)), 'x'.repeat(300));
    assert.equal(abbreviate('x'.repeat(301)), `${'x'.repeat(300)}… (301 characters)`);
  });
});
