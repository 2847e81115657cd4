// A commit is all or nothing from React to the daemon, and what it sends is linear in what changed: React Native's
// own renderers (paper and Fabric, the files named by $BRIDGED_RN_RENDERER and $BRIDGED_RN_FABRIC_RENDERER) into a
// real daemon. A call into the attachment that throws part way through a commit (forced here by an `enqueue` that
// throws from the Nth op on, as the stack overflow of issue 30 did at about 4,170 levels) sends nothing of that
// commit: the daemon's tree stays the one the previous commit left, render() rejects with the error, and the next
// render works on a consistent tree. Paper's manageChildren sends one `setChildren` per parent and batch, so the
// tags a reverse of N siblings sends are counted and bounded by a multiple of N.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../index.js';
import { NativeSide, attachReactNative, createFabricUIManager, createPaperUIManager, playTrace } from '../lib/react-native.js';
import { REBUILD_FROM } from '../lib/react-native/native-side.js';
import { startDaemon } from '../test-support/daemon.js';
import { kAllocateTag } from '../lib/internal.js';
import { loadReact } from '../test-support/react-native.js';

const react = loadReact();
const ARCHITECTURES = [
  ['paper', process.env.BRIDGED_RN_RENDERER],
  ['fabric', process.env.BRIDGED_RN_FABRIC_RENDERER],
];
const h = react?.React.createElement;

/**
 * Attaches `architecture`'s renderer with a native side the test can see: `spy.native`, every applied batch in
 * `spy.batches`, and `spy.failAt(n, match)`, which makes `enqueue` throw from the nth op matching `match` on (until
 * `spy.failAt(null)`).
 */
async function attach(bridge, architecture, renderer, options = {}) {
  const spy = { native: null, batches: [], failing: null };
  spy.failAt = (n, match = () => true) => {
    spy.failing = n === null ? null : { left: n, match };
  };
  const wrap = (make) => (native) => {
    spy.native = native;
    native.onApplied = (ops) => spy.batches.push(ops);
    const enqueue = native.enqueue.bind(native);
    native.enqueue = (op) => {
      const failing = spy.failing;
      if (failing !== null && failing.match(op) && --failing.left <= 0) throw new RangeError('Maximum call stack size exceeded (forced)');
      enqueue(op);
    };
    return make(native);
  };
  const rn = await attachReactNative(bridge, {
    renderer,
    architecture,
    react: react.React,
    scheduler: react.scheduler,
    ...(architecture === 'fabric' ? { fabricUIManager: wrap(createFabricUIManager) } : { paperUIManager: wrap(createPaperUIManager) }),
    ...options,
  });
  return { rn, spy };
}

/** A chain of `depth` Views, each holding the next. */
function chain(View, depth) {
  let element = h(View, { testID: `level-${depth - 1}` });
  for (let i = depth - 2; i >= 0; i--) element = h(View, { testID: `level-${i}` }, element);
  return element;
}

/** The daemon's children of `tag`, as their testIDs. */
async function childIDs(bridge, tag) {
  const view = await bridge.request({ op: 'inspect', tag });
  const ids = [];
  for (const child of view.children) ids.push((await bridge.request({ op: 'inspect', tag: child })).props.testID);
  return ids;
}

const views = async (bridge) => (await bridge.request({ op: 'stats' })).sessionViews;

/**
 * What `batches` sent: the setChildren ops and the tags they name (a sweep's, of the views deleted, included), the
 * delete ops, and the largest batch's frame in bytes.
 */
function tagsSent(batches) {
  let setChildren = 0;
  let deletes = 0;
  let tags = 0;
  let bytes = 0;
  for (const ops of batches) {
    bytes = Math.max(bytes, Buffer.byteLength(JSON.stringify({ id: 1, op: 'batch', ops })));
    for (const op of ops) {
      if (op.op === 'setChildren') {
        setChildren++;
        tags += op.children.length;
      } else if (op.op === 'delete') {
        deletes++;
        tags++;
      }
    }
  }
  return { setChildren, deletes, tags, bytes };
}

