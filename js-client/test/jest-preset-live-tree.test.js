// preset: 'bridged-client': a test file's queries read a live tree kept from its session's own observation (`observe`
// with `tree: true`, protocol.md); after renders, presses, typing and an unmount it is the daemon's tree exactly, as
// another connection's snapshot of the session shows it (each view's props that are not null, parent and children),
// also after a commit sent in parts and one in parts the daemon refused.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jestEnv, jestSkip, makeJestApp, runJest } from '../test-support/jest-app.js';

const LIVE_TREE_TEST = `import React from 'react';
import { render, screen, fireEvent } from '@testing-library/react-native';
import Login from '../src/Login';
import Catalog from '../src/Catalog';
import { Text, View } from 'react-native';

// Big enough that its commit goes out in parts, written ahead while React renders (native-side.js SYNC_STREAM_OPS).
const Rows = ({ width }) => (
  <View>
    <View testID="first" style={{ width }} />
    {Array.from({ length: 150 }, (_, i) => <View key={i} testID={'row-' + i}><Text>Row {i}</Text></View>)}
  </View>
);

/** A tree as plain data, by tag: each view's component, props but those at null, parent and children. */
const plain = (views) =>
  JSON.stringify(
    views
      .map((v) => ({
        tag: v.tag,
        component: v.component,
        props: Object.fromEntries(Object.entries(v.props).filter(([, value]) => value !== null).sort()),
        parent: v.parent ?? null,
        children: v.children,
      }))
      .sort((a, b) => a.tag - b.tag),
  );

test("the live tree is the daemon's", async () => {
  render(<Catalog />);
  fireEvent.press(screen.getByText('Banana'));
  expect(screen.getByText('Selected: Banana')).toBeTruthy();
  const login = render(<Login />);
  fireEvent.changeText(screen.getByTestId('name'), 'Ana');
  login.unmount();
  // A commit in parts the daemon refuses (a width a phone cannot convert, in its first part): nothing of it is applied.
  expect(() => render(<Rows width="10px" />)).toThrow(/invalid prop 'width'/);
  render(<Rows width={10} />);
  expect(screen.getAllByText(/^Row [0-9]+$/)).toHaveLength(150);
  const app = __bridged__.app;
  const other = await app.bridge.constructor.connect({ socket: process.env.BRIDGED_JEST_SOCKET });
  const snapshot = other.requestSync({ op: 'observe', session: app.bridge.session });
  await other.close();
  expect(snapshot.views.length).toBeGreaterThan(5);
  expect(plain([...app._liveTree.views.values()])).toBe(plain(snapshot.views));
}, 60_000);
`;

describe("preset: 'bridged-client', the live tree", { skip: jestSkip }, () => {
  let layout;
  let tmp;
  before(() => {
    layout = makeJestApp();
    tmp = mkdtempSync(path.join(tmpdir(), 'bridged-jest-live-'));
  });
  after(() => {
    layout?.remove();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test("a test file's live tree is the daemon's after renders, presses, typing and an unmount", async () => {
    writeFileSync(path.join(layout.root, '__tests__', 'zz-live-tree.test.js'), LIVE_TREE_TEST);
    const env = { ...jestEnv(tmp), BRIDGED_BIN: process.env.BRIDGED_BIN };
    const run = await runJest(layout.root, ['--ci', '__tests__/zz-live-tree'], env);
    assert.equal(run.code, 0, run.stderr.slice(0, 3000));
    assert.match(run.stderr, /PASS __tests__\/zz-live-tree\.test\.js/);
  });
});
