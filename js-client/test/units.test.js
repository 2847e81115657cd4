// The pure parts: line splitting, lossless JSON, replay normalisation, registration names.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, LineTooLong } from '../lib/lines.js';
import { jsonEqual, parseLossless, stringifyLossless } from '../lib/json.js';
import { limitsMismatch, normalise, parseSession } from '../lib/replay.js';
import { RegistrationNames } from '../lib/events.js';
import { BridgeError } from '../index.js';

describe('LineSplitter', () => {
  test('splits at \\n, drops a trailing \\r, joins a character split across chunks', () => {
    const splitter = new LineSplitter();
    const smile = Buffer.from('😀');
    assert.deepEqual(splitter.push(Buffer.from('{"a":1}\r\n{"b":"')), ['{"a":1}']);
    assert.deepEqual(splitter.push(smile.subarray(0, 2)), []);
    assert.equal(splitter.pending, true);
    assert.deepEqual(splitter.push(Buffer.concat([smile.subarray(2), Buffer.from('"}\n\n')])), ['{"b":"😀"}', '']);
    assert.equal(splitter.pending, false);
  });

  test('maxBytes: a longer line is a LineTooLong in its place, skipped to its \\n, at every split position', () => {
    const input = Buffer.from('12345\r\n123456\n1234567890\r\n1234\r\n');
    const show = (lines) => lines.map((l) => (l instanceof LineTooLong ? `too long (${l.maxBytes})` : l));
    const expected = ['12345', 'too long (5)', 'too long (5)', '1234'];
    for (let a = 0; a <= input.length; a++) {
      for (let b = a; b <= input.length; b++) {
        const splitter = new LineSplitter({ maxBytes: 5 });
        const lines = [input.subarray(0, a), input.subarray(a, b), input.subarray(b)].flatMap((c) => splitter.push(c));
        assert.deepEqual(show(lines), expected, `split at ${a} and ${b}`);
        assert.equal(splitter.pending, false);
      }
    }
  });
});

describe('lossless JSON', () => {
  test('keeps big integers, key order and duplicates', () => {
    const text = '{"id":9223372036854775807,"b":[1,2.5e3,true,null,"\\u0000😀"],"a":{},"a":[]}';
    assert.equal(stringifyLossless(parseLossless(text)), text);
  });

  test('equality as JSON values', () => {
    assert.ok(jsonEqual(parseLossless('{"a":1,"b":5.0}'), parseLossless('{ "b": 5, "a": 1 }')));
    assert.ok(!jsonEqual(parseLossless('9223372036854775807'), parseLossless('9223372036854775806')));
    assert.ok(!jsonEqual(parseLossless('{"a":1}'), parseLossless('{"a":1,"b":2}')));
    assert.ok(!jsonEqual(parseLossless('[1]'), parseLossless('{"0":1}')));
    assert.ok(!jsonEqual(parseLossless('"1"'), parseLossless('1')));
  });

  test('rejects what is not JSON', () => {
    for (const bad of ['{"a":1,}', 'not json', '{"a" 1}', '[1 2]', '01', '"\u0001"']) {
      assert.throws(() => parseLossless(bad), SyntaxError, bad);
    }
  });
});

