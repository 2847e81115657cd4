// The example package's own Swift component (Chart), rendered by React Native's renderer through the example's
// own daemon (ChartDaemon): live when $BRIDGED_RN_RENDERER names ReactNativeRenderer-dev.js, and always from its
// recorded trace (react-native.trace.json).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../../../js-client/index.js';
import { attachReactNative, playTrace } from '../../../js-client/lib/react-native.js';
import { waitForSocket } from '../../../js-client/test-support/daemon.js';
import { byComponent, checkTrace, find, loadReact, readTrace, runLive, runRecorded, tree } from '../../../js-client/test-support/react-native.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const binary = process.env.CHART_DAEMON ?? here('../.build/debug/ChartDaemon');
const RENDERER = process.env.BRIDGED_RN_RENDERER;
const react = loadReact();
const dir = mkdtempSync(join(tmpdir(), 'chart-rn-'));
const socket = join(dir, 'chart.sock');
let daemon;

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
      const chart = find(await tree(bridge, root()), byComponent('Chart'));
      assert.equal(chart.render, 'Chart Sales points=3 width=2.0');
      assert.equal(find(await tree(bridge, root()), byComponent('RCTText')).render, 'nothing selected');
    },
    async selected({ bridge, root }) {
      const chart = find(await tree(bridge, root()), byComponent('Chart'));
      assert.equal(chart.props.selectedIndex, 1);
      assert.deepEqual(chart.commands, [{ name: 'selectPoint', args: [1, true] }]);
      assert.equal(find(await tree(bridge, root()), byComponent('RCTText')).render, 'point 1');
    },
  },
};

before(async () => {
  daemon = spawn(binary, ['--socket', socket], { stdio: 'ignore' });
  await waitForSocket(socket, daemon);
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
    const steps = await runLive(scenario, { bridge, attachReactNative, ...react, renderer: RENDERER });
    checkTrace(here('react-native.trace.json'), steps, { renderer: RENDERER, scenario: scenario.name });
  } finally {
    await bridge.close();
  }
});

test('Chart, from its recorded trace', async () => {
  const steps = readTrace(here('react-native.trace.json'));
  assert.ok(steps, 'no recorded trace: run the live test with BRIDGED_RN_RENDERER');
  const bridge = await connect({ socket });
  try {
    await runRecorded(scenario, steps, { bridge, playTrace });
  } finally {
    await bridge.close();
  }
});
