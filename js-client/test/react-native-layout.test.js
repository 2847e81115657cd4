// openApp with the session's layout on (app/layout.js): Yoga built by the daemon from React Native 0.72.6's own
// ReactCommon/yoga (the shared test data), an app screen's onLayout called with the frames Yoga gives, and the
// UIManager's measure calls answering them, on paper and on Fabric.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { appSkip, useTestApp, SHARED_NODE_MODULES } from '../test-support/react-native-app.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { connect } from '../index.js';
import { attachReactNative } from '../lib/react-native.js';
import { startDaemon } from '../test-support/daemon.js';
import { loadReact } from '../test-support/react-native.js';

for (const architecture of ['paper', 'fabric'])
  describe(`openApp: layout from the app's own Yoga (${architecture})`, { skip: appSkip }, () => {
    let bridge;
    let app;
    let React;
    useTestApp({ architecture }, (context) => ({ bridge, app, React } = context));
    const h = (...args) => React.createElement(...args);

    test('layout is on, with the window of openApp', () => {
      assert.equal(app._layoutState.enabled, true, app._layoutState.reason ?? '');
      assert.equal(app._layoutState.window.width, app.window.width);
      assert.equal(app._layoutState.window.scale, app.window.scale);
    });

    test('onLayout gets the frames Yoga gives, again when they change, and measure answers them', async () => {
      const { View, Text } = app.require('react-native');
      const frames = {};
      const calls = [];
      const record = (name) => (event) => {
        frames[name] = { ...event.nativeEvent.layout };
        calls.push(name);
      };
      const measured = React.createRef();
      const half = React.createRef();
      let setPadding;
      function Screen() {
        const [padding, set] = React.useState(10);
        setPadding = set;
        return h(
          View,
          { style: { flex: 1, paddingTop: 20 }, onLayout: record('screen') },
          h(
            View,
            { style: { flexDirection: 'row', height: 100, padding }, onLayout: record('row') },
            h(View, { style: { width: 50 }, onLayout: record('a') }),
            h(View, { ref: measured, style: { flex: 1, marginLeft: 5 }, onLayout: record('b'), testID: 'b' }),
          ),
          h(View, { ref: half, style: { width: '50%', aspectRatio: 3 }, onLayout: record('half'), testID: 'half' }),
          h(Text, { onLayout: record('text') }, 'Hello'),
        );
      }
      const screen = await app.render(h(Screen));
      await app.settled();
      assert.deepEqual(frames.screen, { x: 0, y: 0, width: 390, height: 844 });
      assert.deepEqual(frames.row, { x: 0, y: 20, width: 390, height: 100 });
      assert.deepEqual(frames.a, { x: 10, y: 10, width: 50, height: 80 });
      assert.deepEqual(frames.b, { x: 65, y: 10, width: 315, height: 80 });
      assert.deepEqual(frames.half, { x: 0, y: 120, width: 195, height: 65 });
      // A text is measured crudely (0.5 × fontSize a character, 1.2 × fontSize a line), stretched to its parent.
      assert.deepEqual(frames.text, { x: 0, y: 185, width: 390, height: 17 });

      // A query's handle carries the frame (the daemon tells the app's live tree of every frame that changed).
      assert.deepEqual(screen.getByTestId('half').layout, { x: 0, y: 120, width: 195, height: 65 });

      // inspect reports the same frame, and its place in the window.
      const b = await bridge.request({ op: 'inspect', tag: screen.getByTestId('b').tag });
      assert.deepEqual(b.layout, { x: 65, y: 10, width: 315, height: 80 });
      assert.deepEqual(b.layoutInWindow, { x: 65, y: 30, width: 315, height: 80 });

      // measure and measureInWindow: the frame, with its place in the window.
      const measure = await new Promise((resolve) => measured.current.measure((...args) => resolve(args)));
      assert.deepEqual(measure, [65, 10, 315, 80, 65, 30]);
      const inWindow = await new Promise((resolve) => measured.current.measureInWindow((...args) => resolve(args)));
      assert.deepEqual(inWindow, [65, 30, 315, 80]);
      // Frames asked for in one turn are read in one request (a batch of inspects), each answered its own: b
      // relative to the half-width view, b, and the half-width view in the window, together.
      const sent = [];
      const request = app.bridge.request;
      app.bridge.request = function (frame, ...rest) {
        sent.push(frame.op === 'batch' ? frame.ops.map((op) => `${op.op} ${op.tag}`) : `${frame.op} ${frame.tag}`);
        return request.call(this, frame, ...rest);
      };
      let sameTurn;
      try {
        sameTurn = await Promise.all([
          new Promise((resolve) => measured.current.measureLayout(half.current, (...args) => resolve(args), () => resolve('failed'))),
          new Promise((resolve) => measured.current.measure((...args) => resolve(args))),
          new Promise((resolve) => half.current.measureInWindow((...args) => resolve(args))),
        ]);
      } finally {
        app.bridge.request = request;
      }
      assert.deepEqual(sent, [[`inspect ${screen.getByTestId('b').tag}`, `inspect ${screen.getByTestId('half').tag}`]]);
      assert.deepEqual(sameTurn, [
        [65, 30 - 120, 315, 80],
        [65, 10, 315, 80, 65, 30],
        [0, 120, 195, 65],
      ]);

      // A change of padding moves the row's children, not the row, nor what is below it.
      calls.length = 0;
      setPadding(20);
      await app.settled();
      assert.deepEqual(calls.sort(), ['a', 'b']);
      assert.deepEqual(frames.a, { x: 20, y: 20, width: 50, height: 60 });
      assert.deepEqual(frames.b, { x: 75, y: 20, width: 295, height: 60 });
      await screen.unmount();
    });
  
    test('a press touches the view where it is: a transparent Modal left open covers the screen, so it is refused', async () => {
      const { View, Text, Pressable, Modal } = app.require('react-native');
      const pressed = [];
      let showModal;
      function Screen() {
        const [modal, setModal] = React.useState(false);
        showModal = setModal;
        return h(
          View,
          { style: { flex: 1, paddingTop: 100 } },
          h(Pressable, { testID: 'under', onPress: () => pressed.push('under'), style: { height: 50 } }, h(Text, null, 'Under')),
          h(View, { pointerEvents: 'none', style: { position: 'absolute', top: 100, height: 20, left: 0, right: 0 } }),
          h(Modal, { transparent: true, visible: modal }, h(View, { testID: 'sheet', style: { flex: 1 } }, h(Text, null, 'Sheet'))),
        );
      }
      const screen = await app.render(h(Screen));
      // A view with pointerEvents none over the button lets the touch through; a press on its text reaches it too.
      await app.press(screen.getByTestId('under'));
      await app.press(screen.getByText('Under'));
      // A tap at a point of the window reaches what is there.
      await app.pressAt(195, 125);
      assert.deepEqual(pressed, ['under', 'under', 'under']);

      showModal(true);
      await app.settled();
      await assert.rejects(app.press(screen.getByText('Under')), (error) => {
        assert.equal(error.code, 'not_hittable');
        assert.match(error.message, /app\.press\(\): a user could not touch it: RCTText .* is covered at \(195, 1[0-9.]+\) by RCTView #sheet/);
        return true;
      });
      // The same point now reaches the modal's content, not the button under it.
      await app.pressAt(195, 125);
      assert.deepEqual(pressed, ['under', 'under', 'under'], 'nothing under the modal was pressed');
      await screen.unmount();
    });
  
    test('a scroll carries the laid-out sizes: the scroll view\'s (layoutMeasurement) and its content\'s (contentSize)', async () => {
      const { View, ScrollView } = app.require('react-native');
      const scrolls = [];
      const rows = Array.from({ length: 10 }, (_, i) => h(View, { key: i, style: { height: 50 } }));
      const screen = await app.render(
        h(
          View,
          { style: { flex: 1 } },
          h(ScrollView, { testID: 'list', style: { height: 200, flexGrow: 0 }, onScroll: (e) => scrolls.push(e.nativeEvent) }, rows),
        ),
      );
      await app.scrollTo(screen.getByTestId('list'), { y: 100 });
      const last = scrolls.at(-1);
      assert.deepEqual(last.contentOffset, { x: 0, y: 100 });
      assert.deepEqual(last.layoutMeasurement, { width: 390, height: 200 });
      assert.deepEqual(last.contentSize, { width: 390, height: 500 });
      await screen.unmount();
    });
  
    test('a press right after a paging scroll view came to rest reaches its row (no finger lands within 16 ms of a momentum end)', async () => {
      const { View, Text, ScrollView, Pressable } = app.require('react-native');
      const log = [];
      const rows = Array.from({ length: 40 }, (_, i) =>
        h(Pressable, { key: i, style: { height: 100 }, onPress: () => log.push(`press ${i}`) }, h(Text, null, `Row ${i}`)),
      );
      const screen = await app.render(
        h(
          View,
          { style: { flex: 1 } },
          h(ScrollView, { testID: 'pager', pagingEnabled: true, onMomentumScrollEnd: (e) => log.push(`rest ${e.nativeEvent.contentOffset.y}`) }, rows),
        ),
      );
      await app.scrollTo(screen.getByTestId('pager'), { y: 1700 });
      await app.press(screen.getByText('Row 20'));
      assert.deepEqual(log, ['rest 1688', 'press 20']);
      await screen.unmount();
    });

    test('a FlatList renders the windows a phone renders: rows come into view as it scrolls, far ones go, onEndReached', async () => {
      const { View, Text, FlatList } = app.require('react-native');
      const data = Array.from({ length: 1000 }, (_, i) => ({ key: String(i) }));
      let endReached = 0;
      const row = ({ item }) => h(View, { style: { height: 50 } }, h(Text, null, `Row ${item.key}`));
      const screen = await app.render(
        h(View, { style: { flex: 1 } }, h(FlatList, { testID: 'list', data, renderItem: row, onEndReached: () => endReached++ })),
      );
      const rendered = () => screen.queryAllByText(/^Row /).length;
      // Past its first 10 rows, now that it knows its size; far from all 1,000.
      await app.waitFor(() => assert.ok(rendered() > 10, `${rendered()} rows`));
      assert.ok(rendered() < 1000);
      assert.equal(screen.queryByText('Row 450'), null);
      await app.scrollTo(screen.getByTestId('list'), { y: 20_000 });
      await app.waitFor(() => assert.ok(screen.queryByText('Row 450')));
      await app.scrollTo(screen.getByTestId('list'), { y: 49_156 });
      await app.waitFor(() => assert.ok(screen.queryByText('Row 999')));
      // Rows far above the window are unmounted (VirtualizedList keeps its first initialNumToRender, as on a phone).
      await app.waitFor(() => assert.equal(screen.queryByText('Row 450'), null, 'rows far above the window are unmounted'));
      assert.ok(screen.queryByText('Row 0'));
      assert.ok(rendered() < 200, `${rendered()} rows`);
      assert.ok(endReached >= 1, 'onEndReached');
      await screen.unmount();
    });
  });

// The renderer alone (attachReactNative with { layout: true }): Yoga from the react-native package its renderer file
// is in.
const RENDERER =
  process.env.BRIDGED_RN_RENDERER ?? path.join(SHARED_NODE_MODULES, 'react-native/Libraries/Renderer/implementations/ReactNativeRenderer-dev.js');
const react = loadReact();
const aloneSkip = !existsSync(RENDERER) ? `no React Native renderer at ${RENDERER}` : !react ? 'no React (node-react)' : false;

describe("React Native's renderer alone, with layout", { skip: aloneSkip }, () => {
  test('onLayout gets the frames of the package\'s own Yoga', async () => {
    const daemon = await startDaemon();
    const bridge = await connect({ socket: daemon.socket });
    try {
      const rn = await attachReactNative(bridge, { renderer: RENDERER, react: react.React, scheduler: react.scheduler, layout: true });
      assert.equal(rn._layoutState.enabled, true, rn._layoutState.reason ?? '');
      const h = react.React.createElement;
      const frames = {};
      const record = (name) => (event) => (frames[name] = { ...event.nativeEvent.layout });
      const root = await rn.render(
        h(rn.View, { style: { flex: 1, flexDirection: 'row', padding: 10 }, onLayout: record('row') },
          h(rn.View, { style: { width: 100 }, onLayout: record('a') }),
          h(rn.View, { style: { flex: 1 }, onLayout: record('b') })),
      );
      await rn.settled?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(frames.row, { x: 0, y: 0, width: 390, height: 844 });
      assert.deepEqual(frames.a, { x: 10, y: 10, width: 100, height: 824 });
      assert.deepEqual(frames.b, { x: 110, y: 10, width: 270, height: 824 });
      await root.unmount();
    } finally {
      await bridge.close();
      await daemon.stop();
    }
  });
});
