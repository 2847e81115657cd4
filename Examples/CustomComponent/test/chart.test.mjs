// Drives the example's own daemon (ChartDaemon: bridged plus the Chart component) over its socket, then
// replays the recording it made with the same binary. Run by `make test` after building the example.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.env.CHART_DAEMON ?? join(here, '..', '.build', 'debug', 'ChartDaemon');
const dir = mkdtempSync(join(tmpdir(), 'chart-'));
const socketPath = join(dir, 'chart.sock');
const recordings = join(dir, 'rec');
let daemon;

/** A raw client: one JSON object per line; responses matched by id, events kept in order. */
class LineClient {
  constructor(socket) {
    this.socket = socket;
    this.pending = new Map();
    this.frames = [];
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const frame = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        this.frames.push(frame);
        if ('id' in frame && this.pending.has(frame.id)) {
          this.pending.get(frame.id)(frame);
          this.pending.delete(frame.id);
        }
      }
    });
    this.nextId = 1;
  }
  send(request) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.write(JSON.stringify({ id, ...request }) + '\n');
    });
  }
  events() { return this.frames.filter((f) => 'event' in f); }
}

function connect() {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath, () => resolve(new LineClient(socket)));
    socket.on('error', reject);
  });
}

before(async () => {
  daemon = spawn(binary, ['--socket', socketPath, '--record', recordings, '--max-frame-bytes', String(64 << 20)], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise((resolve, reject) => {
    let out = '';
    daemon.stdout.on('data', (d) => { out += d; if (out.includes('listening on')) resolve(); });
    daemon.on('exit', (code) => reject(new Error(`ChartDaemon exited with ${code}`)));
  });
});

after(() => {
  if (daemon.exitCode === null) daemon.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('a Swift component of your own, served by your own daemon, recorded and replayed', async () => {
  const client = await connect();
  const hello = await client.send({ op: 'hello', protocol: 1, client: 'example-test' });
  assert.equal(hello.ok, true);
  const chart = hello.result.components.Chart;
  assert.deepEqual(chart.props.selectedIndex, { type: 'int32', default: -1 });
  assert.deepEqual(chart.props.points, { type: 'array', elements: { type: 'point' }, default: [] });
  assert.equal(chart.props.style.type, 'object');
  assert.deepEqual(Object.keys(chart.props.style.fields), ['color', 'insets', 'label']);
  assert.equal(chart.props.title.default, null);

  assert.equal((await client.send({ op: 'create', tag: 1, component: 'View' })).ok, true);
  const created = await client.send({
    op: 'create', tag: 2, component: 'Chart', parent: 1,
    props: { title: 'Sales', lineWidth: 0.1, points: [{ x: 0, y: 1 }, { x: 1, y: 2.5 }], style: { color: '#F00' } },
  });
  assert.equal(created.ok, true);

  // Nested errors: every bad place named by its path, nothing applied.
  const bad = await client.send({
    op: 'update', tag: 2,
    props: { points: [{ x: 0, y: 1 }, { x: 'a', y: 2 }, { y: 3 }], selectedIndex: 2 ** 31, style: { color: '#000', insets: { top: 'x' } } },
  });
  assert.equal(bad.ok, false);
  assert.equal(bad.error.code, 'invalid_props');
  assert.deepEqual(bad.error.details.map((d) => d.path), ['points[1].x', 'points[2].x', 'selectedIndex', 'style.insets.top']);

  // Equal after conversion changes nothing: a float that rounds to the same 32-bit value, the same colour.
  const same = await client.send({ op: 'update', tag: 2, props: { lineWidth: 0.10000000149011612, style: { color: '#ff0000' } } });
  assert.deepEqual(same.result, { changed: [] });

  // The command, its bubbling event with its typed payload, and the command log.
  await client.send({ op: 'subscribe', tag: 1, event: 'select' });
  const pressed = await client.send({ op: 'command', tag: 2, name: 'selectPoint', args: [1, true] });
  assert.equal(pressed.ok, true);
  const [select] = client.events();
  assert.deepEqual(select.payload, { index: 1, point: { x: 1, y: 2.5 } });
  assert.deepEqual(select.path, [{ tag: 1, phase: 'bubble' }]);
  const badArgs = await client.send({ op: 'command', tag: 2, name: 'selectPoint', args: [1.5, 'yes'] });
  assert.equal(badArgs.error.code, 'invalid_args');
  assert.deepEqual(badArgs.error.details.map((d) => d.path), ['index', 'animated']);

  const inspected = await client.send({ op: 'inspect', tag: 2 });
  assert.equal(inspected.result.props.lineWidth, 0.1);
  assert.equal(inspected.result.props.selectedIndex, 1);
  assert.deepEqual(inspected.result.props.style, {
    color: '#ff0000ff', insets: { top: 0, left: 0, bottom: 0, right: 0 }, label: null,
  });
  assert.deepEqual(inspected.result.commands, [{ name: 'selectPoint', args: [1, true] }]);
  assert.equal(inspected.result.render, 'Chart Sales points=2 width=0.1 selected=1');

  // Bounded: a 1,000,000-element array and a 100,000-deep one are refused cleanly; the connection goes on.
  const million = await client.send({ op: 'update', tag: 2, props: { points: new Array(1_000_000).fill({ x: 1, y: 2 }) } });
  assert.equal(million.error.code, 'invalid_props');
  assert.equal(million.error.details[0].path, 'points');
  assert.match(million.error.details[0].message, /1000000 elements; the limit is/);
  const deepId = client.nextId++;
  const deep = new Promise((resolve) => client.pending.set(deepId, resolve));
  client.socket.write(`{"id":${deepId},"op":"update","tag":2,"props":{"points":${'['.repeat(100_000)}${']'.repeat(100_000)}}}\n`);
  const refused = await deep;
  assert.equal(refused.id, deepId);
  assert.equal(refused.error.code, 'limit_exceeded');
  assert.equal((await client.send({ op: 'ping' })).ok, true);

  client.socket.end();
  await new Promise((resolve) => client.socket.on('close', resolve));
  daemon.kill('SIGTERM');
  await new Promise((resolve) => daemon.on('exit', resolve));

  const files = readdirSync(recordings).filter((f) => f.endsWith('.jsonl'));
  assert.equal(files.length, 1);
  const recording = join(recordings, files[0]);
  assert.match(readFileSync(recording, 'utf8'), /"component":"Chart"/);
  const replayed = execFileSync(binary, ['replay', recording], { encoding: 'utf8' });
  assert.match(replayed, /1 passed, 0 failed/);
});
