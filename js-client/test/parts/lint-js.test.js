// make lint's JavaScript part (test-support/lint-js.mjs): what it finds, on texts of the test's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_COLUMNS, MAX_FILE_LINES, STRICT, TO_SPLIT, lintText } from '../../test-support/lint-js.mjs';

const strictFile = `${STRICT[0]}example.js`;

test('a file over MAX_FILE_LINES lines is a finding anywhere; one of exactly that many is not', () => {
  const at = 'x;\n'.repeat(MAX_FILE_LINES);
  assert.deepEqual(lintText('bench/anything.mjs', at), []);
  assert.deepEqual(lintText('bench/anything.mjs', `${at}x;\n`), [
    `bench/anything.mjs:1: ${MAX_FILE_LINES + 1} lines, more than ${MAX_FILE_LINES}: split it by concern`,
  ]);
});

test('a file listed TO_SPLIT may be longer until it is split, up to its own cap', () => {
  const file = 'js-client/lib/big.js';
  const cap = MAX_FILE_LINES + 200;
  const toSplit = { ...TO_SPLIT, [file]: cap };
  assert.deepEqual(lintText(file, 'x;\n'.repeat(cap), toSplit), []);
  assert.deepEqual(lintText(file, 'x;\n'.repeat(cap + 1), toSplit), [
    `${file}:1: ${cap + 1} lines, more than ${cap}: split it by concern`,
  ]);
  for (const [listed, its] of Object.entries(TO_SPLIT)) assert.ok(its > MAX_FILE_LINES, `${listed}'s cap is above`);
});

test('a line over MAX_COLUMNS is a finding in the strict paths only, named by its line', () => {
  const long = `const a = '${'x'.repeat(MAX_COLUMNS)}';`;
  const text = `// fine\n${'y'.repeat(MAX_COLUMNS)}\n${long}\n`;
  assert.deepEqual(lintText(strictFile, text), [`${strictFile}:3: ${[...long].length} columns, more than ${MAX_COLUMNS}`]);
  assert.deepEqual(lintText('js-client/lib/bridge.js', text), []);
});

test('columns are characters, not bytes', () => {
  assert.deepEqual(lintText(strictFile, `${'×'.repeat(MAX_COLUMNS)}\n`), []);
});
