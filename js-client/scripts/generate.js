#!/usr/bin/env node
// Writes the Node client's files that the daemon's own lists describe, from `bridged ops` (the op table, each op's
// `spec` in Sources/BridgeCore/Ops/, and SessionLimit.all):
//   js-client/lib/ops.js           OPS (every op: batch rule, fields, sample request, result shape), LIMITS
//   js-client/index.d.ts           the RequestResults block (each op's result type)
// and, from js-client/lib/replay-rules.json (the replay rules both replayers read), the Swift replayer's copy:
//   Sources/BridgeCore/Replay/ReplayRules+JSON.swift
// Usage, from the repository's root: node js-client/scripts/generate.js [--bin .build/debug/bridged]
// js-client/test/generated.test.js fails, naming the file and this command, when one of them is stale.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { typeOf } from '../lib/op-schema.js';

export const COMMAND = 'node js-client/scripts/generate.js --bin .build/debug/bridged';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WIDTH = 120;

/** `value` as JavaScript source at `indent`: on one line when it fits in WIDTH, else a member a line. */
function source(value, indent, prefix = '') {
  const flat = JSON.stringify(value);
  const pad = ' '.repeat(indent);
  if (pad.length + prefix.length + flat.length + 1 <= WIDTH || value === null || typeof value !== 'object') return flat;
  const inner = ' '.repeat(indent + 2);
  if (Array.isArray(value)) {
    return `[\n${value.map((v) => `${inner}${source(v, indent + 2)},`).join('\n')}\n${pad}]`;
  }
  const lines = Object.entries(value).map(([k, v]) => {
    const name = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k);
    return `${inner}${name}: ${source(v, indent + 2, `${name}: `)},`;
  });
  return `{\n${lines.join('\n')}\n${pad}}`;
}

function opsJs(description) {
  const ops = description.ops.map((op) => {
    const { name, ...entry } = op;
    return `  ${name}: ${source(entry, 2, `${name}: `)},`;
  });
  const limits = description.limits.map((limit) => `  ${JSON.stringify(limit)},`);
  return `// Generated from \`bridged ops\` (the daemon's op table, each op's \`spec\` in Sources/BridgeCore/Ops/,
// and its session limits) by
//   ${COMMAND}
// Do not edit: run it again when an op or a limit changes (js-client/test/generated.test.js fails until then).
//
// OPS, in protocol.md's order ("Operations"); every other list of ops in the client derives from it. For each op:
// - \`batch\`: true when a batch may hold it, else the message a batch holding it is refused with;
// - \`safeToRepeat\`: sent again on the next connection when the connection was lost before its response
//   (repeating it changes nothing);
// - \`sessionFree\`: does not depend on the session's views, so it is still sent after the daemon started a fresh
//   session on a reconnect (a reset); the others reject with \`session_reset\`;
// - \`needsLayout\`: its sample needs the session's layout on;
// - \`fields\`, \`sample\`, \`result\`: its request's fields, a request it answers (after SAMPLE_SETUP; "<session>" is
//   the session's id) and its result's shape, in the schema language of lib/op-schema.js.
const freeze = (value) => {
  if (value !== null && typeof value === 'object') for (const inner of Object.values(value)) freeze(inner);
  return Object.freeze(value);
};

export const OPS = freeze({
${ops.join('\n')}
});

/**
 * The limits a recording's meta record and hello's \`result.limits\` carry (the daemon's SessionLimit.all), each with
 * the serve flag that sets it and its least value.
 */
export const LIMITS = freeze([
${limits.join('\n')}
]);

/** The requests each op's sample is sent after, on a session of its own. */
export const SAMPLE_SETUP = freeze(${source(description.sampleSetup, 0, 'export const SAMPLE_SETUP = freeze(')});

/** The names of the ops whose entry has \`flag\` set (\`true\`). */
export function opsWhere(flag) {
  return new Set(Object.keys(OPS).filter((name) => OPS[name][flag] === true));
}
`;
}

const BEGIN = '// BEGIN generated from `bridged ops`';
const END = '// END generated';

/** index.d.ts with its RequestResults block written from the ops' result schemas. */
function indexDts(description, current) {
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END, start);
  if (start < 0 || end < 0) throw new Error(`js-client/index.d.ts has no block between '${BEGIN}' and '${END}'`);
  const members = description.ops.map((op) => `  ${op.name}: ${typeOf(op.result)};`);
  const block = `${BEGIN} (${COMMAND}): do not edit.
/** The result of each op, for \`request()\`: one key per op of lib/ops.js, in its order. */
export interface RequestResults {
${members.join('\n')}
}
`;
  return current.slice(0, start) + block + current.slice(end);
}

/** ReplayRules+JSON.swift: replay-rules.json's text as ReplayRules.json. */
function replayRulesSwift(rules) {
  if (rules.includes('"""#')) {
    throw new Error('js-client/lib/replay-rules.json holds """#, which ends a Swift raw string');
  }
  const lines = rules.replace(/\n$/, '').split('\n').map((line) => (line === '' ? '' : `        ${line}`));
  return `// Generated from js-client/lib/replay-rules.json by
//   ${COMMAND}
// Do not edit: edit the JSON file and run it again (js-client/test/generated.test.js and ReplayRulesTests fail
// until then).

extension ReplayRules {
    /// js-client/lib/replay-rules.json, byte for byte (but the last newline): the rules both replayers read.
    public static let json = #"""
${lines.join('\n')}
        """#
}
`;
}

/** The files generated from `description` (`bridged ops`'s JSON): {path from the root: text}. */
export function generated(description, read = (path) => readFileSync(ROOT + path, 'utf8')) {
  return {
    'js-client/lib/ops.js': opsJs(description),
    'js-client/index.d.ts': indexDts(description, read('js-client/index.d.ts')),
    'Sources/BridgeCore/Replay/ReplayRules+JSON.swift': replayRulesSwift(read('js-client/lib/replay-rules.json')),
  };
}

/** `bridged ops`'s JSON from the binary `bin`. */
export function describe(bin) {
  return JSON.parse(execFileSync(bin, ['ops'], { encoding: 'utf8' }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--bin');
  const bin = at > 0 ? process.argv[at + 1] : ROOT + '.build/debug/bridged';
  for (const [path, text] of Object.entries(generated(describe(bin)))) {
    writeFileSync(ROOT + path, text);
    console.log(`wrote ${path}`);
  }
}
