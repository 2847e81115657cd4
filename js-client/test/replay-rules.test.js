// A growing list never means editing recordings: a recording whose hello lacks a session limit added since, and
// whose unknown_component message lists fewer components than the daemon registers, still replays by the rules of
// replay-rules.json (`fieldsAddedToHello`'s `limits.*`, `listsThatGrow`); the Swift replayer's ReplayRulesTests
// does the same.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { LIMITS, grewSince, replayFile } from '../lib/replay.js';
import { startDaemon } from '../test-support/daemon.js';

let daemon;
before(async () => {
  daemon = await startDaemon();
});
after(() => daemon?.stop());

const REGISTERED = 'registered: View, SwiftUIButton, TextField, Slider, RCTView';

async function recordingWithoutTheLastLimit() {
  const file = new URL('../../Tests/BridgeTests/Sessions/tree-and-delete.jsonl', import.meta.url);
  const text = await readFile(file, 'utf8');
  // The last limit the recording has (one added after it was made is absent anyway).
  const { name } = LIMITS.findLast((limit) => text.includes(`,"${limit.name}":`));
  const without = text.replace(new RegExp(`,"${name}":\\d+`, 'g'), '');
  assert.notEqual(without, text);
  return without;
}

test('a limit and built-in components added since a recording are no difference', async () => {
  const text = (await recordingWithoutTheLastLimit()).replace(REGISTERED, 'registered: View, TextField');
  assert.ok(!text.includes(REGISTERED), 'tree-and-delete.jsonl has an unknown_component message');
  assert.equal(await replayFile(daemon.socket, text), null);
});

test('a list in another order is a difference', async () => {
  const text = (await recordingWithoutTheLastLimit()).replace(REGISTERED, 'registered: TextField, View');
  assert.notEqual(await replayFile(daemon.socket, text), null);
});

test('listsThatGrow applies to its code alone', () => {
  const live = "unknown op 'x'; expected one of hello, create, update, bye";
  assert.ok(grewSince('unknown_op', "unknown op 'x'; expected one of hello, update, bye", live));
  assert.ok(!grewSince('bad_request', "unknown op 'x'; expected one of hello, update, bye", live));
  assert.ok(!grewSince('unknown_op', "unknown op 'x'; expected one of update, hello", live));
  assert.ok(!grewSince('unknown_op', live, live));
});
