// Losing the daemon, and connect({spawn: true}).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BridgeError, connect } from '../index.js';
import { BRIDGED_BIN, exited, startDaemon, tempDir } from '../test-support/daemon.js';

const cleanup = [];

/** Resolves once the process is in state T (stopped), as /proc shows it: SIGSTOP is not synchronous. */
async function stopped(pid) {
  for (;;) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

after(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

describe('connection loss', () => {
  test('SIGKILL of the daemon fails the pending request with connection_closed', async () => {
    const daemon = await startDaemon();
    cleanup.push(() => daemon.stop());
    const bridge = await connect({ socket: daemon.socket });
    const view = await bridge.create('SwiftUIButton');
    const closed = new Promise((resolve) => bridge.once('close', resolve));
    // Stopped, the daemon cannot answer: the request is surely pending when it dies.
    process.kill(daemon.child.pid, 'SIGSTOP');
    await stopped(daemon.child.pid);
    const pending = view.inspect();
    const alsoPending = bridge.request({ op: 'ping' });
    process.kill(daemon.child.pid, 'SIGKILL');
    const err = await pending.catch((e) => e);
    assert.ok(err instanceof BridgeError);
    assert.equal(err.code, 'connection_closed');
    await assert.rejects(alsoPending, { code: 'connection_closed' });
    await closed;
    assert.equal(bridge.closed, true);
    await assert.rejects(view.update({ count: 1 }), { code: 'connection_closed' });
  });
});

describe('frame_too_large', () => {
  test('answers the request whose line was too long (id null); the session goes on', async () => {
    const daemon = await startDaemon(['--max-frame-bytes', '300']);
    cleanup.push(() => daemon.stop());
    const bridge = await connect({ socket: daemon.socket });
    cleanup.push(() => bridge.close());
    const view = await bridge.create('View');
    const [tooLarge, ping] = await Promise.allSettled([
      view.update({ testID: 'x'.repeat(1000) }),
      bridge.request({ op: 'ping' }),
    ]);
    assert.equal(tooLarge.reason.code, 'frame_too_large');
    assert.deepEqual(ping.value, {});
    assert.equal((await view.inspect()).props.testID, '');
  });
});

describe('spawn', () => {
  test('connect({spawn: true, bin, socket}) starts a daemon when nothing listens', async () => {
    const dir = await tempDir();
    const socket = join(dir, 'spawned.sock');
    let pid = null;
    cleanup.push(async () => {
      if (pid !== null) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
        // On SIGTERM it saves its state file beside the socket: let it finish before removing the dir.
        await exited(pid);
      }
      await rm(dir, { recursive: true, force: true });
    });
    const bridge = await connect({ spawn: true, bin: BRIDGED_BIN, socket, timeoutMs: 60_000 });
    pid = bridge.daemonPid;
    assert.equal(typeof pid, 'number');
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
    const view = await bridge.create('View');
    assert.equal(view.tag, 1);
    await bridge.close();

    // A second spawning connect finds the daemon listening and starts nothing.
    const again = await connect({ spawn: true, bin: BRIDGED_BIN, socket });
    assert.equal(again.daemonPid, null);
    assert.deepEqual(await again.request({ op: 'ping' }), {});
    await again.close();
  });

  test('spawn with a binary that does not exist is connect_failed', async () => {
    const dir = await tempDir();
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    await assert.rejects(
      connect({ spawn: true, bin: join(dir, 'no-such-bridged'), socket: join(dir, 's.sock'), timeoutMs: 5_000 }),
      { code: 'connect_failed' },
    );
  });
});
