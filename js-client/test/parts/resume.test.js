// lib/client/resume.js without a socket: what a loss does to each request, what a resume asks and gets back,
// the re-sent events, and the attempts on a fake clock.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Reconnector, Replay, fateOnLoss, keptAfterReset, reattached, resumeOf } from '../../lib/client/resume.js';
import { BridgeError } from '../../lib/errors.js';
import { FakeTimers, settle } from '../../test-support/fakes.js';

const entry = (op, fields = {}) => ({ op, sent: true, aborted: false, internal: null, ...fields });

describe('what a lost connection does to a pending request', () => {
  test('unsent: waits; aborted: dropped; safe to repeat: repeated; anything else: fails', () => {
    assert.equal(fateOnLoss(entry('update', { sent: false })), 'wait');
    assert.equal(fateOnLoss(entry('inspect', { aborted: true })), 'drop');
    for (const op of ['inspect', 'ping', 'stats']) assert.equal(fateOnLoss(entry(op)), 'repeat', op);
    for (const op of ['create', 'update', 'command', 'emit', 'batch', 'delete', 'sessions']) assert.equal(fateOnLoss(entry(op)), 'fail', op);
  });

  test('the client\'s own requests are never repeated nor kept waiting', () => {
    assert.equal(fateOnLoss(entry('ping', { internal: 'ack' })), 'fail');
    assert.equal(fateOnLoss(entry('hello', { internal: 'hello', sent: false })), 'fail');
  });

  test('after a reset only session-free ops are still sent', () => {
    assert.deepEqual(
      ['ping', 'stats', 'inspect', 'update', 'create'].filter((op) => keptAfterReset(entry(op))),
      ['ping', 'stats'],
    );
  });
});

describe('resume', () => {
  test('resumeOf carries the token only when the daemon gave one', () => {
    assert.deepEqual(resumeOf({ session: 's1', token: 'abc', ack: 4 }), { session: 's1', token: 'abc', ack: 4 });
    assert.deepEqual(resumeOf({ session: 's1', token: undefined, ack: 4 }), { session: 's1', ack: 4 });
  });

  test('reattached: resumed up to the seq hello names (else the ack); a fresh session with its reason', () => {
    assert.deepEqual(reattached({ resumed: true, session: 's1', seq: 9 }, { session: 's1', ack: 4 }), { resumed: true, until: 9 });
    assert.deepEqual(reattached({ resumed: true, session: 's1' }, { session: 's1', ack: 4 }), { resumed: true, until: 4 });
    assert.deepEqual(reattached({ resumed: true, session: 's2' }, { session: 's1', ack: 4 }), { resumed: false, reason: 'unknown_session' });
    assert.deepEqual(reattached({ resumed: false, reason: 'expired', session: 's2' }, { session: 's1', ack: 4 }), {
      resumed: false,
      reason: 'expired',
    });
  });

  test('Replay: covers the events up to until, counts them, ends on the last one', () => {
    const replay = new Replay();
    assert.equal(replay.start('s1', 4, 4), false);
    assert.equal(replay.active, false);
    assert.equal(replay.start('s1', 6, 4), true);
    assert.equal(replay.covers(5), true);
    assert.equal(replay.covers(7), false);
    assert.equal(replay.count(5), false);
    assert.equal(replay.count(6), true);
    assert.deepEqual(replay.end(), { session: 's1', replayed: 2 });
    assert.equal(replay.end(), null);
    assert.equal(replay.covers(5), false);
  });
});

describe('Reconnector', () => {
  const options = { initialDelayMs: 100, maxDelayMs: 1000, maxAttempts: 3 };
  const lost = () => new BridgeError('connection_closed', 'lost');

  function run(reconnector, attempt) {
    const seen = [];
    const result = reconnector.run(lost(), {
      onAttempt: ({ attempt: n, delayMs, error }) => seen.push({ n, delayMs, code: error.code }),
      attempt,
      onFailure: (err) => seen.push(`failed: ${err.message}`),
    });
    return { seen, result };
  }

  test('waits the back-off before each attempt (random 1: the whole delay), and stops at the first success', async () => {
    const timers = new FakeTimers();
    const reconnector = new Reconnector(options, { timers, random: () => 1 });
    let tries = 0;
    const { seen, result } = run(reconnector, async () => {
      tries++;
      if (tries === 1) throw new BridgeError('connect_failed', 'refused');
    });
    await settle();
    assert.equal(tries, 0);
    timers.advance(100);
    await settle();
    assert.equal(tries, 1);
    timers.advance(200);
    await settle();
    assert.equal(await result, null);
    assert.deepEqual(seen, [
      { n: 1, delayMs: 100, code: 'connection_closed' },
      'failed: refused',
      { n: 2, delayMs: 200, code: 'connect_failed' },
    ]);
  });

  test('gives up after maxAttempts with the last error', async () => {
    const timers = new FakeTimers();
    const reconnector = new Reconnector(options, { timers, random: () => 0 });
    let n = 0;
    const { result } = run(reconnector, async () => {
      throw new BridgeError('connection_closed', `attempt ${++n}`);
    });
    for (let i = 0; i < 3; i++) {
      timers.advance(1000);
      await settle();
    }
    assert.equal((await result).message, 'attempt 3');
  });

  test('a refusal that is not a lost connection ends the attempts at once', async () => {
    const timers = new FakeTimers();
    const reconnector = new Reconnector(options, { timers });
    let tries = 0;
    const { result } = run(reconnector, async () => {
      tries++;
      throw new BridgeError('permission_denied', 'no');
    });
    timers.advance(100);
    await settle();
    assert.equal((await result).code, 'permission_denied');
    assert.equal(tries, 1);
  });

  test('cancel ends a wait at once, with no attempt', async () => {
    const timers = new FakeTimers();
    const reconnector = new Reconnector(options, { timers });
    let tries = 0;
    const { result } = run(reconnector, async () => tries++);
    reconnector.cancel();
    assert.equal(await result, null);
    assert.equal(tries, 0);
    assert.equal(timers.size, 0);
  });
});
