// The files that the daemon's own lists describe are generated from `bridged ops`, and the Swift replayer's copy of
// replay-rules.json from that file (js-client/scripts/generate.js): each must be what the generator writes now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { COMMAND, describe, generated } from '../scripts/generate.js';
import { BRIDGED_BIN } from '../test-support/daemon.js';
import { difference } from '../test-support/text-difference.js';

const root = new URL('../../', import.meta.url);

test('lib/ops.js, index.d.ts\'s RequestResults and ReplayRules+JSON.swift are what the generator writes', async () => {
  const files = generated(describe(BRIDGED_BIN));
  assert.ok(Object.keys(files).length >= 2);
  for (const [path, fresh] of Object.entries(files)) {
    const committed = await readFile(new URL(path, root), 'utf8');
    if (committed !== fresh) {
      assert.fail(
        `${path} is stale (the daemon's ops or limits, or replay-rules.json, changed). Regenerate it, from the ` +
          `repository's root, with\n  ${COMMAND}\n${difference(committed, fresh)}`,
      );
    }
  }
});
