// Replays recorded sessions (protocol.md, "Recorded sessions and replay") against a running daemon.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { JsonNumber, JsonObject, jsonEqual, parseLossless, stringifyLossless } from './json.js';
import { LineSplitter } from './lines.js';
import { LIMITS } from './ops.js';
import { openSocket } from './spawn.js';

const INTEGER = /^-?\d+$/;

/**
 * What both replayers normalise, as data (replay-rules.json; the Swift replayer's copy, ReplayRules+JSON.swift, is
 * generated from it): `helloVaries`, the hello result members that vary between runs; `integersVary`, the ops whose
 * result's integer members do (also as a batch's op); `fieldsAddedToHello` (`a`, `a.b` or `a.*`) and
 * `componentsAddedToBuiltins`, what was added to hello's result since recordings began, left out of the live result
 * where the recorded one lacks it; `listsThatGrow`, the error messages ending with a list the daemon grows
 * (Sources/BridgeCore/Replay/ReplayRules.swift says each rule in full).
 */
export const RULES = Object.freeze(JSON.parse(readFileSync(new URL('./replay-rules.json', import.meta.url), 'utf8')));

/**
 * The limits a recording's meta record carries (protocol.md, "hello": `result.limits` has the same names), each
 * with the serve flag that sets it: lib/ops.js's, generated from the daemon's `SessionLimit.all`.
 */
export { LIMITS };

/** A line of a recording that holds no record: empty, or only spaces, tabs and `\r` (the Swift replayer's rule). */
const BLANK = /^[ \t\r]*$/;

/**
 * Reads a recorded session. Returns the lines to send (`frame` compact-serialised, `raw` verbatim)
 * with the op of each, and the expected frames with their line numbers; each with the index of its
 * connection (a `{"dir":"meta","connection":"closed"}` record starts the next one), and `connections`.
 * Only the first record may be the meta record that gives the recording's `limits` and `format`.
 */
export function parseSession(text) {
  const inputs = []; // {text, op, frame, connection}
  const outputs = []; // {line, frame, connection}
  let limits;
  /** The meta record's `format`: 1 when it has none (recorded before formats were numbered). */
  let format = 1;
  let connection = 0;
  let first = true;
  text.split('\n').forEach((source, i) => {
    const line = i + 1;
    if (BLANK.test(source)) return;
    let record;
    try {
      record = parseLossless(source);
    } catch (err) {
      throw new Error(`line ${line}: not a JSON record (${err.message})`);
    }
    if (!(record instanceof JsonObject)) throw new Error(`line ${line}: a record is a JSON object`);
    const isFirst = first;
    first = false;
    const dir = record.get('dir');
    if (dir === 'in') {
      if (record.has('frame')) {
        const frame = record.get('frame');
        const op = frame instanceof JsonObject ? frame.get('op') : undefined;
        inputs.push({ text: stringifyLossless(frame), op, frame, connection });
      } else if (typeof record.get('raw') === 'string') {
        inputs.push({ text: record.get('raw'), op: undefined, frame: undefined, connection });
      } else {
        throw new Error(`line ${line}: an "in" record has "frame" or "raw"`);
      }
    } else if (dir === 'out') {
      if (!record.has('frame')) throw new Error(`line ${line}: an "out" record has "frame"`);
      outputs.push({ line, frame: record.get('frame'), connection });
    } else if (dir === 'meta') {
      if (isFirst && record.has('limits')) limits = stringifyLossless(record.get('limits'));
      const f = record.get('format');
      if (isFirst && f instanceof JsonNumber && INTEGER.test(f.text)) format = Number(f.text);
      if (record.get('connection') === 'closed') connection++;
    } else if (typeof dir !== 'string') {
      throw new Error(`line ${line}: a record has "dir"`);
    }
    // Other records (the daemon's recordings start with {"dir":"meta",…}) carry nothing to send or compare.
  });
  return { inputs, outputs, limits, format, connections: connection + 1 };
}

/** A blank line (empty or only `\r`) is a keep-alive: no response. */
function answered(input) {
  return input.text !== '' && input.text !== '\r';
}

const isResponse = (frame) => frame instanceof JsonObject && frame.has('ok');

/** The rule for a result whose integers vary (`RULES.integersVary`, the Swift replayer's too): each becomes 0. */
function zeroIntegers(result) {
  if (!(result instanceof JsonObject)) return result;
  return new JsonObject(
    result.entries.map(([k, v]) => [k, v instanceof JsonNumber && INTEGER.test(v.text) ? new JsonNumber('0') : v]),
  );
}