for (const [architecture, renderer] of ARCHITECTURES) {
  const skip = !renderer ? `no ${architecture} renderer file ($BRIDGED_RN_${architecture === 'fabric' ? 'FABRIC_' : ''}RENDERER)` : !react ? 'no React (node-react)' : false;

  describe(`${architecture}: a commit is all or nothing`, { skip }, () => {
    /** Renders <View a/>, then a with a 5,000-deep chain whose commit throws at its `at`th op matching `match`. */
    async function halfCommit({ at, match, trace, streamed = false }) {
      const daemon = await startDaemon(['--max-frame-bytes', String(16 << 20)]);
      const frames = [];
      const bridge = await connect({ socket: daemon.socket, record: (e) => e.dir === 'in' && frames.push(e.frame) });
      try {
        const { rn, spy } = await attach(bridge, architecture, renderer, trace ? { trace } : {});
        const root = await rn.render(h(rn.View, { testID: 'a' }));
        assert.equal(await views(bridge), 2);
        spy.failAt(at, match);
        await assert.rejects(root.render(h(rn.View, { testID: 'a' }, chain(rn.View, 5000))), /Maximum call stack size exceeded \(forced\)/);
        spy.failAt(null);
        // Nothing of the failed commit was applied: the daemon holds what the previous commit left.
        assert.equal(await views(bridge), 2, 'the daemon holds the root and a, nothing of the chain');
        assert.deepEqual(await childIDs(bridge, root.tag), ['a']);
        const [a] = (await bridge.request({ op: 'inspect', tag: root.tag })).children;
        assert.deepEqual((await bridge.request({ op: 'inspect', tag: a })).children, []);
        if (streamed) {
          // Its first ops went out as parts while it was built (STREAM_OPS at a time), and were dropped: a new,
          // empty batch replaced them (written before the requests above, which were answered).
          const parts = frames.filter((f) => f.op === 'batch' && f.more === true);
          assert.ok(parts.length >= 2, `${parts.length} parts sent before the call threw`);
          const drop = frames.findIndex((f) => f.op === 'batch' && f.at === 0 && f.more === undefined && f.ops.length === 0);
          assert.ok(drop > frames.lastIndexOf(parts[parts.length - 1]), 'the parts were dropped after the last of them');
        }
        // The next render works on a consistent tree: exactly what React rendered, nothing else.
        await root.render(h(rn.View, { testID: 'b' }, h(rn.View, { testID: 'c' })));
        assert.deepEqual(await childIDs(bridge, root.tag), ['b']);
        const [b] = (await bridge.request({ op: 'inspect', tag: root.tag })).children;
        assert.deepEqual(await childIDs(bridge, b), ['c']);
        assert.equal(await views(bridge), 3);
        await root.render(h(rn.View, { testID: 'b' }, h(rn.View, { testID: 'c' }), h(rn.View, { testID: 'd' })));
        assert.deepEqual(await childIDs(bridge, b), ['c', 'd']);
        await root.unmount();
        assert.equal(await views(bridge), 0);
        await rn.detach();
      } finally {
        await bridge.close();
        await daemon.stop();
      }
    }

    test('a call that throws while the commit creates views (the 4,177th create of a 5,000-deep chain): nothing of it is sent', () =>
      halfCommit({ at: 4177, match: (op) => op.op === 'create', streamed: true }));

    test('a call that throws where the commit attaches the new subtree: nothing of it is sent', () =>
      halfCommit({ at: 1, match: (op) => op.op === 'setChildren' || (op.op === 'create' && op.parent !== undefined) }));

    test('a first render whose commit throws leaves nothing, and the next render works', async () => {
      const daemon = await startDaemon();
      const bridge = await connect({ socket: daemon.socket });
      try {
        const { rn, spy } = await attach(bridge, architecture, renderer);
        spy.failAt(3, (op) => op.op === 'create');
        await assert.rejects(rn.render(h(rn.View, { testID: 'a' }, h(rn.View, { testID: 'b' }), h(rn.View, { testID: 'c' }))), /forced/);
        spy.failAt(null);
        assert.equal(await views(bridge), 0, 'no root view, nothing of the render');
        const root = await rn.render(h(rn.View, { testID: 'next' }));
        assert.deepEqual(await childIDs(bridge, root.tag), ['next']);
        assert.equal(await views(bridge), 2);
        await rn.detach();
        assert.equal(await views(bridge), 0);
      } finally {
        await bridge.close();
        await daemon.stop();
      }
    });

    test('a commit larger than the daemon\'s frame (1 MiB) goes in parts and applies whole; one refused in its last part applies nothing', async () => {
      const daemon = await startDaemon();
      const frames = [];
      const bridge = await connect({ socket: daemon.socket, record: (e) => e.dir === 'in' && frames.push(e.frame) });
      try {
        const { rn } = await attach(bridge, architecture, renderer);
        const rows = (n, last = {}) =>
          h(rn.View, { testID: 'list' }, Array.from({ length: n }, (_, i) => h(rn.View, { key: i, testID: `a-long-test-id-for-row-${i}`, ...(i === n - 1 ? last : {}) })));
        // The last row's opacity is no number: the daemon refuses the op in the commit's last part.
        await assert.rejects(rn.render(rows(20_000, { style: { opacity: 'half' } })), (error) => error.code === 'invalid_props' || error.code === 'batch_failed');
        assert.ok(frames.filter((f) => f.op === 'batch' && f.more === true).length >= 1, 'the commit went in parts');
        assert.equal(await views(bridge), 0, 'nothing of the refused mount, no root view');
        const root = await rn.render(rows(20_000));
        assert.equal(await views(bridge), 20_002, 'the root, the list and its 20,000 rows');
        const list = (await bridge.request({ op: 'inspect', tag: root.tag })).children[0];
        const { children } = await bridge.request({ op: 'inspect', tag: list });
        assert.equal(children.length, 20_000);
        assert.equal((await bridge.request({ op: 'inspect', tag: children[19_999] })).props.testID, 'a-long-test-id-for-row-19999');
        await root.render(rows(3));
        assert.deepEqual(await childIDs(bridge, list), ['a-long-test-id-for-row-0', 'a-long-test-id-for-row-1', 'a-long-test-id-for-row-2']);
        await rn.detach();
        assert.equal(await views(bridge), 0);
      } finally {
        await bridge.close();
        await daemon.stop();
      }
    });

    test('a commit\'s ops go out in parts as it is built, and apply as one batch with its last part', async () => {
      const daemon = await startDaemon();
      const frames = [];
      const bridge = await connect({ socket: daemon.socket, record: (e) => e.dir === 'in' && frames.push(e.frame) });
      try {
        const { rn } = await attach(bridge, architecture, renderer);
        const rows = (n) => h(rn.View, { testID: 'list' }, Array.from({ length: n }, (_, i) => h(rn.View, { key: i, testID: `row-${i}` })));
        const root = await rn.render(rows(3000));
        const batches = frames.filter((f) => f.op === 'batch');
        const parts = batches.filter((f) => f.more === true);
        assert.ok(parts.length >= 2, `${parts.length} parts`);
        let held = 0;
        for (const part of parts) {
          assert.equal(part.at, held, 'each part starts where the ones before it end');
          held += part.ops.length;
        }
        const last = batches[batches.indexOf(parts[parts.length - 1]) + 1];
        assert.equal(last.at, held, 'then the last part');
        assert.equal(last.more, undefined);
        assert.equal(await views(bridge), 3002, 'the root, the list and its 3,000 rows');
        const list = (await bridge.request({ op: 'inspect', tag: root.tag })).children[0];
        const { children } = await bridge.request({ op: 'inspect', tag: list });
        assert.equal(children.length, 3000);
        assert.equal((await bridge.request({ op: 'inspect', tag: children[2999] })).props.testID, 'row-2999');
        await rn.detach();
        assert.equal(await views(bridge), 0);
        // streamOps: Infinity sends each commit whole, when it is done; anything but a count of ops is refused.
        const whole = await attach(bridge, architecture, renderer, { streamOps: Infinity });
        frames.length = 0;
        await (await whole.rn.render(rows(3000))).unmount();
        assert.equal(frames.filter((f) => f.op === 'batch' && (f.more === true || f.at !== undefined)).length, 0);
        await whole.rn.detach();
        await assert.rejects(attach(bridge, architecture, renderer, { streamOps: 0 }), /streamOps must be a whole number of ops/);
        // A value JSON cannot carry, past the first parts: refused before anything of it is applied, the parts sent
        // before it dropped; the next commit mounts. On paper React Native's MessageQueue refuses the createView in
        // development (paper.js, as a phone's red screen), naming its arguments; on Fabric the bridge refuses the
        // op, named by its place in the whole batch.
        const { rn: again, spy: againSpy } = await attach(bridge, architecture, renderer);
        const bad = h(rn.View, { testID: 'list' }, Array.from({ length: 3000 }, (_, i) => h(rn.View, { key: i, testID: `row-${i}`, ...(i === 2500 ? { style: { opacity: Number.NaN } } : {}) })));
        await assert.rejects(again.render(bad), (error) => {
          if (architecture === 'paper') {
            assert.match(error.message, /^\[\d+,"RCTView",\d+,\{.*"row-2500".*"<<NaN>>".*\}\] is not usable as a native method argument$/);
          } else {
            assert.equal(error.op?.props?.testID, 'row-2500', `the op named: ${JSON.stringify(error.op)} at ${error.index}`);
            assert.match(error.message, /NaN/);
          }
          return true;
        });
        assert.equal(await views(bridge), 0, 'nothing of it applied, no root view');
        const after = await again.render(rows(10));
        assert.equal(await views(bridge), 12);
        await after.unmount();
        // Two attachments on one Bridge building commits in the same turn (two roots updated by one event): while
        // one commit's parts are out, the other's goes whole (its session holds one batch in parts at a time, and
        // a second first part would drop the first's); both apply.
        const { rn: other, spy: otherSpy } = await attach(bridge, architecture, renderer);
        const [one, two] = [againSpy.native, otherSpy.native];
        const before = await views(bridge);
        for (let i = 0; i < 3000; i++) one.enqueue({ op: 'create', tag: bridge[kAllocateTag](), component: 'RCTView' });
        for (let i = 0; i < 2000; i++) two.enqueue({ op: 'create', tag: bridge[kAllocateTag](), component: 'RCTView' });
        await Promise.all([one.flush(), two.flush()]);
        assert.equal(await views(bridge), before + 5000);
        await other.detach();
        await again.detach();
      } finally {
        await bridge.close();
        await daemon.stop();
      }
    });

    // Mounts only: React 18's own deletion walk (commitDeletionEffectsOnFiber) recurses, and overflows unmounting a
    // tree this deep on either renderer, before any call reaches the attachment.
    test('a 20,000-deep tree mounts (no recursion in proportion to depth in the attachment)', async () => {
      const daemon = await startDaemon(['--max-frame-bytes', String(16 << 20)]);
      const bridge = await connect({ socket: daemon.socket });
      try {
        const { rn } = await attach(bridge, architecture, renderer);
        const root = await rn.render(chain(rn.View, 20_000));
        assert.equal(await views(bridge), 20_001);
        // The deepest view is the chain's last, under the one before it.
        let tag = root.tag;
        for (let i = 0; i < 3; i++) tag = (await bridge.request({ op: 'inspect', tag })).children[0];
        assert.equal((await bridge.request({ op: 'inspect', tag })).props.testID, 'level-2');
      } finally {
        await bridge.close();
        await daemon.stop();
      }
    });
  });

  describe(`${architecture}: what a change of many siblings sends is linear in it`, { skip }, () => {
    const N = 3000;
    const List = ({ order, View, bad = null }) => h(View, { testID: 'list' }, order.map((i) => h(View, { key: i, testID: `row-${i}` })), bad);
    const rows = (n) => Array.from({ length: n }, (_, i) => i);

    async function withList(run) {
      const daemon = await startDaemon(['--max-frame-bytes', String(16 << 20)]);
      const bridge = await connect({ socket: daemon.socket });
      try {
        const { rn, spy } = await attach(bridge, architecture, renderer);
        const root = await rn.render(h(List, { order: rows(N), View: rn.View }));
        const [list] = (await bridge.request({ op: 'inspect', tag: root.tag })).children;
        spy.batches.length = 0;
        await run({ rn, spy, root, list, bridge });
        await rn.detach();
        assert.equal(await views(bridge), 0);
      } finally {
        await bridge.close();
        await daemon.stop();
      }
    }

    test(`reversing ${N} keyed siblings sends one setChildren of ${N} tags, and the daemon holds the reversed order`, () =>
      withList(async ({ rn, spy, root, list, bridge }) => {
        const reversed = rows(N).reverse();
        await root.render(h(List, { order: reversed, View: rn.View }));
        const sent = tagsSent(spy.batches);
        assert.equal(sent.setChildren, 1, 'one setChildren for the list, not one per move');
        assert.ok(sent.tags <= 2 * N, `${sent.tags} tags sent for a reverse of ${N}: more than 2N`);
        assert.deepEqual(await childIDs(bridge, list), reversed.map((i) => `row-${i}`));
    }));

    test(`a shuffle of ${N} siblings with inserts and removals: tags linear in N, the daemon in React's order`, () =>
      withList(async ({ rn, spy, root, list, bridge }) => {
        // A fixed permutation: every third row removed, the rest rotated and interleaved with new rows.
        const kept = rows(N).filter((i) => i % 3 !== 0);
        const order = [];
        for (const [k, i] of [...kept.slice(500), ...kept.slice(0, 500)].entries()) {
          order.push(i);
          if (k % 7 === 0) order.push(N + k);
        }
        await root.render(h(List, { order, View: rn.View }));
        const sent = tagsSent(spy.batches);
        // The list's new order, and the removed views (as deletes, or one sweep's list).
        assert.ok(sent.setChildren <= 2, `${sent.setChildren} setChildren`);
        assert.ok(sent.tags <= 3 * N, `${sent.tags} tags sent: more than 3N`);
        assert.deepEqual(await childIDs(bridge, list), order.map((i) => `row-${i}`));
        assert.equal(await views(bridge), 2 + order.length);
    }));

    test(`clearing ${N} siblings sends no child list of the parent, one tag per view, at most 16 bytes per view`, () =>
      withList(async ({ rn, spy, root, list, bridge }) => {
        await root.render(h(List, { order: [], View: rn.View }));
        const sent = tagsSent(spy.batches);
        // N deletes, or (from SWEEP_FROM views) one sweep: a new view given the N views, deleted with them.
        assert.ok(sent.tags <= N + 1, `${sent.tags} tags`);
        assert.ok(sent.bytes <= 16 * N, `a ${sent.bytes}-byte batch for ${N} views`);
        assert.deepEqual(await childIDs(bridge, list), []);
        assert.equal(await views(bridge), 2);
    }));

    test('a refused clear changes nothing and its views stay live; an applied one forgets them', () =>
      withList(async ({ rn, spy, root, list, bridge }) => {
        const before = (await bridge.request({ op: 'inspect', tag: list })).children;
        const Button = rn.requireNativeComponent('SwiftUIButton');
        const bad = h(Button, { key: 'bad', count: 'many' });
        await assert.rejects(root.render(h(List, { order: [], View: rn.View, bad })), (error) => error.code === 'invalid_props');
        assert.deepEqual((await bridge.request({ op: 'inspect', tag: list })).children, before, 'the refused batch changed nothing');
        // Each removed view is the attachment's again, under the same tags.
        for (const tag of before) {
          const rendererTag = spy.native.rendererTag(tag);
          assert.notEqual(rendererTag, undefined, `view ${tag} is no longer the attachment's`);
          assert.equal(spy.native.daemonTag(rendererTag), tag);
        }
        if (architecture === 'fabric') {
          // Fabric diffs against the committed tree: the next commit clears them.
          await root.render(h(List, { order: [], View: rn.View }));
          assert.deepEqual((await bridge.request({ op: 'inspect', tag: list })).children, []);
          for (const tag of before) assert.equal(spy.native.rendererTag(tag), undefined, `view ${tag} deleted but still mapped`);
        }
    }));

    // Paper's next commit names children by React's indices, which count the refused moves: there the daemon stays
    // behind React by the refused commit (protocol.md, "Errors"); Fabric diffs against the committed tree.
    test('a refused batch of moves changes nothing; on Fabric the next commit puts the daemon in React\'s order', () =>
      withList(async ({ rn, root, list, bridge }) => {
        const Button = rn.requireNativeComponent('SwiftUIButton');
        const bad = h(Button, { key: 'bad', count: 'many' });
        await assert.rejects(root.render(h(List, { order: rows(N).reverse(), View: rn.View, bad })), (error) => error.code === 'invalid_props');
        assert.deepEqual((await childIDs(bridge, list)).slice(0, 3), ['row-0', 'row-1', 'row-2'], 'the refused batch changed nothing');
        if (architecture !== 'fabric') return;
        const order = rows(N).filter((i) => i % 2 === 0);
        await root.render(h(List, { order, View: rn.View }));
        assert.deepEqual(await childIDs(bridge, list), order.map((i) => `row-${i}`));
    }));
  });
}

