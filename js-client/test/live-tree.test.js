// The live tree (testing/live-tree.js) and a screen's snapshot of it (testing/screen.js): after each kind of change
// frame, the queries read the change (no node is kept from before it), and the nodes of the views a change did not
// reach, at or below them, are the same objects as before (kept, not built again).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveTree } from '../lib/react-native/testing/live-tree.js';
import { Screen } from '../lib/react-native/testing/screen.js';

const SESSION = 's1-test';

/** root 1 → row 2 → [text 3 → raw 4 'Hello'], box 5 (testID b) → text 6 → raw 7 'Other'. */
function setUp() {
  const tree = new LiveTree(() => ({ RCTText: { props: { ellipsizeMode: { default: 'tail' } } } }));
  const view = (tag, component, parent, children, props = {}) => ({ tag, component, parent, children, props });
  tree.reset({
    session: SESSION,
    views: [
      view(1, 'RCTView', null, [2]),
      view(2, 'RCTView', 1, [3, 5], { testID: 'row' }),
      view(3, 'RCTText', 2, [4], { testID: 'hello' }),
      view(4, 'RCTRawText', 3, [], { text: 'Hello' }),
      view(5, 'RCTView', 2, [6], { testID: 'b' }),
      view(6, 'RCTText', 5, [7]),
      view(7, 'RCTRawText', 6, [], { text: 'Other' }),
    ],
  });
  const app = { _liveTree: tree, defaultIncludeHiddenElements: false };
  const screen = new Screen(app, { rootTag: 1, tag: 1, appKey: 'test', holder: {} });
  return { tree, screen, apply: (change) => tree.apply({ observe: SESSION, ...change }) };
}

test("a change frame moves the rev of its view and of the view's ancestors only", () => {
  const { tree, apply } = setUp();
  const before = new Map([...tree.views].map(([tag, view]) => [tag, view.rev]));
  apply({ change: 'updated', tag: 4, props: { text: 'Hi' } });
  const moved = [...tree.views].filter(([tag, view]) => view.rev !== before.get(tag)).map(([tag]) => tag);
  assert.deepEqual(moved.sort(), [1, 2, 3, 4]);
  // Defaults from the components' descriptions are filled in, as before.
  assert.equal(tree.views.get(3).props.ellipsizeMode, 'tail');
});

test('an update is read by the next query; the subtree it did not reach is kept', () => {
  const { screen, apply } = setUp();
  const box = screen.getByTestId('b');
  const hello = screen.getByText('Hello');
  apply({ change: 'updated', tag: 4, props: { text: 'Hi' } });
  assert.equal(screen.queryByText('Hello'), null);
  assert.notEqual(screen.getByText('Hi'), hello);
  assert.equal(screen.getByTestId('b'), box, 'a node nothing at or below changed is kept');
  // A prop removed (null) is gone from the next query's node.
  apply({ change: 'updated', tag: 5, props: { testID: null } });
  assert.equal(screen.queryByTestId('b'), null);
});

