// AbortSignal on every request and on connect(); the bounded wait of a request made while reconnecting;
// connect({spawn: true}) finding this checkout's own build. The daemon is held with SIGSTOP where a request
// must surely stay unanswered.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readlink, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from '../index.js';
import { checkoutBuilds, findBridged } from '../lib/spawn.js';
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

/** SIGSTOPs the daemon until the returned function is called (also at the end of the file). */
async function hold(daemon) {
  const pid = daemon.child.pid;
  process.kill(pid, 'SIGSTOP');
  await stopped(pid);
  let held = true;
  const release = () => {
    if (held) process.kill(pid, 'SIGCONT');
    held = false;
  };
  cleanup.push(release);
  return release;
}

describe('signal on requests', () => {
  test('an aborted signal: rejected with aborted, nothing sent', LIMIT, async () => {
    const daemon = await daemonFor();
    const sent = [];
    const bridge = await client({ socket: daemon.socket, record: (r) => r.dir === 'in' && sent.push(r.frame) });
    const before = sent.length;
    const err = await bridge.request({ op: 'ping' }, { signal: AbortSignal.abort() }).catch((e) => e);
    assert.equal(err.code, 'aborted');
    assert.equal(sent.length, before);
  });

  test('every request method takes {signal}; one already sent rejects at once, its late answer is ignored', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket });
    const button = await bridge.create('SwiftUIButton');
    const field = await bridge.create('TextField');
    const slider = await bridge.create('Slider');
    const off = await slider.on('valueChange', () => {});
    const release = await hold(daemon);
    const controller = new AbortController();
    const { signal } = controller;
    const tx = bridge.transaction();
    tx.update(button, { title: 'tx' });
    const attempts = {
      request: bridge.request({ op: 'ping' }, { signal }),
      create: bridge.create('View', {}, { signal }),
      update: button.update({ title: 'late' }, { signal }),
      setChildren: button.setChildren([], { signal }),
      command: field.command('type', 'x', { signal }),
      inspect: button.inspect({ signal }),
      on: button.on('countChange', () => {}, { signal }),
      off: off({ signal }),
      commit: tx.commit({ signal }),
      delete: field.delete({ signal }),
    };
    controller.abort();
    for (const [name, attempt] of Object.entries(attempts)) {
      const err = await attempt.then(() => null, (e) => e);
      assert.equal(err?.code, 'aborted', name);
    }
    release();
    // The daemon answers them all now; the answers are matched and ignored, and the next request gets its own.
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
    const inspected = await button.inspect();
    assert.equal(inspected.props.title, 'tx'); // sent before the abort: the daemon did it
    // A delete that took effect still updates the client: the view is gone for it too.
    assert.equal(field.state, 'deleted');
  });

  test('AbortSignal.timeout: a request the daemon does not answer rejects with aborted, cause TimeoutError', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({ socket: daemon.socket });
    const release = await hold(daemon);
    const err = await bridge.request({ op: 'ping' }, { signal: AbortSignal.timeout(50) }).catch((e) => e);
    assert.equal(err.code, 'aborted');
    assert.equal(err.cause.name, 'TimeoutError');
    assert.match(err.message, /timed out/);
    release();
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
  });

  test('connect({signal}): aborted', LIMIT, async () => {
    const daemon = await daemonFor();
    const err = await connect({ socket: daemon.socket, signal: AbortSignal.abort() }).catch((e) => e);
    assert.equal(err.code, 'aborted');
    const release = await hold(daemon);
    // The connection is accepted by the kernel, but hello is never answered while the daemon is stopped.
    const controller = new AbortController();
    const connecting = connect({ socket: daemon.socket, signal: controller.signal }).catch((e) => e);
    controller.abort();
    assert.equal((await connecting).code, 'aborted');
    release();
  });
});

describe('requests while reconnecting', () => {
  test('they are abortable, and wait at most reconnect.requestTimeoutMs', LIMIT, async () => {
    const daemon = await daemonFor();
    const bridge = await client({
      socket: daemon.socket,
      reconnect: { initialDelayMs: 10, maxDelayMs: 50, requestTimeoutMs: 100 },
    });
    const pid = daemon.child.pid;
    const reconnecting = once(bridge, 'reconnecting');
    process.kill(pid, 'SIGKILL');
    await reconnecting;
    await exited(pid);
    assert.equal(bridge.state, 'reconnecting');

    const controller = new AbortController();
    const aborted = bridge.request({ op: 'ping' }, { signal: controller.signal }).catch((e) => e);
    controller.abort();
    assert.equal((await aborted).code, 'aborted');

    // Nothing listens any more: the wait ends on the limit, not never.
    const waited = await bridge.request({ op: 'ping' }).catch((e) => e);
    assert.equal(waited.code, 'connection_closed');
    assert.match(waited.message, /not back within 100 ms/);
    assert.equal(bridge.state, 'reconnecting');
  });
});

describe('spawn', () => {
  test("without bin, the checkout's own build is found before PATH", LIMIT, async (t) => {
    const builds = checkoutBuilds();
    assert.equal(builds.length, 2, 'js-client is in a checkout: the folder above holds Package.swift');
    assert.match(builds[0], /\/\.build\/release\/bridged$/);
    assert.match(builds[1], /\/\.build\/debug\/bridged$/);
    const found = findBridged({ PATH: '' });
    if (found === undefined) return t.skip('no build in this checkout');
    assert.ok(builds.includes(found), found);

    const dir = await tempDir();
    const socket = join(dir, 'spawned.sock');
    const bridge = await connect({ spawn: true, socket, timeoutMs: 60_000 });
    const pid = bridge.daemonPid;
    cleanup.push(async () => {
      process.kill(pid, 'SIGTERM');
      await exited(pid);
    });
    assert.equal(await readlink(`/proc/${pid}/exe`), await realpath(found));
    await bridge.close();
  });
});