function withResult(frame, map) {
  if (!(frame instanceof JsonObject) || !frame.has('result')) return frame;
  return new JsonObject(frame.entries.map(([k, v]) => [k, k === 'result' ? map(v) : v]));
}

/**
 * `entries` (of a live hello result) without the member at `path` (`name`, `name.member` or `name.*`) where the
 * recorded result lacks it.
 */
function withoutAdded(entries, path, recorded) {
  const [name, member] = path.split(/\.(.*)/s);
  if (member === undefined) return entries.filter(([k]) => k !== name || recorded.has(k));
  const inner = recorded.get(name);
  if (!(inner instanceof JsonObject)) return entries;
  return entries.map(([k, v]) => {
    if (k !== name || !(v instanceof JsonObject)) return [k, v];
    return [k, new JsonObject(v.entries.filter(([key]) => (member !== '*' && key !== member) || inner.has(key)))];
  });
}

/** `hello`'s result with what varies replaced, and without what `recorded` (a recorded result) lacks of the added. */
function normaliseHello(result, recorded) {
  let entries = result.entries.map(([k, v]) => [k, RULES.helloVaries.includes(k) ? `<${k}>` : v]);
  if (recorded instanceof JsonObject) {
    for (const path of RULES.fieldsAddedToHello) entries = withoutAdded(entries, path, recorded);
    const recordedComponents = recorded.get('components');
    entries = entries.map(([k, v]) => {
      if (k !== 'components' || !(v instanceof JsonObject) || !(recordedComponents instanceof JsonObject)) return [k, v];
      const kept = v.entries.filter(([name]) => !RULES.componentsAddedToBuiltins.includes(name) || recordedComponents.has(name));
      return [k, new JsonObject(kept)];
    });
  }
  return new JsonObject(entries);
}

function normaliseResult(op, requestFrame, result, recorded) {
  if (op === 'hello' && result instanceof JsonObject) return normaliseHello(result, recorded);
  if (op === 'batch' && requestFrame instanceof JsonObject && result instanceof JsonObject) {
    const ops = requestFrame.get('ops');
    const varies = (inner) => inner instanceof JsonObject && RULES.integersVary.includes(inner.get('op'));
    return new JsonObject(
      result.entries.map(([k, v]) => {
        if (k !== 'results' || !Array.isArray(v) || !Array.isArray(ops)) return [k, v];
        return [k, v.map((r, i) => (varies(ops[i]) ? zeroIntegers(r) : r))];
      }),
    );
  }
  if (RULES.integersVary.includes(op)) return zeroIntegers(result);
  return result;
}

/**
 * Normalises only what varies between runs (`RULES`, the Swift replayer's too): hello's `session`, `server` and
 * `token`, and the integer fields of every stats result, also inside a batch's `results`. The k-th response
 * answers the k-th answered input. With `recorded` (the recorded frames, index for index), a hello result also
 * loses the fields added since (`token`, `limits`, built-in components) that the recorded one lacks.
 */
export function normalise(frames, inputs, recorded = []) {
  const requests = inputs.filter(answered);
  let k = 0;
  return frames.map((frame, i) => {
    if (!isResponse(frame)) return frame;
    const request = requests[k++];
    if (!request) return frame;
    const recordedResult = recorded[i] instanceof JsonObject ? recorded[i].get('result') : undefined;
    return withResult(frame, (result) => normaliseResult(request.op, request.frame, result, recordedResult));
  });
}

/** The id of the ping a replay's `conversation` sends after each part. */
const SENTINEL_ID = 'bridged-client-replay-end';

/** A line the daemon wrote, as {line, frame}: its lossless parse, or the text itself (shown in a difference). */
function frameOf(line) {
  try {
    return { line, frame: parseLossless(line) };
  } catch {
    return { line, frame: line };
  }
}

/**
 * Sends the inputs on a new connection and collects every frame until each answered input got its
 * response. Resolves [{line, frame}] (the text as received and its lossless parse).
 */
export async function exchange(socketPath, inputs, { idleMs = 10_000 } = {}) {
  const socket = await openSocket(socketPath);
  const expected = inputs.filter(answered).length;
  const frames = [];
  const splitter = new LineSplitter();
  return new Promise((resolve, reject) => {
    let responses = 0;
    let timer;
    const finish = (err) => {
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(frames);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(), idleMs);
    };
    socket.on('data', (chunk) => {
      arm();
      for (const line of splitter.push(chunk)) {
        if (line === '') continue;
        const frame = frameOf(line);
        frames.push(frame);
        if (isResponse(frame.frame) && ++responses >= expected) return finish();
      }
    });
    socket.on('error', (err) => finish(err));
    socket.on('close', () => finish());
    if (expected === 0) return finish();
    arm();
    socket.write(inputs.map((input) => `${input.text}\n`).join(''));
  });
}

