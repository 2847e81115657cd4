// The bridged-client command: ping, send, replay (a session recorded through the client, and a
// tampered copy), demo.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from '../index.js';
import { BRIDGED_BIN, CLI, exited, startDaemon } from '../test-support/daemon.js';

let daemon;

before(async () => {
  daemon = await startDaemon();
});

after(async () => {
  await daemon?.stop();
});

/** Runs the CLI; resolves {code, stdout, stderr} whatever the exit code. */
function run(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
  });
}

const ndjson = (text) => text.trim().split('\n').map((line) => JSON.parse(line));

describe('bridged-client CLI', () => {
  test('ping', async () => {
    const { code, stdout, stderr } = await run('ping', '--socket', daemon.socket);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^pong from bridged\/\S+ \(session \S+\) on /);
  });

  test('ping --spawn starts a daemon and reports its pid', async () => {
    const socket = join(daemon.dir, 'spawned.sock');
    const { code, stdout, stderr } = await run('ping', '--spawn', '--bin', BRIDGED_BIN, '--socket', socket);
    const pid = Number(/started bridged \(pid (\d+)\)/.exec(stderr)?.[1]);
    try {
      assert.equal(code, 0, stderr);
      assert.ok(pid > 0, stderr);
      assert.match(stdout, /^pong from /);
      // Now something listens: a second --spawn starts nothing.
      const again = await run('ping', '--spawn', '--bin', BRIDGED_BIN, '--socket', socket);
      assert.equal(again.code, 0);
      assert.equal(again.stderr, '');
    } finally {
      if (pid > 0) {
        process.kill(pid, 'SIGTERM');
        await exited(pid); // it writes its state file into daemon.dir as it stops
      }
    }
  });

  test('ping with nothing listening fails', async () => {
    const { code, stderr } = await run('ping', '--socket', join(daemon.dir, 'nobody.sock'));
    assert.equal(code, 1);
    assert.match(stderr, /connect_failed/);
  });

  test('send prints responses and events as NDJSON', async () => {
    const { code, stdout } = await run(
      'send',
      '--socket',
      daemon.socket,
      '{"id": 1, "op": "create", "tag": 1, "component": "SwiftUIButton", "props": {"title": "😀"}}',
      '{"id":2,"op":"subscribe","tag":1,"event":"countChange"}',
      '{"id":3,"op":"command","tag":1,"name":"press"}',
      '{"id":"four","op":"inspect","tag":1}',
    );
    assert.equal(code, 0);
    const frames = ndjson(stdout);
    assert.deepEqual(frames[0], { id: 1, ok: true, result: { tag: 1 } });
    assert.deepEqual(frames[1], { id: 2, ok: true, result: {} });
    assert.deepEqual(frames[2], {
      event: 'countChange',
      seq: 1,
      target: 1,
      payload: { count: 1 },
      path: [{ tag: 1, phase: 'bubble' }],
    });
    assert.deepEqual(frames[3], { id: 3, ok: true, result: {} });
    assert.equal(frames[4].id, 'four');
    assert.equal(frames[4].result.props.title, '😀');
    assert.equal(frames.length, 5);
  });

  test('send passes bad input verbatim and exits 1 on an error response', async () => {
    const { code, stdout } = await run('send', '--socket', daemon.socket, 'this is not json', '{"op":"ping"}');
    assert.equal(code, 1);
    const [bad, ping] = ndjson(stdout);
    assert.equal(bad.id, null);
    assert.equal(bad.ok, false);
    assert.equal(bad.error.code, 'bad_json');
    assert.deepEqual(ping, { id: null, ok: true, result: {} });
  });

  describe('replay', () => {
    let good;
    let tampered;
    let tamperedLine;

    before(async () => {
      // Record a session through the client.
      const records = [];
      const bridge = await connect({ socket: daemon.socket, record: (r) => records.push(r) });
      const root = await bridge.create('View', { onCountChangeCapture: () => {} });
      const button = await bridge.create(
        'SwiftUIButton',
        {
          title: 'Tap',
          onCountChange: async (e) => {
            await button.update({ count: e.payload.count });
          },
        },
        { parent: root },
      );
      await button.command('press');
      await button.command('press');
      await button.inspect();
      await button.update({ count: 'abc' }).catch(() => {});
      await bridge.request({ op: 'stats' });
      const tx = bridge.transaction();
      tx.create('TextField', { text: 'x' });
      tx.update(button, { disabled: true });
      await tx.commit();
      await bridge.close();

      const lines = records.map((r) => JSON.stringify(r));
      good = join(daemon.dir, 'counter.jsonl');
      await writeFile(good, `${lines.join('\n')}\n`);

      // The same session with one render changed.
      const at = lines.findIndex((l) => l.includes('"render"'));
      assert.ok(at > 0);
      const changed = lines.map((l, i) => (i === at ? l.replace(/count=2/, 'count=7') : l));
      assert.notEqual(changed[at], lines[at]);
      tampered = join(daemon.dir, 'tampered.jsonl');
      await writeFile(tampered, `${changed.join('\n')}\n`);
      tamperedLine = at + 1;
    });

    test('a recorded session replays (session, server and stats numbers normalised)', async () => {
      const { code, stdout } = await run('replay', '--socket', daemon.socket, good);
      assert.equal(code, 0, stdout);
      assert.equal(stdout.trim().split('\n').at(-1), '1 passed, 0 failed');
    });

    test('a tampered copy fails with the first difference and exit 1', async () => {
      const { code, stdout } = await run('replay', '--socket', daemon.socket, good, tampered);
      assert.equal(code, 1);
      const lines = stdout.trim().split('\n');
      assert.equal(lines.at(-1), '1 passed, 1 failed');
      const fail = lines.indexOf(`FAIL ${tampered}`);
      assert.ok(fail >= 0, stdout);
      assert.equal(lines[fail + 1].trim(), `line ${tamperedLine}`);
      assert.match(lines[fail + 2], /^ {2}expected: .*count=7/);
      assert.match(lines[fail + 3], /^ {2}got: .*count=2/);
    });

    test('raw input lines replay too', async () => {
      const file = join(daemon.dir, 'raw.jsonl');
      const { stdout } = await run('send', '--socket', daemon.socket, 'not json');
      const records = [
        { dir: 'in', frame: { id: 1, op: 'hello', protocol: 1 } },
        { dir: 'out', frame: { id: 1, ok: true, result: { protocol: 1, server: 'elsewhere', session: 'old' } } },
        { dir: 'in', raw: 'not json' },
        { dir: 'out', frame: JSON.parse(stdout) },
        { dir: 'in', raw: '' },
        { dir: 'in', frame: { id: 9223372036854775807n, op: 'ping' } },
        { dir: 'out', frame: { id: 9223372036854775807n, ok: true, result: {} } },
      ];
      // hello's components are part of the comparison: take them from a live hello.
      const bridge = await connect({ socket: daemon.socket });
      records[1].frame.result.components = bridge.components;
      await bridge.close();
      const text = records
        .map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `#${v}#` : v)).replace(/"#(\d+)#"/g, '$1'))
        .join('\n');
      await writeFile(file, `${text}\n`);
      const result = await run('replay', '--socket', daemon.socket, file);
      assert.equal(result.code, 0, result.stdout);
    });

    test('a recording with a reconnect replays: a new connection, the resume names the replay session', async () => {
      const records = [];
      const bridge = await connect({
        socket: daemon.socket,
        reconnect: { initialDelayMs: 10, maxDelayMs: 100 },
        ack: false, // acks go out on a timer: without them the recording is the same every run
        record: (r) => records.push(r),
      });
      const button = await bridge.create('SwiftUIButton', { title: 'again', onCountChange: () => {} });
      await button.command('press');
      await button.command('press');
      const resumed = once(bridge, 'resumed');
      bridge._socket.destroy();
      await resumed;
      await button.inspect();
      await button.command('press');
      await bridge.close();
      const closedAt = records.findIndex((r) => r.dir === 'meta' && r.connection === 'closed');
      assert.ok(closedAt > 0);
      assert.equal(records[closedAt + 1].frame.resume.ack, 2);
      const file = join(daemon.dir, 'reconnect.jsonl');
      await writeFile(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
      const result = await run('replay', '--socket', daemon.socket, file);
      assert.equal(result.code, 0, result.stdout);
    });

    test('replay without files is a usage error', async () => {
      const { code } = await run('replay', '--socket', daemon.socket);
      assert.equal(code, 2);
    });
  });

  test('demo prints each render of the counter', async () => {
    const { code, stdout, stderr } = await run('demo', '--socket', daemon.socket);
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 4);
    assert.match(lines[0], /count=0/);
    assert.match(lines[3], /count=3/);
  });

  test('help and unknown commands', async () => {
    assert.equal((await run('--help')).code, 0);
    assert.equal((await run('frobnicate')).code, 2);
  });
});
