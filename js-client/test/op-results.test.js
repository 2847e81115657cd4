// Every op's result, as a real daemon answers the op's sample request (lib/ops.js, generated from the daemon's op
// table), has the shape its result schema declares; and index.d.ts's named result types have the members the
// schemas give them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import path from 'node:path';
import { OPS, SAMPLE_SETUP } from '../lib/ops.js';
import { problems } from '../lib/op-schema.js';
import { LineSplitter } from '../lib/lines.js';
import { startDaemon } from '../test-support/daemon.js';
import { SHARED_NODE_MODULES } from '../test-support/react-native-app.js';

const YOGA = path.join(SHARED_NODE_MODULES, 'react-native', 'ReactCommon', 'yoga');

let daemon;
before(async () => {
  daemon = await startDaemon();
});
after(() => daemon?.stop());

/** A raw connection: `send(frame)` resolves the response to it (pushed frames are skipped). */
async function open(socketPath) {
  const socket = createConnection(socketPath);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const splitter = new LineSplitter();
  const waiting = new Map();
  let id = 0;
  socket.on('data', (chunk) => {
    for (const line of splitter.push(chunk)) {
      if (line === '') continue;
      const frame = JSON.parse(line);
      if (waiting.has(frame.id)) {
        waiting.get(frame.id)(frame);
        waiting.delete(frame.id);
      }
    }
  });
  return {
    send(frame) {
      const sent = { id: ++id, ...frame };
      return new Promise((resolve) => {
        waiting.set(sent.id, resolve);
        socket.write(`${JSON.stringify(sent)}\n`);
      });
    },
    close: () => socket.destroy(),
  };
}

/** `sample` with every "<session>" as `session`. */
const withSession = (sample, session) =>
  JSON.parse(JSON.stringify(sample).replaceAll('"<session>"', JSON.stringify(session)));

for (const [name, op] of Object.entries(OPS)) {
  const skip = op.needsLayout && !existsSync(YOGA) ? `needs React Native's ReactCommon/yoga at ${YOGA}` : false;
  test(`${name}: its sample's result has the shape of its result schema (lib/ops.js)`, { skip }, async () => {
    const connection = await open(daemon.socket);
    try {
      let session;
      for (const line of SAMPLE_SETUP) {
        const response = await connection.send(line);
        assert.equal(response.ok, true, `the sample setup ${JSON.stringify(line)}: ${JSON.stringify(response.error)}`);
        session ??= response.result.session;
      }
      if (op.needsLayout) {
        const response = await connection.send({ op: 'layout', yoga: YOGA });
        assert.equal(response.ok, true, JSON.stringify(response.error));
      }
      const sample = withSession(op.sample, session);
      const response = await connection.send(sample);
      const failed = `${name}'s sample ${JSON.stringify(sample)} failed: ${JSON.stringify(response.error)}`;
      assert.equal(response.ok, true, failed);
      const found = problems(response.result, op.result);
      assert.deepEqual(found, [], `${name}: the result differs from its schema (the op's spec in ` +
        `Sources/BridgeCore/Ops/): ${found.join('; ')}`);
    } finally {
      connection.close();
    }
  });
}

/** The member names `index.d.ts` declares in `interface name { ... }` (its top-level members). */
function declaredMembers(text, name) {
  const start = text.search(new RegExp(`^export interface ${name}(<[^>]*>)? (extends [^{]* )?\\{$`, 'm'));
  if (start < 0) return undefined;
  const body = text.slice(text.indexOf('\n', start) + 1, text.indexOf('\n}', start));
  return [...body.matchAll(/^  (?:readonly )?([A-Za-z]+)\??: /gm)].map((m) => m[1]);
}

/** Every `$name`d object schema (with members) of the ops' results, by name: its member names. */
function namedSchemas() {
  const found = new Map();
  const visit = (schema) => {
    if (Array.isArray(schema)) return schema.forEach(visit);
    if (schema === null || typeof schema !== 'object') return undefined;
    if (schema.$name && !('$oneOf' in schema) && !('*' in schema)) {
      const keys = Object.keys(schema).filter((k) => k !== '$name');
      found.set(schema.$name, {
        required: keys.filter((k) => !k.endsWith('?')),
        all: keys.map((k) => k.replace(/\?$/, '')),
      });
    }
    for (const inner of Object.values(schema)) visit(inner);
    return undefined;
  };
  for (const op of Object.values(OPS)) visit(op.result);
  return found;
}

// (An optional member of a schema may be left out of the declaration.)
test('index.d.ts declares each named result type with the members of its schema', async () => {
  const text = await readFile(new URL('../index.d.ts', import.meta.url), 'utf8');
  const named = namedSchemas();
  assert.ok(named.size >= 5);
  for (const [name, { required, all }] of named) {
    const declared = declaredMembers(text, name);
    assert.ok(declared, `index.d.ts declares no interface ${name}`);
    const where = `its schema in the daemon's op specs (Sources/BridgeCore/Ops/)`;
    for (const member of required) {
      assert.ok(declared.includes(member), `index.d.ts's ${name} lacks ${member}, which ${where} has`);
    }
    for (const member of declared) {
      assert.ok(all.includes(member), `index.d.ts's ${name} has ${member}, which ${where} lacks`);
    }
  }
});
