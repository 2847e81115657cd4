// Error codes as BridgeErrors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { BridgeError, ClientErrorCodes, ErrorCodes } from '../index.js';
import { startDaemonWithBridge, stopDaemonWithBridge } from '../test-support/daemon.js';

let daemon;
let bridge;

before(async () => ({ daemon, bridge } = await startDaemonWithBridge()));
after(() => stopDaemonWithBridge({ daemon, bridge }));

describe('error codes', () => {
  // One list of codes: protocol.md's table is the reference; ErrorCode.swift, errors.js and index.d.ts follow it.
  test('protocol.md, ErrorCode.swift, errors.js and index.d.ts list the same codes, in the same order', async () => {
    const root = new URL('../../', import.meta.url);
    const read = (path) => readFile(new URL(path, root), 'utf8');
    const protocol = await read('protocol.md');
    const table = protocol.slice(protocol.indexOf('## Error codes'));
    const documented = [...table.slice(0, table.indexOf('\n## ')).matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    assert.ok(documented.length >= 18, `protocol.md's table: ${documented}`);

    const swift = await read('Sources/BridgeCore/Engine/ErrorCode.swift');
    const swiftCodes = [...swift.matchAll(/rawValue: "([a-z_]+)"/g)].map((m) => m[1]);
    assert.deepEqual(swiftCodes, documented, 'ErrorCode.swift');

    assert.deepEqual(Object.values(ErrorCodes), documented, 'errors.js ErrorCodes');
    for (const [name, code] of Object.entries(ErrorCodes)) assert.equal(name, code.toUpperCase());

    const types = await read('js-client/index.d.ts');
    // The union is derived from the constant, so the codes are written once.
    assert.match(types, /^export type ProtocolErrorCode = \(typeof ErrorCodes\)\[keyof typeof ErrorCodes\];$/m, 'index.d.ts ProtocolErrorCode');
    const constant = types.slice(types.indexOf('export const ErrorCodes'), types.indexOf('}>;', types.indexOf('export const ErrorCodes')));
    assert.deepEqual([...constant.matchAll(/: '([a-z_]+)';/g)].map((m) => m[1]), documented, 'index.d.ts ErrorCodes');
    const client = types.slice(types.indexOf('export const ClientErrorCodes'), types.indexOf('}>;', types.indexOf('export const ClientErrorCodes')));
    assert.deepEqual([...client.matchAll(/: '([a-z_]+)';/g)].map((m) => m[1]), Object.values(ClientErrorCodes), 'index.d.ts ClientErrorCodes');
    // The client's own codes never clash with the daemon's.
    for (const code of Object.values(ClientErrorCodes)) assert.ok(!documented.includes(code), code);
  });

  test('invalid_props lists every bad prop in details', async () => {
    const button = await bridge.create('SwiftUIButton');
    const err = await button.update({ count: 'abc', colour: 1 }).catch((e) => e);
    assert.ok(err instanceof BridgeError);
    assert.ok(err instanceof Error);
    assert.equal(err.name, 'BridgeError');
    assert.equal(err.code, ErrorCodes.INVALID_PROPS);
    assert.match(err.message, /2 invalid props for SwiftUIButton/);
    assert.deepEqual(
      err.details.map(({ prop, got }) => ({ prop, got })),
      [
        { prop: 'count', got: 'abc' },
        { prop: 'colour', got: 1 },
      ],
    );
    assert.equal(err.details[0].expected, 'int');
    for (const detail of err.details) {
      assert.equal(typeof detail.expected, 'string');
      assert.equal(typeof detail.message, 'string');
    }
  });

  test('unknown_component', async () => {
    await assert.rejects(bridge.create('Nope'), { code: ErrorCodes.UNKNOWN_COMPONENT });
  });

  test('unknown_tag', async () => {
    await assert.rejects(bridge.request({ op: 'update', tag: 99999, props: {} }), { code: ErrorCodes.UNKNOWN_TAG });
    await assert.rejects(bridge.create('View', {}, { parent: 99999 }), { code: ErrorCodes.UNKNOWN_TAG });
  });

  test('tag_in_use', async () => {
    const v = await bridge.create('View');
    await assert.rejects(bridge.request({ op: 'create', tag: v.tag, component: 'View' }), {
      code: ErrorCodes.TAG_IN_USE,
    });
  });

  test('unknown_command and invalid_args', async () => {
    const field = await bridge.create('TextField');
    await assert.rejects(field.command('explode'), { code: ErrorCodes.UNKNOWN_COMMAND });
    const err = await field.command('type', 5).catch((e) => e);
    assert.equal(err.code, ErrorCodes.INVALID_ARGS);
    assert.ok(Array.isArray(err.details) && err.details.length > 0);
  });

  test('unknown_event', async () => {
    const v = await bridge.create('View');
    await assert.rejects(v.on('explosion', () => {}), { code: ErrorCodes.UNKNOWN_EVENT });
    // A direct event on a view whose component does not emit it.
    await assert.rejects(v.on('commit', () => {}), { code: ErrorCodes.UNKNOWN_EVENT });
  });

  test('cycle', async () => {
    const parent = await bridge.create('View');
    const child = await bridge.create('View', {}, { parent });
    await assert.rejects(child.setChildren([parent]), { code: ErrorCodes.CYCLE });
  });

  test('bad_request, unknown_op, unsupported_protocol', async () => {
    const parent = await bridge.create('View');
    await assert.rejects(bridge.create('View', {}, { parent, index: 5 }), { code: ErrorCodes.BAD_REQUEST });
    await assert.rejects(bridge.request({ op: 'inspect', tag: -1 }), { code: ErrorCodes.BAD_REQUEST });
    await assert.rejects(bridge.request({ op: 'teleport' }), { code: ErrorCodes.UNKNOWN_OP });
    await assert.rejects(bridge.request({ op: 'hello', protocol: 2 }), { code: ErrorCodes.UNSUPPORTED_PROTOCOL });
  });

  test('batch_failed from a raw batch', async () => {
    const err = await bridge
      .request({ op: 'batch', ops: [{ op: 'ping' }, { op: 'inspect', tag: 424242 }] })
      .catch((e) => e);
    assert.equal(err.code, ErrorCodes.BATCH_FAILED);
    assert.equal(err.index, 1);
    assert.equal(err.details.code, ErrorCodes.UNKNOWN_TAG);
  });

  test('the session goes on after errors', async () => {
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
  });
});
