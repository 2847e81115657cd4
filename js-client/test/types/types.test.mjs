// index.d.ts under `tsc --strict`: alone (no @types/node, no DOM library), with the programs of this
// folder and every ```js example of js-client/README.md and of the repository's README.md, and against
// must-fail.ts, which must not compile.
// Needs `tsc` (Debian's node-typescript; `make deps` installs it).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const clientDir = fileURLToPath(new URL('../../', import.meta.url));
const REACT_NATIVE = join(clientDir, 'react-native.js');
const INDEX = join(clientDir, 'index.js');

const STRICT = ['--strict', '--noEmit', '--target', 'es2022', '--module', 'es2022', '--moduleResolution', 'node'];

function tsc(args) {
  const run = spawnSync('tsc', [...STRICT, ...args], { encoding: 'utf8', cwd: here });
  if (run.error) throw new Error(`cannot run tsc (install node-typescript: make deps): ${run.error.message}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/**
 * The ```js blocks of the README, each as a TypeScript module: imports of the client point at index.js;
 * names a snippet uses but does not define (`connect`, `bridge`, `log`, `buildTree`) come before it. A block
 * right after `<!-- types: skip -->` (an illustration, not a program) is left out.
 */
async function readmePrograms() {
  const programs = [];
  for (const readme of [join(clientDir, 'README.md'), join(clientDir, '..', 'README.md')]) {
    programs.push(...programsOf(readme, await readFile(readme, 'utf8')));
  }
  return programs;
}

function programsOf(readme, text) {
  const programs = [];
  const block = /^(<!-- types: skip -->\n)?```js\n([\s\S]*?)^```$/gm;
  for (const match of text.matchAll(block)) {
    if (match[1]) continue;
    const source = match[2].replace(/from 'bridged-client\/react-native'/g, `from '${REACT_NATIVE}'`).replace(
      /from '(?:\.\.\/index\.js|\.\/js-client\/index\.js|bridged-client|\/path\/to\/bridged\/js-client\/index\.js)'/g,
      `from '${INDEX}'`,
    );
    const line = text.slice(0, match.index).split('\n').length + 1;
    const prelude = [`import type { Bridge as __Bridge } from '${INDEX}';`];
    if (/\bconnect\(/.test(source) && !/\bimport\b/.test(source)) prelude.push(`import { connect } from '${INDEX}';`);
    if (!/\bconst bridge\b/.test(source)) prelude.push('declare const bridge: __Bridge;');
    if (!/\bfunction log\b|\bconst log\b/.test(source)) prelude.push('declare function log(...data: unknown[]): void;');
    if (/\bbuildTree\b/.test(source)) prelude.push('declare function buildTree(bridge: __Bridge): Promise<void>;');
    programs.push({ readme, line, source: `${prelude.join(' ')} export {};\n${source}` });
  }
  return programs;
}

describe('index.d.ts under tsc --strict', () => {
  test('alone: no @types/node, no DOM library', () => {
    const { status, output } = tsc(['--lib', 'es2022', join(clientDir, 'index.d.ts'), join(clientDir, 'react-native.d.ts')]);
    assert.equal(status, 0, output);
  });

  test('the programs of test/types use the whole API without an error', () => {
    const es = tsc(['--lib', 'es2022', 'globals.d.ts', 'api.ts', 'readme-counter.ts', 'react-native.ts', 'open-app.ts']);
    assert.equal(es.status, 0, es.output);
    const dom = tsc(['--lib', 'es2022,dom', 'dom-signal.ts']);
    assert.equal(dom.status, 0, dom.output);
  });

  test('every ```js example of the two READMEs compiles', async () => {
    const programs = await readmePrograms();
    assert.ok(programs.length >= 4, `only ${programs.length} examples found in README.md`);
    const dir = await mkdtemp(join(tmpdir(), 'bridged-readme-'));
    try {
      const files = [];
      for (const [i, { readme, line, source }] of programs.entries()) {
        const name = readme.includes('js-client') ? 'js-client-readme' : 'readme';
        const file = join(dir, `${name}-line-${line}-${i}.ts`);
        await writeFile(file, source);
        files.push(file);
      }
      const { status, output } = tsc(['--lib', 'es2022', join(here, 'globals.d.ts'), ...files]);
      assert.equal(status, 0, output);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('must-fail.ts does not compile, with exactly the errors it announces', async () => {
    const source = await readFile(join(here, 'must-fail.ts'), 'utf8');
    const expected = [];
    source.split('\n').forEach((text, i) => {
      const marker = /^\s*\/\/ error (TS\d+)$/.exec(text);
      if (marker) expected.push(`${i + 2} ${marker[1]}`); // the line after the marker
    });
    assert.ok(expected.length >= 5);
    const { status, output } = tsc(['--lib', 'es2022', 'globals.d.ts', 'must-fail.ts']);
    assert.notEqual(status, 0, 'must-fail.ts compiled');
    const got = [...output.matchAll(/must-fail\.ts\((\d+),\d+\): error (TS\d+)/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(got, expected, output);
  });
});
