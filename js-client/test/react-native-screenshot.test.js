// app.screenshot(): the daemon draws the app's screen with Cairo and Pango from its tree (protocol.md,
// "screenshot"); pixels at known points of a known screen, the same picture on paper and on Fabric,
// comparePng's diff image, and the `bridged-client screenshot` command.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appSkip, makeApp, useTestApp } from '../test-support/react-native-app.js';
import { startDaemon } from '../test-support/daemon.js';
import { main } from '../lib/cli.js';
import { comparePng, decodePng, encodePng } from '../lib/react-native.js';

const folder = mkdtempSync(path.join(tmpdir(), 'bridged-screenshot-'));
after(() => rmSync(folder, { recursive: true, force: true }));
/** Each architecture's picture of the same screen. */
const pictures = {};

/** The pixel at the point (`x`, `y`) of the window, in points: `[r, g, b, a]`. */
function at(picture, scale, x, y) {
  const o = (Math.floor(y * scale) * picture.width + Math.floor(x * scale)) * 4;
  return [...picture.data.subarray(o, o + 4)];
}

function near(got, want, within = 2) {
  return got.length === 4 && got[3] === 255 && want.every((c, i) => Math.abs(got[i] - c) <= within);
}

for (const architecture of ['paper', 'fabric'])
  describe(`app.screenshot() (${architecture})`, { skip: appSkip }, () => {
    let app;
    let React;
    useTestApp({ architecture }, (context) => ({ app, React } = context));
    const h = (...args) => React.createElement(...args);

    function Screen() {
      const { View, Text } = app.require('react-native');
      const box = (style, ...children) => h(View, { style: { position: 'absolute', ...style } }, ...children);
      return h(
        View,
        { style: { flex: 1, backgroundColor: 'white' } },
        box({ left: 20, top: 40, width: 100, height: 100, backgroundColor: 'red' }),
        box({ left: 150, top: 40, width: 80, height: 80, backgroundColor: 'white', borderWidth: 6, borderColor: 'blue' }),
        box({ left: 250, top: 40, width: 60, height: 60, backgroundColor: '#00ff00', opacity: 0.5 }),
        box(
          { left: 20, top: 160, width: 50, height: 50, overflow: 'hidden' },
          h(View, { style: { width: 200, height: 200, backgroundColor: 'black' } }),
        ),
        box({ left: 20, top: 240, width: 60, height: 60, backgroundColor: 'red' }),
        box({ left: 50, top: 240, width: 60, height: 60, backgroundColor: 'blue' }),
        h(Text, { testID: 'title', style: { position: 'absolute', left: 20, top: 320, fontSize: 40, color: '#ff0000' } }, 'Hello'),
      );
    }

    test("a PNG of the window's size times its scale, with the screen's pixels where its views are", async () => {
      const screen = await app.render(h(Screen));
      const png = await app.screenshot();
      pictures[architecture] = png;
      const picture = decodePng(png);
      const scale = app.window.scale;
      assert.equal(picture.width, Math.ceil(app.window.width * scale));
      assert.equal(picture.height, Math.ceil(app.window.height * scale));
      const pixel = (x, y) => at(picture, scale, x, y);
      assert.ok(near(pixel(30, 50), [255, 0, 0]), `red at (30, 50): ${pixel(30, 50)}`);
      assert.ok(near(pixel(10, 30), [255, 255, 255]), 'white outside it');
      assert.ok(near(pixel(152, 80), [0, 0, 255]), `the border: ${pixel(152, 80)}`);
      assert.ok(near(pixel(190, 80), [255, 255, 255]), 'inside the border');
      assert.ok(near(pixel(280, 70), [128, 255, 128]), `half-transparent green on white: ${pixel(280, 70)}`);
      assert.ok(near(pixel(40, 180), [0, 0, 0]), 'the clipped child inside its parent');
      assert.ok(near(pixel(100, 180), [255, 255, 255]), `clipped outside: ${pixel(100, 180)}`);
      assert.ok(near(pixel(60, 270), [0, 0, 255]), 'the later sibling above');
      // The text's glyphs, red, inside its frame (measured with Inter by the daemon), and nothing red below it.
      const title = screen.getByTestId('title');
      const { x, y, width, height } = title.layout ?? (await app.bridge.request({ op: 'inspect', tag: title.tag })).layout;
      assert.ok(width > 80 && width < 120 && height > 45 && height < 52, `"Hello" at 40 pt: ${width} x ${height}`);
      let red = 0;
      for (let py = y; py < y + height; py += 0.5) for (let px = x; px < x + width; px += 0.5) if (near(pixel(px, py), [255, 0, 0], 40)) red++;
      assert.ok(red > 300, `red glyph pixels: ${red}`);
      await screen.unmount();
    });

    test('another scale asked for gives another size', async () => {
      const screen = await app.render(h(Screen));
      const picture = decodePng(await app.screenshot({ scale: 1 }));
      assert.equal(picture.width, app.window.width);
      assert.ok(near(at(picture, 1, 30, 50), [255, 0, 0]));
      await screen.unmount();
    });
  });

