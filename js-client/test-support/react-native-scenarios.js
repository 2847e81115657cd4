// The scenarios React Native's renderer renders into bridged (react-native.test.js runs each live and from its
// recorded trace). `live` drives React and asserts on React's side; `checks` assert on the daemon's side and run
// at the same checkpoints in both modes, so they read only the daemon.
import assert from 'node:assert/strict';
import { byComponent, byTestID, find, nodes, tree } from './react-native.js';

/** The root's first child, with its subtree. */
async function screen(bridge, root) {
  const top = await tree(bridge, root);
  assert.equal(top.component, 'RCTView', 'a root is an RCTView');
  return top;
}

const testIDs = (node) => node.children.map((child) => child.props.testID);

export const scenarios = [
  {
    name: 'counter',
    async live({ rn, React, h, bridge, render, checkpoint }) {
      const { View, Text } = rn;
      const SwiftUIButton = rn.requireNativeComponent('SwiftUIButton');
      const buttonRef = React.createRef();
      const seen = [];
      function Screen({ title = 'Tap' }) {
        const [count, setCount] = React.useState(0);
        return h(
          View,
          { testID: 'screen', style: { flex: 1, backgroundColor: 'white' } },
          h(Text, null, 'Pressed ', count, ' times'),
          h(SwiftUIButton, {
            ref: buttonRef,
            title,
            count,
            onCountChange: (e) => {
              seen.push({ count: e.nativeEvent.count, target: e.nativeEvent.target });
              setCount(e.nativeEvent.count);
            },
          }),
        );
      }
      const root = await render(h(Screen));
      await checkpoint('mounted');
      const tag = rn.findNodeHandle(buttonRef.current);
      assert.equal((await bridge.request({ op: 'inspect', tag })).component, 'SwiftUIButton');
      rn.dispatchCommand(buttonRef.current, 'press', []);
      await rn.settled();
      assert.deepEqual(seen, [{ count: 1, target: tag }]);
      await checkpoint('pressed once');
      // Controlled: each press asks for count + 1 of the count native holds, so presses in one commit ask
      // for the same count, as on a device.
      rn.dispatchCommand(buttonRef.current, 'press', []);
      rn.dispatchCommand(buttonRef.current, 'press', []);
      await rn.settled();
      assert.deepEqual(seen.map((s) => s.count), [1, 2, 2]);
      rn.dispatchCommand(buttonRef.current, 'press', []);
      await rn.settled();
      assert.deepEqual(seen.map((s) => s.count), [1, 2, 2, 3]);
      await root.render(h(Screen, { title: 'Again' }));
      await checkpoint('pressed three times, re-rendered');
      await root.unmount();
      await checkpoint('unmounted');
    },
    checks: {
      async mounted({ bridge, root }) {
        const top = await screen(bridge, root());
        const view = find(top, byTestID('screen'));
        assert.equal(view.props.flex, 1);
        assert.equal(view.props.backgroundColor, '#ffffffff');
        assert.deepEqual(view.children.map((c) => c.component), ['RCTText', 'SwiftUIButton']);
        assert.equal(view.children[0].render, 'Pressed 0 times');
        assert.deepEqual(view.children[1].props, { count: 0, title: 'Tap', disabled: false });
      },
      async 'pressed once'({ bridge, root }) {
        const view = find(await screen(bridge, root()), byTestID('screen'));
        assert.equal(view.children[0].render, 'Pressed 1 times');
        assert.equal(view.children[1].props.count, 1);
        assert.deepEqual(view.children[1].commands, [{ name: 'press', args: [] }]);
      },
      async 'pressed three times, re-rendered'({ bridge, root }) {
        const view = find(await screen(bridge, root()), byTestID('screen'));
        assert.equal(view.children[0].render, 'Pressed 3 times');
        assert.equal(view.children[1].props.count, 3);
        assert.equal(view.children[1].props.title, 'Again');
        assert.equal(view.children[1].commands.length, 4);
        assert.equal(view.children[1].render, 'Button "Again" count=3');
      },
      async unmounted({ bridge, root }) {
        await assert.rejects(bridge.request({ op: 'inspect', tag: root() }), { code: 'unknown_tag' });
        assert.equal((await bridge.request({ op: 'stats' })).sessionViews, 0);
      },
    },
  },

  {
    name: 'props',
    async live({ rn, React, h, render, checkpoint }) {
      const { View } = rn;
      const SwiftUIButton = rn.requireNativeComponent('SwiftUIButton');
      const boxRef = React.createRef();
      const first = h(
        View,
        { ref: boxRef, testID: 'box', accessibilityLabel: 'a box', accessible: true, style: { opacity: 0.5, width: '50%', height: 'auto', margin: 4 } },
        h(SwiftUIButton, { testID: 'button', title: 'T', accessibilityLabel: 'tap', style: { opacity: 0.25 } }),
      );
      const root = await render(first);
      await checkpoint('set');
      // bridged has no layout engine: every measurement answers zeros, and the responder calls do nothing.
      const measured = await new Promise((resolve) => boxRef.current.measure((...values) => resolve(values)));
      assert.deepEqual(measured, [0, 0, 0, 0, 0, 0]);
      assert.deepEqual(await new Promise((resolve) => boxRef.current.measureInWindow((...values) => resolve(values))), [0, 0, 0, 0]);
      await root.render(
        h(View, { testID: 'box2', style: { opacity: 0.5 } }, h(SwiftUIButton, { title: 'T' })),
      );
      await checkpoint('changed and removed');
    },
    checks: {
      async set({ bridge, root }) {
        const box = find(await screen(bridge, root()), byTestID('box'));
        assert.equal(box.props.accessibilityLabel, 'a box');
        assert.equal(box.props.accessible, true);
        assert.equal(box.props.opacity, 0.5);
        assert.equal(box.props.width, '50%');
        assert.equal(box.props.height, 'auto');
        assert.equal(box.props.margin, 4);
        const button = box.children[0];
        // Every component is a View: a button takes View's props and lists those it holds.
        assert.equal(button.component, 'SwiftUIButton');
        assert.equal(button.props.testID, 'button');
        assert.equal(button.props.accessibilityLabel, 'tap');
        assert.equal(button.props.opacity, 0.25);
      },
      async 'changed and removed'({ bridge, root }) {
        const box = find(await screen(bridge, root()), byTestID('box2'));
        assert.equal(box.props.accessibilityLabel, null);
        assert.equal(box.props.accessible, null);
        assert.equal(box.props.width, null);
        assert.equal(box.props.margin, null);
        assert.equal(box.props.opacity, 0.5);
        const button = box.children[0];
        assert.deepEqual(button.props, { count: 0, title: 'T', disabled: false });
      },
    },
  },

  {
    name: 'list',
    async live({ rn, h, render, checkpoint }) {
      const { View, Text } = rn;
      const SwiftUIButton = rn.requireNativeComponent('SwiftUIButton');
      const refs = new Map();
      const List = ({ keys }) =>
        h(
          View,
          { testID: 'list' },
          keys.map((key) =>
            h(
              View,
              { key, testID: key },
              h(Text, null, `row ${key}`),
              h(SwiftUIButton, { title: key, ref: (r) => (r ? refs.set(key, r) : refs.delete(key)) }),
            ),
          ),
        );
      const root = await render(h(List, { keys: ['a', 'b', 'c', 'd'] }));
      await checkpoint('abcd');
      rn.dispatchCommand(refs.get('a'), 'press', []);
      await rn.settled();
      await root.render(h(List, { keys: ['d', 'b', 'a', 'c'] }));
      await checkpoint('dbac');
      await root.render(h(List, { keys: ['d', 'b', 'x', 'a', 'c'] }));
      await checkpoint('dbxac');
      await root.render(h(List, { keys: ['d', 'x', 'a', 'c'] }));
      await checkpoint('dxac');
      await root.render(h(List, { keys: ['c', 'a', 'x', 'd', 'e'] }));
      await checkpoint('caxde');
    },
    checks: (() => {
      const tags = new Map();
      async function expectOrder({ bridge, root }, order) {
        const list = find(await screen(bridge, root()), byTestID('list'));
        assert.deepEqual(testIDs(list), order);
        for (const row of list.children) {
          assert.equal(row.children[0].render, `row ${row.props.testID}`);
          assert.equal(row.children[1].props.title, row.props.testID);
          // A moved row keeps its view, and its state with it.
          if (tags.has(row.props.testID)) assert.equal(row.tag, tags.get(row.props.testID), `row ${row.props.testID} kept its view`);
          tags.set(row.props.testID, row.tag);
        }
        const a = list.children.find((row) => row.props.testID === 'a');
        return { list, a };
      }
      return {
        abcd: (ctx) => expectOrder(ctx, ['a', 'b', 'c', 'd']),
        async dbac(ctx) {
          const { a } = await expectOrder(ctx, ['d', 'b', 'a', 'c']);
          assert.deepEqual(a.children[1].commands, [{ name: 'press', args: [] }]);
        },
        dbxac: (ctx) => expectOrder(ctx, ['d', 'b', 'x', 'a', 'c']),
        async dxac(ctx) {
          await expectOrder(ctx, ['d', 'x', 'a', 'c']);
          // The removed row is deleted with its subtree: no orphans.
          const views = (await ctx.bridge.request({ op: 'stats' })).sessionViews;
          assert.equal(views, 2 + 4 * 4, 'the root, the list, and 4 rows of a View, a Text, its raw text and a button');
        },
        caxde: (ctx) => expectOrder(ctx, ['c', 'a', 'x', 'd', 'e']),
      };
    })(),
  },

  {
    name: 'conditional',
    async live({ rn, h, render, checkpoint }) {
      const { View, Text } = rn;
      const React = { Fragment: Symbol.for('react.fragment') };
      const Screen = ({ show, pair }) =>
        h(
          View,
          { testID: 'screen' },
          h(View, { testID: 'first' }),
          show && h(View, { testID: 'extra' }, h(Text, null, 'extra text')),
          pair && h(React.Fragment, null, h(View, { testID: 'f1' }), h(View, { testID: 'f2' })),
          h(View, { testID: 'last' }),
        );
      const root = await render(h(Screen, { show: false, pair: true }));
      await checkpoint('no extra');
      await root.render(h(Screen, { show: true, pair: true }));
      await checkpoint('extra');
      await root.render(h(Screen, { show: true, pair: false }));
      await checkpoint('no pair');
      await root.render(h(Screen, { show: false, pair: true }));
      await checkpoint('pair again');
    },
    checks: {
      async 'no extra'({ bridge, root }) {
        assert.deepEqual(testIDs(find(await screen(bridge, root()), byTestID('screen'))), ['first', 'f1', 'f2', 'last']);
      },
      async extra({ bridge, root }) {
        const view = find(await screen(bridge, root()), byTestID('screen'));
        assert.deepEqual(testIDs(view), ['first', 'extra', 'f1', 'f2', 'last']);
        assert.equal(view.children[1].children[0].render, 'extra text');
      },
      async 'no pair'({ bridge, root }) {
        assert.deepEqual(testIDs(find(await screen(bridge, root()), byTestID('screen'))), ['first', 'extra', 'last']);
      },
      async 'pair again'({ bridge, root }) {
        assert.deepEqual(testIDs(find(await screen(bridge, root()), byTestID('screen'))), ['first', 'f1', 'f2', 'last']);
        assert.equal((await bridge.request({ op: 'stats' })).sessionViews, 6);
      },
    },
  },

  {
    name: 'text',
    async live({ rn, h, render, checkpoint }) {
      const { Text, View } = rn;
      const Screen = ({ word }) =>
        h(View, null, h(Text, { numberOfLines: 2, style: { color: 'red', fontSize: 14 } }, 'Hello ', h(Text, { style: { fontWeight: 'bold' } }, word), ' world'));
      const root = await render(h(Screen, { word: 'bold' }));
      await checkpoint('nested');
      await root.render(h(Screen, { word: 'brave' }));
      await checkpoint('changed');
    },
    checks: {
      async nested({ bridge, root }) {
        const text = find(await screen(bridge, root()), byComponent('RCTText'));
        assert.equal(text.render, 'Hello bold world');
        assert.equal(text.props.numberOfLines, 2);
        assert.equal(text.props.color, '#ff0000ff');
        assert.equal(text.props.fontSize, 14);
        assert.deepEqual(text.children.map((c) => c.component), ['RCTRawText', 'RCTVirtualText', 'RCTRawText']);
        assert.equal(text.children[1].render, 'bold');
        assert.equal(text.children[1].props.fontWeight, 'bold');
      },
      async changed({ bridge, root }) {
        const text = find(await screen(bridge, root()), byComponent('RCTText'));
        assert.equal(text.render, 'Hello brave world');
      },
    },
  },

  {
    name: 'styles',
    async live({ rn, h, render, checkpoint }) {
      const { View } = rn;
      const base = { backgroundColor: 'red', padding: 8 };
      const Screen = ({ on }) =>
        h(View, {
          testID: 'styled',
          style: [
            base,
            false,
            null,
            [{ borderColor: '#0f08', borderWidth: 2 }, on && { opacity: 0.3, backgroundColor: 'rgb(0, 128, 255)' }],
            { shadowColor: 'hsl(120, 100%, 25%)', shadowOffset: { width: 1, height: 2 }, tintColor: 'transparent' },
            { transform: [{ rotate: '45deg' }, { scale: on ? 2 : 1 }], position: 'absolute', top: '10%', left: 0 },
          ],
        });
      const root = await render(h(Screen, { on: false }));
      await checkpoint('flattened');
      await root.render(h(Screen, { on: true }));
      await checkpoint('toggled');
    },
    checks: {
      async flattened({ bridge, root }) {
        const view = find(await screen(bridge, root()), byTestID('styled'));
        assert.equal(view.props.backgroundColor, '#ff0000ff');
        assert.equal(view.props.borderColor, '#00ff0088');
        assert.equal(view.props.borderWidth, 2);
        assert.equal(view.props.padding, 8);
        assert.equal(view.props.opacity, 1);
        assert.equal(view.props.shadowColor, '#008000ff');
        assert.deepEqual(view.props.shadowOffset, { width: 1, height: 2 });
        assert.equal(view.props.tintColor, '#00000000');
        assert.deepEqual(view.props.transform, [{ rotate: '45deg' }, { scale: 1 }]);
        assert.equal(view.props.position, 'absolute');
        assert.equal(view.props.top, '10%');
        assert.equal(view.props.left, 0);
      },
      async toggled({ bridge, root }) {
        const view = find(await screen(bridge, root()), byTestID('styled'));
        assert.equal(view.props.backgroundColor, '#0080ffff');
        assert.equal(view.props.opacity, 0.3);
        assert.deepEqual(view.props.transform, [{ rotate: '45deg' }, { scale: 2 }]);
      },
    },
  },

  {
    name: 'events',
    async live({ rn, React, h, render, checkpoint }) {
      const { View } = rn;
      const SwiftUIButton = rn.requireNativeComponent('SwiftUIButton');
      const ref = React.createRef();
      const seen = [];
      let stop = false;
      const record = (who) => (e) => seen.push([who, e.nativeEvent.count, e.eventPhase, rn.findNodeHandle(e.currentTarget) !== null]);
      await render(
        h(
          View,
          { testID: 'outer', onCountChangeCapture: record('outer capture'), onCountChange: record('outer bubble') },
          h(
            View,
            {
              testID: 'inner',
              onCountChange: (e) => {
                record('inner bubble')(e);
                if (stop) e.stopPropagation();
              },
            },
            h(SwiftUIButton, { ref, title: 'b', onCountChange: record('button') }),
          ),
        ),
      );
      await checkpoint('mounted');
      rn.dispatchCommand(ref.current, 'press', []);
      await rn.settled();
      assert.deepEqual(
        seen.map((s) => s[0]),
        ['outer capture', 'button', 'inner bubble', 'outer bubble'],
      );
      assert.ok(seen.every((s) => s[1] === 1 && s[3]));
      seen.length = 0;
      stop = true;
      rn.dispatchCommand(ref.current, 'press', []);
      await rn.settled();
      assert.deepEqual(seen.map((s) => s[0]), ['outer capture', 'button', 'inner bubble']);
      await checkpoint('pressed twice');
    },
    checks: {
      async mounted({ bridge, root }) {
        const outer = find(await screen(bridge, root()), byTestID('outer'));
        assert.equal(outer.children[0].props.testID, 'inner');
      },
      async 'pressed twice'({ bridge, root }) {
        const button = find(await screen(bridge, root()), byComponent('SwiftUIButton'));
        assert.equal(button.commands.length, 2);
        // Uncontrolled: nobody set count, so native's count stays 0 and each press asks for 1.
        assert.equal(button.props.count, 0);
      },
    },
  },

  {
    name: 'direct-events-and-commands',
    async live({ rn, React, h, render, checkpoint, trace }) {
      const { View } = rn;
      const TextField = rn.requireNativeComponent('TextField');
      const Slider = rn.requireNativeComponent('Slider');
      const field = React.createRef();
      const slider = React.createRef();
      const seen = [];
      function Screen() {
        const [value, setValue] = React.useState(0.5);
        return h(
          View,
          { testID: 'form', onCommit: () => seen.push('a View has no commit event: never called') },
          h(TextField, {
            ref: field,
            text: 'typed',
            onCommit: (e) => seen.push(['commit', e.nativeEvent.text]),
            onEditingChange: (e) => seen.push(['editing', e.nativeEvent.editing]),
          }),
          h(Slider, { ref: slider, value, onValueChange: (e) => setValue(e.nativeEvent.value) }),
        );
      }
      await render(h(Screen));
      rn.dispatchCommand(field.current, 'focus', []);
      rn.dispatchCommand(field.current, 'submit', []);
      rn.dispatchCommand(slider.current, 'slide', [0.25]);
      await rn.settled();
      assert.deepEqual(seen, [['editing', true], ['commit', 'typed']]);
      // The View's onCommit is no handler of its component: it is not sent, nor subscribed (paper's createView and
      // Fabric's createNode take the same arguments).
      const creates = (s) => s.call === 'createView' || s.call === 'createNode';
      const viewCreate = trace.find((s) => creates(s) && s.args[1] === 'RCTView' && s.args[3]?.testID === 'form');
      assert.equal(viewCreate.args[3].onCommit, undefined);
      await checkpoint('commanded');
      rn.dispatchCommand(slider.current, 'slide', ['far']);
      await assert.rejects(rn.settled(), (err) => {
        assert.equal(err.code, 'invalid_args');
        assert.equal(err.details[0].path, 'value');
        return true;
      });
      await checkpoint('refused command');
    },
    checks: {
      async commanded({ bridge, root }) {
        const form = find(await screen(bridge, root()), byTestID('form'));
        const [field, slider] = form.children;
        assert.deepEqual(field.commands, [{ name: 'focus', args: [] }, { name: 'submit', args: [] }]);
        assert.deepEqual(slider.commands, [{ name: 'slide', args: [0.25] }]);
        assert.equal(slider.props.value, 0.25);
      },
      async 'refused command'({ bridge, root }) {
        const slider = find(await screen(bridge, root()), byComponent('Slider'));
        assert.deepEqual(slider.commands, [{ name: 'slide', args: [0.25] }]);
      },
    },
  },

  {
    name: 'refused',
    async live({ rn, h, render, checkpoint }) {
      const { View } = rn;
      const SwiftUIButton = rn.requireNativeComponent('SwiftUIButton');
      const Screen = ({ title, label, extra }) =>
        h(View, { testID: 'screen', accessibilityLabel: label }, h(SwiftUIButton, { title }), extra && h(View, { testID: 'extra' }));
      const root = await render(h(Screen, { title: 'ok', label: 'before' }));
      // One commit: a good prop and a bad one. The daemon refuses the batch whole: nothing of it is applied.
      await assert.rejects(root.render(h(Screen, { title: 42, label: 'after' })), (err) => {
        assert.equal(err.code, 'invalid_props');
        assert.equal(err.details[0].path, 'title');
        assert.equal(err.op.op, 'update');
        return true;
      });
      await checkpoint('refused');
      // React's tree is ahead of the daemon's by the refused commit: what the next commit changes is applied.
      await root.render(h(Screen, { title: 'fine', label: 'after', extra: true }));
      await checkpoint('applied');
      const Boom = () => {
        throw new Error('boom in render');
      };
      await assert.rejects(root.render(h(Boom)), /boom in render/);
    },
    checks: {
      async refused({ bridge, root }) {
        const view = find(await screen(bridge, root()), byTestID('screen'));
        assert.deepEqual(testIDs(view), [undefined]);
        assert.equal(view.props.accessibilityLabel, 'before');
        assert.equal(view.children[0].props.title, 'ok');
      },
      async applied({ bridge, root }) {
        const view = find(await screen(bridge, root()), byTestID('screen'));
        assert.equal(view.children[0].props.title, 'fine');
        assert.equal(view.children[1].props.testID, 'extra');
      },
    },
  },

  {
    name: 'two-roots',
    async live({ rn, h, bridge, render, checkpoint }) {
      const { View, Text } = rn;
      const own = await bridge.create('SwiftUIButton', { title: 'made by hand' });
      const [a, b] = await Promise.all([
        render(h(View, { testID: 'A' }, h(Text, null, 'root A'))),
        render(h(View, { testID: 'B' }, h(Text, null, 'root B'))),
      ]);
      assert.notEqual(a.tag, b.tag);
      assert.notEqual(a.tag, own.tag);
      await checkpoint('both');
      await a.unmount();
      await checkpoint('one');
      assert.equal((await own.inspect()).props.title, 'made by hand');
    },
    checks: {
      async both({ bridge, root }) {
        const a = await screen(bridge, root(0));
        const b = await screen(bridge, root(1));
        assert.equal(find(a, byComponent('RCTText')).render, 'root A');
        assert.equal(find(b, byComponent('RCTText')).render, 'root B');
        const tags = [...nodes(a), ...nodes(b)].map((n) => n.tag);
        assert.equal(new Set(tags).size, tags.length);
      },
      async one({ bridge, root }) {
        await assert.rejects(bridge.request({ op: 'inspect', tag: root(0) }), { code: 'unknown_tag' });
        assert.equal(find(await screen(bridge, root(1)), byComponent('RCTText')).render, 'root B');
      },
    },
  },
];