test('created, moved, laid out and deleted views are read by the next query', () => {
  const { screen, apply } = setUp();
  const hello = screen.getByText('Hello');
  apply({ change: 'created', view: { tag: 8, component: 'RCTText', parent: null, children: [], props: { testID: 'new' } } });
  apply({ change: 'created', view: { tag: 9, component: 'RCTRawText', parent: 8, children: [], props: { text: 'New' } } });
  assert.equal(screen.queryByText('New'), null, 'not under the root yet');
  apply({ change: 'moved', tag: 2, children: [3, 5, 8] });
  assert.equal(screen.getByText('New').tag, 8);
  assert.equal(screen.getByText('Hello'), hello, 'the moved-into parent is built again, its unchanged children kept');
  // Created straight into a parent at an index (as Fabric's commits create): read by the next query, in its place.
  apply({ change: 'created', view: { tag: 10, component: 'RCTText', parent: 2, children: [], props: { testID: 'inserted' } }, index: 1 });
  assert.equal(screen.getByTestId('inserted').tag, 10);
  assert.deepEqual(screen.toJSON().children[0].children.map((c) => c.tag), [3, 10, 5, 8]);
  apply({ change: 'deleted', tags: [10] });
  // Moved from one parent to another: the former parent's node no longer has it.
  apply({ change: 'moved', tag: 5, children: [6, 8] });
  assert.deepEqual(screen.toJSON().children[0].children.map((c) => c.tag), [3, 5]);
  assert.equal(screen.getByTestId('b').tag, 5);
  assert.deepEqual(
    screen.toJSON().children[0].children[1].children.map((c) => c.tag),
    [6, 8],
  );
  // A frame laid out is on the next query's handle.
  apply({ change: 'laidOut', frames: [{ tag: 6, layout: { x: 1, y: 2, width: 30, height: 17 } }] });
  assert.deepEqual(screen.getByText('Other').layout, { x: 1, y: 2, width: 30, height: 17 });
  // Deleted: gone from the next query, and from its parent's children.
  apply({ change: 'deleted', tags: [8, 9] });
  assert.equal(screen.queryByText('New'), null);
  assert.deepEqual(screen.toJSON().children[0].children[1].children.map((c) => c.tag), [6]);
});

test('a snapshot the observation starts again from is read whole', () => {
  const { tree, screen } = setUp();
  const box = screen.getByTestId('b');
  tree.reset({
    session: SESSION,
    views: [
      { tag: 1, component: 'RCTView', parent: null, children: [5], props: {} },
      { tag: 5, component: 'RCTView', parent: 1, children: [], props: { testID: 'b' } },
    ],
  });
  assert.equal(screen.queryByText('Hello'), null);
  assert.notEqual(screen.getByTestId('b'), box);
});

test("a request's changes grouped (observe's grouped) leave the tree as the same changes one frame each do", () => {
  const one = setUp();
  const grouped = setUp();
  const changes = [
    { change: 'created', view: { tag: 8, component: 'RCTText', parent: null, children: [], props: { testID: 'new' } } },
    { change: 'created', view: { tag: 9, component: 'RCTRawText', parent: 8, children: [], props: { text: 'New' } } },
    { change: 'created', view: { tag: 10, component: 'RCTView', parent: 2, children: [], props: {} }, index: 0 },
    { change: 'moved', tag: 1, children: [2, 8] },
    { change: 'updated', tag: 4, props: { text: 'Hi' } },
    { change: 'updated', tag: 5, props: { testID: null } },
    { change: 'laidOut', frames: [{ tag: 2, layout: { x: 0, y: 10, width: 390, height: 44 } }] },
    { change: 'deleted', tags: [6, 7] },
  ];
  for (const change of changes) one.apply(change);
  grouped.tree.apply({
    observe: SESSION,
    tree: [
      ['created', 8, 'RCTText', { testID: 'new' }, null, []],
      ['created', 9, 'RCTRawText', { text: 'New' }, 8, []],
      ['created', 10, 'RCTView', {}, 2, [], 0],
      ['moved', 1, [2, 8]],
      ['updated', 4, { text: 'Hi' }],
      ['updated', 5, { testID: null }],
      ['laidOut', [{ tag: 2, layout: { x: 0, y: 10, width: 390, height: 44 } }]],
      ['deleted', [6, 7]],
    ],
  });
  assert.equal(grouped.tree.version, one.tree.version, 'a version for each change, as for each frame');
  assert.deepEqual([...grouped.tree.views], [...one.tree.views]);
  assert.deepEqual(grouped.tree.views.get(2).children, [10, 3, 5], 'the index of a created view');
  assert.equal(grouped.screen.getByText('New').props.testID, 'new');
  assert.equal(grouped.screen.queryByText('Other'), null);
  // Another session's frame changes nothing.
  grouped.tree.apply({ observe: 'another', tree: [['deleted', [1]]] });
  assert.ok(grouped.tree.views.has(1));
});