const show = (frame) => (frame === undefined ? '(nothing)' : typeof frame === 'string' ? frame : stringifyLossless(frame));

/**
 * Learns, from the hello responses replayed so far, which replay session each recorded session is, with the
 * tokens of both: `sessions` maps a recorded id to {recorded, live} ({id, token}; `token` is undefined in a
 * recording made before hello results had one). The k-th recorded response and the k-th received one answer
 * the k-th answered input; a later hello result of the same recorded session replaces an earlier one.
 */
function learnSessions(sessions, recordedFrames, receivedFrames, inputs) {
  const requests = inputs.filter(answered);
  const recorded = recordedFrames.filter(isResponse);
  const received = receivedFrames.filter(isResponse);
  const session = (frame) => {
    const result = frame.get('result');
    if (!(result instanceof JsonObject) || typeof result.get('session') !== 'string') return undefined;
    const token = result.get('token');
    return { id: result.get('session'), token: typeof token === 'string' ? token : undefined };
  };
  for (let k = 0; k < Math.min(requests.length, recorded.length, received.length); k++) {
    if (requests[k].op !== 'hello') continue;
    const [was, is] = [session(recorded[k]), session(received[k])];
    if (was && is) sessions.set(was.id, { recorded: was, live: is });
  }
}

/**
 * A hello whose `resume.session` is a recorded session id gets the id the replay's session has, and its
 * token where it presents the recorded token of that session (or none, recorded before tokens existed).
 * Any other token (a wrong one, on purpose) is sent as recorded.
 */
function mapResume(input, sessions) {
  const resume = input.op === 'hello' ? input.frame?.get('resume') : undefined;
  const id = resume instanceof JsonObject ? resume.get('session') : undefined;
  if (!sessions.has(id)) return input;
  const { recorded, live } = sessions.get(id);
  const presented = resume.has('token') ? resume.get('token') : undefined;
  const substitute = live.token !== undefined && presented === recorded.token;
  let entries = resume.entries.map(([k, v]) => [k, k === 'session' ? live.id : k === 'token' && substitute ? live.token : v]);
  if (substitute && presented === undefined) entries = [...entries, ['token', live.token]];
  const frame = new JsonObject(input.frame.entries.map(([k, v]) => [k, k === 'resume' ? new JsonObject(entries) : v]));
  return { ...input, frame, text: stringifyLossless(frame) };
}

/** The recording format whose every member is compared (Sources/BridgeCore/Replay/SessionRecord.swift). */
const FORMAT = 2;

/**
 * The rule of both replayers for a recording older than format 2: it is compared for the members it has.
 * Members added to the protocol since (hello's `token` and `limits`, a view's `commands`, the `path` of
 * details, View's core props) are taken out of the live frame, all the way down, where the recorded one lacks them.
 */
function withoutAddedFields(got, expected) {
  if (got instanceof JsonObject && expected instanceof JsonObject) {
    const entries = got.entries
      .filter(([k]) => expected.has(k))
      .map(([k, v]) => [k, withoutAddedFields(v, expected.get(k))]);
    return new JsonObject(entries);
  }
  if (Array.isArray(got) && Array.isArray(expected) && got.length === expected.length) {
    return got.map((v, i) => withoutAddedFields(v, expected[i]));
  }
  return got;
}

/**
 * The inputs of one recorded connection in the parts the replay sends at once: a part ends after a `bye`
 * (the daemon may close the connection there) and before a `hello` (a resume names a session learnt from
 * the responses before it).
 */
function parts(inputs) {
  const out = [];
  let part = [];
  for (const input of inputs) {
    if (input.op === 'hello' && part.length > 0) {
      out.push(part);
      part = [];
    }
    part.push(input);
    if (input.op === 'bye') {
      out.push(part);
      part = [];
    }
  }
  if (part.length > 0) out.push(part);
  return out;
}

/**
 * A connection to the daemon that sends parts of a recording: `send(inputs)` resolves {frames, closed} once
 * every answered input got its response, as [{line, frame}], or once the daemon closed the connection (after
 * a `bye`). A last `ping` marks the end of the part: what the daemon writes before its response belongs to the
 * part (the events a resume re-sends after hello's response too); that response itself is left out.
 */
