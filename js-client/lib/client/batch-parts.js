// A batch too long for one line, sent in parts (protocol.md, "batch"): each part a line of whole ops, every part
// but the last with `more: true`, each with `at` (how many ops the parts before it hold). The daemon holds the
// parts unapplied and runs them all, with the last part's ops, as one batch: all or nothing.

/**
 * The lines of the batch request `{id, op: 'batch', ops}` in parts of at most `partBytes` bytes each (an op longer
 * than that on its own goes alone, in a part of its own), or null when the request is not a plain batch or has
 * fewer than two ops. `opJSON(op)` is how an op is written (JSON.stringify).
 */
export function batchParts(frame, id, partBytes, opJSON = JSON.stringify) {
  const { ops } = frame;
  if (!Array.isArray(ops) || ops.length < 2) return null;
  for (const key in frame) if (key !== 'op' && key !== 'ops' && key !== 'id') return null;
  const head = `{"id":${id},"op":"batch"`;
  // The bytes of a part besides its ops: the head, `,"more":true,"at":<up to 16 digits>,"ops":[` and `]}`.
  const overhead = head.length + 48;
  const lines = [];
  let part = [];
  let bytes = overhead;
  let at = 0;
  const close = (more) => {
    lines.push(`${head}${more ? ',"more":true' : ''},"at":${at},"ops":[${part.join(',')}]}`);
    at += part.length;
    part = [];
    bytes = overhead;
  };
  for (let i = 0; i < ops.length; i++) {
    const json = opJSON(ops[i]);
    if (json === undefined) throw new TypeError(`op ${i} of the batch cannot be written as JSON`);
    const length = Buffer.byteLength(json) + 1;
    if (part.length > 0 && bytes + length > partBytes) close(true);
    part.push(json);
    bytes += length;
  }
  close(false);
  return lines;
}