describe('replay normalisation', () => {
  test('meta records are skipped, their limits kept for the report', () => {
    const { inputs, outputs, limits } = parseSession(
      '{"dir":"meta","server":"bridged/0.1.0","limits":{"maxOpsPerBatch":3}}\n{"dir":"in","frame":{"op":"ping"}}\n',
    );
    assert.equal(inputs.length, 1);
    assert.equal(outputs.length, 0);
    assert.equal(limits, '{"maxOpsPerBatch":3}');
  });

  test('only hello session/server and stats numbers', () => {
    const { inputs, outputs } = parseSession(
      [
        '{"dir":"in","frame":{"id":1,"op":"hello","protocol":1}}',
        '{"dir":"out","frame":{"id":1,"ok":true,"result":{"protocol":1,"server":"a","session":"s1"}}}',
        '{"dir":"in","raw":""}',
        '{"dir":"in","frame":{"id":2,"op":"stats"}}',
        '{"dir":"out","frame":{"id":2,"ok":true,"result":{"sessions":3,"views":1,"sessionViews":1,"seq":0}}}',
        '{"dir":"in","frame":{"id":3,"op":"inspect","tag":1}}',
        '{"dir":"out","frame":{"id":3,"ok":true,"result":{"renders":4,"session":"kept"}}}',
      ].join('\n'),
    );
    assert.equal(inputs.length, 4);
    assert.deepEqual(outputs.map((o) => o.line), [2, 5, 7]);
    const got = normalise(
      [
        parseLossless('{"id":1,"ok":true,"result":{"protocol":1,"server":"b","session":"s9"}}'),
        parseLossless('{"id":2,"ok":true,"result":{"sessions":1,"views":7,"sessionViews":1,"seq":0}}'),
        parseLossless('{"id":3,"ok":true,"result":{"renders":4,"session":"other"}}'),
      ],
      inputs,
    );
    const expected = normalise(outputs.map((o) => o.frame), inputs);
    assert.ok(jsonEqual(got[0], expected[0]));
    assert.ok(jsonEqual(got[1], expected[1]));
    assert.ok(!jsonEqual(got[2], expected[2]), 'session is normalised in hello only');
  });

  test("one rule with the Swift replayer: a stats result's integer fields, also inside a batch, and nothing else", () => {
    const inputs = parseSession(
      '{"dir":"in","frame":{"id":1,"op":"batch","ops":[{"op":"stats"},{"op":"inspect","tag":1},{"op":"stats"}]}}',
    ).inputs;
    const frame = (a, b, renders) =>
      parseLossless(
        `{"id":1,"ok":true,"result":{"results":[{"sessions":${a},"views":2},{"renders":${renders}},{"sessions":${b},"ratio":0.5}]}}`,
      );
    const [x] = normalise([frame(1, 2, 3)], inputs);
    const [y] = normalise([frame(5, 6, 3)], inputs);
    assert.ok(jsonEqual(x, y), 'the stats counts of a batch are normalised');
    const [other] = normalise([frame(1, 2, 4)], inputs);
    assert.ok(!jsonEqual(x, other), 'a result that is not stats is not');
    const [real] = normalise([parseLossless('{"id":1,"ok":true,"result":{"results":[{},{},{"ratio":0.25}]}}')], inputs);
    const [half] = normalise([parseLossless('{"id":1,"ok":true,"result":{"results":[{},{},{"ratio":0.5}]}}')], inputs);
    assert.ok(!jsonEqual(real, half), 'only integer fields');
    const hello = parseSession('{"dir":"in","frame":{"id":1,"op":"hello","protocol":1}}').inputs;
    const [t1] = normalise([parseLossless('{"id":1,"ok":true,"result":{"session":"s1","token":"abc"}}')], hello);
    const [t2] = normalise([parseLossless('{"id":1,"ok":true,"result":{"session":"s2","token":"xyz"}}')], hello);
    assert.ok(jsonEqual(t1, t2), "hello's token varies too");
  });

  test("a recording's limits against the daemon's: which differ, and the flags to start it with", () => {
    const inputs = parseSession('{"dir":"in","frame":{"id":1,"op":"hello","protocol":1}}').inputs;
    const recorded = parseLossless('{"maxViewsPerSession":2,"maxOpsPerBatch":3,"eventBuffer":10000}');
    const hello = (limits) => [parseLossless(`{"id":1,"ok":true,"result":{"session":"s1"${limits ? `,"limits":${limits}` : ''}}}`)];
    const message = limitsMismatch(recorded, hello('{"maxViewsPerSession":2000000,"maxOpsPerBatch":3,"eventBuffer":10000}'), inputs);
    assert.match(message, /maxViewsPerSession 2 \(the daemon: 2000000\)/);
    assert.match(message, /--max-views 2$/);
    assert.equal(limitsMismatch(recorded, hello('{"maxViewsPerSession":2,"maxOpsPerBatch":3,"eventBuffer":10000}'), inputs), null);
    assert.equal(limitsMismatch(recorded, hello(null), inputs), null, 'a daemon that does not say: no check');
    assert.equal(limitsMismatch(undefined, hello('{"maxViewsPerSession":1}'), inputs), null);
  });
});

describe('RegistrationNames', () => {
  const names = new RegistrationNames({
    SwiftUIButton: {
      events: {
        countChange: { bubbles: true, registrationNames: { bubbled: 'onCountChange', captured: 'onCountChangeCapture' } },
      },
    },
    TextField: { events: { commit: { bubbles: false, registrationName: 'onCommit' } } },
    View: { events: {} },
  });

  test('bubbling names on any view, direct names on their component only', () => {
    assert.deepEqual(names.lookup('View', 'onCountChange'), { event: 'countChange', phase: 'bubble' });
    assert.deepEqual(names.lookup('View', 'onCountChangeCapture'), { event: 'countChange', phase: 'capture' });
    assert.deepEqual(names.lookup('TextField', 'onCommit'), { event: 'commit', phase: 'bubble' });
    assert.equal(names.lookup('View', 'onCommit'), undefined);
    assert.equal(names.lookup('View', 'onFoo'), undefined);
  });
});

describe('BridgeError.fromProtocol', () => {
  test('batch_failed keeps index, the inner error as details and as cause', () => {
    const err = BridgeError.fromProtocol({
      code: 'batch_failed',
      message: 'op 2 failed',
      index: 2,
      error: { code: 'unknown_tag', message: 'no view 9' },
    });
    assert.equal(err.code, 'batch_failed');
    assert.equal(err.index, 2);
    assert.deepEqual(err.details, { code: 'unknown_tag', message: 'no view 9' });
    assert.equal(err.cause.code, 'unknown_tag');
  });
});
