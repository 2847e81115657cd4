// Reconnecting: resume by (session, seq), acks, de-duplication, safe re-sends, reset, takeover.
// Connections are cut for real: the client's own socket destroyed (bridge._socket), or the daemon
// restarted (SIGTERM with a state file, SIGKILL without).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BridgeError, connect } from '../index.js';
import { EventCursor, ackOptions, backoffDelay, reconnectOptions } from '../lib/reconnect.js';
import { startDaemon, stopped, tempDir } from '../test-support/daemon.js';

/** Reconnect quickly in tests; the back-off itself is checked without a socket. */
const FAST = { initialDelayMs: 10, maxDelayMs: 200 };
/** A safety net only: every wait below ends on an event or a response. */
const LIMIT = { timeout: 30_000 };

const cleanup = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

async function daemonFor(args = []) {
  const daemon = await startDaemon(args);
  cleanup.push(() => daemon.stop());
  return daemon;
}

async function client(options) {
  const bridge = await connect(options);
  cleanup.push(() => bridge.close());
  return bridge;
}

/** Waits until `condition()` holds (checked every few ms). */
async function until(condition) {
  while (!condition()) await sleep(5);
}

const range = (from, to) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

describe('rules without a socket', () => {
  test('back-off doubles from initialDelayMs up to maxDelayMs, jittered between half and all of it', () => {
    const options = { initialDelayMs: 100, maxDelayMs: 1000 };
    assert.deepEqual([1, 2, 3, 4, 5, 40].map((n) => backoffDelay(n, options, () => 1)), [100, 200, 400, 800, 1000, 1000]);
    assert.deepEqual([1, 2, 3, 4, 5].map((n) => backoffDelay(n, options, () => 0)), [50, 100, 200, 400, 500]);
  });

  test('options: off by default, true takes the defaults, bad values are TypeErrors', () => {
    assert.equal(reconnectOptions(undefined), null);
    assert.deepEqual(reconnectOptions(true), {
      initialDelayMs: 100,
      maxDelayMs: 5000,
      maxAttempts: Infinity,
      requestTimeoutMs: 30_000,
    });
    assert.throws(() => reconnectOptions({ requestTimeoutMs: -1 }), TypeError);
    assert.equal(reconnectOptions({ maxAttempts: 3 }).maxAttempts, 3);
    assert.throws(() => reconnectOptions({ maxAttempts: 0 }), TypeError);
    assert.deepEqual(ackOptions(undefined), { everyEvents: 256, delayMs: 100 });
    assert.equal(ackOptions(false), null);
    assert.throws(() => ackOptions({ everyEvents: 0 }), TypeError);
  });

  test('the cursor admits each seq once per session, and starts over in a new one', () => {
    const cursor = new EventCursor();
    cursor.reset('s1');
    assert.deepEqual([1, 2, 2, 1, 3].map((seq) => cursor.admit(seq)), [true, true, false, false, true]);
    cursor.reset('s2');
    assert.equal(cursor.admit(1), true);
  });

  test('connect() checks the options before connecting', async () => {
    await assert.rejects(connect({ socket: '/nonexistent/b.sock', reconnect: 'yes' }), TypeError);
  });
});

describe('resume after the connection is cut', () => {
  test('no event lost, none dispatched twice; the commands in flight fail with connection_closed', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket, reconnect: FAST });
    const seen = [];
    const button = await bridge.create('SwiftUIButton', { onCountChange: (e) => seen.push(e.seq) });
    for (let i = 0; i < 3; i++) await button.command('press');
    assert.deepEqual(seen, [1, 2, 3]);
    const session = bridge.session;

    // The daemon, stopped, holds five presses it has not read: their events cannot reach the old socket.
    const pid = daemon.child.pid;
    process.kill(pid, 'SIGSTOP');
    await stopped(pid);
    const presses = Promise.allSettled(range(1, 5).map(() => button.command('press')));
    const reconnecting = once(bridge, 'reconnecting');
    const resumed = once(bridge, 'resumed');
    bridge._socket.destroy();
    const [{ attempt, delayMs }] = await reconnecting;
    assert.equal(attempt, 1);
    assert.equal(typeof delayMs, 'number');
    assert.equal(bridge.state, 'reconnecting');
    assert.equal(bridge.closed, false);
    process.kill(pid, 'SIGCONT');

    // A command is not safe to repeat: it may or may not have run, its events come with the resume.
    for (const result of await presses) {
      assert.equal(result.status, 'rejected');
      assert.equal(result.reason.code, 'connection_closed');
    }
    const [info] = await resumed;
    assert.equal(info.session, session);
    assert.equal(bridge.session, session);
    assert.equal(bridge.state, 'open');

    // Every event the session produced, once each, in order: seq 1 … the session's last.
    const { seq } = await bridge.request({ op: 'stats' });
    assert.ok(seq >= 3);
    assert.deepEqual(seen, range(1, seq));
    assert.equal(info.replayed, seq - 3);

    // The view and its subscription are still there.
    assert.equal(button.state, 'live');
    await button.command('press');
    assert.deepEqual(seen, range(1, seq + 1));
  });

  test('inspect, ping and stats in flight are sent again; update is not (connection_closed)', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket, reconnect: FAST });
    const view = await bridge.create('SwiftUIButton', { title: 'a' });

    const pid = daemon.child.pid;
    process.kill(pid, 'SIGSTOP');
    await stopped(pid);
    const inspect = view.inspect();
    const update = view.update({ title: 'b' }).catch((e) => e);
    const ping = bridge.request({ op: 'ping' });
    const stats = bridge.request({ op: 'stats' });
    const reconnecting = once(bridge, 'reconnecting');
    bridge._socket.destroy();
    const err = await update;
    assert.ok(err instanceof BridgeError);
    assert.equal(err.code, 'connection_closed');
    await reconnecting;
    // Made while reconnecting: waits for the connection, then goes out.
    const later = view.inspect();
    process.kill(pid, 'SIGCONT');

    const inspected = await inspect;
    assert.equal(inspected.tag, view.tag);
    // The update may or may not have run before the connection was cut; nothing else can be.
    assert.ok(['a', 'b'].includes(inspected.props.title), inspected.props.title);
    assert.deepEqual(await ping, {});
    assert.equal(typeof (await stats).sessionViews, 'number');
    assert.equal((await later).props.title, inspected.props.title);
  });
});

