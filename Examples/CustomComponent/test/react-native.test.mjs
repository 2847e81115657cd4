// The example package's own Swift component (Chart), rendered by React Native's renderer through the example's
// own daemon (ChartDaemon): live when $BRIDGED_RN_RENDERER names ReactNativeRenderer-dev.js, and always from its
// recorded trace (react-native.trace.json). It uses only the client's public API ('bridged-client', installed in
// node_modules: `make test-example` links it there), as a test of your own package would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from 'bridged-client';
import { attachReactNative, playTrace } from 'bridged-client/react-native';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const binary = process.env.CHART_DAEMON ?? here('../.build/debug/ChartDaemon');
const RENDERER = process.env.BRIDGED_RN_RENDERER;
const TRACE = here('react-native.trace.json');
const dir = mkdtempSync(join(tmpdir(), 'chart-rn-'));
const socket = join(dir, 'chart.sock');
let daemon;

/** React and scheduler: the app's own, else Debian's (/usr/share/nodejs); null without React (live skipped). */
function loadReact() {
  const require = createRequire(import.meta.url);
  for (const base of ['', '/usr/share/nodejs/']) {
    try {
      return { React: require(require.resolve(base + 'react')), scheduler: require(require.resolve(base + 'scheduler')) };
    } catch {
      // next
    }
  }
  return null;
}
const react = loadReact();

/** The daemon's view `tag` and its subtree: {tag, component, props, render, commands, children}. */
async function tree(bridge, tag) {
  const view = await bridge.request({ op: 'inspect', tag });
  const children = [];
  for (const child of view.children) children.push(await tree(bridge, child));
  return { tag, component: view.component, props: view.props, render: view.render, commands: view.commands, children };
}

/** The first node of a tree of this component. */
function find(node, component) {
  if (node.component === component) return node;
  for (const child of node.children) {
    const found = find(child, component);
    if (found) return found;
  }
  return undefined;
}

const scenario = {
  name: 'chart',
  async live({ rn, React, h, render, checkpoint }) {
    const Chart = rn.requireNativeComponent('Chart');
    const chart = React.createRef();
    const seen = [];
    function Screen() {
      const [selected, setSelected] = React.useState(-1);
      return h(
        rn.View,
        { testID: 'screen', onSelect: (e) => seen.push(['view', e.nativeEvent.index]) },
        h(rn.Text, null, selected < 0 ? 'nothing selected' : `point ${selected}`),
        h(Chart, {
          ref: chart,
          title: 'Sales',
          lineWidth: 2,
          points: [{ x: 0, y: 1 }, { x: 1, y: 3 }, { x: 2, y: 2 }],
          selectedIndex: selected,
          onSelect: (e) => {
            seen.push(['chart', e.nativeEvent.index, e.nativeEvent.point]);
            setSelected(e.nativeEvent.index);
          },
        }),
      );
    }
    await render(h(Screen));
    await checkpoint('mounted');
    rn.dispatchCommand(chart.current, 'selectPoint', [1, true]);
    await rn.settled();
    assert.deepEqual(seen, [['chart', 1, { x: 1, y: 3 }], ['view', 1]]);
    await checkpoint('selected');
  },
  checks: {
    async mounted({ bridge, root }) {
      const chart = find(await tree(bridge, root()), 'Chart');
      assert.equal(chart.render, 'Chart Sales points=3 width=2.0');
      assert.equal(find(await tree(bridge, root()), 'RCTText').render, 'nothing selected');
    },
    async selected({ bridge, root }) {
      const chart = find(await tree(bridge, root()), 'Chart');
      assert.equal(chart.props.selectedIndex, 1);
      assert.deepEqual(chart.commands, [{ name: 'selectPoint', args: [1, true] }]);
      assert.equal(find(await tree(bridge, root()), 'RCTText').render, 'point 1');
    },
  },
};

before(async () => {
  daemon = spawn(binary, ['--socket', socket], { stdio: 'ignore' });
  for (let attempt = 0; ; attempt++) {
    try {
      await (await connect({ socket })).close({ keepSession: true });
      return;
    } catch (err) {
      if (attempt > 400 || daemon.exitCode !== null) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
});
after(async () => {
  // The daemon saves its state file beside its socket as it exits: the folder goes once it has.
  if (daemon && daemon.exitCode === null && daemon.signalCode === null) {
    const exited = once(daemon, 'exit');
    daemon.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

test("Chart, live with React Native's renderer", { skip: !RENDERER ? 'BRIDGED_RN_RENDERER names no renderer' : !react && 'no React' }, async () => {
  const bridge = await connect({ socket });
  try {
    const trace = [];
    const rn = await attachReactNative(bridge, { renderer: RENDERER, react: react.React, scheduler: react.scheduler, trace });
    let root;
    await scenario.live({
      rn,
      React: react.React,
      h: react.React.createElement,
      render: async (element) => (root = await rn.render(element)),
      checkpoint: async (name) => {
        await rn.settled();
        trace.push({ checkpoint: name });
        await scenario.checks[name]({ bridge, root: () => root.tag });
      },
    });
    await rn.detach();
    // The trace must equal the committed one (BRIDGED_RN_UPDATE_TRACES=1, or none committed yet, writes it).
    const steps = JSON.parse(JSON.stringify(trace));
    if (!existsSync(TRACE) || process.env.BRIDGED_RN_UPDATE_TRACES === '1') {
      writeFileSync(TRACE, JSON.stringify({ what: `Chart rendered by ${RENDERER}`, steps }, null, 1) + '\n');
    } else {
      assert.deepEqual(steps, JSON.parse(readFileSync(TRACE, 'utf8')).steps, `the live run no longer produces ${TRACE}`);
    }
  } finally {
    await bridge.close();
  }
});

test('Chart, from its recorded trace', async () => {
  assert.ok(existsSync(TRACE), 'no recorded trace: run the live test with BRIDGED_RN_RENDERER');
  const { steps } = JSON.parse(readFileSync(TRACE, 'utf8'));
  const rootTag = steps.find((step) => 'root' in step).root;
  const bridge = await connect({ socket });
  try {
    let root;
    await playTrace(bridge, steps, {
      onCheckpoint: (name, native) => scenario.checks[name]({ bridge, root: () => (root ??= native.daemonTag(rootTag)) }),
    });
  } finally {
    await bridge.close();
  }
});