async function conversation(socketPath, { idleMs = 10_000 } = {}) {
  const socket = await openSocket(socketPath);
  const splitter = new LineSplitter();
  let frames = [];
  let closed = false;
  let waiting = null; // {responses, resolve, reject, timer}
  const settle = (err) => {
    if (!waiting) return;
    const { resolve, reject, timer } = waiting;
    waiting = null;
    clearTimeout(timer);
    if (err) return reject(err);
    const part = frames;
    frames = [];
    resolve({ frames: part, closed });
  };
  socket.on('data', (chunk) => {
    if (waiting) waiting.timer.refresh();
    for (const line of splitter.push(chunk)) {
      if (line === '') continue;
      const frame = frameOf(line);
      if (isResponse(frame.frame) && waiting && --waiting.responses === 0) settle();
      else frames.push(frame);
    }
  });
  socket.on('error', (err) => {
    // A daemon that closed the connection after `bye` with lines of ours unread resets it: a close.
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE') closed = true;
    settle(closed ? undefined : err);
  });
  socket.on('close', () => {
    closed = true;
    settle();
  });
  return {
    send(inputs) {
      if (closed) return Promise.resolve({ frames: [], closed });
      const sentinel = { text: JSON.stringify({ id: SENTINEL_ID, op: 'ping' }), op: 'ping' };
      const lines = [...inputs, sentinel];
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => settle(), idleMs);
        waiting = { responses: lines.filter(answered).length, resolve, reject, timer };
        socket.write(lines.map((input) => `${input.text}\n`).join(''));
      });
    },
    close: () => socket.destroy(),
  };
}

/** How many of `inputs` the `responses` received answer (the rest were sent after the daemon stopped reading). */
function answeredBy(inputs, responses) {
  let n = 0;
  while (n < inputs.length && responses > 0) {
    if (answered(inputs[n])) responses--;
    n++;
  }
  return n;
}

/**
 * Replays one file; resolves null when it passes, else {line, expected, got}. Each connection of the
 * recording is replayed on a connection of its own, in turn, and so is what follows a `bye` that the daemon
 * closed the connection after; a `resume` names the replay's session.
 */
export async function replayFile(socketPath, text) {
  const { inputs: recordedInputs, outputs, limits, format, connections } = parseSession(text);
  const compare = format >= FORMAT ? (live) => live : withoutAddedFields;
  const recordedLimits = limits === undefined ? undefined : parseLossless(limits);
  const recorded = outputs.map((o) => o.frame);
  const inputs = [];
  const received = [];
  /** Recorded session ids → {recorded, live} sessions ({id, token}), learnt from hello responses. */
  const sessions = new Map();
  for (let c = 0; c < connections; c++) {
    let connection = null;
    try {
      for (let part of parts(recordedInputs.filter((i) => i.connection === c))) {
        while (part.length > 0) {
          connection ??= await conversation(socketPath);
          const sent = part.map((i) => mapResume(i, sessions));
          const { frames, closed } = await connection.send(sent);
          const got = frames.map((r) => r.frame);
          // Closed after a `bye`: the daemon answered no line after it; they go on a new connection.
          const used = closed ? answeredBy(sent, got.filter(isResponse).length) : sent.length;
          inputs.push(...sent.slice(0, used));
          received.push(...got);
          learnSessions(sessions, recorded, received, inputs);
          if (closed) connection = null;
          if (used === 0) break; // a connection that answers nothing: the difference shows below
          part = part.slice(used);
        }
      }
    } finally {
      connection?.close();
    }
    if (c === 0) {
      const mismatch = limitsMismatch(recordedLimits, received, inputs);
      if (mismatch) return { error: mismatch, limits };
    }
  }
  const got = normalise(received, inputs, recorded);
  const expected = normalise(recorded, inputs);
  const n = Math.max(got.length, expected.length);
  for (let i = 0; i < n; i++) {
    if (i < got.length && i < expected.length) {
      const live = allowListsGrownSince(compare(got[i], expected[i]), expected[i]);
      if (jsonEqual(live, expected[i])) continue;
    }
    const line = i < outputs.length ? outputs[i].line : 'end of file';
    // Shown as recorded and as received; only the comparison is normalised.
    return { line, expected: show(recorded[i]), got: show(received[i]), limits };
  }
  return null;
}

/**
 * Whether `recorded` is `live` but for items `live`'s list (after `after`, separated by `, `) has in addition, in the
 * same order (the Swift replayer's `ReplayRules.listsFewer`).
 */
