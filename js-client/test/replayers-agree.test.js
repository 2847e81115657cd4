// The two replayers agree: `bridged replay` (the Swift replayer, run as the real binary) and the Node replayer
// (lib/replay.js, against a real daemon) pass and fail the same recordings, at the same line: the corpus, and
// copies of it changed where the rules of protocol.md ("Recorded sessions and replay") decide.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS, parseSession, replayFile } from '../lib/replay.js';
import { BRIDGED_BIN } from '../test-support/daemon.js';
import { CORPUS, ReplayDaemons } from '../test-support/replay-daemons.js';

const PROTOCOL = fileURLToPath(new URL('../../protocol.md', import.meta.url));

/** Runs the real binary; resolves {code, stdout}. */
function bridged(...args) {
  return new Promise((resolve) => {
    execFile(BRIDGED_BIN, args, { maxBuffer: 64 << 20 }, (err, stdout) => {
      resolve({ code: err ? (err.code ?? 1) : 0, stdout });
    });
  });
}

/** What `bridged replay FILE` decides: {passed} or {passed: false, line} ("end" for a frame past the recording). */
async function swiftVerdict(file, text) {
  const { code, stdout } = await bridged('replay', file);
  if (code === 0) return { passed: true };
  const line = Number(/FAIL at (\d+)/.exec(stdout)?.[1]);
  const end = /expected: end of recording/.test(stdout) || line > text.split('\n').filter((l) => l !== '').length;
  return { passed: false, line: end ? 'end' : line, output: stdout };
}

/** What the Node replayer decides, in the same terms. */
async function nodeVerdict(daemons, text) {
  let difference;
  try {
    const { limits } = parseSession(text);
    const { socket } = await daemons.for(limits, text);
    difference = await replayFile(socket, text);
  } catch (err) {
    difference = { error: err.message };
  }
  if (difference === null) return { passed: true };
  if (difference.error) return { passed: false, line: Number(/^line (\d+)/.exec(difference.error)?.[1]), output: difference.error };
  return { passed: false, line: difference.line === 'end of file' ? 'end' : difference.line, output: JSON.stringify(difference) };
}

/** `text` with `from` replaced by `to`, which must occur in it. */
function changed(text, from, to) {
  assert.ok(text.includes(from), `the recording has ${from}`);
  return text.replace(from, to);
}

const corpus = Object.fromEntries(
  await Promise.all(
    (await readdir(CORPUS))
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .map(async (f) => [f, await readFile(`${CORPUS}${f}`, 'utf8')]),
  ),
);
const isOut = (line) => line.startsWith('{"dir":"out"');
/** `text` with its out records moved after every other record, in their order. */
function outsLast(text) {
  const lines = text.split('\n').filter((l) => l !== '');
  return `${[...lines.filter((l) => !isOut(l)), ...lines.filter(isOut)].join('\n')}\n`;
}
/** `text` with its out records moved right after its first record (the meta record), in their order. */
function outsFirst(text) {
  const lines = text.split('\n').filter((l) => l !== '');
  return `${[lines[0], ...lines.filter(isOut), ...lines.slice(1).filter((l) => !isOut(l))].join('\n')}\n`;
}

const PRESSES = ',"commands":[{"name":"press","args":[]},{"name":"press","args":[]}]';

