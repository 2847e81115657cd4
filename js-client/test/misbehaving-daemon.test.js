// A daemon that breaks the protocol, or never answers: the client reports it and goes on, it never crashes
// the process and never settles the wrong request. The peers here are real Unix sockets served by a small fake
// daemon (no bridged breaks the protocol on purpose); the silent daemon is a real one held by SIGSTOP.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { connect } from '../index.js';
import { LineSplitter } from '../lib/lines.js';
import { startDaemon, stopped, tempDir } from '../test-support/daemon.js';

const LIMIT = { timeout: 60_000 };
const cleanup = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

/**
 * A fake daemon on a real Unix socket: it answers hello, then hands every other request to `onRequest(frame,
 * write)`, where `write(text)` sends `text` and a `\n`. Returns the socket path.
 */
async function fakeDaemon(onRequest) {
  const dir = await tempDir();
  const path = join(dir, 'fake.sock');
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    const splitter = new LineSplitter();
    const write = (text) => socket.write(`${text}\n`);
    socket.on('data', (chunk) => {
      for (const line of splitter.push(chunk)) {
        const frame = JSON.parse(line);
        if (frame.op === 'hello') {
          write(JSON.stringify({ id: frame.id, ok: true, result: { protocol: 1, server: 'fake/0', session: 's1', components: {} } }));
        } else {
          onRequest(frame, write, socket);
        }
      }
    });
  });
  server.listen(path);
  await once(server, 'listening');
  cleanup.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return path;
}

/** Connects to `path` and collects the Bridge's 'error' events. */
async function client(path, options = {}) {
  const bridge = await connect({ socket: path, ack: false, ...options });
  const errors = [];
  bridge.on('error', (err) => errors.push(err));
  cleanup.push(() => bridge.close({ keepSession: true }));
  return { bridge, errors };
}

