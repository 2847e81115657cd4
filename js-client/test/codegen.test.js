// A React Native codegen schema's components from JavaScript: connect({spawn, components}) starts the daemon
// with them, handler props by their registration names, view.emit(), inspect().commands, and
// `bridged-client types` declarations checked by a real `tsc --strict` (a program that uses them right
// compiles, one that uses them wrong does not).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../index.js';
import { BRIDGED_BIN, CLI, exited, startDaemon, tempDir } from '../test-support/daemon.js';

const SCHEMA = fileURLToPath(new URL('../../Tests/Schemas/all-annotations.json', import.meta.url));
const INDEX = fileURLToPath(new URL('../index.js', import.meta.url));
const GLOBALS = fileURLToPath(new URL('./types/globals.d.ts', import.meta.url));

describe('codegen schema components from JavaScript', () => {
  let dir;
  let bridge;

  before(async () => {
    dir = await tempDir();
    // One line gives a test suite a native side for its app's components.
    bridge = await connect({ spawn: true, bin: BRIDGED_BIN, components: SCHEMA, socket: join(dir, 'gallery.sock'), timeoutMs: 60_000 });
  });

  after(async () => {
    const pid = bridge?.daemonPid;
    await bridge?.close();
    if (pid) {
      process.kill(pid, 'SIGTERM');
      await exited(pid); // it writes its state file beside the socket as it stops
    }
    await rm(dir, { recursive: true, force: true });
  });

  test('the spawned daemon serves the schema, and handlers by registration name get emitted events', async () => {
    assert.ok(bridge.components.AnnotationGallery, 'the schema component is described in hello');
    const seen = [];
    const root = await bridge.create('View', { onValueChangeCapture: (e) => seen.push(['capture', e.payload]) });
    const gallery = await bridge.create(
      'AnnotationGallery',
      { count: 3, onValueChange: (e) => seen.push(['bubble', e.payload]), onLoadEnd: (e) => seen.push(['direct', e.type]) },
      { parent: root },
    );
    const descriptor = bridge.components.AnnotationGallery.events.valueChange;
    assert.equal(descriptor.bubbles, true);
    await gallery.emit('valueChange', { value: 0.5, final: true });
    assert.deepEqual(seen.map(([phase]) => phase), ['capture', 'bubble']);
    await gallery.emit('loadEnd');
    assert.equal(seen.at(-1)[0], 'direct');
    await assert.rejects(gallery.emit('valueChange', { value: 'high', final: true }), (error) => {
      assert.equal(error.code, 'invalid_payload');
      assert.equal(error.details[0].path, 'value');
      return true;
    });
    await assert.rejects(gallery.emit('noSuchEvent', {}), { code: 'unknown_event' });
  });

  test('commands change nothing and are logged, refused ones are not', async () => {
    const gallery = await bridge.create('AnnotationGallery');
    const params = bridge.components.AnnotationGallery.commands.scrollTo.params;
    const args = params.map((param) => (param.type === 'bool' ? true : param.type.startsWith('int') || param.type === 'float' || param.type === 'double' ? 10 : 'x'));
    await gallery.command('scrollTo', ...args);
    await assert.rejects(gallery.command('scrollTo'), { code: 'invalid_args' });
    const { commands } = await gallery.inspect();
    assert.deepEqual(commands, [{ name: 'scrollTo', args }]);
  });

  test('a schema the daemon refuses is an error that says why', async () => {
    const bad = fileURLToPath(new URL('../../Tests/Schemas/bad/unknown-annotation.json', import.meta.url));
    await assert.rejects(
      connect({ spawn: true, bin: BRIDGED_BIN, components: bad, socket: join(dir, 'bad.sock'), timeoutMs: 5000 }),
      (error) => {
        assert.equal(error.code, 'connect_failed');
        assert.match(error.message, /unknown-annotation\.json/);
        return true;
      },
    );
  });
});

function tsc(files) {
  const run = spawnSync(
    'tsc',
    ['--strict', '--noEmit', '--target', 'es2022', '--module', 'es2022', '--moduleResolution', 'node', '--lib', 'es2022', GLOBALS, ...files],
    { encoding: 'utf8' },
  );
  if (run.error) throw new Error(`cannot run tsc (install node-typescript: make deps): ${run.error.message}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('bridged-client types under tsc --strict', () => {
  let daemon;
  let dir;

  before(async () => {
    daemon = await startDaemon(['--components', SCHEMA]);
    dir = await tempDir();
  });

  after(async () => {
    await daemon?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function generate(name) {
    const out = join(dir, name);
    execFileSync(process.execPath, [CLI, 'types', '--socket', daemon.socket, '--module', INDEX, '--out', out]);
    return out;
  }

  test('the built-ins and a schema: used right, it compiles', async () => {
    const declarations = await generate('components.d.ts');
    const program = join(dir, 'right.ts');
    await writeFile(
      program,
      `import { connect } from ${JSON.stringify(INDEX)};
import type {} from ${JSON.stringify(declarations.replace(/\.d\.ts$/, '.js'))};
export async function main(): Promise<number> {
  const bridge = await connect();
  const gallery = await bridge.create('AnnotationGallery', {
    count: 3,
    size: 'large',
    level: 2,
    anchor: { x: 1, y: 2 },
    width: '50%',
    tags: ['a', 'b'],
    onValueChange: (e) => { const doubled: number = e.payload.value * 2; return doubled; },
  });
  await gallery.update({ ratio: 0.5, size: null });
  await gallery.emit('valueChange', { value: 1, final: false });
  const button = await bridge.create('SwiftUIButton', { title: 'Tap', onCountChange: (e) => e.payload.count + 1 });
  await button.command('press');
  const { commands } = await gallery.inspect();
  return commands.length;
}
`,
    );
    const { status, output } = tsc([declarations, program]);
    assert.equal(status, 0, output);
  });

  test('used wrong, it does not compile, at each mistake', async () => {
    const declarations = await generate('components.d.ts');
    const program = join(dir, 'wrong.ts');
    const mistakes = [
      `await bridge.create('AnnotationGallery', { size: 'huge' });`,
      `await bridge.create('AnnotationGallery', { level: 5 });`,
      `await bridge.create('AnnotationGallery', { anchor: { x: 1 } });`,
      `await bridge.create('AnnotationGallery', { onValueChange: (e) => e.payload.nope });`,
      `await (await bridge.create('AnnotationGallery')).command('noSuchCommand');`,
    ];
    await writeFile(
      program,
      `import { connect } from ${JSON.stringify(INDEX)};
import type {} from ${JSON.stringify(declarations.replace(/\.d\.ts$/, '.js'))};
export async function main(): Promise<void> {
  const bridge = await connect();
${mistakes.map((line) => `  ${line}`).join('\n')}
}
`,
    );
    const { status, output } = tsc([declarations, program]);
    assert.notEqual(status, 0);
    const lines = new Set([...output.matchAll(/wrong\.ts\((\d+),/g)].map((m) => Number(m[1])));
    const expected = mistakes.map((_, i) => i + 5);
    assert.deepEqual([...lines].sort((a, b) => a - b), expected, output);
  });
});