/** Scenarios against a daemon serving a codegen schema (Tests/Schemas/all-annotations.json). */
export const schemaScenarios = [
  {
    name: 'codegen-schema',
    async live({ rn, React, h, render, checkpoint }) {
      const { View } = rn;
      const Gallery = rn.requireNativeComponent('AnnotationGallery');
      const ref = React.createRef();
      const root = await render(
        h(View, null, h(Gallery, { ref, label: 'g', count: 3, tags: ['x', 'y'], anchor: { x: 1, y: 2 }, testID: 'gallery' })),
      );
      await checkpoint('mounted');
      await root.render(h(View, null, h(Gallery, { ref, label: 'g', count: 4, tags: ['z'], testID: 'gallery' })));
      rn.dispatchCommand(ref.current, 'reset', []);
      await rn.settled();
      await checkpoint('updated');
    },
    checks: {
      async mounted({ bridge, root }) {
        const gallery = find(await screen(bridge, root()), byTestID('gallery'));
        assert.equal(gallery.component, 'AnnotationGallery');
        assert.equal(gallery.props.count, 3);
        assert.deepEqual(gallery.props.tags, ['x', 'y']);
        assert.deepEqual(gallery.props.anchor, { x: 1, y: 2 });
      },
      async updated({ bridge, root }) {
        const gallery = find(await screen(bridge, root()), byTestID('gallery'));
        assert.equal(gallery.props.count, 4);
        assert.deepEqual(gallery.props.tags, ['z']);
        assert.equal(gallery.props.anchor, null);
        assert.deepEqual(gallery.commands, [{ name: 'reset', args: [] }]);
      },
    },
  },
];
