// Values JSON cannot carry as they are (NaN, BigInt, a Date…) are refused before sending, with the
// daemon's codes and a `path` to the place; nothing reaches the daemon and the session goes on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BridgeError, connect } from '../index.js';
import { startDaemon } from '../test-support/daemon.js';

let daemon;
let bridge;
/** Every frame this Bridge wrote, to check that a refused request sent nothing. */
const sent = [];

before(async () => {
  daemon = await startDaemon();
  bridge = await connect({ socket: daemon.socket, record: (r) => r.dir === 'in' && sent.push(r.frame) });
});
after(async () => {
  await bridge?.close();
  await daemon?.stop();
});

class Point {
  constructor(x) {
    this.x = x;
  }
}

/** Runs `attempt` and returns its BridgeError, checking that no frame was written meanwhile. */
async function refused(attempt) {
  const before = sent.length;
  const err = await attempt().then(
    () => assert.fail('the request was not refused'),
    (e) => e,
  );
  assert.ok(err instanceof BridgeError, String(err));
  assert.equal(sent.length, before, `a frame was sent: ${JSON.stringify(sent.at(-1))}`);
  return err;
}

describe('props JSON would change', () => {
  const cases = [
    ['NaN', NaN, 'NaN'],
    ['Infinity', Infinity, 'Infinity'],
    ['-Infinity', -Infinity, '-Infinity'],
    ['a BigInt', 2n ** 64n, '18446744073709551616n'],
    ['a Date', new Date(0), '[object Date]'],
    ['a Map', new Map([[1, 2]]), '[object Map]'],
    ['a Set', new Set([1]), '[object Set]'],
    ['a class instance', new Point(1), '[object Point]'],
    ['a symbol', Symbol('s'), 'Symbol(s)'],
    ['a function under a name that is no registration name', function format() {}, '[function format]'],
  ];
  for (const [what, value, got] of cases) {
    test(`${what}: invalid_props naming the prop`, async () => {
      const button = await bridge.create('SwiftUIButton');
      const err = await refused(() => button.update({ title: 'kept', count: value }));
      assert.equal(err.code, 'invalid_props');
      assert.equal(err.details.length, 1);
      assert.equal(err.details[0].prop, 'count');
      assert.equal(err.details[0].path, 'count');
      assert.equal(err.details[0].got, got);
      assert.match(err.details[0].expected, /\w/);
      assert.match(err.message, /count/);
      // Atomic, as on the daemon: the good prop of the same update was not applied either.
      assert.equal((await button.inspect()).props.title, '');
    });
  }

  test('nested places are named by their path, every one of them', async () => {
    const view = await bridge.create('View');
    const err = await refused(() =>
      view.update({ style: { insets: { top: NaN, left: 1 } }, points: [{ x: 1 }, { x: 2 }, { x: 3n }], tags: ['a', undefined] }),
    );
    assert.equal(err.code, 'invalid_props');
    assert.deepEqual(
      err.details.map(({ prop, path }) => ({ prop, path })),
      [
        { prop: 'style', path: 'style.insets.top' },
        { prop: 'points', path: 'points[2].x' },
        { prop: 'tags', path: 'tags[1]' },
      ],
    );
  });

  test('an array with a hole, and an object that contains itself', async () => {
    const view = await bridge.create('View');
    const loop = { a: 1 };
    loop.self = loop;
    // eslint-disable-next-line no-sparse-arrays
    const err = await refused(() => view.update({ holes: [1, , 3], loop }));
    assert.deepEqual(err.details.map((d) => d.path), ['holes[1]', 'loop.self']);
  });

  test('undefined as an object property is absent, as in JSON: sent without it', async () => {
    const button = await bridge.create('SwiftUIButton');
    const err = await button.update({ count: 2, nested: { gone: undefined } }).catch((e) => e);
    // Reaches the daemon, which knows no prop 'nested'.
    assert.equal(err.code, 'invalid_props');
    assert.equal(err.details[0].prop, 'nested');
    assert.deepEqual(sent.at(-1).props, { count: 2, nested: {} });
  });

  test('create refuses them too, and the view is never made', async () => {
    const views = (await bridge.request({ op: 'stats' })).sessionViews;
    const err = await refused(() => bridge.create('SwiftUIButton', { count: NaN, onCountChange: () => {} }));
    assert.equal(err.code, 'invalid_props');
    assert.equal(err.details[0].path, 'count');
    assert.equal((await bridge.request({ op: 'stats' })).sessionViews, views);
  });

  test('a transaction: batch_failed with the index of the op and the inner error', async () => {
    const tx = bridge.transaction();
    const a = tx.create('View');
    tx.update(a, { testID: 'x' });
    const b = tx.create('SwiftUIButton', { count: Infinity });
    const err = await refused(() => tx.commit());
    assert.equal(err.code, 'batch_failed');
    assert.equal(err.index, 2);
    assert.equal(err.details.code, 'invalid_props');
    assert.equal(err.details.details[0].path, 'count');
    assert.equal(err.cause.code, 'invalid_props');
    assert.equal(a.state, 'rolledBack');
    assert.equal(b.state, 'rolledBack');
  });
});

describe('command args and raw requests', () => {
  test('command args: invalid_args with the index of the arg, its path named as the daemon names it', async () => {
    const field = await bridge.create('TextField');
    const err = await refused(() => field.command('type', { parts: [1, NaN] }));
    assert.equal(err.code, 'invalid_args');
    assert.equal(err.details[0].arg, 0);
    assert.equal(err.details[0].path, 'text.parts[1]');
    // The daemon's own detail for a bad first argument starts with the same name.
    const daemons = await field.command('type', 5).catch((e) => e);
    assert.equal(daemons.code, 'invalid_args');
    assert.equal(daemons.details[0].path, 'text');
    // An argument beyond the declared parameters has no name: its index.
    const big = await refused(() => field.command('type', 'a', 10n));
    assert.equal(big.details[0].arg, 1);
    assert.equal(big.details[0].path, '[1]');
  });

  test('an emit payload: invalid_payload naming the field', async () => {
    const field = await bridge.create('TextField');
    const err = await refused(() => bridge.request({ op: 'emit', tag: field.tag, event: 'commit', payload: { text: NaN } }));
    assert.equal(err.code, 'invalid_payload');
    assert.equal(err.details[0].path, 'text');
  });

  test('another field of a raw request: bad_request naming it, never code undefined', async () => {
    const err = await refused(() => bridge.request({ op: 'inspect', tag: 1n }));
    assert.equal(err.code, 'bad_request');
    assert.equal(err.details[0].path, 'tag');
    const nested = await refused(() => bridge.request({ op: 'batch', ops: [{ op: 'ping' }, { op: 'update', tag: 1, props: { a: NaN } }] }));
    assert.equal(nested.code, 'batch_failed');
    assert.equal(nested.index, 1);
    assert.equal(nested.details.code, 'invalid_props');
  });

  test('the session goes on', async () => {
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
  });
});