describe('malformed frames', () => {
  // Each is sent in place of the answer to a ping; after each, a good answer to that ping follows, then the
  // next ping shows the Bridge still works. Not one of them may throw out of the socket's handler.
  const malformed = [
    // events: wrong types for seq, target, path, its entries and payload
    { event: 'countChange', seq: 1, target: 1, payload: {}, path: null },
    { event: 'countChange', seq: 1, target: 1, payload: {}, path: [null] },
    { event: 'countChange', seq: 1, target: 1, payload: {}, path: [1, 'x'] },
    { event: 'countChange', seq: 1, target: 1, payload: {}, path: [{ tag: null, phase: 'bubble' }] },
    { event: 'countChange', seq: 1, target: 1, payload: {}, path: [{ tag: 1, phase: 'sideways' }] },
    { event: 'countChange', seq: 1, target: 1, payload: {}, path: 'x' },
    { event: 'countChange', seq: 1, target: 1, payload: {}, path: { 0: { tag: 1 }, length: 1 } },
    { event: 'countChange', seq: '1', target: 1, payload: {}, path: [] },
    { event: 'countChange', seq: null, target: 1, payload: {}, path: [] },
    { event: 'countChange', seq: -1, target: 1, payload: {}, path: [] },
    { event: 'countChange', seq: 1.5, target: 1, payload: {}, path: [] },
    { event: 'countChange', seq: { valueOf: 1 }, target: 1, payload: {}, path: [] },
    { event: 'countChange', seq: 1, target: 'one', payload: {}, path: [] },
    { event: 'countChange', seq: 1, target: null, payload: {}, path: [] },
    { event: 'countChange', seq: 1, target: 1, payload: null, path: [] },
    { event: 'countChange', seq: 1, target: 1, payload: 5, path: [] },
    { event: 'countChange', seq: 1, target: 1, payload: [1], path: [] },
    { event: 5, seq: 1, target: 1, payload: {}, path: [] },
    { event: null },
    // responses: wrong types for id, ok, result and error
    { id: {}, ok: true, result: {} },
    { id: [1], ok: false, error: null },
    { id: true, ok: true, result: {} },
    { id: 1.5, ok: true, result: {} },
    { ok: true, result: {} },
    { id: 'PING', ok: 'yes', result: {} },
    { id: 'PING', ok: true },
    { id: 'PING', ok: true, result: null },
    { id: 'PING', ok: true, result: 'x' },
    { id: 'PING', ok: false },
    { id: 'PING', ok: false, error: 'x' },
    { id: 'PING', ok: false, error: { code: 5 } },
    // not objects at all
    null,
    5,
    'a string',
    [],
    [{ id: 1 }],
    {},
    { __proto__: null, constructor: 1 },
  ];

  test('are protocol_errors: the process never crashes and the Bridge goes on', LIMIT, async () => {
    let current = null; // {bad}: the frame to send in place of the next ping's answer
    const path = await fakeDaemon((frame, write) => {
      if (frame.op !== 'ping') return write(JSON.stringify({ id: frame.id, ok: true, result: {} }));
      if (frame.final || current === null) return write(JSON.stringify({ id: frame.id, ok: true, result: {} }));
      // The bad frame, with the ping's id where it has 'PING'; then (unless it answered the ping) its answer.
      const text = JSON.stringify(current.bad).replace('"PING"', JSON.stringify(frame.id));
      write(text);
      write(JSON.stringify({ id: frame.id, ok: true, result: {} }));
    });
    const { bridge, errors } = await client(path);
    // One handler for every event, on tag 1: a dispatched bad path would reach it.
    const uncaught = [];
    const onUncaught = (err) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    cleanup.push(() => process.off('uncaughtException', onUncaught));
    for (const bad of malformed) {
      current = { bad };
      const before = errors.length;
      const outcome = await bridge.request({ op: 'ping' }).then(() => 'ok', (e) => e.code);
      // The bad frame either answered the ping (and failed it as protocol_error) or was reported on its own.
      assert.ok(outcome === 'ok' || outcome === 'protocol_error', `${JSON.stringify(bad)}: ${outcome}`);
      assert.ok(errors.length > before, `${JSON.stringify(bad)} was not reported`);
      for (const err of errors.slice(before)) assert.equal(err.code, 'protocol_error', `${JSON.stringify(bad)}: ${err.message}`);
      current = null;
      assert.deepEqual(await bridge.request({ op: 'ping', final: true }), {});
    }
    assert.deepEqual(uncaught, []);
    assert.equal(bridge.state, 'open');
  });

  test('an event whose path holds null is not dispatched, and later events are', LIMIT, async () => {
    let pings = 0;
    const path = await fakeDaemon((frame, write) => {
      if (frame.op === 'ping') {
        pings++;
        const path = pings === 1 ? [null] : [{ tag: 1, phase: 'bubble' }];
        write(JSON.stringify({ event: 'countChange', seq: pings, target: 1, payload: { count: pings }, path }));
      }
      write(JSON.stringify({ id: frame.id, ok: true, result: {} }));
    });
    const { bridge, errors } = await client(path);
    const seen = [];
    bridge.on('event', (e) => seen.push(e.seq));
    await bridge.request({ op: 'ping' });
    await bridge.request({ op: 'ping' });
    assert.deepEqual(seen, [2]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].code, 'protocol_error');
    assert.match(errors[0].message, /path/);
  });
  test('tags and seqs past 2^53 (up to 2^63 - 1, inexact in JavaScript) are still frames of the protocol', LIMIT, async () => {
    const path = await fakeDaemon((frame, write) => {
      write(`{"event":"countChange","seq":9223372036854775807,"target":9223372036854775807,"payload":{},"path":[{"tag":9223372036854775807,"phase":"bubble"}]}`);
      write(JSON.stringify({ id: frame.id, ok: true, result: {} }));
    });
    const { bridge, errors } = await client(path);
    const seen = [];
    bridge.on('event', (e) => seen.push(e.target));
    await bridge.request({ op: 'ping' });
    assert.deepEqual(seen, [2 ** 63]);
    assert.deepEqual(errors, []);
  });
});

describe('responses', () => {
  test('an answer the client cannot keep its books with (deleted: 5) is a protocol_error, not a TypeError', LIMIT, async () => {
    const path = await fakeDaemon((frame, write) => {
      const result = frame.op === 'delete' ? { deleted: 5 } : frame.op === 'create' ? { tag: frame.tag } : {};
      write(JSON.stringify({ id: frame.id, ok: true, result }));
    });
    const { bridge, errors } = await client(path);
    const view = await bridge.create('View');
    await view.delete();
    assert.deepEqual(errors.map((e) => [e.code, e.cause?.name]), [['protocol_error', 'TypeError']]);
    assert.match(errors[0].message, /answer to delete could not be used/);
  });

  test('a response to an id that was never sent settles nothing: protocol_error', LIMIT, async () => {
    const held = [];
    const path = await fakeDaemon((frame, write) => {
      if (frame.op === 'stats') {
        // Answers an id the client never sent, then holds the stats request until a ping comes.
        write(JSON.stringify({ id: 999, ok: true, result: { wrong: true } }));
        held.push(() => write(JSON.stringify({ id: frame.id, ok: true, result: { right: true } })));
      } else {
        for (const answer of held.splice(0)) answer();
        write(JSON.stringify({ id: frame.id, ok: true, result: {} }));
      }
    });
    const { bridge, errors } = await client(path);
    const stats = bridge.request({ op: 'stats' });
    const reported = new Promise((resolve) => bridge.once('error', resolve));
    const err = await reported;
    assert.equal(err.code, 'protocol_error');
    assert.match(err.message, /999/);
    await bridge.request({ op: 'ping' });
    assert.deepEqual(await stats, { right: true });
    assert.equal(errors.length, 1);
  });

  test('a response with a null id (frame_too_large) answers the oldest request sent, as documented', LIMIT, async () => {
    const path = await fakeDaemon((frame, write) => {
      if (frame.op === 'update') {
        write(JSON.stringify({ id: null, ok: false, error: { code: 'frame_too_large', message: 'too large' } }));
      } else {
        write(JSON.stringify({ id: frame.id, ok: true, result: {} }));
      }
    });
    const { bridge, errors } = await client(path);
    const first = bridge.request({ op: 'update', tag: 1, props: {} }).catch((e) => e.code);
    const second = bridge.request({ op: 'ping' });
    assert.equal(await first, 'frame_too_large');
    assert.deepEqual(await second, {});
    assert.deepEqual(errors, []);
  });
});