describe('paper: a trace with a commit that threw plays back to the same tree', { skip: !process.env.BRIDGED_RN_RENDERER || !react ? 'no paper renderer or React' : false }, () => {
  test('the aborted commit is dropped in playback too', async () => {
    const daemon = await startDaemon(['--max-frame-bytes', String(16 << 20)]);
    const bridge = await connect({ socket: daemon.socket });
    try {
      const trace = [];
      const { rn, spy } = await attach(bridge, 'paper', process.env.BRIDGED_RN_RENDERER, { trace });
      const root = await rn.render(h(rn.View, { testID: 'a' }));
      spy.failAt(50, (op) => op.op === 'create');
      await assert.rejects(root.render(h(rn.View, { testID: 'a' }, chain(rn.View, 100))), /forced/);
      spy.failAt(null);
      await root.render(h(rn.View, { testID: 'b' }));
      await rn.settled();
      assert.ok(trace.some((step) => 'aborted' in step), 'the trace records the aborted commit');
      const live = await views(bridge);
      const other = await connect({ socket: daemon.socket });
      try {
        const native = await playTrace(other, JSON.parse(JSON.stringify(trace)));
        assert.equal(await views(other), live);
        assert.deepEqual(await childIDs(other, native.daemonTag(root.rootTag)), ['b']);
      } finally {
        await other.close();
      }
      await rn.detach();
    } finally {
      await bridge.close();
      await daemon.stop();
    }
  });
});

