// bridge.events(), backpressure on the client's writes, errors nobody listens for, and close() with bye.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { connect } from '../index.js';
import { exited, startDaemon, stopped, tempDir } from '../test-support/daemon.js';

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
  cleanup.push(() => bridge.close({ keepSession: true }));
  return bridge;
}

describe('events()', () => {
  test('yields the event frames in order, from the moment it was made; ends on abort', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket });
    const button = await bridge.create('SwiftUIButton', { onCountChange: () => {} });
    await button.command('press'); // before events(): not seen
    const controller = new AbortController();
    const stream = bridge.events({ signal: controller.signal });
    await button.command('press');
    await button.command('press');
    const seen = [];
    for await (const e of stream) {
      seen.push([e.seq, e.event, e.payload.count]);
      if (seen.length === 2) controller.abort();
    }
    assert.deepEqual(seen, [
      [2, 'countChange', 1],
      [3, 'countChange', 1],
    ]);
  });

  test('break stops it; close() ends it (done); a lost connection makes it throw', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket });
    const button = await bridge.create('SwiftUIButton', { onCountChange: () => {} });
    const pressing = button.command('press');
    for await (const e of bridge.events()) {
      assert.equal(e.seq, 1);
      break;
    }
    await pressing;

    const open = bridge.events();
    const waiting = open.next();
    await bridge.close();
    assert.deepEqual(await waiting, { value: undefined, done: true });

    const other = await client({ socket: daemon.socket });
    const lost = other.events();
    const next = lost.next();
    other._socket.destroy();
    const err = await next.then(() => null, (e) => e);
    assert.equal(err?.code, 'connection_closed');
    assert.deepEqual(await lost.next(), { value: undefined, done: true });
  });
});

describe('backpressure', () => {
  test('writes wait for drain: the socket buffers little, the rest waits in a bounded queue', LIMIT, async () => {
    const daemon = await daemonFor();
    const maxQueuedBytes = 512 * 1024;
    const bridge = await client({ socket: daemon.socket, maxQueuedBytes });
    const pid = daemon.child.pid;
    process.kill(pid, 'SIGSTOP');
    await stopped(pid);
    let resumed = false;
    cleanup.push(() => resumed || process.kill(pid, 'SIGCONT'));

    // 4 MiB of pings (unknown fields are ignored): far more than the kernel's buffer holds.
    const padding = 'x'.repeat(1024);
    const requests = [];
    for (let i = 0; i < 4096; i++) requests.push(bridge.request({ op: 'ping', padding }).then(() => 'ok', (e) => e.code));
    const socket = bridge._socket;
    assert.ok(socket.writableLength <= socket.writableHighWaterMark + 2048, `${socket.writableLength} bytes in the socket`);

    process.kill(pid, 'SIGCONT');
    resumed = true;
    const outcomes = await Promise.all(requests);
    const ok = outcomes.filter((o) => o === 'ok').length;
    const full = outcomes.filter((o) => o === 'queue_full').length;
    assert.equal(ok + full, outcomes.length, String(outcomes.find((o) => o !== 'ok' && o !== 'queue_full')));
    assert.ok(full > 0, 'the queue was never full');
    assert.ok(ok * 1040 > maxQueuedBytes / 2, `only ${ok} were sent`);
    // Accepted ones in order, refused ones after them: a refusal is only for what exceeds the bound.
    assert.deepEqual(outcomes.slice(0, ok), Array(ok).fill('ok'));
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
  });
});

describe('errors nobody listens for', () => {
  test('a lost connection: pending requests, close and the iterator carry it; no crash without a listener', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket });
    assert.equal(bridge.listenerCount('error'), 0);
    const pid = daemon.child.pid;
    process.kill(pid, 'SIGSTOP');
    await stopped(pid);
    const pending = bridge.request({ op: 'ping' }).catch((e) => e);
    // Not events.once(), which listens for 'error' too.
    const closed = new Promise((resolve) => bridge.once('close', (info) => resolve([info])));
    const stream = bridge.events();
    process.kill(pid, 'SIGKILL');
    await exited(pid);
    const [info] = await closed;
    assert.equal(info.reason, 'lost');
    assert.equal(info.error.code, 'connection_closed');
    assert.equal((await pending).code, 'connection_closed');
    await assert.rejects(stream.next(), { code: 'connection_closed' });
    assert.equal(bridge.listenerCount('error'), 0);
  });

  test('a peer that breaks the protocol: protocol_error on the iterator, a warning when nobody listens', LIMIT, async () => {
    // Not the daemon: a socket peer that answers hello, then sends a line that is not JSON.
    const dir = await tempDir();
    const path = join(dir, 'broken.sock');
    const server = createServer((socket) => {
      socket.once('data', () => {
        const hello = { protocol: 1, server: 'broken/0', session: 's1', components: {} };
        socket.write(`${JSON.stringify({ id: 1, ok: true, result: hello })}\n`);
        socket.once('data', () => socket.write('this is not json\n'));
      });
    });
    server.listen(path);
    await once(server, 'listening');
    cleanup.push(() => new Promise((resolve) => server.close(resolve)));
    const bridge = await connect({ socket: path, ack: false });
    cleanup.push(() => bridge._socket.destroy());

    const stream = bridge.events();
    const next = stream.next();
    bridge.request({ op: 'ping' }).catch(() => {});
    const err = await next.then(() => null, (e) => e);
    assert.equal(err?.code, 'protocol_error');
    assert.match(err.message, /this is not json/);

    const warning = once(process, 'warning');
    bridge._socket.emit('data', Buffer.from('neither is this\n'));
    const [warned] = await warning;
    assert.equal(warned.code, 'protocol_error');
  });
});

describe('close()', () => {
  test('sends bye: the session ends at once and cannot be resumed', LIMIT, async () => {
    const daemon = await daemonFor();
    const records = [];
    const bridge = await connect({ socket: daemon.socket, record: (r) => records.push(r) });
    await bridge.create('View', { testID: 'gone' });
    const { token } = records.find((r) => r.dir === 'out' && r.frame.result?.session).frame.result;
    await bridge.close();
    assert.deepEqual(records.filter((r) => r.dir === 'in').at(-1).frame.op, 'bye');
    assert.deepEqual(records.at(-1), { dir: 'out', frame: { id: records.at(-2).frame.id, ok: true, result: {} } });

    const other = await client({ socket: daemon.socket });
    const resume = { session: bridge.session, ack: 0, ...(token === undefined ? {} : { token }) };
    const result = await other.request({ op: 'hello', protocol: 1, resume });
    assert.equal(result.resumed, false);
    assert.equal(result.reason, 'unknown_session');
  });

  test('{keepSession: true}: no bye, and the session can be resumed', LIMIT, async () => {
    const daemon = await daemonFor();
    const records = [];
    const bridge = await connect({ socket: daemon.socket, record: (r) => records.push(r) });
    const view = await bridge.create('View', { testID: 'kept' });
    const { token } = records.find((r) => r.dir === 'out' && r.frame.result?.session).frame.result;
    await bridge.close({ keepSession: true });
    assert.ok(!records.some((r) => r.dir === 'in' && r.frame.op === 'bye'));

    const other = await client({ socket: daemon.socket });
    const resume = { session: bridge.session, ack: 0, ...(token === undefined ? {} : { token }) };
    const result = await other.request({ op: 'hello', protocol: 1, resume });
    assert.equal(result.resumed, true);
    assert.equal((await other.request({ op: 'inspect', tag: view.tag })).props.testID, 'kept');
  });
});
