// NativeTree without a socket: which views it reads again after a batch, a command and a delete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NativeTree } from '../../lib/react-native/testing/native-tree.js';

/** A daemon's tree as inspect answers it, and the tags each batch of inspects asked for. */
function fakeBridge(views) {
  const asked = [];
  return {
    asked,
    views,
    async request(frame) {
      assert.equal(frame.op, 'batch');
      asked.push(frame.ops.map((op) => op.tag));
      return { results: frame.ops.map((op) => structuredClone(views.get(op.tag))) };
    },
  };
}

const view = (tag, parent, children = [], props = {}) => ({ tag, component: 'RCTView', props, parent, children });

test('the first read asks level by level; later reads ask only for what the applied ops changed', async () => {
  const views = new Map([
    [1, view(1, null, [2, 3])],
    [2, view(2, 1, [4])],
    [3, view(3, 1)],
    [4, view(4, 2)],
  ]);
  const bridge = fakeBridge(views);
  const tree = new NativeTree(bridge);
  await tree.read(1);
  assert.deepEqual(bridge.asked, [[1], [2, 3], [4]]);

  bridge.asked.length = 0;
  await tree.read(1);
  assert.deepEqual(bridge.asked, [], 'nothing changed, nothing is asked');

  views.get(4).props = { text: 'a' };
  tree.applied([{ op: 'update', tag: 4, props: { text: 'a' } }]);
  const read = await tree.read(1);
  assert.deepEqual(bridge.asked, [[4]]);
  assert.deepEqual(read.get(4).props, { text: 'a' });

  bridge.asked.length = 0;
  views.set(5, view(5, 3));
  views.get(3).children = [5];
  tree.applied([{ op: 'create', tag: 5, component: 'RCTView' }, { op: 'setChildren', tag: 3, children: [5] }]);
  await tree.read(1);
  assert.deepEqual(bridge.asked.flat().sort(), [3, 5], 'the new view and its parent');

  bridge.asked.length = 0;
  views.delete(2);
  views.delete(4);
  views.get(1).children = [3];
  tree.applied([{ op: 'delete', tag: 2 }]);
  const after = await tree.read(1);
  assert.deepEqual(bridge.asked, [[1]], 'the deleted view’s parent, not the deleted views');
  assert.equal(after.get(1).children.length, 1);

  bridge.asked.length = 0;
  tree.changed(5);
  await tree.read(1);
  assert.deepEqual(bridge.asked, [[5]]);
});

test("a setChildren reads again its view and the children that came from elsewhere, not those that were there", async () => {
  const views = new Map([
    [1, view(1, null, [2, 3])],
    [2, view(2, 1, [4, 5, 6])],
    [3, view(3, 1, [7])],
    [4, view(4, 2)],
    [5, view(5, 2)],
    [6, view(6, 2)],
    [7, view(7, 3)],
  ]);
  const bridge = fakeBridge(views);
  const tree = new NativeTree(bridge);
  await tree.read(1);
  bridge.asked.length = 0;
  // 7 moves from 3 to the front of 2; 4, 5 and 6 stay.
  views.get(2).children = [7, 4, 5, 6];
  views.get(3).children = [];
  views.get(7).parent = 2;
  tree.applied([{ op: 'setChildren', tag: 2, children: [7, 4, 5, 6] }]);
  const read = await tree.read(1);
  assert.deepEqual(bridge.asked.flat().sort(), [2, 3, 7]);
  assert.deepEqual(read.get(2).children, [7, 4, 5, 6]);
  assert.equal(read.get(7).parent, 2);
});