describe("paper's child lists (ChildList, child-list.js)", () => {
  test('index, insert and removal agree with an array through 20,000 random steps, across block splits', async () => {
    const { ChildList } = await import('../lib/react-native/child-list.js');
    const list = new ChildList();
    const array = [];
    let seed = 7;
    const random = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let step = 0; step < 20_000; step++) {
      const choice = random(10);
      if (choice < 6 || array.length === 0) {
        const at = random(array.length + 1);
        list.insert(at, step);
        array.splice(at, 0, step);
      } else {
        const at = random(array.length);
        assert.equal(list.removeAt(at), array.splice(at, 1)[0]);
      }
      if (step % 1000 === 0) {
        const probe = random(array.length + 1);
        assert.equal(list.at(probe), array[probe]);
        assert.equal(list.indexOf(array[probe]), array[probe] === undefined ? -1 : probe);
        assert.equal(list.indexOf(-1), -1);
      }
    }
    assert.equal(list.length, array.length);
    assert.deepEqual(list.toArray(), array);
    assert.ok(list.blocks.length > 2, 'the list was split into blocks');
  });

  test('indexOf agrees with an array while a long list is emptied one child at a time, filled again and churned', async () => {
    const { ChildList } = await import('../lib/react-native/child-list.js');
    const n = 2000;
    const list = ChildList.of(Array.from({ length: n }, (_, i) => i));
    const array = Array.from({ length: n }, (_, i) => i);
    const check = (probe) => assert.equal(list.indexOf(probe), array.indexOf(probe), `indexOf(${probe}) at length ${array.length}`);
    check(1500);
    // Emptied from the front and from the back, indexOf asked between (the index then holds many removed children).
    for (let k = 0; k < n; k++) {
      if (k % 2 === 0) assert.equal(list.removeAt(0), array.shift());
      else assert.equal(list.removeAt(array.length - 1), array.pop());
      if (k % 97 === 0) {
        check(array[array.length >> 1]);
        check(k);
      }
    }
    assert.equal(list.length, 0);
    check(0);
    // Filled again with children it held before and new ones, then churned: new in, old out.
    for (let i = 0; i < n; i++) {
      const child = i % 2 === 0 ? i : n + i;
      list.insert(array.length, child);
      array.push(child);
    }
    for (let step = 0; step < 3 * n; step++) {
      assert.equal(list.removeAt(step % array.length), array.splice(step % array.length, 1)[0]);
      const child = 10 * n + step;
      list.insert(step % (array.length + 1), child);
      array.splice(step % (array.length + 1), 0, child);
      if (step % 101 === 0) {
        check(child);
        check(step);
        check(array[step % array.length]);
      }
    }
    assert.deepEqual(list.toArray(), array);
  });
});

