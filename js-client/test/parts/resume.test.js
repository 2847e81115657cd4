// lib/client/resume.js without a socket: what a loss does to each request, what a resume asks and gets back,
// the re-sent events, the attempts on a fake clock, and the Resumer that runs them for a Bridge.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PendingRequests } from '../../lib/client/pending.js';
import { Reconnector, Replay, Resumer, fateOnLoss, keptAfterReset, reattached, resumeOf, settleOnLoss } from '../../lib/client/resume.js';
import { BridgeError } from '../../lib/errors.js';
import { FakeTimers, outcome, settle } from '../../test-support/fakes.js';

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

describe('settleOnLoss', () => {
  test('each pending request gets its fate: waits, is forgotten, is repeated, or fails with connection_closed', async () => {
    const timers = new FakeTimers();
    const pending = new PendingRequests({ timers });
    const sent = (frame, options) => {
      const entry = pending.add(frame, options);
      pending.markSent(entry);
      return entry;
    };
    const unsent = outcome(pending.add({ op: 'update', tag: 1, props: {} }).promise);
    const repeated = sent({ op: 'inspect', tag: 1 });
    const repeatedOutcome = outcome(repeated.promise);
    const failed = outcome(sent({ op: 'command', tag: 1, name: 'press' }).promise);
    const controller = new AbortController();
    const aborted = outcome(sent({ op: 'ping' }, { signal: controller.signal }).promise);
    controller.abort();
    const cause = new Error('ECONNRESET');
    settleOnLoss(pending, { waitMs: 500, cause });
    await settle();
    assert.deepEqual([...pending].map(([, entry]) => entry.op), ['update', 'inspect']);
    assert.equal(repeated.sent, false, 'to be written again on the next connection');
    assert.equal(failed.error.code, 'connection_closed');
    assert.match(failed.error.message, /may or may not have taken effect/);
    assert.equal(failed.error.cause, cause);
    assert.equal(aborted.error.code, 'aborted');
    // Those that wait do so at most waitMs.
    assert.deepEqual(unsent, {});
    timers.advance(500);
    await settle();
    for (const waited of [unsent, repeatedOutcome]) {
      assert.equal(waited.error.code, 'connection_closed');
      assert.match(waited.error.message, /not back within 500 ms/);
    }
    assert.equal(pending.size, 0);
  });
});

