// Queries answer from the daemon's tree as it is now (issue: stale queries): a JavaScript-driven animation polled
// by a plain loop, a timer's state change, an unmount, all seen with no settled(); and what React Native's
// InitializeCore gives an app: `alert`, and rejections that only warn.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { appSkip, useTestApp } from '../test-support/react-native-app.js';

for (const architecture of ['paper', 'fabric'])
describe(`openApp: live queries and InitializeCore's globals (${architecture})`, { skip: appSkip }, () => {
  let bridge;
  let app;
  let React;
  const context = useTestApp({ architecture }, (ready) => ({ bridge, app, React } = ready));
  const h = (...args) => React.createElement(...args);
  const LiveScreen = () => app.require('./src/screens/LiveScreen').default;

  test('an animation frame and a timer reach the next query, polled by a plain loop', async () => {
    const s = await app.render(h(LiveScreen()));
    const opacity = () => s.getByTestId('fading').props.opacity;
    assert.ok(opacity() < 1, `the animation has not ended at first (opacity ${opacity()})`);
    let polls = 0;
    while (opacity() !== 1) {
      assert.ok(++polls < 500, `the animation's end never reached the queries (opacity ${opacity()})`);
      await sleep(10);
    }
    while (s.queryByText('later') === null) {
      assert.ok(++polls < 1000, "the timer's state change never reached the queries");
      await sleep(10);
    }
    assert.equal(s.queryByText('soon'), null);
    const daemon = await bridge.request({ op: 'inspect', tag: s.getByTestId('fading').tag });
    assert.equal(daemon.props.opacity, 1, "the query's value is the daemon's");
    await s.unmount();
  });

  test("LogBox's notifications are not loaded: LogBox is installed by InitializeCore alone, which is not run", async () => {
    const s = await app.render(h(LiveScreen()));
    const container = app.require('react-native/Libraries/LogBox/LogBoxNotificationContainer');
    assert.equal(container.default(), null, 'the stand-in renders nothing, as the container with no log does');
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    assert.ok(loaded.some((file) => /[\\/]react-native[\\/]Libraries[\\/]ReactNative[\\/]AppContainer\.js$/.test(file)));
    assert.equal(loaded.filter((file) => /[\\/]LogBox[\\/]UI[\\/]/.test(file)).length, 0, "LogBox's UI modules");
    await s.unmount();
  });

  test('after unmount, queries find nothing, as the daemon holds nothing', async () => {
    const s = await app.render(h(LiveScreen()));
    const tag = s.getByText('Load').tag;
    await s.unmount();
    assert.equal(s.queryByText('Load'), null);
    assert.equal(s.toJSON(), null);
    await assert.rejects(bridge.request({ op: 'inspect', tag }), { code: 'unknown_tag' });
  });

  test("virtual time: a long press's timer runs when the hold is due, with no sleeping", async () => {
    assert.equal(app.time, 'virtual');
    const s = await app.render(h(LiveScreen()));
    const before = app.timersRunEarly;
    await app.longPress(s.getByText('not held'), { duration: 1000 });
    assert.ok(s.getByText('not held'), 'a hold shorter than delayLongPress is no long press');
    await app.longPress(s.getByText('not held'), { duration: 2500 });
    assert.ok(s.getByText('held'));
    assert.ok(app.timersRunEarly >= before + 2, `the long-press and press-out timers ran early (${app.timersRunEarly - before})`);
    await s.unmount();
  });

  test("a failed fetch reaches the app's alert, as InitializeCore's setUpAlert defines it", async () => {
    const s = await app.render(h(LiveScreen()));
    assert.equal(typeof app.global.alert, 'function');
    assert.equal(app.global.navigator.product, 'ReactNative');
    await app.press(s.getByText('Load'));
    let polls = 0;
    while (app.alerts().length === 0) {
      assert.ok(++polls < 500, 'no alert was shown');
      await sleep(10);
    }
    const [shown] = app.alerts();
    assert.equal(shown.title, 'Alert');
    assert.match(shown.message, /fetch failed|ECONNREFUSED/);
    await app.pressAlertButton('OK');
    await s.unmount();
  });

  test("the live tree is the daemon's: each view's set props, parent and children, as another observer's snapshot has them", async () => {
    // The app's own observation is tree-only (LiveTree.observe): a created view comes with only its props not at
    // their default, and no frame of a subscription, command, event or render comes at all.
    // It observes with `grouped: true` too: a request's changes come as one frame, each change an array, read here as
    // the frames they stand for.
    const frames = [];
    let single = 0;
    const onChange = (frame) => {
      if (!Array.isArray(frame.tree)) return void (single++, frames.push(frame));
      for (const [change, ...rest] of frame.tree) {
        if (change === 'created') {
          const [tag, component, props, parent, children, ...index] = rest;
          frames.push({ change, view: { tag, component, props, parent, children }, ...(index.length ? { index: index[0] } : {}) });
        } else if (change === 'updated') frames.push({ change, tag: rest[0], props: rest[1] });
        else if (change === 'moved') frames.push({ change, tag: rest[0], children: rest[1] });
        else if (change === 'deleted') frames.push({ change, tags: rest[0] });
        else frames.push({ change, frames: rest[0] });
      }
    };
    bridge.on('change', onChange);
    const s = await app.render(h(LiveScreen()));
    while (s.queryByText('later') === null || s.getByTestId('fading').props.opacity !== 1) await sleep(10);
    await app.longPress(s.getByText('not held'), { duration: 2500 });
    assert.ok(s.getByText('held'));
    bridge.off('change', onChange);
    assert.equal(single, 0, 'a change came in a frame of its own');
    const kinds = new Set(frames.map((f) => f.change));
    assert.ok(kinds.has('created') && kinds.has('updated'), [...kinds].join());
    for (const kind of ['subscribed', 'command', 'event', 'render']) assert.ok(!kinds.has(kind), `a ${kind} frame came`);
    const created = frames.filter((f) => f.change === 'created').map((f) => f.view);
    assert.deepEqual(created.flatMap((view) => Object.keys(view).filter((k) => !['tag', 'component', 'props', 'parent', 'children'].includes(k))), []);
    assert.deepEqual(created.flatMap((view) => Object.keys(view.props).filter((k) => view.props[k] === null)), [], 'a prop at its default was sent');
    // Nor one at the default hello's components give it (the live tree fills those in: compared below).
    const atDefault = created.flatMap((view) =>
      Object.entries(view.props)
        .filter(([k, value]) => JSON.stringify(value) === JSON.stringify(app.native.components[view.component]?.props?.[k]?.default))
        .map(([k]) => `${view.component}.${k}`),
    );
    assert.deepEqual(atDefault, [], 'a prop at its hello default was sent');
    assert.ok(created.some((view) => view.component === 'RCTText'), 'a Text was created');

    const { connect } = await import('../index.js');
    const other = await connect({ socket: context.daemon.socket });
    try {
      const snapshot = await other.request({ op: 'observe', session: bridge.session });
      const set = (props) => Object.fromEntries(Object.entries(props).filter(([, value]) => value !== null));
      const daemon = new Map(snapshot.views.map((v) => [v.tag, { component: v.component, props: set(v.props), parent: v.parent, children: v.children }]));
      const live = new Map([...app._liveTree.views].map(([tag, v]) => [tag, { component: v.component, props: v.props, parent: v.parent, children: v.children }]));
      assert.ok(daemon.size > 5, `${daemon.size} views`);
      assert.deepEqual(live, daemon);
    } finally {
      await other.close();
    }
    await s.unmount();
  });

  test('an unhandled rejection warns with its stack, is kept, and the process lives on', async () => {
    // In a process of its own, as a team's script runs: node:test itself fails a file on any unhandled rejection.
    const script = `
      import { connect } from ${JSON.stringify(new URL('../index.js', import.meta.url).href)};
      import { openApp } from ${JSON.stringify(new URL('../lib/react-native.js', import.meta.url).href)};
      const bridge = await connect({ socket: process.env.SOCKET });
      const app = await openApp(bridge, { root: process.env.ROOT, architecture: process.env.ARCH, cache: process.env.CACHE });
      const React = app.require('react');
      const s = await app.render(React.createElement(app.require('./src/screens/LiveScreen').default));
      await app.press(s.getByText('Forget'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      console.log(JSON.stringify(app.unhandledRejections().map(({ message, stack }) => ({ message, stack }))));
      await app.close();
      await bridge.close();
    `;
    const { execFile } = await import('node:child_process');
    const { TEST_CACHE } = await import('../test-support/react-native-app.js');
    const result = await new Promise((resolve) => {
      const child = execFile(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, SOCKET: context.daemon.socket, ROOT: app.root, ARCH: architecture, CACHE: TEST_CACHE },
      }, (error, stdout, stderr) => resolve({ code: error?.code ?? 0, stdout, stderr }));
      child.stdin?.end();
    });
    assert.equal(result.code, 0, `the process ended with ${result.code}: ${result.stderr}`);
    const [rejection] = JSON.parse(result.stdout.trim().split('\n').at(-1));
    assert.equal(rejection.message, 'nobody handles this');
    assert.match(rejection.stack, /LiveScreen/);
    assert.match(result.stderr, /Possible Unhandled Promise Rejection \(id: 0\):\nError: nobody handles this/);
  });
});