/** The daemon's tree below `tag` as nested [testID, children] pairs, read a level at a time (one batch each). */
async function shape(bridge, tag) {
  const top = { children: [] };
  let level = [[tag, top]];
  while (level.length > 0) {
    const { results } = await bridge.request({ op: 'batch', ops: level.map(([t]) => ({ op: 'inspect', tag: t })) });
    const next = [];
    results.forEach((view, i) => {
      const into = level[i][1];
      for (const child of view.children) {
        const node = { children: [] };
        into.children.push(node);
        next.push([child, node]);
      }
      into.id = view.props.testID ?? null;
    });
    level = next;
  }
  const plain = (node) => [node.id, node.children.map(plain)];
  return plain(top)[1];
}

for (const [architecture, renderer] of ARCHITECTURES) {
  const skip = !renderer ? `no ${architecture} renderer file` : !react ? 'no React (node-react)' : false;
  describe(`${architecture}: random edits of a keyed tree`, { skip }, () => {
    test('after every commit the daemon holds exactly the tree React rendered (moves, inserts, removals, reversals, clears)', async () => {
      const daemon = await startDaemon(['--max-frame-bytes', String(16 << 20)]);
      const bridge = await connect({ socket: daemon.socket });
      try {
        const { rn } = await attach(bridge, architecture, renderer);
        let seed = 2024;
        const random = (n) => {
          seed = (seed * 1103515245 + 12345) % 2147483648;
          return Math.floor((seed / 2147483648) * n);
        };
        let nextId = 0;
        const node = (children = []) => ({ id: `n${nextId++}`, children });
        const model = node();
        const toElement = (n) => h(rn.View, { key: n.id, testID: n.id }, n.children.map(toElement));
        const expected = (n) => [n.id, n.children.map(expected)];
        const all = (n, list = []) => {
          list.push(n);
          for (const c of n.children) all(c, list);
          return list;
        };
        const root = await rn.render(toElement(model));
        for (let step = 0; step < 60; step++) {
          // Mostly a view with children of its own, so that the edits are moves and inserts among siblings.
          const nodes = all(model);
          const withChildren = nodes.filter((n) => n.children.length > 1);
          const parents = withChildren.length > 0 && random(10) < 8 ? withChildren : nodes;
          const parent = parents[random(parents.length)];
          const kids = parent.children;
          switch (random(10)) {
            case 0: // insert a few, at random places
              for (let k = random(4) + 1; k > 0; k--) kids.splice(random(kids.length + 1), 0, node());
              break;
            case 1: // remove a few
              for (let k = random(3) + 1; k > 0 && kids.length > 0; k--) kids.splice(random(kids.length), 1);
              break;
            case 2:
            case 3: // move a few
              for (let k = random(4) + 1; k > 0 && kids.length > 1; k--) kids.splice(random(kids.length), 0, kids.splice(random(kids.length), 1)[0]);
              break;
            case 4:
              kids.reverse();
              break;
            case 5: // many rows: past a block (512) and, cleared later, a sweep (512 removals in a row)
              if (kids.length < 1500) for (let k = 600 + random(300); k > 0; k--) kids.push(node());
              break;
            case 6: // keep every other one, shuffled, with a few new ones among them
              {
                const kept = kids.filter((_, i) => i % 2 === 0);
                for (let i = kept.length - 1; i > 0; i--) {
                  const j = random(i + 1);
                  [kept[i], kept[j]] = [kept[j], kept[i]];
                }
                for (let k = random(3); k > 0; k--) kept.splice(random(kept.length + 1), 0, node());
                kids.splice(0, kids.length, ...kept);
              }
              break;
            case 7: // a full shuffle
              for (let i = kids.length - 1; i > 0; i--) {
                const j = random(i + 1);
                [kids[i], kids[j]] = [kids[j], kids[i]];
              }
              break;
            case 8:
              if (random(2) === 0) kids.length = 0;
              break;
            default: // a subtree
              kids.splice(random(kids.length + 1), 0, node([node(), node([node()]), node()]));
          }
          await root.render(toElement(model));
          assert.deepEqual(await shape(bridge, root.tag), [expected(model)], `step ${step}`);
        }
        await root.unmount();
        assert.equal(await views(bridge), 0);
      } finally {
        await bridge.close();
        await daemon.stop();
      }
    });
  });
}

