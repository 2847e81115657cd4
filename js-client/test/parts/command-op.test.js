// The builders of requests on a view (lib/command-op.js): what View, Transaction and the React Native attachment send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandOp, emitOp, touchOp } from '../../lib/command-op.js';

test('a command carries args only when there are some', () => {
  assert.deepEqual(commandOp(3, 'press', []), { op: 'command', tag: 3, name: 'press' });
  assert.deepEqual(commandOp(3, 'slide', [0.5]), { op: 'command', tag: 3, name: 'slide', args: [0.5] });
});

test('an emit carries a payload only when one is given (null is one)', () => {
  assert.deepEqual(emitOp(3, 'countChange'), { op: 'emit', tag: 3, event: 'countChange' });
  assert.deepEqual(emitOp(3, 'countChange', null), { op: 'emit', tag: 3, event: 'countChange', payload: null });
});

test("a touch's fields go in protocol.md's order, undefined ones left out; an unknown one is a TypeError", () => {
  const op = touchOp(3, 'start', { timestamp: 9, pageY: 2, identifier: 1, pageX: undefined });
  assert.equal(JSON.stringify(op), '{"op":"touch","tag":3,"phase":"start","identifier":1,"pageY":2,"timestamp":9}');
  assert.throws(() => touchOp(3, 'end', { x: 1 }), /touch: unknown field 'x'/);
});