/** [name, text, passes]: what both replayers must decide. */
const cases = [
  ...Object.entries(corpus).map(([file, text]) => [file, text, true]),
  // A `bye` ends the connection; what follows goes on a new one, with or without the record that says so.
  [
    'bye without a connection record, changed after the bye',
    changed(corpus['bye-without-connection-record.jsonl'], 'inspect: no view with tag 1', 'inspect: no view with tag 2'),
    false,
  ],
  [
    'bye.jsonl without its connection records',
    corpus['bye.jsonl'].replaceAll('{"dir":"meta","connection":"closed"}\n', ''),
    true,
  ],
  // Format 2 is compared member for member; an older format for the members it has.
  ['format 2 without a member', changed(corpus['counter-button.jsonl'], PRESSES, ''), false],
  [
    'an older format without a member',
    changed(changed(corpus['counter-button.jsonl'], PRESSES, ''), '{"dir":"meta","format":2,', '{"dir":"meta",'),
    true,
  ],
  [
    'an older format with a member changed',
    changed(
      changed(corpus['counter-button.jsonl'], '{"dir":"meta","format":2,', '{"dir":"meta",'),
      'count=2"',
      'count=9"',
    ),
    false,
  ],
  [
    'older-format.jsonl said to be format 2',
    changed(corpus['older-format.jsonl'], '{"dir":"meta",', '{"dir":"meta","format":2,'),
    false,
  ],
  // hello's token and limits (and the built-ins added since) are left out where a format-2 recording lacks them.
  [
    'format 2, hello without token and limits',
    corpus['hello-handshake.jsonl'],
    true,
  ],
  // An unknown_op message lists the daemon's ops: a recording made before some were added lists fewer, in order.
  [
    'an unknown_op message recorded before ops were added',
    changed(changed(corpus['bad-input.jsonl'], 'command, emit, inspect', 'command, inspect'), ', sessions, observe, unobserve', ''),
    true,
  ],
  ['an unknown_op message listing an op the daemon lacks', changed(corpus['bad-input.jsonl'], 'unobserve, bye"', 'unobserve, bye, launch"'), false],
  ['an unknown_op message with its ops out of order', changed(corpus['bad-input.jsonl'], 'of hello, create,', 'of create, hello,'), false],
  ['an unknown_op message for another op', changed(corpus['bad-input.jsonl'], "unknown op 'launch'; expected", "unknown op 'land'; expected"), false],
  // Numbers are compared as numbers; only the meta record on the first line counts.
  ['1.0 recorded as 1', changed(corpus['hello-handshake.jsonl'], '"default":1.0}', '"default":1}'), true],
  ['1.0 recorded as 1.5', changed(corpus['hello-handshake.jsonl'], '"default":1.0}', '"default":1.5}'), false],
  [
    'a meta record after the first line is not the recording\'s',
    `${corpus['limits.jsonl'].split('\n').slice(1).join('\n')}\n${corpus['limits.jsonl'].split('\n')[0]}\n`,
    false,
  ],
  ['blank lines before and between records', ` \t\r\n${corpus['batch.jsonl'].replaceAll('\n', '\n \t\r\n')}`, true],
  // What varies is normalised, and nothing else.
  ['a stats count changed in a batch', changed(corpus['batch-stats.jsonl'], '"sessions":5,"views":12', '"sessions":7,"views":8'), true],
  ['a render changed in a batch', changed(corpus['batch-stats.jsonl'], '"testID":"one","nativeID"', '"testID":"two","nativeID"'), false],
  ['an extra frame', `${corpus['emit.jsonl']}{"dir":"out","frame":{"id":99,"ok":true,"result":{}}}\n`, false],
  ['a missing frame', corpus['emit.jsonl'].split('\n').slice(0, -2).join('\n') + '\n', false],
  // Where an out record sits among the in records does not matter: the k-th frame is compared with the k-th out.
  ['resume-token.jsonl with every out record last', outsLast(corpus['resume-token.jsonl']), true],
  ['resume-token.jsonl with every out record first', outsFirst(corpus['resume-token.jsonl']), true],
  ['counter-button.jsonl with every out record last, one changed', outsLast(changed(corpus['counter-button.jsonl'], 'count=2"', 'count=9"')), false],
  // Records that are not records: every line is read before anything is replayed.
  ['a changed frame, then a line that is not a record', `${changed(corpus['emit.jsonl'], '"ok":true', '"ok":false')}not json\n`, false],
  ['a record that is not an object', `${corpus['emit.jsonl']}[1]\n`, false],
  ['a record without dir', `${corpus['emit.jsonl']}{"frame":{}}\n`, false],
  ['a record of another dir', `${corpus['emit.jsonl']}{"dir":"note","text":"ignored"}\n`, true],
];

describe('the Swift and the Node replayer agree', () => {
  const daemons = new ReplayDaemons();
  let dir;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bridged-replayers-'));
  });
  after(async () => {
    await daemons.stop();
    await rm(dir, { recursive: true, force: true });
  });

  cases.forEach(([name, text, passes], i) => {
    test(`${name}: ${passes ? 'passes' : 'fails'} in both`, async () => {
      const file = join(dir, `${i}.jsonl`);
      await writeFile(file, text);
      const swift = await swiftVerdict(file, text);
      const node = await nodeVerdict(daemons, text);
      assert.equal(swift.passed, passes, `bridged replay: ${swift.output}`);
      assert.equal(node.passed, passes, `the Node replayer: ${node.output}`);
      assert.equal(node.line, swift.line, `the same line\n  swift: ${swift.output}\n  node: ${node.output}`);
    });
  });
});

describe('the limits a recording carries are one list', () => {
  test("the Node replayer's is the daemon's: the names and order of `bridged record`'s meta record, each set by its flag", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bridged-limits-'));
    try {
      await writeFile(join(dir, 'empty.txt'), '');
      const { code, stdout } = await bridged('record', join(dir, 'empty.txt'));
      assert.equal(code, 0, stdout);
      const meta = JSON.parse(stdout.split('\n')[0]);
      assert.deepEqual(Object.keys(meta.limits), LIMITS.map((limit) => limit.name),
        "bridged record's meta record names these limits: LIMITS in js-client/lib/replay.js lists them in its order");
      for (const [i, { name, flag }] of LIMITS.entries()) {
        const value = 3 + i;
        const set = await bridged('record', join(dir, 'empty.txt'), flag, String(value));
        assert.equal(set.code, 0, `${flag}: ${set.stdout}`);
        assert.equal(JSON.parse(set.stdout.split('\n')[0]).limits[name], value, `${flag} sets ${name}`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("the serve flags are the daemon's", async () => {
    const { stdout } = await bridged('serve', '--help');
    for (const { flag } of LIMITS) assert.match(stdout, new RegExp(`${flag} `), flag);
  });

  test("protocol.md's hello example names the same limits, and its flags table marks their flags recorded", async () => {
    const protocol = await readFile(PROTOCOL, 'utf8');
    const hello = protocol.slice(protocol.indexOf('### hello'), protocol.indexOf('### Tags'));
    const example = JSON.parse(/"limits":(\{[^}]*\})/.exec(hello)[1]);
    assert.deepEqual(Object.keys(example), LIMITS.map((limit) => limit.name));
    const table = protocol.slice(protocol.indexOf('### Limits and flags'));
    const recorded = [...table.matchAll(/^\| `(--[a-z-]+)[^`]*` \|.*\*recorded\*/gm)].map((m) => m[1]);
    assert.deepEqual(recorded.sort(), LIMITS.map((limit) => limit.flag).sort(),
      "protocol.md's Limits and flags marks *recorded* the flags of the recorded limits, and no other");
  });
});