describe('acknowledgements and de-duplication', () => {
  test('the client acks what it dispatched; the daemon then retains nothing', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket, ack: { everyEvents: 2, delayMs: 10 } });
    const button = await bridge.create('SwiftUIButton', { onCountChange: () => {} });
    for (let i = 0; i < 5; i++) await button.command('press');
    assert.equal(bridge.lastSeq, 5);
    await until(() => bridge.ackedSeq === 5);
    // A raw ack of 0 changes nothing and reports the daemon's cursor.
    assert.deepEqual(await bridge.request({ op: 'ack', seq: 0 }), { acked: 5, retained: 0 });
  });

  test('events re-sent from an older ack are not dispatched again', LIMIT, async () => {
    const daemon = await daemonFor();
    const records = [];
    // No acks: the daemon keeps every event, so a resume from ack 0 re-sends them all.
    const bridge = await client({ socket: daemon.socket, ack: false, record: (r) => records.push(r) });
    const seen = [];
    const button = await bridge.create('SwiftUIButton', { onCountChange: (e) => seen.push(e.seq) });
    for (let i = 0; i < 3; i++) await button.command('press');
    const frames = [];
    bridge.on('event', (frame) => frames.push(frame.seq));

    const from = records.length;
    const { token } = records.find((r) => r.dir === 'out' && r.frame.result?.token).frame.result;
    const resume = { session: bridge.session, token, ack: 0 };
    const result = await bridge.request({ op: 'hello', protocol: 1, resume });
    assert.equal(result.resumed, true);
    assert.equal(result.seq, 3);
    await bridge.request({ op: 'ping' }); // the re-sent events precede this response
    const resent = records.slice(from).filter((r) => r.dir === 'out' && r.frame.event).map((r) => r.frame.seq);
    assert.deepEqual(resent, [1, 2, 3]);
    assert.deepEqual(seen, [1, 2, 3]);
    assert.deepEqual(frames, []);

    await button.command('press');
    assert.deepEqual(seen, [1, 2, 3, 4]);
  });
});

describe('daemon restarts', () => {
  test('SIGTERM with --state-file: resumed, views and subscriptions still there', LIMIT, async () => {
    const stateDir = await tempDir();
    cleanup.push(() => rm(stateDir, { recursive: true, force: true }));
    const daemon = await daemonFor(['--state-file', join(stateDir, 'state.json')]);
    const bridge = await client({ socket: daemon.socket, reconnect: FAST });
    const seen = [];
    const parent = await bridge.create('View', { onCountChangeCapture: (e) => seen.push(['capture', e.seq]) });
    const button = await bridge.create(
      'SwiftUIButton',
      { title: 'kept', onCountChange: (e) => seen.push(['bubble', e.seq]) },
      { parent },
    );
    await button.command('press');
    const session = bridge.session;
    const resets = [];
    bridge.on('reset', (info) => resets.push(info));
    const resumed = once(bridge, 'resumed');

    await daemon.restart();
    const [info] = await resumed;
    assert.deepEqual(info, { session, replayed: 0 });
    assert.deepEqual(resets, []);
    const inspected = await button.inspect();
    assert.equal(inspected.props.title, 'kept');
    assert.equal(inspected.parent, parent.tag);
    await button.command('press');
    assert.deepEqual(seen, [
      ['capture', 1],
      ['bubble', 1],
      ['capture', 2],
      ['bubble', 2],
    ]);
  });

  test('a crash (SIGKILL) and a new daemon: reset with unknown_session; old views reject with session_reset', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket, reconnect: FAST });
    const seen = [];
    const old = await bridge.create('SwiftUIButton', { onCountChange: (e) => seen.push(e.seq) });
    await old.command('press');
    await old.command('press');
    const previousSession = bridge.session;
    const reset = once(bridge, 'reset');

    const pid = daemon.child.pid;
    const reconnecting = once(bridge, 'reconnecting');
    process.kill(pid, 'SIGKILL');
    await reconnecting;
    // Made while reconnecting: they wait, and the reset decides.
    const waitingInspect = old.inspect().catch((e) => e);
    const waitingPing = bridge.request({ op: 'ping' });
    await daemon.restart();
    const [info] = await reset;
    assert.equal(info.reason, 'unknown_session');
    assert.equal(info.previousSession, previousSession);
    assert.equal(info.session, bridge.session);
    assert.notEqual(bridge.session, previousSession);

    assert.equal(old.state, 'reset');
    await assert.rejects(old.inspect(), { code: 'session_reset', details: { tag: old.tag, state: 'reset' } });
    assert.equal((await waitingInspect).code, 'session_reset');
    assert.deepEqual(await waitingPing, {});
    assert.equal(bridge.view(old.tag), undefined);

    // The app rebuilds; the new session counts seq from 1 again, and those events are dispatched.
    const fresh = await bridge.create('SwiftUIButton', { onCountChange: (e) => seen.push(e.seq) });
    assert.equal((await bridge.request({ op: 'stats' })).sessionViews, 1);
    await fresh.command('press');
    assert.deepEqual(seen, [1, 2, 1]);
    assert.equal(bridge.lastSeq, 1);
  });
});

