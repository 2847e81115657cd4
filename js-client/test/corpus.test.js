// The recorded-session corpus that the Swift replayer replays (Tests/BridgeTests/Sessions), replayed by the
// Node replayer against the real daemon: one corpus, one normalisation rule, both replayers pass it.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseLossless } from '../lib/json.js';
import { parseSession, replayFile } from '../lib/replay.js';
import { startDaemon } from '../test-support/daemon.js';

const CORPUS = fileURLToPath(new URL('../../Tests/BridgeTests/Sessions/', import.meta.url));
const SCHEMAS = fileURLToPath(new URL('../../Tests/Schemas/', import.meta.url));
const FLAGS = { maxViewsPerSession: '--max-views', maxOpsPerBatch: '--max-batch-ops', eventBuffer: '--event-buffer' };
/** The daemon's defaults: a limit at its default needs no flag. */
const DEFAULTS = { maxViewsPerSession: '2000000', maxOpsPerBatch: '100000', eventBuffer: '10000' };

/** The serve flags for a recording's limits (those that differ from the defaults). */
function flagsFor(limits) {
  if (!limits) return [];
  return parseLossless(limits).entries.filter(([name, value]) => DEFAULTS[name] !== value.text).flatMap(([name, value]) => [FLAGS[name], value.text]);
}

const daemons = new Map();
after(async () => {
  for (const daemon of daemons.values()) await daemon.stop();
});

/** The component names each schema of Tests/Schemas declares, by file. */
const schemaComponents = new Map();
for (const file of (await readdir(SCHEMAS)).filter((f) => f.endsWith('.json')).sort()) {
  const schema = JSON.parse(await readFile(`${SCHEMAS}${file}`, 'utf8'));
  const names = Object.values(schema.modules).flatMap((module) => Object.keys(module.components ?? {}));
  schemaComponents.set(`${SCHEMAS}${file}`, names);
}

/**
 * The --components flags that give a daemon the components a recording's meta record describes (those of
 * codegen schemas): the schemas of Tests/Schemas that declare them.
 */
function componentFlagsFor(text) {
  const meta = JSON.parse(text.slice(0, text.indexOf('\n')));
  const described = Object.keys(meta.dir === 'meta' ? (meta.components ?? {}) : {});
  return [...schemaComponents].filter(([, names]) => names.some((n) => described.includes(n))).flatMap(([path]) => ['--components', path]);
}

/** A daemon started with the limits and schema components a recording names (one per set of flags). */
async function daemonFor(limits, text = '') {
  const args = [...flagsFor(limits), ...(text ? componentFlagsFor(text) : [])];
  const key = args.join(' ');
  if (!daemons.has(key)) daemons.set(key, await startDaemon(args));
  return daemons.get(key);
}

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
