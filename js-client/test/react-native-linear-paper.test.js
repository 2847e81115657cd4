// linear-paper.js changes two places of React Native's paper renderer (its host instances' child arrays and
// React's getHostSibling) without changing a call it makes. Here the file as shipped and the file as bridged loads
// it render the same random edits of a keyed tree (moves, inserts, removals, reversals, shuffles, clears, with
// composites and fragments between host views, so that the sibling search climbs out of and into non-host fibers,
// text, and children that change kind under their key), each into a UIManager that records every call: the two records must be the same call for call. No
// daemon: this is the renderer's side alone.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from '../index.js';
import { ViewConfigRegistry, attachReactNative, viewConfigFor } from '../lib/react-native.js';
import { startDaemon } from '../test-support/daemon.js';
import { evaluateRenderer, privateModules } from '../lib/react-native/renderer/load.js';
import { linearPaperRenderer } from '../lib/react-native/renderer/linear-paper.js';
import { loadReact } from '../test-support/react-native.js';

const react = loadReact();
const file = process.env.BRIDGED_RN_RENDERER;
const skip = !file ? 'no paper renderer file: set BRIDGED_RN_RENDERER' : !react ? 'no React (node-react)' : false;
const COMPONENTS = {
  RCTView: { props: { testID: { type: 'string' } }, events: {} },
  RCTText: { props: {}, events: {} },
  RCTRawText: { props: { text: { type: 'string' } }, events: {} },
};
/** hello's propTypes entry of the one type COMPONENTS uses. */
const PROP_TYPES = { string: { nativeType: 'NSString', deepDiffs: false, typeScript: 'string', reportedTypeScript: 'string' } };

/** The paper renderer file, as shipped or as bridged loads it, into a UIManager that records each call. */
function recordingRenderer(asShipped) {
  const calls = [];
  const UIManager = new Proxy(
    {},
    {
      get: (_, name) => (name === 'then' ? undefined : (...args) => void calls.push([name, ...structuredClone(args.filter((a) => typeof a !== 'function'))])),
    },
  );
  const registry = new ViewConfigRegistry();
  for (const name of Object.keys(COMPONENTS)) registry.register(name, () => viewConfigFor(name, COMPONENTS, PROP_TYPES));
  const errors = [];
  const modules = privateModules({ React: react.React, scheduler: react.scheduler, UIManager, registry, emitter: { register() {} }, onError: (e) => errors.push(e) });
  const renderer = evaluateRenderer(file, modules, { asShipped });
  return { renderer, calls, errors };
}

describe('the paper renderer made linear (linear-paper.js)', { skip }, () => {
  test('both changes apply to this renderer file', () => {
    assert.deepEqual(linearPaperRenderer(readFileSync(file, 'utf8')).changes, ['children', 'hostSibling']);
  });

  test('sends the UIManager the very calls the file as shipped sends, through 150 random edits of a keyed tree', () => {
    const h = react.React.createElement;
    const shipped = recordingRenderer(true);
    const linear = recordingRenderer(false);
    let seed = 4242;
    const random = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    let nextId = 0;
    // A node is a host view, a composite holding its children as a fragment, or a text, chosen when it is made.
    const node = (children = []) => ({ id: `n${nextId++}`, kind: random(6) === 0 ? 'fragment' : random(8) === 0 ? 'text' : 'view', children });
    const Group = ({ children }) => h(react.React.Fragment, null, children);
    const toElement = (n) => {
      if (n.kind === 'text') return h('RCTText', { key: n.id }, n.id);
      const children = n.children.map(toElement);
      if (n.kind === 'fragment') return h(Group, { key: n.id }, children);
      return h('RCTView', { key: n.id, testID: n.id }, children);
    };
    const model = { id: 'root', kind: 'view', children: [] };
    const all = (n, list = []) => {
      if (n.kind !== 'text') list.push(n);
      for (const c of n.children) all(c, list);
      return list;
    };
    let compared = 0;
    for (let step = 0; step < 150; step++) {
      const nodes = all(model);
      const withChildren = nodes.filter((n) => n.children.length > 1);
      const parents = withChildren.length > 0 && random(10) < 8 ? withChildren : nodes;
      const kids = parents[random(parents.length)].children;
      switch (random(10)) {
        case 0:
          for (let k = random(4) + 1; k > 0; k--) kids.splice(random(kids.length + 1), 0, node());
          break;
        case 1:
          for (let k = random(3) + 1; k > 0 && kids.length > 0; k--) kids.splice(random(kids.length), 1);
          break;
        case 2:
        case 3:
          for (let k = random(4) + 1; k > 0 && kids.length > 1; k--) kids.splice(random(kids.length), 0, kids.splice(random(kids.length), 1)[0]);
          break;
        case 4:
          kids.reverse();
          break;
        case 5: // past RendererChildren's switch to blocks (128) and a block split (512)
          if (kids.length < 1200) for (let k = 150 + random(500); k > 0; k--) kids.push(node());
          break;
        case 6:
          for (let i = kids.length - 1; i > 0; i--) {
            const j = random(i + 1);
            [kids[i], kids[j]] = [kids[j], kids[i]];
          }
          break;
        case 7:
          if (random(2) === 0) kids.length = 0;
          else {
            // A few children change kind under the same key: React deletes each and places a new one there.
            for (let k = random(3) + 1; k > 0 && kids.length > 0; k--) {
              const child = kids[random(kids.length)];
              child.kind = child.kind === 'view' ? (random(2) === 0 ? 'fragment' : 'text') : 'view';
            }
          }
          break;
        default:
          kids.splice(random(kids.length + 1), 0, node([node(), node([node(), node()]), node()]));
      }
      const element = h('RCTView', { testID: 'root' }, model.children.map(toElement));
      shipped.renderer.render(element, 1);
      linear.renderer.render(element, 1);
      assert.equal(linear.calls.length, shipped.calls.length, `step ${step}: as many calls`);
      for (let i = 0; i < shipped.calls.length; i++) assert.deepEqual(linear.calls[i], shipped.calls[i], `step ${step}, call ${i}`);
      compared += shipped.calls.length;
      shipped.calls.length = 0;
      linear.calls.length = 0;
    }
    shipped.renderer.unmountComponentAtNodeAndRemoveContainer(1);
    linear.renderer.unmountComponentAtNodeAndRemoveContainer(1);
    assert.deepEqual(linear.calls, shipped.calls);
    assert.deepEqual(linear.errors, []);
    assert.deepEqual(shipped.errors, []);
    assert.ok(compared > 5000, `the edits made many calls (${compared})`);
  });

  test('attachReactNative loads the file made linear, and untouched with rendererAsShipped', async () => {
    const daemon = await startDaemon();
    const bridge = await connect({ socket: daemon.socket });
    try {
      for (const rendererAsShipped of [false, true]) {
        const rn = await attachReactNative(bridge, { renderer: file, react: react.React, scheduler: react.scheduler, rendererAsShipped });
        const h = react.React.createElement;
        const ref = react.React.createRef();
        const root = await rn.render(h('RCTView', { ref }, h('RCTView'), h('RCTView'), h('RCTView')));
        assert.equal(ref.current._children.length, 3);
        assert.equal(Array.isArray(ref.current._children), rendererAsShipped, `rendererAsShipped: ${rendererAsShipped}`);
        await root.render(h('RCTView', { ref }, h('RCTView', { key: 'c' }), h('RCTView', { key: 'b' })));
        assert.equal(ref.current._children.length, 2);
        await root.unmount();
        await rn.detach();
      }
    } finally {
      await bridge.close();
      await daemon.stop();
    }
  });
});
