// Event dispatch: bubbling and capture, stopPropagation, direct events, JSX-style handler props,
// handlers that await requests, shared subscriptions, failing handlers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BridgeError, SyntheticEvent, connect } from '../index.js';
import { startDaemon } from '../test-support/daemon.js';

let daemon;
let bridge;
/** Every event frame the daemon wrote to this session. */
const frames = [];

before(async () => {
  daemon = await startDaemon();
  bridge = await connect({ socket: daemon.socket });
  bridge.on('event', (frame) => frames.push(frame));
});

after(async () => {
  await bridge?.close();
  await daemon?.stop();
});

/** A View parent with capture and bubble handlers, and a button child with a bubble handler. */
async function tree(log, { childStops = false, captureStops = false } = {}) {
  const parent = await bridge.create('View', {
    onCountChangeCapture: (e) => {
      log.push(['capture', e.currentTarget, e.phase]);
      if (captureStops) e.stopPropagation();
    },
    onCountChange: (e) => log.push(['bubble-parent', e.currentTarget, e.phase]),
  });
  const child = await bridge.create(
    'SwiftUIButton',
    {
      onCountChange: (e) => {
        log.push(['bubble-child', e.currentTarget, e.phase]);
        if (childStops) e.stopPropagation();
      },
    },
    { parent },
  );
  return { parent, child };
}

describe('bubbling events', () => {
  test('order: capture on the parent, bubble on the child, bubble on the parent', async () => {
    const log = [];
    const { parent, child } = await tree(log);
    await child.command('press');
    assert.deepEqual(log, [
      ['capture', parent.tag, 'capture'],
      ['bubble-child', child.tag, 'bubble'],
      ['bubble-parent', parent.tag, 'bubble'],
    ]);
    const frame = frames.at(-1);
    assert.deepEqual(frame.path, [
      { tag: parent.tag, phase: 'capture' },
      { tag: child.tag, phase: 'bubble' },
      { tag: parent.tag, phase: 'bubble' },
    ]);
  });

  test('stopPropagation in the child stops before the parent bubble', async () => {
    const log = [];
    const { parent, child } = await tree(log, { childStops: true });
    await child.command('press');
    assert.deepEqual(log, [
      ['capture', parent.tag, 'capture'],
      ['bubble-child', child.tag, 'bubble'],
    ]);
  });

  test('stopPropagation in the capture phase stops everything after it', async () => {
    const log = [];
    const { parent, child } = await tree(log, { captureStops: true });
    await child.command('press');
    assert.deepEqual(log, [['capture', parent.tag, 'capture']]);
  });

  test('the synthetic event', async () => {
    const parent = await bridge.create('View');
    const child = await bridge.create('SwiftUIButton', { count: 4 }, { parent });
    const events = [];
    await parent.on('countChange', (e) => events.push(e), { capture: true });
    await child.on('countChange', (e) => {
      events.push(e);
      assert.equal(e.isPropagationStopped(), false);
      e.stopPropagation();
      assert.equal(e.isPropagationStopped(), true);
    });
    await parent.on('countChange', (e) => events.push(e));
    await child.command('press');
    assert.equal(events.length, 2);
    const [capture, bubble] = events;
    assert.ok(capture instanceof SyntheticEvent);
    assert.equal(capture.type, 'countChange');
    assert.equal(capture.target, child.tag);
    assert.equal(capture.currentTarget, parent.tag);
    assert.equal(capture.phase, 'capture');
    assert.deepEqual(capture.payload, { count: 5 });
    assert.equal(capture.nativeEvent, capture.payload);
    assert.equal(typeof capture.seq, 'number');
    assert.equal(bubble.seq, capture.seq);
    assert.equal(bubble.currentTarget, child.tag);
    assert.equal(bubble.phase, 'bubble');
    assert.equal(capture.isPropagationStopped(), true, 'one propagation state per dispatch');
    assert.equal(frames.at(-1).seq, capture.seq);
  });

  test('seq increases by one per event frame', async () => {
    const button = await bridge.create('SwiftUIButton', { onCountChange: () => {} });
    const seqs = [];
    await button.on('countChange', (e) => seqs.push(e.seq));
    await button.command('press');
    await button.command('press');
    assert.equal(seqs[1], seqs[0] + 1);
  });
});