describe('expiry', () => {
  // No race with a clock: the session is saved detached by a clean stop, and the next daemon, with
  // --session-ttl 0, has it expired before any resume can come (a session detached for >= 0 s is past it).
  test('away longer than --session-ttl: reset with expired', LIMIT, async () => {
    const stateDir = await tempDir();
    cleanup.push(() => rm(stateDir, { recursive: true, force: true }));
    const stateFile = join(stateDir, 'state.json');
    const daemon = await daemonFor(['--state-file', stateFile]);
    const bridge = await client({ socket: daemon.socket, reconnect: FAST });
    const view = await bridge.create('View');
    const previousSession = bridge.session;
    const reset = once(bridge, 'reset');
    await daemon.restart(['--state-file', stateFile, '--session-ttl', '0']);
    const [info] = await reset;
    assert.deepEqual(info, { reason: 'expired', previousSession, session: bridge.session });
    assert.equal(view.state, 'reset');
  });
});

describe('ending', () => {
  test('session_taken_over: the old client closes with that reason and does not reconnect', LIMIT, async () => {
    const daemon = await daemonFor();
    const records = [];
    const a = await client({ socket: daemon.socket, reconnect: FAST, record: (r) => records.push(r) });
    const view = await a.create('View', { testID: 'mine' });
    const reconnects = [];
    a.on('reconnecting', (r) => reconnects.push(r));
    const closed = once(a, 'close');

    const b = await client({ socket: daemon.socket });
    // The resume presents the token of a's hello, as a's own reconnect would.
    const { token } = records.find((r) => r.dir === 'out' && r.frame.result?.token).frame.result;
    const resume = { session: a.session, token, ack: a.lastSeq };
    const result = await b.request({ op: 'hello', protocol: 1, resume });
    assert.equal(result.resumed, true);
    const [info] = await closed;
    assert.equal(info.reason, 'session_taken_over');
    assert.equal(info.error.code, 'session_taken_over');
    assert.equal(a.closed, true);
    assert.deepEqual(reconnects, []);
    await assert.rejects(view.inspect(), { code: 'connection_closed' });
    assert.equal((await b.request({ op: 'inspect', tag: view.tag })).props.testID, 'mine');
  });

  test('close() does not reconnect', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket, reconnect: FAST });
    const reconnects = [];
    bridge.on('reconnecting', (r) => reconnects.push(r));
    const closed = once(bridge, 'close');
    await bridge.close();
    assert.deepEqual((await closed)[0], { reason: 'closed' });
    assert.deepEqual(reconnects, []);
  });

  test('after maxAttempts failed attempts: close with gave_up; waiting requests fail', LIMIT, async () => {
    const daemon = await startDaemon();
    const bridge = await client({ socket: daemon.socket, reconnect: { ...FAST, maxAttempts: 2 } });
    const attempts = [];
    bridge.on('reconnecting', ({ attempt }) => attempts.push(attempt));
    const closed = once(bridge, 'close');
    await daemon.stop();
    const waiting = bridge.request({ op: 'ping' });
    const [info] = await closed;
    assert.equal(info.reason, 'gave_up');
    // Nothing listens any more (connect_failed), or a connection was closed as the daemon stopped.
    assert.ok(['connect_failed', 'connection_closed'].includes(info.error.code), info.error.code);
    assert.deepEqual(attempts, [1, 2]);
    await assert.rejects(waiting, { code: 'connection_closed' });
  });

  test('without reconnect, a lost connection closes the Bridge (reason lost)', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket });
    const closed = once(bridge, 'close');
    bridge._socket.destroy();
    const [info] = await closed;
    assert.equal(info.reason, 'lost');
    assert.equal(info.error.code, 'connection_closed');
    assert.equal(bridge.closed, true);
  });
});