/** Runs `run({bridge, native, UI})`: paper's UIManager over a NativeSide of a Bridge to a daemon of its own. */
async function withPaperUIManager(run) {
  const daemon = await startDaemon();
  const bridge = await connect({ socket: daemon.socket });
  try {
    const native = new NativeSide(bridge);
    await run({ bridge, native, UI: createPaperUIManager(native) });
  } finally {
    await bridge.close();
    await daemon.stop();
  }
}

describe("paper's UIManager: views removed by the commit being built", () => {
  test('are no longer live to the calls after their removal, are live and in place again when the commit fails, and are forgotten once applied', () =>
    withPaperUIManager(async ({ bridge, native, UI }) => {
      const guarded = (name) => native.guard(UI[name]);
      native.createRoot(1);
      UI.createView(3, 'RCTView', 1, { testID: 'list' });
      for (const [tag, id] of [[5, 'a'], [7, 'b'], [9, 'inside-b'], [13, 'x'], [15, 'y']]) UI.createView(tag, 'RCTView', 1, { testID: id });
      UI.setChildren(7, [9]);
      UI.setChildren(3, [5, 7, 13, 15]);
      UI.setChildren(1, [3]);
      await native.flush();
      const all = [3, 5, 7, 9, 13, 15];
      const tags = all.map((t) => native.daemonTag(t));
      const list = tags[0];
      // a and b moved to the end one at a time (as React's appendChild: x, y, a, b), then x, y and a removed, each
      // at index 0 as React clears, then b (and the view inside it); a later call of the same commit names the view
      // inside b: the commit fails, nothing of it sent.
      guarded('manageChildren')(3, [0], [3], null, null, null);
      guarded('manageChildren')(3, [0], [3], null, null, null);
      for (let k = 0; k < 4; k++) guarded('manageChildren')(3, null, null, null, null, [0]);
      assert.equal(native.daemonTag(7), undefined, 'a removed view is not live');
      assert.equal(native.daemonTag(9), undefined, 'nor the views inside it');
      assert.throws(() => guarded('updateView')(9, 'RCTView', { testID: 'z' }), /no view with tag 9/);
      // settled() reports the failed commit too.
      await assert.rejects(native.settled(), /no view with tag 9/);
      assert.deepEqual(all.map((t) => native.daemonTag(t)), tags, 'the failed commit left every view live, with its tag');
      assert.equal(native.rendererTag(tags[2]), 7);
      assert.deepEqual(await childIDs(bridge, list), ['a', 'b', 'x', 'y']);
      // b removed and c inserted at 1, applied: the list the UIManager sends is a, c, x, y (its moves and removals
      // taken back), b and its child forgotten.
      UI.manageChildren(3, null, null, null, null, [1]);
      UI.createView(11, 'RCTView', 1, { testID: 'c' });
      UI.manageChildren(3, null, null, [11], [1], null);
      await native.flush();
      assert.deepEqual(await childIDs(bridge, list), ['a', 'c', 'x', 'y']);
      assert.equal(native.daemonTag(7), undefined);
      assert.equal(native.rendererTag(tags[3]), undefined);
      assert.equal(native.daemonTag(5), tags[1]);
    }));
});