describe('direct events', () => {
  test('TextField: focus → onEditingChange, submit → onCommit, type → onChange', async () => {
    const log = [];
    const field = await bridge.create('TextField', {
      onEditingChange: (e) => log.push(['editingChange', e.payload.editing, e.phase, e.target]),
      onCommit: (e) => log.push(['commit', e.payload.text]),
      onChange: (e) => log.push(['change', e.payload.text]),
    });
    await field.command('focus');
    await field.command('focus'); // no state change: no event
    await field.command('type', 'hello');
    await field.command('submit');
    await field.command('blur');
    assert.deepEqual(log, [
      ['editingChange', true, 'bubble', field.tag],
      ['change', 'hello'],
      ['commit', 'hello'],
      ['editingChange', false, 'bubble', field.tag],
    ]);
  });

  test('a direct event does not reach the parent; a bubbling one does', async () => {
    const log = [];
    const form = await bridge.create('View', { onChange: (e) => log.push(['form-change', e.payload.text]) });
    const field = await bridge.create('TextField', { onCommit: () => log.push(['commit']) }, { parent: form });
    await field.command('type', 'a');
    await field.command('submit');
    assert.deepEqual(log, [['form-change', 'a'], ['commit']]);
  });

  test("another component's direct event name is a prop, so the daemon reports it", async () => {
    const err = await bridge.create('View', { onCommit: () => {} }).catch((e) => e);
    assert.ok(err instanceof BridgeError);
    assert.equal(err.code, 'invalid_props');
    assert.equal(err.details[0].prop, 'onCommit');
  });

  test('a direct event cannot be captured', async () => {
    const field = await bridge.create('TextField');
    await assert.rejects(
      field.on('commit', () => {}, { capture: true }),
      { code: 'bad_request' },
    );
  });
});

describe('JSX-style handler props', () => {
  test('update swaps a handler without a new subscription, and null unsubscribes', async () => {
    const seen = [];
    const button = await bridge.create('SwiftUIButton', { onCountChange: () => seen.push('first') });
    await button.command('press');
    await button.update({ onCountChange: () => seen.push('second') });
    await button.command('press');
    const before = frames.length;
    assert.deepEqual(await button.update({ onCountChange: null }), { changed: [] });
    await button.command('press');
    assert.deepEqual(seen, ['first', 'second']);
    assert.equal(frames.length, before, 'the daemon no longer writes the event');
  });

  test('undefined unsubscribes too; a handler can be added by update', async () => {
    const seen = [];
    const button = await bridge.create('SwiftUIButton', { title: 't' });
    const result = await button.update({ title: 'u', onCountChange: (e) => seen.push(e.payload.count) });
    assert.deepEqual(result, { changed: ['title'] });
    await button.command('press');
    await button.update({ onCountChange: undefined });
    await button.command('press');
    assert.deepEqual(seen, [1]);
  });

  test('an unknown on-name is sent as a prop and reported; nothing is created', async () => {
    const { sessionViews } = await bridge.request({ op: 'stats' });
    const err = await bridge.create('SwiftUIButton', { onCountChange: () => {}, onFoo: () => {} }).catch((e) => e);
    assert.equal(err.code, 'invalid_props');
    assert.deepEqual(
      err.details.map((d) => d.prop),
      ['onFoo'],
    );
    assert.equal((await bridge.request({ op: 'stats' })).sessionViews, sessionViews);
  });

  test('a failed update changes neither props nor handlers', async () => {
    const seen = [];
    const button = await bridge.create('SwiftUIButton', { onCountChange: () => seen.push('kept') });
    const err = await button.update({ count: 'abc', onCountChange: null }).catch((e) => e);
    assert.equal(err.code, 'invalid_props');
    await button.command('press');
    assert.deepEqual(seen, ['kept']);
    assert.equal((await button.inspect()).props.count, 0);
  });

  test('handler props and on() share one subscription', async () => {
    const seen = [];
    const button = await bridge.create('SwiftUIButton', { onCountChange: () => seen.push('prop') });
    const off = await button.on('countChange', () => seen.push('on'));
    await button.update({ onCountChange: null });
    await button.command('press');
    assert.deepEqual(seen, ['on']);
    await off();
    const before = frames.length;
    await button.command('press');
    assert.equal(frames.length, before);
  });
});

