// The shapes of the frames the daemon sends (protocol.md, "Requests and responses", "Events"), checked before
// the client acts on one: a frame of the wrong shape is a protocol_error, never an exception in the socket's
// handler.

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
// Tags and seqs go up to 2^63 - 1 (protocol.md): past 2^53 JSON.parse makes them inexact, but still integers.
const isTag = (value) => Number.isInteger(value) && value > 0;
const PHASES = new Set(['capture', 'bubble']);

/** The kind of a parsed line: `'event'`, `'response'`, or `null` for neither. */
export function frameKind(frame) {
  if (!isObject(frame)) return null;
  if (typeof frame.ok === 'boolean') return 'response';
  // An observer's change frame (protocol.md, "Observing sessions"): its own members, never an id (a `subscribed`
  // or `event` change has an `event` member too).
  if (typeof frame.observe === 'string' && typeof frame.change === 'string' && !('id' in frame)) return 'change';
  // A request's changes grouped (`observe` with `grouped: true`): `{observe, tree: [...]}`.
  if (typeof frame.observe === 'string' && Array.isArray(frame.tree) && !('id' in frame)) return 'change';
  if ('event' in frame) return 'event';
  return null;
}

/** What is wrong with an event frame (`{event, seq, target, payload, path}`), or null: `"seq is not …"`. */
export function eventProblem(frame) {
  if (typeof frame.event !== 'string') return 'event is not a string';
  if (!isTag(frame.seq)) return 'seq is not a positive integer';
  if (!isTag(frame.target)) return 'target is not a tag';
  if (frame.payload !== undefined && !isObject(frame.payload)) return 'payload is not an object';
  if (!Array.isArray(frame.path)) return 'path is not an array';
  for (const entry of frame.path) {
    if (!isObject(entry) || !isTag(entry.tag) || !PHASES.has(entry.phase)) {
      return `path has an entry that is not {tag, phase: "capture" | "bubble"}: ${JSON.stringify(entry)}`;
    }
  }
  return null;
}

/**
 * What is wrong with a response frame (`{id, ok: true, result}` or `{id, ok: false, error: {code, message}}`),
 * or null. `id` is checked by the caller, against the requests it sent.
 */
export function responseProblem(frame) {
  const { id } = frame;
  if (id !== null && typeof id !== 'string' && !Number.isInteger(id)) return 'id is not an integer, a string or null';
  if (frame.ok) return isObject(frame.result) ? null : 'result is not an object';
  if (!isObject(frame.error) || typeof frame.error.code !== 'string') return 'error is not an object with a code';
  return null;
}
