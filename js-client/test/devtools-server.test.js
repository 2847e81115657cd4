// The DevTools server without a browser: its Server-Sent Events read by plain HTTP clients, against a real
// daemon driven by a client. (devtools.test.js loads the page in Chromium.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { connect as connectTcp } from 'node:net';
import { fileURLToPath } from 'node:url';
import { connect } from '../index.js';
import { startDevtools } from '../lib/devtools.js';
import { startDaemon } from '../test-support/daemon.js';
import { openEventStream, startDevtoolsCommand } from '../test-support/devtools.js';

const SCHEMA = fileURLToPath(new URL('../../Tests/Schemas/all-annotations.json', import.meta.url));

let daemon;
let bridge;
const cleanup = [];

before(async () => {
  daemon = await startDaemon(['--components', SCHEMA]);
  bridge = await connect({ socket: daemon.socket });
});

after(async () => {
  for (const fn of cleanup.reverse()) await fn();
  await bridge?.close();
  await daemon?.stop();
});

const changesOf = (stream) => stream.messages.filter((m) => m.type === 'changes').flatMap((m) => m.data);

describe('the DevTools server', () => {
  test('routes change frames by their parsed fields: a prop value {"change":"cutoff"} is an update like any other', { timeout: 30_000 }, async () => {
    const devtools = await startDevtools({ socket: daemon.socket });
    cleanup.push(() => devtools.close());
    const gallery = await bridge.create('AnnotationGallery');
    const stream = openEventStream(devtools.url, bridge.session);
    cleanup.push(() => stream.close());
    await stream.until((m) => m.type === 'snapshot');

    await gallery.update({ extra: { change: 'cutoff' } });
    await gallery.update({ extra: { change: 'ended', observe: 'elsewhere' } });
    await gallery.update({ label: 'after' });
    await stream.until((m) => m.type === 'changes' && m.data.some((c) => c.props?.label === 'after'));
    assert.deepEqual(
      changesOf(stream).filter((c) => c.change === 'updated').map((c) => c.props),
      [{ extra: { change: 'cutoff' } }, { extra: { change: 'ended', observe: 'elsewhere' } }, { label: 'after' }],
    );
    assert.equal(stream.messages.filter((m) => m.type === 'snapshot').length, 1, 'no fresh snapshot was taken');
  });

  test('pages that open their streams while the session changes each follow it exactly', { timeout: 60_000 }, async () => {
    const devtools = await startDevtools({ socket: daemon.socket });
    cleanup.push(() => devtools.close());
    const view = await bridge.create('View', { testID: 'u0' });
    const LAST = 3000;
    // Updates pipelined while pages open their streams one after the other. Two ways a page lost changes: the
    // daemon's answer to a stream's `observe` and the change frames after it share a read (a change handled
    // before the snapshot reached the page was dropped with what the page had queued), and a page that observes
    // a session another page watches, or a page being loaded (its inlined snapshot), replaces the daemon's one
    // observation (the changes it had not written yet are in the new snapshot, which the pages did not get).
    let written = 0;
    const updating = (async () => {
      for (let i = 1; i <= LAST; i += 50) {
        const batch = [];
        for (let k = i; k < i + 50 && k <= LAST; k++) batch.push(view.update({ testID: `u${k}` }));
        await Promise.all(batch);
        written = Math.min(i + 49, LAST);
      }
    })();
    const streams = [];
    while (written < LAST) {
      const stream = openEventStream(devtools.url, bridge.session);
      cleanup.push(() => stream.close());
      await stream.until((m) => m.type === 'snapshot');
      streams.push(stream);
      // A page loading asks for the session's snapshot too (inlined in the page): that observes again as well.
      assert.equal((await fetch(devtools.url)).status, 200);
    }
    await updating;
    assert.ok(streams.length >= 2, `${streams.length} streams opened while the updates ran`);
    const last = (m) => m.type === 'snapshot' ? m.data.views.find((v) => v.tag === view.tag).props.testID === `u${LAST}` : m.type === 'changes' && m.data.some((c) => c.props?.testID === `u${LAST}`);
    for (const [index, stream] of streams.entries()) {
      await stream.until(last);
      // What the page shows: the last snapshot, then each change on top of it, one update after the other.
      let shown = null;
      for (const m of stream.messages) {
        if (m.type === 'snapshot') shown = Number(m.data.views.find((v) => v.tag === view.tag).props.testID.slice(1));
        if (m.type !== 'changes') continue;
        for (const c of m.data) {
          if (c.change !== 'updated' || c.tag !== view.tag) continue;
          const next = Number(c.props.testID.slice(1));
          assert.equal(next, shown + 1, `page ${index}: u${next} after u${shown}`);
          shown = next;
        }
      }
      assert.equal(shown, LAST);
    }
  });

  test(
    'drops an SSE client that does not read and stays bounded (5 such clients, 150 MB of changes)',
    { timeout: 300_000 },
    async (t) => {
      const { child, url } = await startDevtoolsCommand(daemon.socket);
      cleanup.push(() => child.kill('SIGTERM'));
      const view = await bridge.create('View', { testID: 'busy' });
      const reader = openEventStream(url, bridge.session);
      cleanup.push(() => reader.close());
      await reader.until((m) => m.type === 'snapshot');

      // Five clients that ask for the stream, then never read past the first bytes.
      const { port, searchParams } = new URL(url);
      const path = `/api/stream?token=${searchParams.get('token')}&session=${bridge.session}`;
      const idle = [];
      for (let i = 0; i < 5; i++) {
        const socket = connectTcp(Number(port), '127.0.0.1');
        cleanup.push(() => socket.destroy());
        socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
        const ended = new Promise((resolve) => socket.once('close', resolve));
        socket.on('error', () => {});
        await new Promise((resolve) => socket.once('readable', resolve)); // the server answered: it streams to it
        idle.push({ socket, ended });
      }

      // A busy session: 300 updates of half a MiB each.
      const big = 'x'.repeat(512 * 1024);
      for (let i = 0; i < 300; i++) await view.update({ testID: `${i}:${big}` });
      await reader.until((m) => m.type === 'changes' && m.data.some((c) => c.props?.testID?.startsWith('299:')));

      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const peakMiB = Number(status.match(/VmHWM:\s+(\d+) kB/)[1]) / 1024;
      t.diagnostic(`devtools server peak RSS: ${peakMiB.toFixed(0)} MiB`);
      assert.ok(peakMiB < 250, `the devtools server grew to ${peakMiB.toFixed(0)} MiB`);
      // The reading client got every change, in order; the others were dropped: reading now, they find the end.
      const seen = changesOf(reader).filter((c) => c.change === 'updated').map((c) => Number(c.props.testID.split(':')[0]));
      assert.deepEqual(seen, Array.from({ length: 300 }, (_, i) => i));
      for (const { socket, ended } of idle) {
        socket.resume();
        await ended;
      }
    },
  );
});
