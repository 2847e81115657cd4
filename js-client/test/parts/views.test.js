// lib/client/views.js without a socket: the views a client created, as its session changes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionViews } from '../../lib/client/views.js';
import { kSetState } from '../../lib/internal.js';

/** A stand-in View: a tag and the states it was put in. */
function view(tag) {
  const states = [];
  return { tag, component: 'View', states, [kSetState]: (state) => states.push(state) };
}

const handler = () => ({ handler: () => {} });

describe('SessionViews', () => {
  test('tags count up and are never reused, a reset included', () => {
    const views = new SessionViews();
    assert.deepEqual([views.allocateTag(), views.allocateTag()], [1, 2]);
    views.reset();
    assert.equal(views.allocateTag(), 3);
  });

  test('deleted: the views of the subtree go, with their subscriptions; others stay', () => {
    const views = new SessionViews();
    const [a, b, c] = [view(1), view(2), view(3)];
    for (const v of [a, b, c]) {
      views.track(v);
      views.subscriptions.add(v.tag, 'countChange', 'bubble', handler());
    }
    views.deleted([1, 2]);
    assert.deepEqual([a.states, b.states, c.states], [['deleted'], ['deleted'], []]);
    assert.equal(views.get(1), undefined);
    assert.equal(views.get(3), c);
    assert.equal(views.subscriptions.handlers(1, 'countChange', 'bubble').length, 0);
    assert.equal(views.subscriptions.handlers(3, 'countChange', 'bubble').length, 1);
  });

  test('forget: a view that never came to be is rolled back, without touching another view of its tag', () => {
    const views = new SessionViews();
    const live = view(5);
    const failed = view(5);
    views.track(live);
    views.forget(failed);
    assert.deepEqual(failed.states, ['rolledBack']);
    assert.equal(views.get(5), live);
    views.forget(live);
    assert.equal(views.get(5), undefined);
  });

  test('reset: every view is reset and every subscription forgotten', () => {
    const views = new SessionViews();
    const a = view(1);
    views.track(a);
    const before = views.subscriptions;
    before.add(1, 'countChange', 'bubble', handler());
    views.reset();
    assert.deepEqual(a.states, ['reset']);
    assert.equal(views.get(1), undefined);
    assert.notEqual(views.subscriptions, before);
    assert.equal(views.subscriptions.handlers(1, 'countChange', 'bubble').length, 0);
  });

  test('describe: the handler prop names of hello\'s components', () => {
    const views = new SessionViews();
    views.describe({
      Button: {
        props: {},
        events: { countChange: { bubbles: true, registrationNames: { bubbled: 'onCountChange', captured: 'onCountChangeCapture' } } },
        commands: {},
      },
    });
    assert.deepEqual(views.names.lookup('Button', 'onCountChangeCapture'), { event: 'countChange', phase: 'capture' });
  });
});