describe('shared subscriptions', () => {
  test('several handlers on one view/event/phase are refcounted', async () => {
    const seen = [];
    const button = await bridge.create('SwiftUIButton');
    const offA = await button.on('countChange', () => seen.push('a'));
    const offB = await button.on('countChange', () => seen.push('b'));
    await button.command('press');
    await offA();
    await button.command('press');
    await offB();
    const before = frames.length;
    await button.command('press');
    assert.deepEqual(seen, ['a', 'b', 'b']);
    assert.equal(frames.length, before, 'the last unsubscribe reached the daemon');
  });

  test('an unknown event rejects and leaves nothing registered', async () => {
    const button = await bridge.create('SwiftUIButton');
    await assert.rejects(button.on('nope', () => {}), { code: 'unknown_event' });
  });
});

describe('handlers that await requests', () => {
  test('the counter: a handler updates count from inside onCountChange, no deadlock', async () => {
    const button = await bridge.create('SwiftUIButton', {
      title: 'Tap',
      onCountChange: async (e) => {
        await button.update({ count: e.payload.count });
      },
    });
    for (let i = 0; i < 5; i++) await button.command('press');
    const inspected = await button.inspect();
    assert.equal(inspected.props.count, 5);
    // Renders are coalesced: five updates, one render, at the inspect.
    assert.equal(inspected.renders, 1);
    assert.match(inspected.render, /count=5/);
  });

  test('command resolves after the promises its handlers returned', async () => {
    const order = [];
    const button = await bridge.create('SwiftUIButton', {
      onCountChange: async () => {
        order.push('handler start');
        await bridge.request({ op: 'ping' });
        await new Promise((resolve) => setImmediate(resolve));
        order.push('handler end');
      },
    });
    await button.command('press');
    order.push('command resolved');
    assert.deepEqual(order, ['handler start', 'handler end', 'command resolved']);
  });

  test('a handler may run a command that causes another event', async () => {
    const log = [];
    const second = await bridge.create('SwiftUIButton', { onCountChange: () => log.push('second') });
    const first = await bridge.create('SwiftUIButton', {
      onCountChange: async () => {
        log.push('first');
        await second.command('press');
        log.push('first done');
      },
    });
    await first.command('press');
    assert.deepEqual(log, ['first', 'second', 'first done']);
  });
});

describe('failing handlers', () => {
  test("a throwing or rejecting handler is reported as 'error' with handler_failed", async () => {
    const errors = [];
    const onError = (err) => errors.push(err);
    bridge.on('error', onError);
    try {
      const button = await bridge.create('SwiftUIButton', {
        onCountChange: () => {
          throw new Error('boom');
        },
      });
      await button.on('countChange', async () => {
        throw new Error('async boom');
      });
      assert.deepEqual(await button.command('press'), {});
      assert.deepEqual(
        errors.map((e) => [e.code, e.cause.message, e.details.target]),
        [
          ['handler_failed', 'boom', button.tag],
          ['handler_failed', 'async boom', button.tag],
        ],
      );
    } finally {
      bridge.off('error', onError);
    }
  });
});
