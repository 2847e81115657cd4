// NativeModules without an app: what app.nativeCalls(name) keeps of a module's calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_RECORDED_CALLS, NativeModules } from '../../lib/react-native/modules/index.js';

test('a module keeps its last MAX_RECORDED_CALLS calls, in order, however many it had', () => {
  const modules = new NativeModules({});
  modules.provide('Counter', { bump: (n) => n + 1 });
  const counter = modules.get('Counter');
  const total = 2 * MAX_RECORDED_CALLS + 1234;
  for (let i = 0; i < total; i++) assert.equal(counter.bump(i), i + 1);
  const calls = modules.calls('Counter');
  assert.equal(calls.length, MAX_RECORDED_CALLS);
  assert.deepEqual(calls[0], { method: 'bump', args: [total - MAX_RECORDED_CALLS] });
  assert.deepEqual(calls.at(-1), { method: 'bump', args: [total - 1] });
  assert.deepEqual(modules.calls('Nobody'), []);
});
