// app/per-root.js: what an app's installed packages say, read once per process while they stay as they were.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { perRoot, rootStamp } from '../../lib/react-native/app/per-root.js';

function app() {
  const root = mkdtempSync(path.join(tmpdir(), 'bridged-per-root-'));
  writeFileSync(path.join(root, 'package.json'), '{"name":"app"}');
  mkdirSync(path.join(root, 'node_modules'));
  return root;
}

/** Moves a path's modification time `seconds` on, as an install a moment later would. */
function touch(file, seconds) {
  const when = new Date(Date.now() + seconds * 1000);
  utimesSync(file, when, when);
}

test('an answer is read once while the app is unchanged, and again once a package is added or its package.json edited', (t) => {
  const root = app();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  let reads = 0;
  const answer = perRoot(() => ({ reads: ++reads }));
  const first = answer(root);
  assert.equal(answer(root), first, 'the same object, not read again');
  assert.equal(reads, 1);

  mkdirSync(path.join(root, 'node_modules', 'some-package'));
  touch(path.join(root, 'node_modules'), 5);
  assert.deepEqual(answer(root), { reads: 2 }, 'node_modules changed: read again');
  assert.equal(answer(root).reads, 2);

  touch(path.join(root, 'package.json'), 10);
  assert.equal(answer(root).reads, 3, 'package.json changed: read again');

  mkdirSync(path.join(root, 'modules'));
  assert.equal(answer(root).reads, 4, "a local modules/ folder appeared: read again");
});

test('each root has its own answer, and at most `limit` are kept (the oldest forgotten first)', (t) => {
  const roots = [app(), app(), app()];
  t.after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
  const read = [];
  const answer = perRoot((root) => (read.push(root), { root }), { limit: 2 });
  for (const root of roots) assert.equal(answer(root).root, root);
  assert.deepEqual(read, roots);
  answer(roots[2]);
  answer(roots[1]);
  assert.equal(read.length, 3, 'the two newest are kept');
  answer(roots[0]);
  assert.equal(read.length, 4, 'the oldest was forgotten: read again');
  answer.forget();
  answer(roots[1]);
  assert.equal(read.length, 5, 'forget() empties it');
});

test("rootStamp is the modification times of package.json, node_modules and modules/, '-' for a missing one", (t) => {
  const root = app();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const parts = rootStamp(root).split(':');
  assert.equal(parts.length, 3);
  assert.ok(Number(parts[0]) > 0 && Number(parts[1]) > 0);
  assert.equal(parts[2], '-');
  assert.equal(rootStamp(path.join(root, 'absent')), '-:-:-');
});
