// lib/client/acker.js without a socket: cumulative acks, batched by count or by time, one in flight.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Acker } from '../../lib/client/acker.js';
import { BridgeError } from '../../lib/errors.js';
import { FakeTimers, settle } from '../../test-support/fakes.js';

function setup(options = { everyEvents: 3, delayMs: 100 }) {
  const timers = new FakeTimers();
  const state = { last: 0, open: true };
  const sent = [];
  const answers = [];
  const acker = new Acker(options, {
    last: () => state.last,
    canSend: () => state.open,
    send: (seq) => {
      sent.push(seq);
      return new Promise((resolve, reject) => answers.push({ resolve, reject }));
    },
    timers,
  });
  return { timers, state, sent, answers, acker };
}

describe('Acker', () => {
  test('acks at once when everyEvents are unacked, the last seq dispatched', () => {
    const { state, sent, acker } = setup();
    state.last = 2;
    acker.schedule();
    assert.deepEqual(sent, []);
    state.last = 3;
    acker.schedule();
    assert.deepEqual(sent, [3]);
    assert.equal(acker.sent, 3);
  });

  test('fewer: acks delayMs after the first read that left events unacked, once', () => {
    const { timers, state, sent, acker } = setup();
    state.last = 1;
    acker.schedule();
    timers.advance(50);
    state.last = 2;
    acker.schedule(); // the timer already runs
    timers.advance(49);
    assert.deepEqual(sent, []);
    timers.advance(1);
    assert.deepEqual(sent, [2]);
  });

  test('one ack in flight at most; its answer sets acked and the next covers what came meanwhile', async () => {
    const { state, sent, answers, acker } = setup();
    state.last = 3;
    acker.schedule();
    state.last = 7;
    acker.schedule();
    assert.deepEqual(sent, [3]);
    answers[0].resolve({ acked: 3, retained: 4 });
    await settle();
    assert.equal(acker.acked, 3);
    assert.deepEqual(sent, [3, 7]);
  });

  test('a daemon without ack (unknown_op) is not asked again', async () => {
    const { state, sent, answers, acker } = setup();
    state.last = 3;
    acker.schedule();
    answers[0].reject(new BridgeError('unknown_op', "unknown op 'ack'"));
    await settle();
    state.last = 10;
    acker.schedule();
    assert.deepEqual(sent, [3]);
  });

  test('another failure: the next ack covers it', async () => {
    const { state, sent, answers, acker } = setup();
    state.last = 3;
    acker.schedule();
    answers[0].reject(new BridgeError('connection_closed', 'lost'));
    await settle();
    state.last = 6;
    acker.schedule();
    assert.deepEqual(sent, [3, 6]);
  });

  test('nothing is sent while the connection cannot carry it, nor with the option off', () => {
    const { state, sent, acker, timers } = setup();
    state.open = false;
    state.last = 5;
    acker.schedule();
    timers.advance(1000);
    assert.deepEqual(sent, []);
    const off = setup(null);
    off.state.last = 500;
    off.acker.schedule();
    assert.deepEqual(off.sent, []);
  });

  test('stop cancels the timer; an answer from before a reset confirms nothing in the fresh session', async () => {
    const { timers, state, sent, answers, acker } = setup();
    state.last = 1;
    acker.schedule();
    acker.stop();
    timers.advance(1000);
    assert.deepEqual(sent, []);
    state.last = 3;
    acker.schedule();
    acker.reset();
    answers[0].resolve({ acked: 3 });
    await settle();
    assert.equal(acker.acked, 0);
  });

  test('resumed raises sent and acked to the seq the resume acknowledged, never lowers them', () => {
    const { acker } = setup();
    acker.resumed(8);
    acker.resumed(5);
    assert.equal(acker.sent, 8);
    assert.equal(acker.acked, 8);
  });
});