describe('Resumer', () => {
  /** A host as the Bridge is one, recording what it is asked; `answer(frame)` is hello's response. */
  function setup({ answer, attach = true, options = { initialDelayMs: 10, maxDelayMs: 10, maxAttempts: 2, requestTimeoutMs: 1000 } } = {}) {
    const timers = new FakeTimers();
    const pending = new PendingRequests({ timers });
    const calls = [];
    let last = 4;
    const host = {
      pending,
      connect: async () => {
        calls.push('connect');
        return { socket: 'socket', daemonPid: 42 };
      },
      attach: (socket, pid) => {
        calls.push(`attach ${socket} ${pid}`);
        return attach;
      },
      request: (frame, requestOptions) => {
        calls.push(frame);
        const entry = pending.add(frame, requestOptions);
        pending.markSent(entry);
        const response = answer?.(frame);
        if (response) {
          pending.claim(response, null);
          requestOptions.onResponse?.(response);
          if (response.ok) entry.resolve(response.result);
          else entry.reject(new BridgeError(response.error.code, response.error.message));
        }
        return entry.promise;
      },
      drop: () => calls.push('drop'),
      session: () => 's1',
      token: () => 'secret',
      lastSeq: () => last,
      reattached: (result, outcome, asked) => calls.push({ reattached: outcome, asked }),
      emit: (name, info) => calls.push({ [name]: info }),
      gaveUp: (error) => calls.push({ gaveUp: error.code }),
    };
    const resumer = new Resumer(options, 2000, host, { timers, random: () => 1 });
    return { timers, pending, calls, resumer, setLast: (seq) => (last = seq) };
  }

  const lostError = () => new BridgeError('connection_closed', 'lost');

  test('off without reconnect options; waitMs is reconnect.requestTimeoutMs', () => {
    assert.equal(new Resumer(null, 1000, {}).enabled, false);
    assert.equal(new Resumer(null, 1000, {}).waitMs, 0);
    assert.equal(setup().resumer.waitMs, 1000);
  });

  test('a loss: after the back-off, connect, attach, hello with resume; a resume re-sends up to the seq named', async () => {
    const { timers, calls, resumer } = setup({
      answer: () => ({ id: 1, ok: true, result: { session: 's1', resumed: true, seq: 6 } }),
    });
    resumer.lost(lostError(), undefined);
    assert.deepEqual(calls, [{ reconnecting: { attempt: 1, delayMs: 10, error: lostError() } }]);
    timers.advance(10);
    await settle();
    assert.deepEqual(calls.slice(1), [
      'connect',
      'attach socket 42',
      { op: 'hello', protocol: 1, client: calls[3].client, resume: { session: 's1', token: 'secret', ack: 4 } },
      { reattached: { resumed: true, until: 6 }, asked: { previous: 's1', ack: 4 } },
    ]);
    // Events 5 and 6 are re-sent; 'resumed' once the last one was dispatched.
    assert.equal(resumer.replays(5), true);
    assert.equal(resumer.replays(7), false);
    resumer.replayed(5);
    assert.equal(calls.length, 5);
    resumer.replayed(6);
    assert.deepEqual(calls.at(-1), { resumed: { session: 's1', replayed: 2 } });
    assert.equal(resumer.replays(6), false);
  });

  test('a resume with nothing to re-send is resumed at once; a response ends a replay early', async () => {
    const none = setup({ answer: () => ({ id: 1, ok: true, result: { session: 's1', resumed: true, seq: 4 } }) });
    none.resumer.lost(lostError(), undefined);
    none.timers.advance(10);
    await settle();
    assert.deepEqual(none.calls.at(-1), { resumed: { session: 's1', replayed: 0 } });

    const early = setup({ answer: () => ({ id: 1, ok: true, result: { session: 's1', resumed: true, seq: 9 } }) });
    early.resumer.lost(lostError(), undefined);
    early.timers.advance(10);
    await settle();
    early.resumer.replayed(5);
    early.resumer.endReplay();
    assert.deepEqual(early.calls.at(-1), { resumed: { session: 's1', replayed: 1 } });
  });

  test('a fresh session is reattached with its reason, and nothing is replayed', async () => {
    const { timers, calls, resumer } = setup({
      answer: () => ({ id: 1, ok: true, result: { session: 's2', resumed: false, reason: 'expired' } }),
    });
    resumer.lost(lostError(), undefined);
    timers.advance(10);
    await settle();
    assert.deepEqual(calls.at(-1), { reattached: { resumed: false, reason: 'expired' }, asked: { previous: 's1', ack: 4 } });
    assert.equal(resumer.replays(1), false);
  });

  test('hello unanswered within timeoutMs is connect_failed; the attempt is dropped and the next one made; then it gives up', async () => {
    const { timers, calls, resumer, pending } = setup();
    resumer.lost(lostError(), undefined);
    timers.advance(10);
    await settle();
    timers.advance(2000);
    await settle();
    assert.equal(pending.size, 0, 'the unanswered hello is forgotten');
    assert.ok(calls.includes('drop'));
    assert.deepEqual(calls.filter((c) => c.reconnecting).map((c) => [c.reconnecting.attempt, c.reconnecting.error.code]), [
      [1, 'connection_closed'],
      [2, 'connect_failed'],
    ]);
    timers.advance(10);
    await settle();
    timers.advance(2000);
    await settle();
    assert.deepEqual(calls.at(-1), { gaveUp: 'connect_failed' });
  });

  test('an attach the owner refuses (it closed meanwhile) sends no hello; stop() ends the attempts', async () => {
    const refused = setup({ attach: false });
    refused.resumer.lost(lostError(), undefined);
    refused.timers.advance(10);
    await settle();
    assert.deepEqual(refused.calls.slice(1), ['connect', 'attach socket 42']);

    const stopped = setup();
    stopped.resumer.lost(lostError(), undefined);
    stopped.resumer.stop();
    stopped.timers.advance(100);
    await settle();
    assert.deepEqual(stopped.calls.slice(1), []);
  });
});
