// Test support: headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe),
// with node: built-ins only. Messages are JSON, each ended by a NUL byte: commands on fd 3, answers on fd 4.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findOnPath } from '../lib/spawn.js';

/** The Chromium binary: $CHROMIUM, else chromium or chromium-browser on PATH; undefined when there is none. */
export function findChromium() {
  return process.env.CHROMIUM ?? findOnPath('chromium') ?? findOnPath('chromium-browser') ?? findOnPath('google-chrome');
}

/** A headless browser with one page. */
export class HeadlessPage {
  #child;
  #dir;
  #nextId = 1;
  #pending = new Map();
  #session = null;
  #buffer = Buffer.alloc(0);
  /** DevTools protocol event name → listeners (`on`). */
  #listeners = new Map();

  static async open(binary, { width = 1280, height = 800 } = {}) {
    const page = new HeadlessPage();
    page.#dir = await mkdtemp(join(tmpdir(), 'bridged-chromium-'));
    page.#child = spawn(
      binary,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--no-first-run',
        '--no-default-browser-check',
        '--remote-debugging-pipe',
        `--user-data-dir=${page.#dir}`,
        `--window-size=${width},${height}`,
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
    );
    page.#child.stdio[4].on('data', (chunk) => page.#read(chunk));
    page.#child.stdio[3].on('error', () => {});
    const { targetId } = await page.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await page.send('Target.attachToTarget', { targetId, flatten: true });
    page.#session = sessionId;
    await page.send('Page.enable');
    await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    return page;
  }

  #read(chunk) {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    let end;
    while ((end = this.#buffer.indexOf(0)) !== -1) {
      const message = JSON.parse(this.#buffer.subarray(0, end).toString('utf8'));
      this.#buffer = this.#buffer.subarray(end + 1);
      if (message.id === undefined) {
        for (const listener of this.#listeners.get(message.method) ?? []) listener(message.params);
        continue;
      }
      const waiting = this.#pending.get(message.id);
      if (!waiting) continue;
      this.#pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message}`));
      else waiting.resolve(message.result);
    }
  }

  /** Sends a DevTools protocol command (to the page once attached) and resolves its result. */
  send(method, params = {}) {
    const id = this.#nextId++;
    const message = { id, method, params };
    if (this.#session && !method.startsWith('Target.')) message.sessionId = this.#session;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, method });
      this.#child.stdio[3].write(`${JSON.stringify(message)}\0`);
    });
  }

  /** Calls `listener(params)` for each DevTools protocol event `method` (`Runtime.exceptionThrown`…) of the page. */
  on(method, listener) {
    if (!this.#listeners.has(method)) this.#listeners.set(method, []);
    this.#listeners.get(method).push(listener);
  }

  async navigate(url) {
    await this.send('Page.navigate', { url });
  }

  /** Evaluates `expression` in the page and returns its value (JSON-serialisable). */
  async evaluate(expression) {
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', {
      expression,
      returnByValue: true,
      awaitPromise: true,
    });
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  }

  /** Evaluates `expression` until it is truthy; returns that value. Gives up (throws) after `patienceMs`. */
  async waitFor(expression, patienceMs = 20_000) {
    const deadline = Date.now() + patienceMs;
    for (;;) {
      const value = await this.evaluate(expression).catch(() => undefined);
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`the page never satisfied: ${expression}`);
      await sleep(50);
    }
  }

  /** A PNG of the page, as a Buffer. */
  async screenshot() {
    const { data } = await this.send('Page.captureScreenshot', { format: 'png' });
    return Buffer.from(data, 'base64');
  }

  async close() {
    await this.send('Browser.close').catch(() => {});
    if (this.#child.exitCode === null) {
      await Promise.race([new Promise((resolve) => this.#child.once('exit', resolve)), sleep(5000)]);
      if (this.#child.exitCode === null) this.#child.kill('SIGKILL');
    }
    await rm(this.#dir, { recursive: true, force: true });
  }
}
