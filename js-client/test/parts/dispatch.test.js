// lib/client/dispatch.js without a socket: an event frame to 'event', the iterators, and the handlers on its path.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Dispatcher } from '../../lib/client/dispatch.js';
import { SubscriptionTable } from '../../lib/events.js';

const frame = {
  event: 'countChange',
  seq: 4,
  target: 2,
  payload: { count: 5 },
  path: [
    { tag: 1, phase: 'capture' },
    { tag: 2, phase: 'bubble' },
    { tag: 1, phase: 'bubble' },
  ],
};

function setup() {
  const emitted = [];
  const reported = [];
  const dispatcher = new Dispatcher({ emit: (f) => emitted.push(f), report: (err) => reported.push(err) });
  const table = new SubscriptionTable();
  const calls = [];
  const on = (tag, phase, handler = () => {}) =>
    table.add(tag, 'countChange', phase, {
      handler: (e) => {
        calls.push(`${e.currentTarget}:${e.phase}`);
        return handler(e);
      },
    });
  return { emitted, reported, dispatcher, table, calls, on };
}

describe('Dispatcher', () => {
  test('emits the frame, pushes it to every iterator, then runs the path\'s handlers in order', () => {
    const { emitted, dispatcher, table, calls, on } = setup();
    const pushed = [];
    dispatcher.streams.add({ push: (f) => pushed.push(f) });
    on(1, 'bubble');
    on(2, 'bubble');
    on(1, 'capture');
    on(3, 'bubble'); // not on the path
    dispatcher.dispatch(frame, table);
    assert.deepEqual(emitted, [frame]);
    assert.deepEqual(pushed, [frame]);
    assert.deepEqual(calls, ['1:capture', '2:bubble', '1:bubble']);
  });

  test('stopPropagation: the current view\'s other handlers run, later views\' do not', () => {
    const { dispatcher, table, calls, on } = setup();
    on(1, 'capture');
    on(2, 'bubble', (e) => e.stopPropagation());
    on(2, 'bubble');
    on(1, 'bubble');
    dispatcher.dispatch(frame, table);
    assert.deepEqual(calls, ['1:capture', '2:bubble', '2:bubble']);
  });

  test('a handler that throws is reported as handler_failed and the others still run', () => {
    const { reported, dispatcher, table, calls, on } = setup();
    on(1, 'capture', () => {
      throw new Error('boom');
    });
    on(2, 'bubble');
    dispatcher.dispatch(frame, table);
    assert.deepEqual(calls, ['1:capture', '2:bubble']);
    assert.equal(reported.length, 1);
    assert.equal(reported[0].code, 'handler_failed');
    assert.equal(reported[0].message, 'a countChange handler failed: boom');
    assert.deepEqual(reported[0].details, { event: 'countChange', seq: 4, target: 2 });
  });

  test('the window: promises of handlers since the last response; a rejection is reported, not thrown', async () => {
    const { reported, dispatcher, table, on } = setup();
    let finish;
    on(2, 'bubble', () => new Promise((resolve) => (finish = resolve)));
    on(1, 'bubble', () => Promise.reject(new Error('later')));
    dispatcher.dispatch(frame, table);
    const waits = dispatcher.takeWindow();
    assert.equal(waits.length, 1);
    assert.deepEqual(dispatcher.takeWindow(), []);
    let done = false;
    Promise.all(waits).then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(done, false);
    finish();
    await Promise.all(waits);
    assert.equal(done, true);
    assert.deepEqual(reported.map((e) => e.message), ['a countChange handler failed: later']);
  });

  test('hold false (a re-sent event) keeps its handlers out of the window; clearWindow forgets it', () => {
    const { dispatcher, table, on } = setup();
    on(2, 'bubble', async () => {});
    dispatcher.dispatch(frame, table, false);
    assert.deepEqual(dispatcher.takeWindow(), []);
    dispatcher.dispatch(frame, table);
    dispatcher.clearWindow();
    assert.deepEqual(dispatcher.takeWindow(), []);
  });

  test('a frame without a path reaches the listeners of the Bridge only', () => {
    const { emitted, dispatcher, table, calls, on } = setup();
    on(2, 'bubble');
    dispatcher.dispatch({ ...frame, path: undefined }, table);
    assert.equal(emitted.length, 1);
    assert.deepEqual(calls, []);
  });

  test('endStreams ends every iterator with the error given', () => {
    const { dispatcher } = setup();
    const ended = [];
    for (const name of ['a', 'b']) {
      const stream = { push() {}, end: (err) => (ended.push([name, err]), dispatcher.streams.delete(stream)) };
      dispatcher.streams.add(stream);
    }
    dispatcher.endStreams(null);
    assert.deepEqual(ended, [
      ['a', null],
      ['b', null],
    ]);
  });
});
