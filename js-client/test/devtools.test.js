// `bridged-client devtools`: the page in a real headless Chromium, against a real daemon driven by a client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { connect } from '../index.js';
import { startDevtools } from '../lib/devtools.js';
import { startDaemon } from '../test-support/daemon.js';
import { startDevtoolsCommand } from '../test-support/devtools.js';
import { HeadlessPage, findChromium } from '../test-support/chromium.js';
import { SHARED_NODE_MODULES } from '../test-support/react-native-app.js';

const CHROMIUM = findChromium();
/** React Native 0.72.6's Yoga sources (the shared test data): the screen test's session lays its views out. */
const YOGA = path.join(SHARED_NODE_MODULES, 'react-native', 'ReactCommon', 'yoga');
const screenSkip = !CHROMIUM
  ? 'no chromium on this machine (make test installs it where it can)'
  : existsSync(YOGA) ? false : `no Yoga sources at ${YOGA}`;

let daemon;
let bridge;
let devtools;
let url;
const received = [];

/** GET `path` from the devtools server with the given Host header; resolves the status code. */
function get(path, host) {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every view in pre-order from the roots, as `inspect` reports them. */
async function inspectTree(roots) {
  const views = [];
  const visit = async (tag) => {
    const view = await bridge.request({ op: 'inspect', tag });
    views.push(view);
    for (const child of view.children) await visit(child);
  };
  for (const root of roots) await visit(root);
  return views;
}

let root;
let buttons = [];

before(async () => {
  daemon = await startDaemon();
  bridge = await connect({ socket: daemon.socket });
  bridge.on('event', (frame) => received.push(frame));
  root = await bridge.create('View', { testID: 'root', onCountChangeCapture: () => {} });
  for (let i = 0; i < 3; i++) {
    const group = await bridge.create('View', { testID: `group-${i}` }, { parent: root });
    for (let j = 0; j < 2; j++) {
      buttons.push(await bridge.create('SwiftUIButton', { title: `Button ${i}.${j}`, onCountChange: () => {} }, { parent: group }));
    }
  }
  await buttons[0].command('press');
  ({ child: devtools, url } = await startDevtoolsCommand(daemon.socket));
});

after(async () => {
  devtools?.kill('SIGTERM');
  await bridge?.close();
  await daemon?.stop();
});

describe('bridged-client devtools', () => {
  test('refuses a request without its token, and one with a foreign Host (DNS rebinding)', async () => {
    const { port, search } = new URL(url);
    assert.equal(await get(`/${search}`, `127.0.0.1:${port}`), 200);
    assert.equal(await get(`/${search}`, `localhost:${port}`), 200);
    assert.equal(await get(`/api/sessions${search}`, `localhost:${port}`), 200);
    assert.equal(await get('/', `127.0.0.1:${port}`), 403);
    assert.equal(await get('/devtools.js', `127.0.0.1:${port}`), 403);
    assert.equal(await get('/api/sessions?token=0123456789abcdef0123456789abcdef', `127.0.0.1:${port}`), 403);
    assert.equal(await get(`/${search}`, `evil.example:${port}`), 403);
    assert.equal(await get(`/api/stream${search}`, `rebind.attacker.test`), 403);
  });

  test(
    'the page shows the command log a view received before the page opened (the snapshot\'s views[].commands)',
    { skip: CHROMIUM ? false : 'no chromium on this machine (make test installs it where it can)', timeout: 120_000 },
    async () => {
      const pressed = buttons[0];
      const { commands } = await pressed.inspect();
      assert.deepEqual(commands, [{ name: 'press', args: [] }], 'pressed before the devtools started');
      const page = await HeadlessPage.open(CHROMIUM);
      try {
        await page.navigate(`${url}&tag=${pressed.tag}`);
        // The whole detail (its command log too) is drawn at once.
        await page.waitFor(`document.querySelector('#detail h2')?.dataset.tag === '${pressed.tag}'`);
        const shown = `[...document.querySelectorAll('#commands tr')].map((r) => [r.children[0].textContent, r.children[1].textContent])`;
        assert.deepEqual(await page.evaluate(shown), commands.map((c) => [c.name, JSON.stringify(c.args)]).reverse());
      } finally {
        await page.close();
      }
    },
  );

  test(
    'a page that falls behind is dropped by the server, reconnects by itself and catches up from a snapshot',
    { skip: CHROMIUM ? false : 'no chromium on this machine (make test installs it where it can)', timeout: 120_000 },
    async () => {
      // A server of its own, with a small bound, in this process: its log says when it dropped the page.
      const logged = [];
      const server = await startDevtools({ socket: daemon.socket, maxStreamBytes: 64 * 1024, log: (line) => logged.push(line) });
      const view = await bridge.create('View', { testID: 'behind-0' });
      const page = await HeadlessPage.open(CHROMIUM);
      try {
        await page.navigate(`${server.url}&session=${bridge.session}&tag=${view.tag}`);
        const testID = `document.querySelector('#props tr[data-prop="testID"]')?.children[2].textContent`;
        await page.waitFor(`${testID} === '"behind-0"'`);
        // The page stops reading: its script is paused in the debugger while the session is busy (once Chromium says
        // it is paused: resumed before that, it answers "Can only perform operation while paused").
        await page.send('Debugger.enable');
        const stopped = new Promise((resolve) => page.on('Debugger.paused', resolve));
        const paused = page.send('Runtime.evaluate', { expression: 'debugger' });
        await stopped;
        const big = 'x'.repeat(100 * 1024);
        let i = 0;
        while (!logged.some((line) => line.includes('dropped'))) {
          assert.ok(++i < 2000, 'the page was never dropped');
          await view.update({ testID: `behind-${i}-${big}` });
        }
        await view.update({ testID: 'caught-up' });
        await page.send('Debugger.resume');
        await paused;
        await page.waitFor(`${testID} === '"caught-up"'`);
        await page.waitFor(`document.querySelector('#status').textContent === 'live'`);
        assert.match(logged.find((line) => line.includes('dropped')), /fresh snapshot/);
      } finally {
        await page.close();
        await server.close();
        await view.delete(); // the next test compares the whole tree
      }
    },
  );

  test(
    'a change of a kind the page does not know (a daemon newer than the page) is shown on the page and thrown',
    { skip: CHROMIUM ? false : 'no chromium on this machine (make test installs it where it can)', timeout: 120_000 },
    async () => {
      const page = await HeadlessPage.open(CHROMIUM);
      try {
        const thrown = [];
        page.on('Runtime.exceptionThrown', ({ exceptionDetails }) => thrown.push(exceptionDetails.exception?.description ?? exceptionDetails.text));
        await page.send('Runtime.enable');
        // The page's event stream is answered here, as a daemon with a change kind no daemon has yet would: a
        // snapshot, then a batch of a known change and an unknown one.
        const created = { tag: 900, component: 'View', props: { testID: 'streamed' }, parent: null, children: [], listeners: {}, commands: [], render: '', renders: 0, stale: false };
        const snapshot = { session: bridge.session, client: null, connected: true, seq: 0, acked: 0, views: [], events: [] };
        const changes = [
          { observe: bridge.session, change: 'created', view: created },
          { observe: bridge.session, change: 'teleported', tag: 900 },
        ];
        const body = `event: snapshot\ndata: ${JSON.stringify(snapshot)}\n\nevent: changes\ndata: ${JSON.stringify(changes)}\n\n`;
        page.on('Fetch.requestPaused', ({ requestId }) => {
          const responseHeaders = [{ name: 'content-type', value: 'text/event-stream' }];
          page.send('Fetch.fulfillRequest', { requestId, responseCode: 200, responseHeaders, body: Buffer.from(body).toString('base64') }).catch(() => {});
        });
        await page.send('Fetch.enable', { patterns: [{ urlPattern: '*/api/stream*' }] });
        await page.navigate(`${url}&session=${bridge.session}`);
        await page.waitFor(`document.querySelector('#failure').hidden === false`);
        assert.match(await page.evaluate(`document.querySelector('#failure').textContent`), /does not know the change "teleported"/);
        assert.match(await page.evaluate(`document.querySelector('#status').textContent`), /^error: a change this page does not know/);
        // The change it knows, in the same batch, is applied.
        await page.waitFor(`document.querySelector('#tree .row[data-tag="900"]') !== null`);
        // And the console has it: thrown from the stream's handler, uncaught (before the page drew it).
        assert.ok(thrown.some((text) => /UnknownChange: .*"teleported"/.test(text)), `thrown: ${JSON.stringify(thrown)}`);
      } finally {
        await page.close();
      }
    },
  );

  test(
    'the page shows the session\'s screen with the selected view outlined at its frame; a click selects the view there',
    { skip: screenSkip, timeout: 180_000 },
    async () => {
      // A session of its own, with layout on (the other tests' session has none): a white screen, a red box on it,
      // a blue view in the box.
      const other = await connect({ socket: daemon.socket });
      const page = await HeadlessPage.open(CHROMIUM);
      try {
        const window = { width: 200, height: 300, scale: 2 };
        const on = await other.request({ op: 'layout', yoga: YOGA, window });
        assert.equal(on.enabled, true);
        const screenRoot = await other.create('RCTView', { backgroundColor: '#ffffff' });
        const box = await other.create(
          'RCTView',
          { backgroundColor: '#ff0000', marginTop: 40, marginLeft: 30, width: 100, height: 50 },
          { parent: screenRoot },
        );
        const inner = await other.create(
          'RCTView',
          { backgroundColor: '#0000ff', marginTop: 20, marginLeft: 50, width: 20, height: 10 },
          { parent: box },
        );
        const boxFrame = (await box.inspect()).layoutInWindow;
        assert.deepEqual(boxFrame, { x: 30, y: 40, width: 100, height: 50 });
        const innerFrame = (await inner.inspect()).layoutInWindow;
        assert.deepEqual(innerFrame, { x: 80, y: 60, width: 20, height: 10 });

        await page.navigate(`${url}&session=${other.session}&tag=${box.tag}`);
        const outlined = `document.querySelector('#screen-outline')`;
        await page.waitFor(`!${outlined}.hidden && ${outlined}.dataset.tag === '${box.tag}'`);
        /** The picture's and the outline's boxes on the page, and how many CSS pixels a point takes. */
        const boxes = async () => {
          const [image, outline] = await page.evaluate(
            `['#screen-image', '#screen-outline'].map((s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })`,
          );
          return { image, outline, zoom: image[2] / window.width };
        };
        const assertOutlined = async (frame) => {
          const { image, outline, zoom } = await boxes();
          assert.ok(Math.abs(image[3] - window.height * zoom) < 0.5, `the picture keeps the window's shape: ${image}`);
          const expected = [image[0] + frame.x * zoom, image[1] + frame.y * zoom, frame.width * zoom, frame.height * zoom];
          for (let i = 0; i < 4; i++) {
            assert.ok(Math.abs(outline[i] - expected[i]) < 0.5, `outline ${outline} at the frame ${JSON.stringify(frame)}: ${expected}`);
          }
        };
        await assertOutlined(boxFrame);

        // The picture is the daemon's drawing of that session: its pixels where the views are.
        const pixel = (x, y) =>
          page.evaluate(`(() => {
            const image = document.querySelector('#screen-image');
            const canvas = document.createElement('canvas');
            canvas.width = image.naturalWidth;
            canvas.height = image.naturalHeight;
            const context = canvas.getContext('2d');
            context.drawImage(image, 0, 0);
            const scale = image.naturalWidth / ${window.width};
            return [...context.getImageData(Math.floor(${x} * scale), Math.floor(${y} * scale), 1, 1).data].slice(0, 3);
          })()`);
        assert.deepEqual(await pixel(10, 10), [255, 255, 255]);
        assert.deepEqual(await pixel(40, 50), [255, 0, 0]);
        assert.deepEqual(await pixel(90, 65), [0, 0, 255]);

        // A click on the blue view (a real mouse click, at its centre) selects it: the daemon's hit-test.
        const { image, zoom } = await boxes();
        const at = { x: image[0] + (innerFrame.x + 10) * zoom, y: image[1] + (innerFrame.y + 5) * zoom };
        for (const type of ['mousePressed', 'mouseReleased']) {
          await page.send('Input.dispatchMouseEvent', { type, ...at, button: 'left', clickCount: 1 });
        }
        await page.waitFor(`document.querySelector('#detail h2')?.dataset.tag === '${inner.tag}'`);
        await page.waitFor(`${outlined}.dataset.tag === '${inner.tag}'`);
        await page.waitFor(`document.querySelector('#tree .row.selected')?.dataset.tag === '${inner.tag}'`);
        assert.match(await page.evaluate('location.search'), new RegExp(`tag=${inner.tag}`));
        await assertOutlined(innerFrame);
        // A click on the red box, beside the blue view, selects the box.
        const onBox = { x: image[0] + (boxFrame.x + 5) * zoom, y: image[1] + (boxFrame.y + 5) * zoom };
        for (const type of ['mousePressed', 'mouseReleased']) {
          await page.send('Input.dispatchMouseEvent', { type, ...onBox, button: 'left', clickCount: 1 });
        }
        await page.waitFor(`${outlined}.dataset.tag === '${box.tag}'`);
        if (process.env.DEVTOOLS_SCREEN_SCREENSHOT) {
          await page.send('Emulation.setDeviceMetricsOverride', { width: 1200, height: 640, deviceScaleFactor: 1, mobile: false });
          await page.waitFor(`document.querySelector('#detail h2')?.dataset.tag === '${box.tag}'`);
          await new Promise((resolve) => setTimeout(resolve, 300)); // the resize's redraw
          await writeFile(process.env.DEVTOOLS_SCREEN_SCREENSHOT, await page.screenshot());
          await page.send('Emulation.clearDeviceMetricsOverride');
        }

        // The session changes: the picture and the outline follow (the box moved right and turned green).
        await box.update({ marginLeft: 60, backgroundColor: '#00ff00' });
        const moved = (await box.inspect()).layoutInWindow;
        assert.equal(moved.x, 60);
        await page.waitFor(`(() => {
          const o = document.querySelector('#screen-outline').getBoundingClientRect();
          const i = document.querySelector('#screen-image').getBoundingClientRect();
          return Math.abs(o.left - (i.left + 60 * i.width / ${window.width})) < 0.5;
        })()`);
        await assertOutlined(moved);
        await page.waitFor(`(() => {
          const image = document.querySelector('#screen-image');
          const canvas = document.createElement('canvas');
          canvas.width = image.naturalWidth;
          canvas.height = image.naturalHeight;
          const context = canvas.getContext('2d');
          context.drawImage(image, 0, 0);
          const scale = image.naturalWidth / ${window.width};
          return context.getImageData(Math.floor(65 * scale), Math.floor(45 * scale), 1, 1).data[1] === 255;
        })()`);
        assert.deepEqual(await pixel(65, 45), [0, 255, 0]);
      } finally {
        await page.close();
        await other.close();
      }
    },
  );

  test(
    'the page shows the session\'s screen as "layout is off" when the session has no layout',
    { skip: CHROMIUM ? false : 'no chromium on this machine (make test installs it where it can)', timeout: 120_000 },
    async () => {
      const page = await HeadlessPage.open(CHROMIUM);
      try {
        await page.navigate(`${url}&session=${bridge.session}`);
        await page.waitFor(`/layout is off in this session/.test(document.querySelector('#screen-empty').textContent)`);
        assert.equal(await page.evaluate(`document.querySelector('#screen').hidden`), true);
      } finally {
        await page.close();
      }
    },
  );

  test(
    'the page shows the tree, the selected view and the live event log as inspect does',
    { skip: CHROMIUM ? false : 'no chromium on this machine (make test installs it where it can)', timeout: 120_000 },
    async () => {
      const page = await HeadlessPage.open(CHROMIUM);
      try {
        const selected = buttons[4];
        // A deep link: the single live session is chosen, the view by its tag.
        await page.navigate(`${url}&tag=${selected.tag}`);
        const expected = await inspectTree([root.tag]);
        const treeRows = `[...document.querySelectorAll('#tree .row')].map((r) => [Number(r.dataset.tag), r.dataset.component])`;
        await page.waitFor(`${treeRows}.length === ${expected.length}`);
        assert.deepEqual(await page.evaluate(treeRows), expected.map((v) => [v.tag, v.component]));
        // Laid out one under the other, indented by depth.
        const boxes = await page.evaluate(
          `[...document.querySelectorAll('#tree .row')].map((r) => [r.getBoundingClientRect().top, r.querySelector('.toggle').getBoundingClientRect().left])`,
        );
        for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i][0] > boxes[i - 1][0], `row ${i} is below row ${i - 1}`);
        assert.ok(boxes[1][1] > boxes[0][1], 'a child is indented under its parent');
        assert.match(await page.evaluate(`document.querySelector('#session-picker').value`), new RegExp(bridge.session));

        // Changes while the page is open: props, presses, a render.
        await selected.update({ count: 41, title: 'Changed' });
        for (const button of buttons) await button.command('press');
        const inspected = await selected.inspect();
        const lastSeq = received.at(-1).seq;
        await page.waitFor(`document.querySelector('#events tr')?.dataset.seq === '${lastSeq}'`);
        await page.waitFor(`document.querySelector('#renders')?.textContent === '${inspected.renders}'`);
        // The commands reach the page as changes of their own, not always before the events and renders waited for;
        // the props change too (a CI run read the props before it, after the renders and commands).
        await page.waitFor(`document.querySelectorAll('#commands tr').length === ${inspected.commands.length}`);
        await page.waitFor(`document.querySelector('#props tr[data-prop="title"] .value')?.textContent === '"Changed"'`);

        const props = await page.evaluate(
          `[...document.querySelectorAll('#props tbody tr')].map((r) => [r.dataset.prop, r.children[1].textContent, r.children[2].textContent])`,
        );
        const types = bridge.components.SwiftUIButton.props;
        assert.deepEqual(
          props,
          Object.entries(inspected.props).map(([name, value]) => [name, types[name].type, JSON.stringify(value)]),
        );
        assert.equal(await page.evaluate(`document.querySelector('#render').textContent`), inspected.render);
        assert.equal(await page.evaluate(`document.querySelector('#detail h2').dataset.tag`), String(selected.tag));
        assert.deepEqual(
          await page.evaluate(`[...document.querySelectorAll('#listeners tr')].map((r) => r.textContent)`),
          ['capture—', 'bubblecountChange'],
        );
        assert.deepEqual(
          await page.evaluate(`[...document.querySelectorAll('#commands tr')].map((r) => r.children[0].textContent)`),
          inspected.commands.map((c) => c.name).reverse(),
        );

        // The event log: every event the client received, newest first, with its path.
        const logged = await page.evaluate(
          `[...document.querySelectorAll('#events tr')].map((r) => [Number(r.dataset.seq), Number(r.dataset.target), r.children[4].textContent])`,
        );
        assert.deepEqual(
          logged,
          received
            .slice()
            .reverse()
            .map((e) => [e.seq, e.target, e.path.map((p) => `${p.tag} ${p.phase}`).join(' → ')]),
        );

        // Filtering by tag, then clicking an entry selects its target.
        const target = buttons[0].tag;
        await page.evaluate(`(() => { const f = document.querySelector('#filter-tag'); f.value = '${target}'; f.dispatchEvent(new Event('input')); })()`);
        await page.waitFor(`[...document.querySelectorAll('#events tr')].every((r) => r.dataset.target === '${target}')`);
        assert.equal(await page.evaluate(`document.querySelectorAll('#events tr').length`), 2);
        await page.evaluate(`document.querySelector('#events tr').click()`);
        await page.waitFor(`document.querySelector('#tree .row.selected')?.dataset.tag === '${target}'`);
        assert.match(await page.evaluate('location.search'), new RegExp(`tag=${target}`));
        await page.evaluate(`(() => { const f = document.querySelector('#filter-tag'); f.value = ''; f.dispatchEvent(new Event('input')); })()`);

        if (process.env.DEVTOOLS_SCREENSHOT) {
          await page.evaluate(`document.querySelector('#tree .row[data-tag="${selected.tag}"]').click()`);
          await page.waitFor(`document.querySelector('#detail h2')?.dataset.tag === '${selected.tag}'`);
          await writeFile(process.env.DEVTOOLS_SCREENSHOT, await page.screenshot());
        }

        // The daemon stops: the page says so; it comes back with its state file: the page reconnects by itself.
        daemon.child.kill('SIGTERM');
        await page.waitFor(`document.querySelector('#status').textContent.includes('daemon not running')`);
        await daemon.restart();
        await page.waitFor(`document.querySelector('#status').textContent === 'live'`);
        await page.waitFor(`${treeRows}.length === ${expected.length}`);
      } finally {
        await page.close();
      }
    },
  );
});
