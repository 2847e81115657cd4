// js-client/builtins.d.ts is what `bridged-client types --builtins` writes from a real daemon's hello: the
// built-in components' declarations are derived, never kept by hand beside the daemon's own list.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILTINS_COMMAND } from '../lib/types.js';
import { CLI, startDaemon } from '../test-support/daemon.js';
import { difference } from '../test-support/text-difference.js';

const COMMITTED = fileURLToPath(new URL('../builtins.d.ts', import.meta.url));

let daemon;

before(async () => {
  daemon = await startDaemon();
});
after(() => daemon?.stop());

describe('builtins.d.ts', () => {
  test('is what bridged-client types --builtins generates from the daemon built-ins', async () => {
    const out = join(daemon.dir, 'builtins.d.ts');
    execFileSync(process.execPath, [CLI, 'types', '--builtins', '--socket', daemon.socket, '--out', out], { stdio: 'pipe' });
    const generated = await readFile(out, 'utf8');
    const committed = await readFile(COMMITTED, 'utf8');
    if (generated !== committed) {
      assert.fail(
        `js-client/builtins.d.ts is out of date with the daemon's built-in components; regenerate it with\n` +
          `  ${BUILTINS_COMMAND} --socket <a bridged started without --components>\n` +
          `(from the repository's root; node js-client/bin/bridged-client.js if it is not installed)\n` +
          difference(committed, generated),
      );
    }
  });

  test('declares every component and event the daemon describes', async () => {
    const committed = await readFile(COMMITTED, 'utf8');
    const stdout = execFileSync(process.execPath, [CLI, 'send', '--socket', daemon.socket, '{"op":"hello","protocol":1}']);
    const hello = JSON.parse(String(stdout).split('\n')[0]).result;
    for (const [name, component] of Object.entries(hello.components)) {
      assert.match(committed, new RegExp(`^  ${name}: \\{$`, 'm'), name);
      // An event's payload is an object type, `Record<string, never>` (none) or `JsonObject` (not declared).
      for (const event of Object.keys(component.events)) assert.match(committed, new RegExp(`^  ${event}: `, 'm'), event);
    }
    for (const name of ['View', 'SwiftUIButton', 'TextField', 'Slider', 'RCTView', 'RCTText', 'RCTVirtualText', 'RCTRawText']) {
      assert.ok(name in hello.components, name);
    }
  });

  test('--builtins refuses --components: the built-ins are those of a daemon without them', () => {
    let status = 0;
    try {
      execFileSync(process.execPath, [CLI, 'types', '--builtins', '--socket', daemon.socket, '--components', daemon.dir], { stdio: 'pipe' });
    } catch (err) {
      status = err.status;
    }
    assert.equal(status, 2);
  });
});
