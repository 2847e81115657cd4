// The DevTools page's model (devtools/changes.js) in Node: it handles every change kind the daemon sends, and a
// kind it does not know fails loudly, naming it. The page's side of that failure (shown, and thrown) is in
// devtools.test.js, in a real browser.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { CHANGE_KINDS, UnknownChange, applyChange } from '../devtools/changes.js';
import { NOT_FORWARDED } from '../lib/devtools.js';

const SOURCES = new URL('../../Sources/', import.meta.url);

/**
 * The change kinds the daemon writes, read from its Swift sources: `openChange("<kind>"…)` (SessionWatch+Changes.swift)
 * and a frame written whole, `"change":"<kind>"` (the observer's `cutoff`, Engine+Observe.swift).
 */
async function daemonChangeKinds() {
  const kinds = new Map();
  for (const entry of await readdir(SOURCES, { recursive: true })) {
    if (!entry.endsWith('.swift')) continue;
    const text = await readFile(new URL(entry, SOURCES), 'utf8');
    for (const match of text.matchAll(/openChange\("(\w+)"[,)]|"change":"(\w+)"/g)) kinds.set(match[1] ?? match[2], entry);
  }
  return kinds;
}

function model(views = []) {
  return {
    state: { views: new Map(views.map((v) => [v.tag, v])), events: [], snapshot: { seq: 0 }, ended: false, selected: null },
    dirty: {},
  };
}

const view = (tag, parent = null, children = []) => ({
  tag,
  component: 'View',
  parent,
  children,
  props: {},
  listeners: {},
  commands: [],
  render: '',
  renders: 0,
});

describe('the DevTools page\'s change handlers (devtools/changes.js)', () => {
  test('handle every change kind the daemon sends, but those the server keeps (lib/devtools.js NOT_FORWARDED)', async () => {
    const kinds = await daemonChangeKinds();
    assert.ok(kinds.size >= 10 && kinds.has('created') && kinds.has('cutoff'), `the daemon's kinds, as read: ${[...kinds.keys()]}`);
    for (const [kind, file] of kinds) {
      assert.ok(
        CHANGE_KINDS.includes(kind) || NOT_FORWARDED.has(kind),
        `the daemon sends the change "${kind}" (Sources/${file}): give it its handler in js-client/devtools/changes.js`,
      );
    }
    for (const kind of CHANGE_KINDS) assert.ok(kinds.has(kind), `devtools/changes.js handles "${kind}", which the daemon never sends`);
    for (const kind of NOT_FORWARDED) assert.ok(!CHANGE_KINDS.includes(kind), `"${kind}" never reaches the page`);
  });

  test('a kind it does not know throws an UnknownChange naming it, and changes nothing', () => {
    const m = model([view(1)]);
    const before = structuredClone(m);
    for (const change of [{ observe: 's1', change: 'teleported', tag: 1 }, { observe: 's1', change: 'constructor' }, { observe: 's1' }]) {
      assert.throws(() => applyChange(m, change, 0), (error) => {
        assert.ok(error instanceof UnknownChange);
        assert.equal(error.kind, change.change ?? undefined);
        assert.match(error.message, new RegExp(`does not know the change "${change.change ?? 'undefined'}"`));
        return true;
      });
    }
    assert.deepEqual(m, before);
  });

  test('the known kinds change the model as the daemon\'s frames say', () => {
    const m = model([view(1)]);
    const { state, dirty } = m;
    applyChange(m, { change: 'created', view: view(2, 1), index: 0 }, 5);
    assert.deepEqual(state.views.get(1).children, [2]);
    assert.equal(state.views.get(2).updatedAt, 5);
    applyChange(m, { change: 'created', view: view(3) }, 6);
    applyChange(m, { change: 'moved', tag: 3, children: [2] }, 7);
    assert.deepEqual([state.views.get(1).children, state.views.get(3).children, state.views.get(2).parent], [[], [2], 3]);
    applyChange(m, { change: 'updated', tag: 2, props: { testID: 'x' } }, 8);
    assert.deepEqual([state.views.get(2).props, state.views.get(2).stale], [{ testID: 'x' }, true]);
    applyChange(m, { change: 'render', tag: 2, render: 'View', renders: 1 }, 9);
    assert.deepEqual([state.views.get(2).render, state.views.get(2).stale], ['View', false]);
    applyChange(m, { change: 'subscribed', tag: 2, event: 'press', phases: ['bubble'] }, 10);
    assert.deepEqual(state.views.get(2).listeners, { press: ['bubble'] });
    applyChange(m, { change: 'command', tag: 2, name: 'focus', args: [] }, 11);
    assert.deepEqual(state.views.get(2).commands, [{ name: 'focus', args: [] }]);
    const event = { event: 'press', seq: 4, target: 2, payload: {}, path: [] };
    applyChange(m, { change: 'event', event }, 12);
    assert.deepEqual([state.events, state.snapshot.seq], [[event], 4]);
    applyChange(m, { change: 'deleted', tags: [3, 2] }, 13);
    assert.deepEqual([...state.views.keys()], [1]);
    applyChange(m, { change: 'ended', reason: 'closed' }, 14);
    assert.equal(state.ended, true);
    assert.equal(dirty.tree && dirty.header && dirty.rows && dirty.log, true);
    // A change for a view the page does not have is ignored (it came before the snapshot that dropped it).
    assert.doesNotThrow(() => applyChange(m, { change: 'updated', tag: 99, props: {} }, 15));
  });
});
