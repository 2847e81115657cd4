// AfterCommit without an app (app/after-commit.js): what the native side does on its own once a commit is applied,
// driven by commits of a real NativeSide into a real daemon, and read back from the daemon's views.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { NativeSide } from '../lib/react-native/native-side.js';
import { AfterCommit } from '../lib/react-native/app/after-commit.js';
import { startDaemonWithBridge, stopDaemonWithBridge } from '../test-support/daemon.js';

const LOGO = fileURLToPath(new URL('../test-support/apps/basic/assets/logo.png', import.meta.url));

let ctx = {};
before(async () => {
  ctx = await startDaemonWithBridge();
});
after(() => stopDaemonWithBridge(ctx));

/** A NativeSide with AfterCommit attached, as openApp attaches it: what it told the keyboard and emitted, kept. */
function attach(architecture = 'paper') {
  const native = new NativeSide(ctx.bridge);
  const told = { removed: 0, emitted: [] };
  const afterCommit = new AfterCommit({
    native,
    keyboard: { removed: () => told.removed++ },
    architecture,
    emitDeviceEvent: (name, body) => told.emitted.push([name, body]),
    insets: () => ({
      insets: { top: 47, right: 0, bottom: 34, left: 0 },
      frame: { x: 0, y: 0, width: 390, height: 844 },
    }),
  });
  native.onApplied = (ops) => afterCommit.applied(ops);
  return { native, told, afterCommit };
}

/** Creates a view of `component` with `props` under a new root; resolves its daemon tag once the commit applied. */
let nextTag = 100;
async function commit(native, component, props) {
  const root = native.createRoot((nextTag += 10));
  const rendererTag = nextTag + 1;
  const tag = native.mapTag(rendererTag, component);
  native.enqueue({ op: 'create', tag, component, props });
  native.enqueue({ op: 'setChildren', tag: root, children: [tag] });
  await native.settled(null);
  // What AfterCommit queued went out as a batch of its own.
  await native.settled(null);
  return { tag, rendererTag };
}

const render = async (tag) => (await ctx.bridge.request({ op: 'inspect', tag })).render;

test('an image loads a local file (its size from its header), fails a missing one; a network one waits', async () => {
  const { native, told } = attach();
  const uri = `file://${LOGO}`;
  const loaded = await commit(native, 'RCTImageView', { source: [{ uri }] });
  assert.match(await render(loaded.tag), new RegExp(`^Image "${uri}" loaded \\d+x\\d+$`));
  const missing = await commit(native, 'RCTImageView', { source: [{ uri: 'file:///nowhere/at/all.png' }] });
  assert.match(await render(missing.tag), /^Image "file:\/\/\/nowhere\/at\/all.png" failed$/);
  const network = await commit(native, 'RCTImageView', { source: [{ uri: 'https://example.com/a.png' }] });
  assert.doesNotMatch(await render(network.tag), /loaded|failed/);
  assert.ok(told.removed >= 3, 'the keyboard hears of every commit (a focused field may have gone)');
});

test('a modal is presented once created; paper reports it dismissed (modalDismissed) once its view goes', async () => {
  const { native, told, afterCommit } = attach('paper');
  const modal = await commit(native, 'RCTModalHostView', { identifier: 7 });
  assert.match(await render(modal.tag), /presented/);
  assert.deepEqual([...afterCommit.modals], [[modal.rendererTag, 7]]);
  native.enqueueDelete(modal.tag);
  native.unmapTag(modal.rendererTag);
  await native.settled(null);
  await Promise.resolve();
  assert.deepEqual(told.emitted, [['modalDismissed', { modalID: 7 }]]);
  assert.deepEqual([...afterCommit.modals], []);
});

test('Fabric: a modal is presented, and no modalDismissed is kept for it (its Modal has no such call)', async () => {
  const { native, afterCommit } = attach('fabric');
  const modal = await commit(native, 'RCTModalHostView', { identifier: 8 });
  assert.match(await render(modal.tag), /presented/);
  assert.equal(afterCommit.modals.size, 0);
});

test('a text input with autoFocus takes the focus once in the window; one without does not', async () => {
  const { native } = attach();
  const focused = await commit(native, 'RCTSinglelineTextInputView', { autoFocus: true, placeholder: 'Name' });
  const plain = await commit(native, 'RCTSinglelineTextInputView', { placeholder: 'Other' });
  assert.match(await render(focused.tag), / focused$/);
  assert.doesNotMatch(await render(plain.tag), /focused/);
});

test('a view created and removed in one batch was never in the window: nothing sent to it or reported', async () => {
  // A render that mounts and unmounts within one act (a layout effect that removes what it mounted, a render that
  // throws): native never presents, loads or focuses a view it removed in the same batch.
  const { native, told, afterCommit } = attach('paper');
  const root = native.createRoot((nextTag += 10));
  const gone = [];
  for (const [component, props] of [
    ['RCTModalHostView', { identifier: 9 }],
    ['RCTImageView', { source: [{ uri: `file://${LOGO}` }] }],
    ['RCTSinglelineTextInputView', { autoFocus: true }],
  ]) {
    const rendererTag = (nextTag += 1);
    const tag = native.mapTag(rendererTag, component);
    native.enqueue({ op: 'create', tag, component, props });
    gone.push({ tag, rendererTag });
  }
  native.enqueue({ op: 'setChildren', tag: root, children: gone.map((view) => view.tag) });
  for (const view of gone) {
    native.enqueueDelete(view.tag);
    native.unmapTag(view.rendererTag);
  }
  await native.settled(null);
  await native.settled(null);
  await Promise.resolve();
  assert.doesNotThrow(() => native.throwPending());
  assert.deepEqual(told.emitted, []);
  assert.equal(afterCommit.modals.size, 0);
});