describe("paper's UIManager: most of the views forgotten at once", () => {
  test('the maps made again keep every other view, one deleted by a batch still in flight too', () =>
    withPaperUIManager(async ({ bridge, native, UI }) => {
      const N = 3000;
      native.createRoot(1);
      UI.createView(3, 'RCTView', 1, { testID: 'list' });
      UI.createView(5, 'RCTView', 1, { testID: 'other' });
      UI.createView(7, 'RCTView', 1, { testID: 'kept' });
      UI.createView(9, 'RCTView', 1, { testID: 'kept-too' });
      const rows = Array.from({ length: N }, (_, i) => 11 + 2 * i);
      for (const tag of rows) UI.createView(tag, 'RCTView', 1, { testID: `row-${tag}` });
      UI.setChildren(3, rows);
      UI.setChildren(5, [7, 9]);
      UI.setChildren(1, [3, 5]);
      await native.flush();
      const kept = native.daemonTag(7);
      // Two batches in flight: every row removed (applied: more than REBUILD_FROM views, most of those known), then
      // 'kept' removed with an op the daemon refuses.
      for (let k = 0; k < N; k++) UI.manageChildren(3, null, null, null, null, [0]);
      const cleared = native.flush();
      UI.manageChildren(5, null, null, null, null, [0]);
      UI.updateView(9, 'RCTView', { opacity: 'half' });
      const refused = native.flush();
      await cleared;
      await assert.rejects(refused, (error) => error.code === 'invalid_props');
      assert.ok(N >= REBUILD_FROM);
      for (const tag of [rows[0], rows[N - 1]]) assert.equal(native.known(tag), false, `row ${tag} still known`);
      assert.equal(native.daemonTag(7), kept, "the refused batch's removal taken back across the maps made again");
      assert.equal(native.rendererTag(kept), 7);
      assert.deepEqual(await childIDs(bridge, native.daemonTag(5)), ['kept', 'kept-too']);
      assert.deepEqual(await childIDs(bridge, native.daemonTag(3)), []);
      // The UIManager's own record of the tree was made again too: 'kept' moved after 'kept-too', then removed.
      UI.manageChildren(5, [0], [1], null, null, null);
      await native.flush();
      assert.deepEqual(await childIDs(bridge, native.daemonTag(5)), ['kept-too', 'kept']);
      // 'kept' moved into the emptied list (its parent, 'other', taken from the record), then a move in 'other',
      // whose whole list goes out again.
      UI.manageChildren(3, null, null, [7], [0], null);
      UI.createView(13, 'RCTView', 1, { testID: 'new' });
      UI.manageChildren(5, null, null, [13], [0], null);
      await native.flush();
      assert.deepEqual(await childIDs(bridge, native.daemonTag(3)), ['kept']);
      assert.deepEqual(await childIDs(bridge, native.daemonTag(5)), ['new', 'kept-too']);
    }));
});

