// A batch too long for one line, sent in parts (protocol.md, "A batch in parts"): each part a line of whole ops,
// every part but the last with `more: true`, each with `at` (how many ops the parts before it hold). The daemon
// commits the parts with the last part's ops as one batch, all or nothing (it runs each part as it comes, where no
// one sees it until then).

/** The bytes of a part besides its ops: `{"id":<id>,"op":"batch","more":true,"at":<n>,"ops":` and `}`, at most. */
const OVERHEAD = 96;

/**
 * The lines of the batch request `{id, op: 'batch', ops}` in parts of at most `partBytes` bytes each (an op longer
 * than that goes alone, in a part of its own), with their UTF-8 bytes: `{lines, bytes, longest}` (`bytes` of the
 * lines together, each with its newline); or null when the request is not a batch of ops alone or has fewer than two
 * ops. A request that is itself a part (`at`, and `more` but for the last) is cut into parts that start at its `at`,
 * the last of them with its `more` (a commit streamed in parts whose last part is longer than a line).
 * `bytesPerOp` is what an op takes on average, when known (from the whole line): the ops are written a slice at a
 * time, a slice as long as a part should hold, one JSON.stringify each (V8's fast path for a whole array).
 */
export function batchParts(frame, id, partBytes, bytesPerOp = sampleBytesPerOp(frame.ops)) {
  const { ops } = frame;
  if (!Array.isArray(ops) || ops.length < 2) return null;
  for (const key in frame) if (key !== 'op' && key !== 'ops' && key !== 'id' && key !== 'at' && key !== 'more') return null;
  const first = frame.at ?? 0;
  if (!Number.isSafeInteger(first) || first < 0 || (frame.more !== undefined && typeof frame.more !== 'boolean')) return null;
  const head = `{"id":${id},"op":"batch"`;
  const room = Math.max(1, partBytes - OVERHEAD);
  const lines = [];
  let total = 0;
  let longest = 0;
  let at = 0;
  while (at < ops.length) {
    let count = Math.min(ops.length - at, Math.max(1, Math.floor((room / bytesPerOp) * 0.9)));
    let json = JSON.stringify(ops.slice(at, at + count));
    let bytes = Buffer.byteLength(json);
    // A slice of longer ops than the average: fewer of them, until they fit (or one is left).
    while (bytes > room && count > 1) {
      count = Math.max(1, Math.floor(count * (room / bytes) * 0.9));
      json = JSON.stringify(ops.slice(at, at + count));
      bytes = Buffer.byteLength(json);
    }
    const more = at + count < ops.length || frame.more === true;
    const line = `${head}${more ? ',"more":true' : ''},"at":${first + at},"ops":${json}}`;
    lines.push(line);
    // The line is ASCII but for its ops' JSON.
    const lineBytes = bytes + line.length - json.length;
    total += lineBytes + 1;
    longest = Math.max(longest, lineBytes);
    at += count;
  }
  return { lines, bytes: total, longest };
}

/** The bytes an op of `ops` takes, from the first few (`stringify` writes them). */
export function sampleBytesPerOp(ops, stringify = JSON.stringify) {
  if (!Array.isArray(ops) || ops.length === 0) return 1;
  const sample = ops.slice(0, 64);
  return Math.max(1, Buffer.byteLength(stringify(sample)) / sample.length);
}
