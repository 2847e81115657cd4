// connect(), the Bridge and every View method, against a real daemon.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Bridge, BridgeError, View, connect, defaultSocketPath, VERSION } from '../index.js';
import { startDaemonWithBridge, stopDaemonWithBridge } from '../test-support/daemon.js';

let daemon;
let bridge;

before(async () => ({ daemon, bridge } = await startDaemonWithBridge()));
after(() => stopDaemonWithBridge({ daemon, bridge }));

describe('connect', () => {
  test('performs hello and exposes its result', () => {
    assert.ok(bridge instanceof Bridge);
    assert.equal(typeof bridge.session, 'string');
    assert.match(bridge.server, /^bridged\//);
    assert.equal(bridge.socketPath, daemon.socket);
    assert.equal(bridge.daemonPid, null);
    assert.equal(bridge.closed, false);
    const button = bridge.components.SwiftUIButton;
    assert.deepEqual(button.props.count, { type: 'int', default: 0 });
    assert.deepEqual(button.events.countChange.registrationNames, {
      bubbled: 'onCountChange',
      captured: 'onCountChangeCapture',
    });
    const { payload, ...commit } = bridge.components.TextField.events.commit;
    assert.deepEqual(commit, { bubbles: false, registrationName: 'onCommit' });
    assert.equal(payload.text.type, 'string');
    assert.ok(bridge.components.View);
    assert.ok(bridge.components.Slider);
  });

  test('sends client bridged-client/<version>', async () => {
    const records = [];
    const other = await connect({ socket: daemon.socket, record: (r) => records.push(r) });
    await other.close();
    assert.deepEqual(records[0].frame, { id: 1, op: 'hello', protocol: 1, client: `bridged-client/${VERSION}` });
    assert.equal(records[1].dir, 'out');
    assert.equal(records[1].frame.ok, true);
  });

  test('two bridges are two sessions: the same tags, separate views', async () => {
    const other = await connect({ socket: daemon.socket });
    try {
      assert.notEqual(other.session, bridge.session);
      const a = await other.create('View', { testID: 'other' });
      const inspected = await other.request({ op: 'inspect', tag: a.tag });
      assert.equal(inspected.props.testID, 'other');
    } finally {
      await other.close();
    }
  });

  test('nothing listening: connect_failed', async () => {
    await assert.rejects(connect({ socket: `${daemon.dir}/nobody.sock` }), {
      name: 'BridgeError',
      code: 'connect_failed',
    });
  });

  test('defaultSocketPath resolves as the daemon does', () => {
    assert.equal(defaultSocketPath({ BRIDGED_SOCKET: '/x/y.sock', XDG_RUNTIME_DIR: '/run/user/1' }), '/x/y.sock');
    assert.equal(defaultSocketPath({ XDG_RUNTIME_DIR: '/run/user/1' }), '/run/user/1/bridged/bridged.sock');
    assert.equal(defaultSocketPath({}), `/tmp/bridged-${process.getuid()}/bridged.sock`);
  });
});

describe('bridge.request', () => {
  test('raw ops resolve their result', async () => {
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
    assert.deepEqual(await bridge.request({ id: 'ignored', op: 'ping' }), {}, 'the client assigns the id');
    const stats = await bridge.request({ op: 'stats' });
    assert.equal(typeof stats.sessions, 'number');
    assert.equal(typeof stats.sessionViews, 'number');
  });

  test('a failure rejects with a BridgeError', async () => {
    const err = await bridge.request({ op: 'nope' }).catch((e) => e);
    assert.ok(err instanceof BridgeError);
    assert.equal(err.code, 'unknown_op');
    assert.equal(typeof err.message, 'string');
  });

  test('a second hello answers the same result', async () => {
    const hello = await bridge.request({ op: 'hello', protocol: 1 });
    assert.equal(hello.session, bridge.session);
    assert.deepEqual(hello.components, bridge.components);
  });
});

describe('views', () => {
  test('create allocates increasing tags and applies props', async () => {
    const a = await bridge.create('SwiftUIButton', { title: 'A' });
    const b = await bridge.create('SwiftUIButton');
    assert.ok(a instanceof View);
    assert.equal(b.tag, a.tag + 1);
    assert.equal(a.component, 'SwiftUIButton');
    assert.equal(a.state, 'live');
    assert.equal(bridge.view(a.tag), a);
    const inspected = await a.inspect();
    assert.deepEqual(inspected.props, { count: 0, title: 'A', disabled: false });
    assert.equal(inspected.tag, a.tag);
    assert.equal(inspected.component, 'SwiftUIButton');
    assert.equal(inspected.parent, null);
    assert.deepEqual(inspected.children, []);
    assert.equal(inspected.renders, 1);
    assert.equal(typeof inspected.render, 'string');
  });

  test('update reports what changed and renders once', async () => {
    const v = await bridge.create('SwiftUIButton', { title: 'x' });
    assert.deepEqual(await v.update({ count: 2, title: 'y' }), { changed: ['count', 'title'] });
    assert.deepEqual(await v.update({ count: 2 }), { changed: [] });
    const inspected = await v.inspect();
    assert.equal(inspected.props.count, 2);
    // Renders are coalesced: the first is at the first inspect, after both updates.
    assert.equal(inspected.renders, 1);
    assert.deepEqual(await v.update({ title: null }), { changed: ['title'] });
    assert.equal((await v.inspect()).props.title, '');
  });

  test('undefined in update resets the prop, as a removed JSX prop', async () => {
    const v = await bridge.create('SwiftUIButton', { title: 'x' });
    assert.deepEqual(await v.update({ title: undefined }), { changed: ['title'] });
    assert.equal((await v.inspect()).props.title, '');
  });

  test('create with parent and index; setChildren; inspect shows the tree', async () => {
    const root = await bridge.create('View', { testID: 'root' });
    const a = await bridge.create('View', {}, { parent: root });
    const c = await bridge.create('View', {}, { parent: root });
    const b = await bridge.create('View', {}, { parent: root, index: 1 });
    assert.deepEqual((await root.inspect()).children, [a.tag, b.tag, c.tag]);
    assert.equal((await b.inspect()).parent, root.tag);
    assert.deepEqual(await root.setChildren([c, a]), { children: [c.tag, a.tag] });
    assert.equal((await b.inspect()).parent, null);
    assert.deepEqual(await root.setChildren([b.tag]), { children: [b.tag] });
  });

  test('command runs and resolves {}', async () => {
    const field = await bridge.create('TextField');
    assert.deepEqual(await field.command('type', 'hi'), {});
    assert.equal((await field.inspect()).props.text, 'hi');
  });

  test('delete removes the subtree; the handles become unusable', async () => {
    const root = await bridge.create('View');
    const child = await bridge.create('SwiftUIButton', {}, { parent: root });
    const grandchild = await bridge.create('View', {}, { parent: child });
    assert.deepEqual(await root.delete(), { deleted: [root.tag, child.tag, grandchild.tag] });
    assert.equal(child.state, 'deleted');
    assert.equal(bridge.view(child.tag), undefined);
    await assert.rejects(child.inspect(), { code: 'unknown_tag' });
    await assert.rejects(bridge.request({ op: 'inspect', tag: grandchild.tag }), { code: 'unknown_tag' });
  });

  test('on resolves an unsubscribe function', async () => {
    const button = await bridge.create('SwiftUIButton');
    const seen = [];
    const off = await button.on('countChange', (e) => seen.push(e.payload.count));
    await button.command('press');
    await off();
    await off(); // a second call does nothing
    await button.command('press');
    assert.deepEqual(seen, [1]);
  });

  test('toJSON gives tag and component', async () => {
    const v = await bridge.create('View');
    assert.deepEqual(JSON.parse(JSON.stringify(v)), { tag: v.tag, component: 'View' });
  });
});

describe('close', () => {
  test("emits 'close' and fails later requests with connection_closed", async () => {
    const other = await connect({ socket: daemon.socket });
    const view = await other.create('View');
    let closed = false;
    other.on('close', () => {
      closed = true;
    });
    await other.close();
    assert.equal(closed, true);
    assert.equal(other.closed, true);
    await assert.rejects(other.request({ op: 'ping' }), { code: 'connection_closed' });
    await assert.rejects(view.inspect(), { code: 'connection_closed' });
  });
});