describe('long lines', () => {
  /** Writes one line of `bytes` bytes, minding backpressure, until the socket closes. */
  async function writeLongLine(socket, bytes) {
    const chunk = Buffer.alloc(1 << 20, 0x61);
    chunk.write('{"id":1,"ok":true,"result":{"x":"');
    for (let sent = 0; sent < bytes && !socket.destroyed; sent += chunk.length) {
      if (socket.write(chunk)) continue;
      // Not events.once(), which rejects on the socket's 'error' (ECONNRESET when the client cuts it).
      await new Promise((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
    }
    if (!socket.destroyed) socket.write('"}}\n');
  }

  test('a line longer than maxFrameBytes is a protocol_error and ends the connection', LIMIT, async () => {
    const path = await fakeDaemon((frame, write, socket) => {
      if (frame.op === 'stats') writeLongLine(socket, 8 << 20);
      else write(JSON.stringify({ id: frame.id, ok: true, result: {} }));
    });
    const { bridge, errors } = await client(path, { maxFrameBytes: 1 << 20 });
    const closed = new Promise((resolve) => bridge.once('close', resolve));
    const stats = bridge.request({ op: 'stats' }).catch((e) => e);
    const info = await closed;
    assert.equal(info.reason, 'lost');
    assert.equal((await stats).code, 'connection_closed');
    assert.equal(errors[0]?.code, 'protocol_error');
    assert.match(errors[0].message, /maxFrameBytes/);
    assert.equal(info.error.cause, errors[0]);
  });

  test('a 600 MB line (past V8\'s longest string) does not crash the process with the default limit', LIMIT, async () => {
    const path = await fakeDaemon((frame, write, socket) => {
      if (frame.op === 'stats') writeLongLine(socket, 600 << 20);
    });
    const { bridge, errors } = await client(path);
    const closed = new Promise((resolve) => bridge.once('close', resolve));
    const stats = bridge.request({ op: 'stats' }).catch((e) => e);
    await closed;
    assert.equal((await stats).code, 'connection_closed');
    assert.equal(errors[0]?.code, 'protocol_error');
  });
});

describe('requestTimeoutMs', () => {
  test('a request to a daemon that never answers rejects with timeout; a signal of its own overrides it', LIMIT, async () => {
    const daemon = await startDaemon();
    cleanup.push(() => daemon.stop());
    const bridge = await connect({ socket: daemon.socket, requestTimeoutMs: 200 });
    const unlimited = await connect({ socket: daemon.socket, requestTimeoutMs: 0 });
    const errors = [];
    bridge.on('error', (e) => errors.push(e));
    cleanup.push(() => bridge.close());
    cleanup.push(() => unlimited.close());
    const pid = daemon.child.pid;
    process.kill(pid, 'SIGSTOP');
    await stopped(pid);
    let resumed = false;
    cleanup.push(() => resumed || process.kill(pid, 'SIGCONT'));

    const settled = [];
    const track = (name, promise) => promise.then(
      (value) => settled.push([name, 'ok']) && value,
      (err) => {
        settled.push([name, err.code]);
        throw err;
      },
    );
    const controller = new AbortController();
    const own = track('own signal', bridge.request({ op: 'stats' }, { signal: controller.signal }));
    const none = track('requestTimeoutMs 0', unlimited.request({ op: 'stats' }));
    const err = await bridge.request({ op: 'ping' }).catch((e) => e);
    assert.equal(err.code, 'timeout');
    assert.match(err.message, /200 ms/);
    // The default timeout has passed: the request with its own signal and the one without a limit still wait.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(settled, []);
    process.kill(pid, 'SIGCONT');
    resumed = true;
    assert.equal(typeof (await own).sessions, 'number');
    assert.equal(typeof (await none).sessions, 'number');
    // The timed-out ping's late answer is read and ignored.
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
    assert.deepEqual(errors, []);
  });

  test('is checked: a negative or non-number requestTimeoutMs is a TypeError', async () => {
    await assert.rejects(connect({ socket: '/nonexistent/b.sock', requestTimeoutMs: -1 }), TypeError);
    await assert.rejects(connect({ socket: '/nonexistent/b.sock', requestTimeoutMs: '5' }), TypeError);
  });
});
