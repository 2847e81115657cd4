// The recorded-session corpus that the Swift replayer replays (Tests/BridgeTests/Sessions), replayed by the
// Node replayer against the real daemon: one corpus, one normalisation rule, both replayers pass it.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { parseSession, replayFile } from '../lib/replay.js';
import { CORPUS, ReplayDaemons } from '../test-support/replay-daemons.js';

const daemons = new ReplayDaemons();
after(() => daemons.stop());
const daemonFor = (limits, text) => daemons.for(limits, text);

const files = (await readdir(CORPUS)).filter((f) => f.endsWith('.jsonl')).sort();

describe('the shared corpus, replayed against the daemon', () => {
  test('is there', () => assert.ok(files.length >= 10, String(files)));

  for (const file of files) {
    test(file, async () => {
      const text = await readFile(`${CORPUS}${file}`, 'utf8');
      const { limits } = parseSession(text);
      const { socket } = await daemonFor(limits, text);
      const difference = await replayFile(socket, text);
      assert.equal(difference, null, JSON.stringify(difference));
    });
  }

  test("a recording made with other limits than the daemon's fails at once, saying which and how to start it", async () => {
    const text = await readFile(`${CORPUS}limits.jsonl`, 'utf8');
    const { socket } = await daemonFor(undefined); // the defaults: not the recording's
    const difference = await replayFile(socket, text);
    assert.match(difference?.error ?? '', /maxViewsPerSession 2 \(the daemon: 2000000\)/);
    assert.match(difference.error, /--max-views 2/);
  });

  test('a changed stats count inside a batch still passes; a changed render does not', async () => {
    const text = await readFile(`${CORPUS}batch-stats.jsonl`, 'utf8');
    const { socket } = await daemonFor(parseSession(text).limits);
    const counts = text.replace('"sessions":5,"views":12', '"sessions":77,"views":88');
    assert.notEqual(counts, text);
    assert.equal(await replayFile(socket, counts), null);
    const render = text.replace('"testID":"one","nativeID"', '"testID":"two","nativeID"');
    assert.notEqual(render, text);
    assert.notEqual(await replayFile(socket, render), null);
  });
});
