// The one builder of each request on a view that more than one part of the client sends: `command` (a View's
// command(), a transaction's, and React Native's attachment: paper's dispatchViewManagerCommand, Fabric's
// dispatchCommand, the native input an app's screen sends), `emit` (a View's, a transaction's) and `touch` (a View's,
// a transaction's, an app's press).

/** `{op: 'command', tag, name, args?}`: `args` only when there are some, as every caller sends it. */
export function commandOp(tag, name, args) {
  const op = { op: 'command', tag, name };
  if (args && args.length > 0) op.args = args;
  return op;
}

/** `{op: 'emit', tag, event, payload?}`: `payload` only when given. */
export function emitOp(tag, event, payload) {
  const op = { op: 'emit', tag, event };
  if (payload !== undefined) op.payload = payload;
  return op;
}

/** The fields of a touch, in the order protocol.md gives them. */
const TOUCH_FIELDS = ['identifier', 'pageX', 'pageY', 'locationX', 'locationY', 'timestamp'];

/**
 * `{op: 'touch', tag, phase, identifier?, pageX?, pageY?, locationX?, locationY?, timestamp?}`: the fields `touch`
 * gives (undefined ones left out), in protocol.md's order; a field it does not know is a TypeError.
 */
export function touchOp(tag, phase, touch = {}) {
  for (const key of Object.keys(touch ?? {})) {
    if (!TOUCH_FIELDS.includes(key)) throw new TypeError(`touch: unknown field '${key}' (a touch has ${TOUCH_FIELDS.join(', ')})`);
  }
  const op = { op: 'touch', tag, phase };
  for (const key of TOUCH_FIELDS) if (touch?.[key] !== undefined) op[key] = touch[key];
  return op;
}
