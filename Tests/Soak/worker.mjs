// A soak worker: one process running many raw NDJSON clients of the daemon, each on its own connection.
//
// Every step of every client is journaled (fs.writeSync, so it survives a SIGKILL of this process) before
// the client acts on it: a request before its bytes are written, an event before it is acknowledged. A
// replacement worker folds the journal of the one that was killed and resumes each session with its cursor
// (session, last journaled seq); the daemon re-sends what was not journaled, since it was never acked.
//
// Environment: SOAK_SOCKET, SOAK_JOURNAL, SOAK_CLIENTS ("first,count"), SOAK_MEAN_MS.
import { closeSync, openSync, readFileSync, existsSync, ftruncateSync, writeSync } from 'node:fs';
import { createConnection } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULTS, expectedPress, foldJournal, foldRecord, newClient } from './model.mjs';

const SOCKET = process.env.SOAK_SOCKET;
const JOURNAL = process.env.SOAK_JOURNAL;
const [FIRST, COUNT] = process.env.SOAK_CLIENTS.split(',').map(Number);
const MEAN_MS = Number(process.env.SOAK_MEAN_MS ?? 60);

class Lost extends Error {}

// ---- the journal ----------------------------------------------------------------------------------

const models = new Map();
if (existsSync(JOURNAL)) {
  const text = readFileSync(JOURNAL, 'utf8');
  const whole = foldJournal(models, text);
  if (whole < Buffer.byteLength(text)) ftruncateSync(openSync(JOURNAL, 'r+'), Buffer.byteLength(text.slice(0, whole)));
}
const journalFd = openSync(JOURNAL, 'a');
let journalBuf = '';

/** Journals a record (buffered until the next flush) and folds it into the client's model. */
function record(rec) {
  journalBuf += JSON.stringify(rec) + '\n';
  foldRecord(models, rec);
}
function flush() {
  if (journalBuf) {
    writeSync(journalFd, journalBuf);
    journalBuf = '';
  }
}

const ids = Array.from({ length: COUNT }, (_, i) => FIRST + i);
record({ t: 'inc', pid: process.pid, clients: ids });
flush();

// ---- random values --------------------------------------------------------------------------------

const rnd = Math.random;
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const STRINGS = ['', 'Tap', 'héllo', '😀 emoji', 'quote " and \\ backslash', 'nul \u0000 char', 'tab\tnew\nline', '\u2028'];
const str = () => (rnd() < 0.7 ? pick(STRINGS) : Math.random().toString(36).slice(2, 2 + Math.floor(rnd() * 10)));
const hex2 = () => Math.floor(rnd() * 256).toString(16).padStart(2, '0');
const hex1 = () => Math.floor(rnd() * 16).toString(16);
const edge = () => Math.floor(rnd() * 64) / 4 - 4; // exactly representable: reads back as sent
const GEN = {
  testID: str,
  nativeID: str,
  accessible: () => rnd() < 0.5,
  accessibilityLabel: str,
  accessibilityHint: str,
  accessibilityRole: () => pick(['', 'button', 'header', 'link', 'image']),
  pointerEvents: () => pick(['auto', 'none', 'box-none', 'box-only']),
  opacity: () => Math.floor(rnd() * 9) / 8, // a float that reads back as the same decimal
  // "#RGB", "#RRGGBB" (either case) or "#RRGGBBAA": reported as "#rrggbbaa"
  backgroundColor: () => pick([`#${hex1()}${hex1()}${hex1()}`, `#${hex2()}${hex2()}${hex2()}`.toUpperCase(),
    `#${hex2()}${hex2()}${hex2()}${hex2()}`]),
  // some edges missing: reported as 0
  hitSlop: () => Object.fromEntries(['top', 'left', 'bottom', 'right'].filter(() => rnd() < 0.7).map((k) => [k, edge()])),
  count: () => (rnd() < 0.1 ? -Math.floor(rnd() * 1000) : Math.floor(rnd() * 1e6)),
  title: str,
  disabled: () => rnd() < 0.15,
  text: str,
  placeholder: str,
  color: () => `#${hex2()}${hex2()}${hex2()}${hex2()}`,
  clearButtonMode: () => pick(['never', 'whileEditing', 'unlessEditing', 'always']),
  fontSize: () => (rnd() < 0.5 ? Math.round(rnd() * 400) / 10 : rnd() * 100),
};
function randomProps(component, n = 1 + Math.floor(rnd() * 3)) {
  const names = Object.keys(DEFAULTS[component]);
  const props = {};
  for (let i = 0; i < n; i++) {
    const k = pick(names);
    props[k] = rnd() < 0.08 ? null : GEN[k]();
  }
  return props;
}