describe("paper's UIManager: two commits in one batch insert into the same parent", () => {
  test('the parent\'s pending setChildren is closed before the later create, and the daemon ends in React\'s order', () =>
    withPaperUIManager(async ({ bridge, native, UI }) => {
      const sent = [];
      native.onApplied = (ops) => sent.push(...ops);
      native.createRoot(1);
      UI.createView(3, 'RCTView', 1, { testID: 'list' });
      UI.createView(5, 'RCTView', 1, { testID: 'x' });
      UI.setChildren(3, [5]);
      UI.setChildren(1, [3]);
      await native.flush();
      // One batch: a commit inserts a before x, a later one creates b and inserts it after a, and moves x first.
      UI.createView(7, 'RCTView', 1, { testID: 'a' });
      UI.manageChildren(3, [], [], [7], [0], []);
      UI.createView(9, 'RCTView', 1, { testID: 'b' });
      UI.manageChildren(3, [], [], [9], [1], []);
      UI.manageChildren(3, [2], [0], [], [], []);
      sent.length = 0;
      await native.flush();
      for (const op of sent) if (op.op === 'setChildren') assert.ok(Array.isArray(op.children), `a setChildren sent with children ${op.children}`);
      const list = native.daemonTag(3);
      assert.deepEqual(await childIDs(bridge, list), ['x', 'a', 'b']);
    }));
});

describe("paper's UIManager: a parent given a child, then removed with its subtree, in one batch", () => {
  test("the parent's pending setChildren goes out naming the child created in the batch (a sign-in form's spinner replaced by its text, then the form replaced by the home screen)", () =>
    withPaperUIManager(async ({ bridge, native, UI }) => {
      native.createRoot(1);
      UI.createView(3, 'RCTView', 1, { testID: 'screen' });
      UI.createView(5, 'RCTView', 1, { testID: 'form' });
      UI.createView(7, 'RCTView', 1, { testID: 'button' });
      UI.createView(9, 'RCTView', 1, { testID: 'spinner' });
      UI.setChildren(7, [9]);
      UI.setChildren(5, [7]);
      UI.setChildren(3, [5]);
      UI.setChildren(1, [3]);
      await native.flush();
      // One batch: the spinner replaced by a label (a pending setChildren for the button), then the form removed
      // with its subtree, the label included, and a home view added in its place.
      UI.manageChildren(7, null, null, null, null, [0]);
      UI.createView(11, 'RCTView', 1, { testID: 'label' });
      UI.manageChildren(7, null, null, [11], [0], null);
      UI.manageChildren(3, null, null, null, null, [0]);
      UI.createView(13, 'RCTView', 1, { testID: 'home' });
      UI.manageChildren(3, null, null, [13], [0], null);
      await native.flush();
      assert.deepEqual(await childIDs(bridge, native.daemonTag(3)), ['home']);
      for (const tag of [5, 7, 9, 11]) assert.equal(native.known(tag), false, `view ${tag} still known`);
    }));
});
