// Components added to a running session (`define`) from JavaScript: bridge.define() with a codegen schema and
// untyped names, handler props by the schema's registration names, another session that does not see them,
// and a refusal with the schema's path.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, ErrorCodes } from '../index.js';
import { BRIDGED_BIN, exited, tempDir } from '../test-support/daemon.js';

const SCHEMA = fileURLToPath(new URL('../../Tests/Schemas/screens-search-bar.json', import.meta.url));

describe('define: components of one session', () => {
  let dir;
  let bridge;
  let other;

  before(async () => {
    dir = await tempDir();
    const socket = join(dir, 'shared.sock');
    bridge = await connect({ spawn: true, bin: BRIDGED_BIN, socket, timeoutMs: 60_000 });
    other = await connect({ socket });
  });

  after(async () => {
    const pid = bridge?.daemonPid;
    await other?.close();
    await bridge?.close();
    if (pid) {
      process.kill(pid, 'SIGTERM');
      await exited(pid);
    }
    await rm(dir, { recursive: true, force: true });
  });

  test('a schema and an untyped name, for this session alone', async () => {
    const schema = JSON.parse(await readFile(SCHEMA, 'utf8'));
    const result = await bridge.define(schema, { untyped: ['RNSScreen'] });
    assert.deepEqual(Object.keys(result.components), ['RNSSearchBar', 'RNSScreen']);
    assert.equal(result.components.RNSScreen.untyped, true);
    assert.deepEqual(result.skipped, ['NativeSafeAreaContext']);
    assert.ok(bridge.components.RNSSearchBar, 'bridge.components describes them');
    assert.deepEqual((await bridge.define(schema)).unchanged, ['RNSSearchBar'], 'defining again changes nothing');

    const screen = await bridge.create('RNSScreen', { activityState: 2, sheetDetents: [0.5, 1] });
    const texts = [];
    const bar = await bridge.create('RNSSearchBar', { placeholder: 'Find', onChangeText: (e) => texts.push(e.payload.text) }, { parent: screen });
    await bar.emit('changeText', { text: 'bridged' });
    assert.deepEqual(texts, ['bridged']);
    assert.equal((await screen.inspect()).props.activityState, 2);
    const { components } = await bridge.request({ op: 'components' });
    assert.deepEqual(Object.keys(components), ['RNSSearchBar', 'RNSScreen']);

    await assert.rejects(other.create('RNSScreen'), { code: ErrorCodes.UNKNOWN_COMPONENT });
    assert.deepEqual((await other.request({ op: 'components' })).components, {});
  });

  test('a bad schema is refused with its path, and adds nothing', async () => {
    const schema = { modules: { M: { type: 'Component', components: { MyView: { props: [{ name: 'n', typeAnnotation: { type: 'LongTypeAnnotation' } }] } } } } };
    await assert.rejects(other.define(schema, { untyped: ['RNSOk'] }), {
      code: ErrorCodes.INVALID_SCHEMA,
      message: "define: schema.modules.M.components.MyView.props[0].typeAnnotation: unknown type annotation 'LongTypeAnnotation'",
    });
    await assert.rejects(other.create('RNSOk'), { code: ErrorCodes.UNKNOWN_COMPONENT });
  });
});
