// Replays recorded sessions (protocol.md, "Recorded sessions and replay") against a running daemon.
import { readFile } from 'node:fs/promises';
import { JsonNumber, JsonObject, jsonEqual, parseLossless, stringifyLossless } from './json.js';
import { LineSplitter } from './lines.js';
import { openSocket } from './spawn.js';

/**
 * Reads a recorded session. Returns the lines to send (`frame` compact-serialised, `raw` verbatim)
 * with the op of each, and the expected frames with their line numbers.
 */
export function parseSession(text) {
  const inputs = []; // {text, op}
  const outputs = []; // {line, frame}
  let limits;
  text.split('\n').forEach((source, i) => {
    const line = i + 1;
    if (source.trim() === '') return;
    let record;
    try {
      record = parseLossless(source);
    } catch (err) {
      throw new Error(`line ${line}: not a JSON record (${err.message})`);
    }
    if (!(record instanceof JsonObject)) throw new Error(`line ${line}: a record is a JSON object`);
    const dir = record.get('dir');
    if (dir === 'in') {
      if (record.has('frame')) {
        const frame = record.get('frame');
        const op = frame instanceof JsonObject ? frame.get('op') : undefined;
        inputs.push({ text: stringifyLossless(frame), op, frame });
      } else if (typeof record.get('raw') === 'string') {
        inputs.push({ text: record.get('raw'), op: undefined, frame: undefined });
      } else {
        throw new Error(`line ${line}: an "in" record has "frame" or "raw"`);
      }
    } else if (dir === 'out') {
      if (!record.has('frame')) throw new Error(`line ${line}: an "out" record has "frame"`);
      outputs.push({ line, frame: record.get('frame') });
    } else if (dir === 'meta') {
      if (record.has('limits')) limits = stringifyLossless(record.get('limits'));
    } else if (typeof dir !== 'string') {
      throw new Error(`line ${line}: a record has "dir"`);
    }
    // Other records (the daemon's recordings start with {"dir":"meta",…}) carry nothing to send or compare.
  });
  return { inputs, outputs, limits };
}

/** A blank line (empty or only `\r`) is a keep-alive: no response. */
function answered(input) {
  return input.text !== '' && input.text !== '\r';
}

const isResponse = (frame) => frame instanceof JsonObject && frame.has('ok');

function zeroNumbers(value) {
  if (value instanceof JsonNumber) return new JsonNumber('0');
  if (value instanceof JsonObject) return new JsonObject(value.entries.map(([k, v]) => [k, zeroNumbers(v)]));
  if (Array.isArray(value)) return value.map(zeroNumbers);
  return value;
}

function withResult(frame, map) {
  if (!(frame instanceof JsonObject) || !frame.has('result')) return frame;
  return new JsonObject(frame.entries.map(([k, v]) => [k, k === 'result' ? map(v) : v]));
}

function normaliseResult(op, requestFrame, result) {
  if (op === 'hello' && result instanceof JsonObject) {
    return new JsonObject(
      result.entries.map(([k, v]) => [k, k === 'session' || k === 'server' ? `<${k}>` : v]),
    );
  }
  if (op === 'stats') return zeroNumbers(result);
  if (op === 'batch' && requestFrame instanceof JsonObject && result instanceof JsonObject) {
    const ops = requestFrame.get('ops');
    return new JsonObject(
      result.entries.map(([k, v]) => {
        if (k !== 'results' || !Array.isArray(v) || !Array.isArray(ops)) return [k, v];
        return [k, v.map((r, i) => (ops[i] instanceof JsonObject && ops[i].get('op') === 'stats' ? zeroNumbers(r) : r))];
      }),
    );
  }
  return result;
}

/**
 * Normalises only what varies between runs: `result.session` and `result.server` of hello
 * responses, and the numbers in stats results. The k-th response answers the k-th answered input.
 */
export function normalise(frames, inputs) {
  const requests = inputs.filter(answered);
  let k = 0;
  return frames.map((frame) => {
    if (!isResponse(frame)) return frame;
    const request = requests[k++];
    if (!request) return frame;
    return withResult(frame, (result) => normaliseResult(request.op, request.frame, result));
  });
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
        let frame;
        try {
          frame = parseLossless(line);
        } catch {
          frame = line; // shown as a string in a difference
        }
        frames.push({ line, frame });
        if (isResponse(frame) && ++responses >= expected) return finish();
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

/** Replays one file; resolves null when it passes, else {line, expected, got}. */
export async function replayFile(socketPath, text) {
  const { inputs, outputs, limits } = parseSession(text);
  const received = (await exchange(socketPath, inputs)).map((r) => r.frame);
  const recorded = outputs.map((o) => o.frame);
  const got = normalise(received, inputs);
  const expected = normalise(recorded, inputs);
  const n = Math.max(got.length, expected.length);
  for (let i = 0; i < n; i++) {
    if (i < got.length && i < expected.length && jsonEqual(got[i], expected[i])) continue;
    const line = i < outputs.length ? outputs[i].line : 'end of file';
    // Shown as recorded and as received; only the comparison is normalised.
    return { line, expected: show(recorded[i]), got: show(received[i]), limits };
  }
  return null;
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