// ---- one client ------------------------------------------------------------------------------------

let nextFrameId = 1;

class Client {
  constructor(m) {
    this.m = m;
    this.sock = null;
    this.buf = '';
    this.waiter = null;
    this.controlled = null;
    this.lastAckAt = Date.now();
    this.halfRequest = null;
  }

  open() {
    return new Promise((resolve, reject) => {
      const sock = createConnection(SOCKET);
      sock.setEncoding('utf8');
      sock.once('error', reject);
      sock.once('connect', () => {
        sock.off('error', reject);
        sock.on('error', () => {});
        this.sock = sock;
        this.buf = '';
        sock.on('data', (chunk) => this.onData(sock, chunk));
        sock.on('close', () => this.onClose(sock));
        resolve();
      });
    });
  }

  onData(sock, chunk) {
    if (sock !== this.sock) return;
    this.buf += chunk;
    let nl;
    const done = [];
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 1);
      let frame;
      try {
        frame = JSON.parse(line);
      } catch {
        record({ c: this.m.id, t: 'fail', msg: `not JSON: ${line.slice(0, 200)}` });
        continue;
      }
      if (frame.event !== undefined) {
        record({ c: this.m.id, t: 'ev', frame });
        if (frame.event === 'countChange') this.controlled = { tag: frame.target, count: frame.payload.count };
      } else if (frame.id === null) {
        record({ c: this.m.id, t: 'fail', msg: `frame without id: ${line}` });
      } else {
        record({ c: this.m.id, t: 'res', frame });
        done.push(frame);
      }
    }
    flush();
    for (const frame of done) {
      const w = this.waiter;
      if (w && w.id === frame.id) {
        this.waiter = null;
        w.resolve(frame);
      }
    }
  }

  onClose(sock) {
    if (sock !== this.sock) return;
    this.sock = null;
    record({ c: this.m.id, t: 'lost' });
    flush();
    const w = this.waiter;
    this.waiter = null;
    w?.reject(new Lost('connection lost'));
  }

  /** Journals the request, writes it (maybe in two parts, maybe only half) and waits for its response. */
  async request(frame, opts = {}) {
    if (!this.sock) throw new Lost('not connected');
    frame = { id: nextFrameId++, ...frame };
    record({ c: this.m.id, t: 'send', frame, ...opts });
    flush();
    // Bytes, not string indices: a cut may fall inside a UTF-8 sequence (never inside a UTF-16 pair).
    const line = Buffer.from(JSON.stringify(frame) + '\n');
    const sock = this.sock;
    const response = new Promise((resolve, reject) => {
      this.waiter = { id: frame.id, resolve, reject };
    });
    response.catch(() => {}); // a loss while the second part waits is the caller's, once it awaits
    if (opts.half) {
      sock.write(line.subarray(0, 1 + Math.floor(rnd() * (line.length - 2))));
      return response;
    }
    if (!opts.whole && rnd() < 0.1) {
      const cut = 1 + Math.floor(rnd() * (line.length - 1));
      sock.write(line.subarray(0, cut));
      await sleep(1 + rnd() * 3);
      if (this.sock === sock) sock.write(line.subarray(cut));
    } else {
      sock.write(line);
    }
    return response;
  }

  /** Connects (with back-off while the daemon is away), says hello or resumes, settles an unknown outcome. */
  async establish() {
    for (;;) {
      let delay = 20;
      while (!this.sock) {
        try {
          await this.open();
        } catch {
          await sleep(delay * (0.5 + rnd() / 2));
          delay = Math.min(delay * 2, 500);
        }
      }
      try {
        const m = this.m;
        if (m.session) {
          const half = m.ambiguous?.half ? m.ambiguous.frame.tag : null;
          // After some cuts, resume from an older ack than the cursor: the daemon re-sends events this client
          // already has, which it must drop by seq (and which must equal the originals).
          let ack = m.lastSeq;
          if (this.rewind && !m.ackUncertain) ack = Math.max(m.acked, m.lastSeq - 1 - Math.floor(rnd() * 8));
          this.rewind = false;
          const res = await this.request({ op: 'hello', protocol: 1, client: 'soak', resume: { session: m.session, token: m.token, ack } });
          if (res.ok && res.result.resumed) await this.request({ op: 'ping' }); // the re-sent events come before it
          if (m.ambiguous) {
            const { id, ...frame } = m.ambiguous.frame;
            await this.request(frame, { resolve: true, expectErr: m.ambiguous.expectErr ?? undefined });
          }
          if (half != null) await this.request({ op: 'inspect', tag: half }); // the cut line did not apply
        } else {
          await this.request({ op: 'hello', protocol: 1, client: 'soak' });
        }
        return;
      } catch (err) {
        if (!(err instanceof Lost)) throw err;
      }
    }
  }

  async maybeAck(force = false) {
    const m = this.m;
    if (m.lastSeq > m.acked && (force || m.lastSeq - m.acked >= 16 || Date.now() - this.lastAckAt > 300)) {
      this.lastAckAt = Date.now();
      await this.request({ op: 'ack', seq: m.lastSeq });
    }
  }

  /** The next random request: [frame, options]. */
  choose() {
    const m = this.m;
    const tags = [...m.views.keys()];
    const of = (comp) => tags.filter((t) => m.views.get(t).component === comp);
    const buttons = of('SwiftUIButton');
    const ctl = this.controlled;
    this.controlled = null;
    if (ctl && m.views.has(ctl.tag) && rnd() < 0.5) return [{ op: 'update', tag: ctl.tag, props: { count: ctl.count } }];
    const r = rnd();
    if (tags.length === 0 || (tags.length < 24 && r < 0.1)) return this.chooseCreate(of('View'));
    if (r < 0.45 && buttons.length) return [{ op: 'command', tag: pick(buttons), name: 'press' }];
    const tag = pick(tags);
    const v = m.views.get(tag);
    if (r < 0.64) return [{ op: 'update', tag, props: randomProps(v.component) }];
    if (r < 0.66) return [{ op: 'update', tag, props: { [pick(Object.keys(DEFAULTS[v.component]))]: [1] } }, { expectErr: 'invalid_props' }];
    if (r < 0.72) return [{ op: 'inspect', tag: rnd() < 0.15 && m.deletedTags.length ? pick(m.deletedTags) : tag }];
    if (r < 0.80) return [{ op: rnd() < 0.7 ? 'subscribe' : 'unsubscribe', tag, event: 'countChange', phase: rnd() < 0.7 ? 'bubble' : 'capture' }];
    if (r < 0.85) return [{ op: 'delete', tag }];
    if (r < 0.86) {
      const t = m.nextTag;
      const ops = [
        { op: 'create', tag: t, component: 'View' },
        { op: 'create', tag: t + 1, component: 'SwiftUIButton', parent: t },
        { op: 'command', tag: t + 1, name: 'press' },
        { op: 'update', tag: t + 1, props: { count: 'x' } },
      ];
      return [{ op: 'batch', ops }, { expectErr: 'batch_failed' }];
    }
    if (r < 0.8605) return ['cut'];
    return buttons.length ? [{ op: 'command', tag: pick(buttons), name: 'press' }] : [{ op: 'ping' }];
  }

  chooseCreate(viewTags) {
    const t = this.m.nextTag;
    const r = rnd();
    if (r < 0.4) {
      // Three levels: a View, a View in it, a button in that; listeners at random levels and phases.
      const ops = [
        { op: 'create', tag: t, component: 'View', props: randomProps('View', 1) },
        { op: 'create', tag: t + 1, component: 'View', parent: t },
        { op: 'create', tag: t + 2, component: 'SwiftUIButton', props: { title: str(), count: GEN.count() }, parent: t + 1 },
      ];
      if (rnd() < 0.5) ops.push({ op: 'subscribe', tag: t, event: 'countChange', phase: 'capture' });
      if (rnd() < 0.5) ops.push({ op: 'subscribe', tag: t + 1, event: 'countChange' });
      if (rnd() < 0.7) ops.push({ op: 'subscribe', tag: t + 2, event: 'countChange' });
      return [{ op: 'batch', ops }];
    }
    if (r < 0.7 || viewTags.length === 0) {
      return [{ op: 'batch', ops: [
        { op: 'create', tag: t, component: 'SwiftUIButton', props: randomProps('SwiftUIButton') },
        { op: 'subscribe', tag: t, event: 'countChange' },
      ] }];
    }
    const component = pick(['SwiftUIButton', 'TextField', 'View']);
    return [{ op: 'create', tag: t, component, props: randomProps(component), parent: pick(viewTags) }];
  }

  async run() {
    for (;;) {
      try {
        if (!this.sock) await this.establish();
        if (stopping) return;
        if (this.halfRequest) return this.halfWrite();
        await sleep(-Math.log(1 - rnd()) * MEAN_MS);
        if (this.halfRequest) return this.halfWrite();
        if (stopping || !this.sock) continue;
        const [frame, opts] = this.choose();
        if (frame === 'cut') {
          await this.cut();
          continue;
        }
        await this.request(frame, opts);
        await this.maybeAck();
      } catch (err) {
        if (!(err instanceof Lost)) throw err;
      }
    }
  }

  /** Writes part of an update's line and stops there: the caller cuts the connection or kills the process. */
  halfFrame() {
    const tags = [...this.m.views.keys()];
    if (!tags.length) return null;
    const tag = pick(tags);
    this.request({ op: 'update', tag, props: randomProps(this.m.views.get(tag).component) }, { half: true }).catch(() => {});
    return tag;
  }

  async cut() {
    const sock = this.sock;
    if (this.halfFrame() == null) return;
    record({ c: this.m.id, t: 'cut' });
    flush();
    this.rewind = rnd() < 0.5;
    await sleep(rnd() * 5);
    // 'close' comes a turn of the loop later: until it is journaled ('lost'), no request may use the socket.
    const closed = this.sock === sock ? new Promise((resolve) => sock.once('close', resolve)) : null;
    sock.destroy();
    await closed;
  }

  async halfWrite() {
    const { resolve, whole } = this.halfRequest;
    this.halfRequest = null;
    if (whole) {
      // A whole press line, flushed to the socket: a frame, which the daemon must run though nobody reads.
      const tag = [...this.m.views.keys()].find((t) => expectedPress(this.m, t));
      if (tag == null) return resolve(false);
      this.request({ op: 'command', tag, name: 'press' }, { whole: true }).catch(() => {});
      while (this.sock?.writableLength) await sleep(1);
      resolve(!!this.sock);
    } else {
      if (this.halfFrame() == null) return resolve(false);
      resolve(true);
    }
    await new Promise(() => {}); // frozen until the parent's SIGKILL
  }

  /** After the load: every view inspected against the model, then half of the clients delete their roots. */
  async verify() {
    const m = this.m;
    for (;;) {
      try {
        if (!this.sock) await this.establish();
        await this.maybeAck(true);
        for (const tag of [...m.views.keys()].sort((a, b) => a - b)) await this.request({ op: 'inspect', tag });
        for (const tag of m.deletedTags.slice(-3)) await this.request({ op: 'inspect', tag });
        record({ c: m.id, t: 'verified' });
        if (m.id % 2 === 0) {
          for (const tag of [...m.views.keys()]) if (m.views.get(tag)?.parent === null) await this.request({ op: 'delete', tag });
        }
        await this.maybeAck(true);
        flush();
        const sock = this.sock;
        this.sock = null;
        sock.end();
        return;
      } catch (err) {
        if (!(err instanceof Lost)) throw err;
      }
    }
  }
}

// ---- the worker ------------------------------------------------------------------------------------

let stopping = false;
const clients = ids.map((id) => new Client(models.get(id)));
const loops = clients.map((c) => c.run());

process.on('message', async (msg) => {
  if (msg.cmd === 'halfkill') {
    const live = clients.filter((c) => c.sock && c.m.views.size &&
      (!msg.whole || [...c.m.views.keys()].some((t) => expectedPress(c.m, t))));
    if (!live.length) return process.send({ halfwritten: false });
    const c = pick(live);
    const ok = await new Promise((resolve) => {
      c.halfRequest = { resolve, whole: !!msg.whole };
    });
    process.send({ halfwritten: ok, client: c.m.id });
  } else if (msg.cmd === 'verify') {
    stopping = true;
    await Promise.all(loops);
    await Promise.all(clients.map((c) => c.verify()));
    flush();
    closeSync(journalFd);
    process.send({ verified: true }, () => process.exit(0));
  }
});
process.send({ ready: true });
