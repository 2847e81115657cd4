// What the client refuses before sending: values that JSON.stringify would throw on, drop or silently change.
import { BridgeError, ErrorCodes } from './errors.js';

/** The JSON-safe description of a value that cannot be sent (`got` of a detail). */
function describe(value) {
  switch (typeof value) {
    case 'number':
      return String(value); // NaN, Infinity, -Infinity
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
    case 'undefined':
      return 'undefined';
    default: {
      const name = Object.getPrototypeOf(value)?.constructor?.name;
      return `[object ${typeof name === 'string' && name !== '' ? name : 'Object'}]`;
    }
  }
}

function isPlainObject(value) {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function join(path, key) {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** The nesting past which jsonSafe() leaves a value to unsendable() (which also finds cycles). */
const FAST_DEPTH = 64;

/**
 * Whether JSON carries `value` as it is: the common case, checked without building a path for every value
 * (a commit of React Native's renderer sends thousands). False for anything unsendable() would report, and for
 * a value nested deeper than FAST_DEPTH, which unsendable() then checks.
 */
function jsonSafe(value, depth) {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth > FAST_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) if (!(i in value) || !jsonSafe(value[i], depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(value) || Object.getOwnPropertySymbols(value).length > 0) return false;
  // for…in, not Object.keys: no array per object (a commit's frame has one object per op and per props).
  for (const key in value) {
    const item = value[key];
    if (item !== undefined && !jsonSafe(item, depth + 1) && Object.hasOwn(value, key)) return false;
  }
  return true;
}

/**
 * The places in `value` that JSON cannot carry as they are: `[{path, got, expected}]`, empty when it is
 * JSON-safe. `path` is relative to `value` (`style.insets.top`, `points[2].x`, `[0]`). An object property
 * that is `undefined` counts as absent, as in JSON.stringify; anywhere else `undefined` is refused.
 */
export function unsendable(value, path = '', found = [], ancestors = undefined) {
  if (ancestors === undefined) {
    if (jsonSafe(value, 0)) return found;
    ancestors = new Set();
  }
  const refuse = (expected) => found.push({ path, got: describe(value), expected });
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return found;
    case 'number':
      if (!Number.isFinite(value)) refuse('a finite number (JSON has no NaN or Infinity)');
      return found;
    case 'bigint':
      refuse('a number (JSON has no BigInt; convert it, e.g. Number(x) or String(x))');
      return found;
    case 'undefined':
      refuse('a JSON value (undefined is not one; use null)');
      return found;
    case 'symbol':
      refuse('a JSON value');
      return found;
    case 'function':
      refuse('a JSON value (a function is a handler only under a registration name, such as onCountChange)');
      return found;
    default:
  }
  if (value === null) return found;
  if (ancestors.has(value)) {
    refuse('a tree of JSON values (this object contains itself)');
    return found;
  }
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) {
      refuse('a plain array');
      return found;
    }
    ancestors.add(value);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) found.push({ path: join(path, i), got: 'a hole', expected: 'a JSON value (JSON has no holes)' });
      else unsendable(value[i], join(path, i), found, ancestors);
    }
    ancestors.delete(value);
    return found;
  }
  if (!isPlainObject(value)) {
    refuse('a plain object, array or JSON scalar (JSON.stringify would change it: Date, Map, Set, class instances…)');
    return found;
  }
  ancestors.add(value);
  if (Object.getOwnPropertySymbols(value).length > 0) {
    found.push({ path, got: describe(value), expected: 'an object with string keys only (symbol keys are dropped)' });
  }
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) unsendable(item, join(path, key), found, ancestors);
  }
  ancestors.delete(value);
  return found;
}

function entries(found, extra) {
  return found.map(({ path, got, expected }) => ({
    ...extra(path),
    path,
    expected,
    got,
    message: `${path === '' ? 'the value' : path} is ${got}, which JSON cannot carry: expected ${expected}`,
  }));
}