describe('the same screen on paper and on Fabric', { skip: appSkip }, () => {
  test('gives the same picture, pixel for pixel', (t) => {
    if (!pictures.paper || !pictures.fabric) return t.skip('a picture of each architecture is needed');
    const file = path.join(folder, 'paper.png');
    writeFileSync(file, pictures.paper);
    const result = comparePng(pictures.fabric, file);
    assert.equal(result.match, true, result.message);
    assert.equal(result.differentPixels, 0);
  });
});

describe('comparePng', () => {
  test('writes the expected file when missing, then a diff image and the actual picture when they differ', (t) => {
    if (!pictures.paper) return t.skip('needs a screenshot');
    const expected = path.join(folder, 'screens', 'home.png');
    assert.equal(comparePng(pictures.paper, expected).created, true);
    assert.equal(comparePng(pictures.paper, expected).match, true);
    // A picture with a block of other pixels.
    const picture = decodePng(pictures.paper);
    for (let y = 0; y < 10; y++) for (let x = 0; x < 20; x++) picture.data.fill(0, (y * picture.width + x) * 4, (y * picture.width + x) * 4 + 3);
    const result = comparePng(encodePng(picture), expected, { tolerance: 8 });
    assert.equal(result.match, false);
    assert.equal(result.differentPixels, 200);
    assert.ok(existsSync(result.diffFile) && existsSync(result.actualFile));
    const diff = decodePng(readFileSync(result.diffFile));
    assert.deepEqual(at(diff, 1, 5, 5), [255, 0, 0, 255], 'a differing pixel is red');
    assert.notDeepEqual(at(diff, 1, 100, 100), [255, 0, 0, 255]);
    assert.match(result.message, /200 pixels differ by more than 8/);
    // Within the tolerance, or with enough pixels allowed, they match.
    assert.equal(comparePng(encodePng(picture), expected, { maxDiffPixels: 200 }).match, true);
  });
});

describe('bridged-client screenshot', { skip: appSkip }, () => {
  test("opens the app in a session of its own, renders the screen and writes the daemon's picture of it", async () => {
    const daemon = await startDaemon();
    const app = makeApp();
    let output = '';
    const sink = { write: (text) => (output += text) };
    try {
      const out = path.join(folder, 'cli.png');
      const args = ['screenshot', '--socket', daemon.socket, '--app', app.root, '--screen', './src/screens/LoginScreen'];
      const code = await main([...args, '--out', out, '--scale', '2'], { stdout: sink, stderr: sink });
      assert.equal(code, 0, output);
      assert.match(output, /wrote .*cli\.png/);
      const picture = decodePng(readFileSync(out));
      assert.equal(picture.width, 780, "openApp's window at scale 2");
      assert.equal(picture.height, 1688);
      // The screen's texts: dark pixels on it.
      let dark = 0;
      for (let i = 0; i < picture.data.length; i += 4) if (picture.data[i] < 80 && picture.data[i + 1] < 80 && picture.data[i + 2] < 80) dark++;
      assert.ok(dark > 100, `dark pixels: ${dark}`);
      // Without --out it says what is missing.
      output = '';
      assert.equal(await main(args, { stdout: sink, stderr: sink }), 2);
      assert.match(output, /needs --out FILE/);
    } finally {
      await daemon.stop();
      app.remove();
    }
  });
});