export function listsFewer(recorded, live, after) {
  const r = recorded.indexOf(after);
  const l = live.indexOf(after);
  if (recorded === live || r < 0 || l < 0 || recorded.slice(0, r) !== live.slice(0, l)) return false;
  const liveItems = live.slice(l + after.length).split(', ');
  let from = 0;
  for (const item of recorded.slice(r + after.length).split(', ')) {
    const found = liveItems.indexOf(item, from);
    if (found < 0) return false;
    from = found + 1;
  }
  return true;
}

/** Whether a recorded error (`code`, `recorded` message) equals a live one by `RULES.listsThatGrow`. */
export function grewSince(code, recorded, live) {
  return RULES.listsThatGrow.some((rule) => rule.code === code && listsFewer(recorded, live, rule.after));
}

/**
 * `live` with its error's `message` (and a batch's inner error's, all the way down) taken as the recorded one
 * where they differ only by the items of a list that grows (`RULES.listsThatGrow`).
 */
function allowListsGrownSince(live, recorded) {
  const error = (frame) => (frame instanceof JsonObject ? frame.get('error') : undefined);
  const rewrite = (liveError, recordedError) => {
    if (!(liveError instanceof JsonObject) || !(recordedError instanceof JsonObject)) return liveError;
    const [code, message, liveMessage] = [recordedError.get('code'), recordedError.get('message'), liveError.get('message')];
    const keep = typeof code === 'string' && liveError.get('code') === code && typeof message === 'string'
      && typeof liveMessage === 'string' && grewSince(code, message, liveMessage);
    return new JsonObject(liveError.entries.map(([k, v]) => {
      if (k === 'message' && keep) return [k, message];
      if (k === 'error') return [k, rewrite(v, recordedError.get('error'))];
      return [k, v];
    }));
  };
  const liveError = error(live);
  if (!(liveError instanceof JsonObject)) return live;
  return new JsonObject(live.entries.map(([k, v]) => [k, k === 'error' ? rewrite(v, error(recorded)) : v]));
}

/** The serve flag of each limit a recording's meta record names. */
const LIMIT_FLAGS = Object.fromEntries(LIMITS.map((limit) => [limit.name, limit.flag]));

/**
 * Compares the limits a recording was made with (its meta record) with the daemon's (the `limits` of the
 * first hello result of the replay): a message saying which differ and how to start the daemon, or null
 * when they agree, or when either side does not say.
 */
export function limitsMismatch(recorded, frames, inputs) {
  if (!(recorded instanceof JsonObject)) return null;
  const requests = inputs.filter(answered);
  let k = 0;
  let daemon;
  for (const frame of frames) {
    if (!isResponse(frame)) continue;
    const request = requests[k++];
    if (request?.op !== 'hello') continue;
    const result = frame.get('result');
    daemon = result instanceof JsonObject ? result.get('limits') : undefined;
    break;
  }
  if (!(daemon instanceof JsonObject)) return null;
  const differ = recorded.entries.filter(([key, value]) => daemon.has(key) && !jsonEqual(daemon.get(key), value));
  if (differ.length === 0) return null;
  const list = differ.map(([key, value]) => `${key} ${stringifyLossless(value)} (the daemon: ${stringifyLossless(daemon.get(key))})`);
  const flags = differ.map(([key, value]) => (LIMIT_FLAGS[key] ? `${LIMIT_FLAGS[key]} ${stringifyLossless(value)}` : key));
  return `recorded with other limits than the daemon's: ${list.join(', ')}; replay it against a daemon started with ${flags.join(' ')}`;
}

/** Replays each file on its own connection; prints differences and the `N passed, N failed` line. */
export async function replay(files, { socketPath, print = console.log }) {
  let passed = 0;
  let failed = 0;
  for (const file of files) {
    let difference;
    try {
      difference = await replayFile(socketPath, await readFile(file, 'utf8'));
    } catch (err) {
      difference = { error: err.message };
    }
    if (difference === null) {
      passed++;
      print(`PASS ${file}`);
      continue;
    }
    failed++;
    print(`FAIL ${file}`);
    if (difference.error) {
      print(`  error: ${difference.error}`);
    } else {
      print(`  line ${difference.line}`);
      print(`  expected: ${difference.expected}`);
      print(`  got:      ${difference.got}`);
      if (difference.limits) print(`  note: recorded with limits ${difference.limits}; the daemon may run with others`);
    }
  }
  print(`${passed} passed, ${failed} failed`);
  return { passed, failed };
}