/** The `invalid_props` error for props that cannot be sent, or null. Entries name the prop and the `path`. */
export function propsError(props) {
  if (props === null || typeof props !== 'object' || Array.isArray(props)) return null;
  const details = [];
  for (const [name, value] of Object.entries(props)) {
    if (value !== undefined) details.push(...entries(unsendable(value, join('', name)), () => ({ prop: name })));
  }
  if (details.length === 0) return null;
  const message = `${details.length} invalid prop${details.length === 1 ? '' : 's'}, refused before sending: ${details[0].message}`;
  return new BridgeError(ErrorCodes.INVALID_PROPS, message, { details });
}

/**
 * The `invalid_args` error for command args that cannot be sent, or null. Paths start, as the daemon's,
 * with the parameter's name when `params` (hello's `params` of the command) names it, else with `[i]`.
 */
export function argsError(args, params = []) {
  if (!Array.isArray(args)) return null;
  const details = [];
  args.forEach((arg, i) => {
    const name = params[i]?.name;
    const start = typeof name === 'string' ? join('', name) : `[${i}]`;
    details.push(...entries(unsendable(arg, start), () => ({ arg: i })));
  });
  if (details.length === 0) return null;
  const message = `${details.length} invalid arg${details.length === 1 ? '' : 's'}, refused before sending: ${details[0].message}`;
  return new BridgeError(ErrorCodes.INVALID_ARGS, message, { details });
}

/** The `invalid_payload` error for an `emit` payload that cannot be sent, or null. */
function payloadError(payload) {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const details = [];
  for (const [name, value] of Object.entries(payload)) {
    if (value !== undefined) details.push(...entries(unsendable(value, join('', name)), () => ({})));
  }
  if (details.length === 0) return null;
  return new BridgeError(ErrorCodes.INVALID_PAYLOAD, `the payload is refused before sending: ${details[0].message}`, {
    details,
  });
}

const CHECKED = { props: propsError, args: argsError, payload: payloadError };

/** The error for one op of a request that cannot be sent: its props, args or payload, or any other field. */
function opError(op, paramsOf) {
  if (op === null || typeof op !== 'object' || Array.isArray(op)) return null;
  for (const [field, value] of Object.entries(op)) {
    if (value === undefined) continue;
    const check = CHECKED[field];
    const error = check?.(value, field === 'args' ? paramsOf?.(op) : undefined);
    if (error) return error;
    if (check && value !== null && typeof value === 'object' && (Array.isArray(value) || isPlainObject(value))) continue;
    const found = unsendable(value, field);
    if (found.length > 0) {
      const details = entries(found, () => ({}));
      return new BridgeError(ErrorCodes.BAD_REQUEST, `refused before sending: ${details[0].message}`, { details });
    }
  }
  return null;
}

/**
 * Checks a whole request before it is sent, as the daemon would answer it: `invalid_props` or
 * `invalid_args` for a bad prop or arg, `bad_request` for another field, and for a batch `batch_failed`
 * with the op's `index` and the inner error in `details`. Returns null for a request JSON carries intact.
 * `paramsOf(op)` gives the parameters (`[{name, type}]`) of a command op, to name args as the daemon does.
 */
export function requestError(frame, paramsOf) {
  // Every check below is of what JSON carries: a frame JSON carries as it is has nothing to report.
  if (jsonSafe(frame, 0)) return null;
  if (frame.op === 'batch' && Array.isArray(frame.ops)) {
    // A part of a batch names its ops by their place in the whole batch, as the daemon does.
    const first = Number.isSafeInteger(frame.at) && frame.at > 0 ? frame.at : 0;
    for (let at = 0; at < frame.ops.length; at++) {
      const inner = opError(frame.ops[at], paramsOf);
      if (!inner) continue;
      const index = first + at;
      const details = { code: inner.code, message: inner.message, details: inner.details };
      return new BridgeError(ErrorCodes.BATCH_FAILED, `op ${index} of the batch: ${inner.message}`, {
        index,
        details,
        cause: inner,
      });
    }
    const { ops, ...rest } = frame;
    return opError(rest, paramsOf);
  }
  return opError(frame, paramsOf);
}
