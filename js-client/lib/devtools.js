// `bridged-client devtools`: serves the DevTools page (js-client/devtools/) on 127.0.0.1 and streams the
// daemon's sessions to it with Server-Sent Events. Zero dependencies: node:http, node:net.
import { createServer } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { MAX_FRAME_BYTES } from './bridge.js';
import { Connection } from './client/connection.js';
import { PendingRequests } from './client/pending.js';
import { openSocket } from './spawn.js';

const PAGE_DIR = new URL('../devtools/', import.meta.url);
const FILES = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/devtools.js': ['devtools.js', 'text/javascript; charset=utf-8'],
  '/changes.js': ['changes.js', 'text/javascript; charset=utf-8'],
  '/devtools.css': ['devtools.css', 'text/css; charset=utf-8'],
};
/** Change frames are sent to the page in batches, at most this often (ms). */
const BATCH_MS = 50;
/** A batch is sent at once when it holds this many bytes. */
const BATCH_BYTES = 256 * 1024;
/**
 * How many bytes a page's event stream may fall behind (queued, or written and not yet taken by its socket)
 * beyond its last snapshot before it is dropped. The page's EventSource reconnects and starts again from a
 * fresh snapshot; a page that does not read holds no more than this.
 */
export const STREAM_BUFFER_BYTES = 8 * 1024 * 1024;
/** How often the session list is refreshed (ms), and how soon a lost daemon is tried again. */
const POLL_MS = 1000;
const CLIENT_NAME = 'bridged-devtools';
/** The picture of a session is drawn at most this many pixels per point (the page asks for its devicePixelRatio). */
const MAX_SCREEN_SCALE = 3;
/** The change frame of an observer that fell behind: this server observes again, and sends its pages a snapshot. */
const CUTOFF = 'cutoff';
/**
 * The change kinds this server acts on itself and never forwards to a page. The page handles every other kind
 * the daemon sends (devtools/changes.js CHANGE_KINDS; test/devtools-changes.test.js compares them with the
 * daemon's), and fails loudly on one it does not know.
 */
export const NOT_FORWARDED = new Set([CUTOFF]);

/**
 * One connection to the daemon: the client's Connection and PendingRequests (requests by id, written in
 * order behind a full socket buffer), change frames of observations routed by session. Emits nothing itself;
 * `onFrame(frame, line)` and `onClose()` are set by the owner.
 */
class DaemonLink {
  #connection;
  #pending = new PendingRequests();
  session = null;
  components = {};

  constructor(socket, { onFrame, onClose }) {
    this.#connection = new Connection(socket, {
      maxFrameBytes: MAX_FRAME_BYTES,
      onLine: (line) => this.#line(line, onFrame),
      // A line too long to read: what it answered is lost, so is the order of what follows. Start afresh.
      onLineTooLong: () => socket.destroy(),
      onWrite: (entry) => this.#pending.markSent(entry),
      writable: (entry) => this.#pending.holds(entry),
      onClose: () => {
        this.#answered.clear();
        this.#pending.failAll(() => new Error('the daemon closed the connection'));
        onClose();
      },
    });
  }

  static async open(socketPath, handlers) {
    const link = new DaemonLink(await openSocket(socketPath), handlers);
    const hello = await link.request({ op: 'hello', protocol: 1, client: CLIENT_NAME });
    link.session = hello.session;
    link.components = hello.components;
    return link;
  }

  #line(line, onFrame) {
    let frame;
    try {
      frame = JSON.parse(line);
    } catch {
      return;
    }
    if (frame === null || typeof frame !== 'object') return;
    // A change frame (protocol.md, "Observing sessions"): known by its own members, never by a substring that
    // a prop value could hold too.
    if (typeof frame.observe === 'string' && typeof frame.change === 'string' && !('id' in frame)) {
      onFrame(frame, line);
      return;
    }
    if (typeof frame.ok !== 'boolean') return;
    const entry = this.#pending.claim(frame, null);
    if (typeof entry === 'string') return; // an answer to no request of this link
    if (frame.ok) {
      this.#answered.get(entry)?.(frame.result);
      entry.resolve(frame.result);
    } else {
      entry.reject(Object.assign(new Error(String(frame.error?.message)), { code: frame.error?.code }));
    }
    this.#answered.delete(entry);
  }

  /** Requests whose answer is handled before the next line is read (request's `onAnswer`). */
  #answered = new Map();

  /**
   * Sends a request; resolves with its result. `onAnswer(result)` runs as the answer is read, before the lines
   * after it: an `observe`'s snapshot is in place before the change frames that follow it arrive (a promise's
   * continuation runs only after the rest of the read, and those changes would have reached a stream still
   * waiting for its snapshot).
   */
  request(frame, onAnswer) {
    const entry = this.#pending.add(frame);
    if (onAnswer) this.#answered.set(entry, onAnswer);
    this.#connection.send(entry);
    return entry.promise;
  }

  close() {
    this.#connection.destroy();
  }
}

/**
 * One page's event stream (an open SSE response), watching at most one session. Bounded: once it is more than
 * `maxBytes` behind (beyond its last snapshot), `onBehind(stream)` is called instead of queueing more.
 */
class PageStream {
  #queuedBytes = 0;
  #snapshotBytes = 0;

  constructor(response, session, { maxBytes, onBehind }) {
    this.response = response;
    this.session = session;
    /** Whether it counts among its session's observers (`observed`), from its `observe` request on. */
    this.observing = false;
    this.queue = [];
    this.timer = null;
    this.maxBytes = maxBytes;
    this.onBehind = onBehind;
  }

  /** Bytes queued here, or written to the response and not yet taken by its socket. */
  get behind() {
    return this.#queuedBytes + this.response.writableLength;
  }

  /** Whether the page has not read the last `maxBytes` (plus the snapshot it is reading); then onBehind. */
  #fellBehind() {
    if (this.behind <= this.maxBytes + this.#snapshotBytes) return false;
    this.onBehind(this);
    return true;
  }

  send(type, data) {
    if (this.response.destroyed || this.#fellBehind()) return;
    this.response.write(`event: ${type}\ndata: ${data}\n\n`);
  }

  /** Sends a snapshot (its JSON text): what was queued belongs to an older one. */
  snapshot(text) {
    this.reset();
    this.#snapshotBytes = Buffer.byteLength(text);
    this.send('snapshot', text);
  }

  /** Queues a change frame (its JSON text); sent with the others of the next BATCH_MS. */
  push(line) {
    if (this.response.destroyed || this.#fellBehind()) return;
    this.queue.push(line);
    this.#queuedBytes += Buffer.byteLength(line) + 1;
    if (this.#queuedBytes >= BATCH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0) return;
    const lines = this.queue;
    this.reset();
    this.send('changes', `[${lines.join(',')}]`);
  }

  /** Forgets what was queued. */
  reset() {
    this.queue = [];
    this.#queuedBytes = 0;
  }

  close() {
    clearTimeout(this.timer);
    this.response.end();
  }
}

/**
 * Starts the DevTools server. A page whose event stream falls `maxStreamBytes` behind is dropped (it reconnects).
 * @param {{socket: string, port?: number, maxStreamBytes?: number, log?: (line: string) => void}} options
 * @returns {Promise<{url: string, port: number, token: string, close: () => Promise<void>}>}
 */
export async function startDevtools({ socket: socketPath, port = 0, maxStreamBytes = STREAM_BUFFER_BYTES, log = () => {} }) {
  const token = randomBytes(16).toString('hex');
  const tokenBytes = Buffer.from(token);
  /** @type {DaemonLink | null} */
  let link = null;
  let connecting = null;
  let closed = false;
  let sessions = [];
  let sessionsText = '[]';
  const streams = new Set();
  /** Observed session id → how many page streams watch it. */
  const observed = new Map();
  let poll = null;

  const status = () => JSON.stringify({ daemon: link !== null, socket: socketPath, self: link?.session ?? null });
  const broadcast = (type, data) => {
    for (const stream of streams) stream.send(type, data);
  };

  function onFrame(frame, line) {
    const session = frame.observe;
    const watching = [...streams].filter((stream) => stream.session === session);
    if (frame.change === CUTOFF) {
      // This server fell behind: start again from a fresh snapshot.
      observed.delete(session);
      for (const stream of watching) {
        stream.observing = false;
        startObserving(stream);
      }
      return;
    }
    if (frame.change === 'ended') observed.delete(session);
    for (const stream of watching) stream.push(line);
  }

  /** A page that does not read its stream: end it (request 'close' cleans up); its EventSource reconnects. */
  function dropStream(stream) {
    if (stream.response.destroyed) return;
    const behind = `${stream.behind} bytes behind (more than ${maxStreamBytes})`;
    log(`devtools: dropped a page's event stream ${behind}; it reconnects for a fresh snapshot`);
    stream.response.destroy();
  }

  function onClose() {
    link = null;
    observed.clear();
    for (const stream of streams) stream.observing = false;
    broadcast('status', status());
    if (!closed) log('devtools: lost the daemon; trying again every second');
  }

  /** Connects (or reconnects) to the daemon; resolves the link or null. */
  function ensureLink() {
    if (link) return Promise.resolve(link);
    connecting ??= DaemonLink.open(socketPath, { onFrame, onClose })
      .then(async (opened) => {
        if (closed) {
          opened.close();
          return null;
        }
        link = opened;
        broadcast('status', status());
        await refreshSessions();
        // Pages that watched a session before the daemon went away watch it again, from a fresh snapshot.
        for (const stream of streams) if (stream.session) await startObserving(stream);
        return link;
      })
      .catch(() => null)
      .finally(() => {
        connecting = null;
      });
    return connecting;
  }

  async function refreshSessions() {
    if (!link) return;
    try {
      const result = await link.request({ op: 'sessions' });
      sessions = result.sessions.filter((s) => s.session !== link?.session);
    } catch {
      return;
    }
    const text = JSON.stringify(sessions);
    if (text !== sessionsText) {
      sessionsText = text;
      broadcast('sessions', text);
    }
  }

  /** The session a page opens with: the one asked for, else the single live one. */
  function defaultSession() {
    const live = sessions.filter((s) => s.connected);
    if (live.length === 1) return live[0].session;
    const busy = live.filter((s) => s.views > 0);
    if (busy.length === 1) return busy[0].session;
    return null;
  }

  /**
   * Observes a stream's session (shared between pages) and sends the stream its snapshot. The stream counts as
   * observing from the request on, not from the answer: a page that leaves meanwhile must not end the daemon's
   * observation (its `unobserve` would reach the daemon after this `observe`, and the page waiting for live changes
   * would get none).
   */
  async function startObserving(stream) {
    const session = stream.session;
    if (!link || !session || stream.observing) return;
    stream.observing = true;
    observed.set(session, (observed.get(session) ?? 0) + 1);
    try {
      await observe(session);
    } catch (err) {
      // No observation was made: the count is given back without an `unobserve`.
      if (stream.observing) {
        stream.observing = false;
        uncount(session);
      }
      stream.send('missing', JSON.stringify({ session, code: err.code ?? 'error', message: err.message }));
    }
  }

  /**
   * Asks the daemon for `session`'s snapshot. The daemon's observation is one per session, shared by its pages,
   * and observing again replaces it: the change frames it had not written yet are in the new snapshot instead. So
   * every page of the session takes that snapshot, as the answer is read (the change frames after it in the same
   * read are newer than it).
   */
  function observe(session) {
    return link.request({ op: 'observe', session }, (snapshot) => {
      const text = JSON.stringify(snapshot);
      for (const page of streams) if (page.session === session && page.observing) page.snapshot(text);
    });
  }

  /** Gives back one page's count of `session`'s observers; true when it was the last. */
  function uncount(session) {
    const count = (observed.get(session) ?? 0) - 1;
    if (count > 0) {
      observed.set(session, count);
      return false;
    }
    observed.delete(session);
    return true;
  }

  async function stopObserving(session) {
    // Another page may share the daemon's observation: only the last one ends it.
    if (uncount(session) && link) await link.request({ op: 'unobserve', session }).catch(() => {});
  }

  async function bootData(session) {
    await ensureLink();
    await refreshSessions();
    const chosen = session || defaultSession();
    let snapshot = null;
    if (link && chosen) {
      snapshot = await observe(chosen).catch(() => null);
      if (snapshot && !observed.has(chosen)) await link.request({ op: 'unobserve', session: chosen }).catch(() => {});
    }
    return {
      status: JSON.parse(status()),
      sessions,
      session: chosen,
      components: link?.components ?? {},
      snapshot,
    };
  }

  function allowed(request, url) {
    // DNS rebinding: a page of another origin resolving to 127.0.0.1 still sends its own Host.
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    if (host !== '127.0.0.1' && host !== 'localhost') return 'a Host other than 127.0.0.1 or localhost';
    const given = Buffer.from(url.searchParams.get('token') ?? '');
    if (given.length !== tokenBytes.length || !timingSafeEqual(given, tokenBytes)) return 'no valid token';
    return null;
  }

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const refused = allowed(request, url);
    if (refused) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`refused: ${refused}; open the URL bridged-client devtools printed\n`);
      return;
    }
    if (request.method !== 'GET') {
      response.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    try {
      if (url.pathname === '/api/stream') return stream(url, request, response);
      if (url.pathname === '/api/screen') return json(response, await screen(url));
      if (url.pathname === '/api/hit') return json(response, await hit(url));
      if (url.pathname === '/api/sessions') {
        await ensureLink();
        await refreshSessions();
        return json(response, { status: JSON.parse(status()), sessions });
      }
      const file = FILES[url.pathname];
      if (!file) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      let body = await readFile(fileURLToPath(new URL(file[0], PAGE_DIR)), 'utf8');
      if (url.pathname === '/') {
        const boot = await bootData(url.searchParams.get('session'));
        // Inline, so the first render needs no round trip; `<` escaped so the JSON cannot end the script.
        const bootJSON = JSON.stringify(boot).replace(/</g, '\\u003c');
        body = body.replaceAll('%TOKEN%', token).replace('%BOOT%', bootJSON);
      }
      response.writeHead(200, {
        'content-type': file[1],
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'content-security-policy': "default-src 'self'; img-src 'self' data:",
        'x-frame-options': 'DENY',
      });
      response.end(body);
    } catch (err) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`);
    }
  });

  /**
   * The page's picture of a session: its window drawn by the daemon (`screenshot` with `session`), with every
   * laid-out view's frame in the window (`frames`) to outline the selected one. At most `MAX_SCREEN_SCALE` pixels
   * per point. Answers `{error: {code, message}}` when it cannot (layout off in that session: nothing has a place).
   */
  async function screen(url) {
    const session = url.searchParams.get('session');
    const scale = Math.min(MAX_SCREEN_SCALE, Math.max(1, Number(url.searchParams.get('scale')) || 1));
    if (!session) return { error: { code: 'bad_request', message: 'no session' } };
    const daemon = await ensureLink();
    if (!daemon) return { error: { code: 'daemon_not_running', message: 'the daemon is not running' } };
    try {
      return await daemon.request({ op: 'screenshot', session, scale, frames: true });
    } catch (err) {
      return { error: { code: err.code ?? 'error', message: err.message } };
    }
  }

  /** The view a touch at `x`, `y` (points) of a session's window reaches: the daemon's hit-test, as touches use. */
  async function hit(url) {
    const session = url.searchParams.get('session');
    const x = Number(url.searchParams.get('x'));
    const y = Number(url.searchParams.get('y'));
    if (!session || !Number.isFinite(x) || !Number.isFinite(y)) {
      return { error: { code: 'bad_request', message: 'hit needs session, x and y' } };
    }
    const daemon = await ensureLink();
    if (!daemon) return { error: { code: 'daemon_not_running', message: 'the daemon is not running' } };
    try {
      return await daemon.request({ op: 'layout', session, at: { x, y } });
    } catch (err) {
      return { error: { code: err.code ?? 'error', message: err.message } };
    }
  }

  function json(response, value) {
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(JSON.stringify(value));
  }

  async function stream(url, request, response) {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    response.write('retry: 1000\n\n');
    const page = new PageStream(response, url.searchParams.get('session') || null, {
      maxBytes: maxStreamBytes,
      onBehind: dropStream,
    });
    streams.add(page);
    request.on('close', () => {
      streams.delete(page);
      clearTimeout(page.timer);
      if (page.observing) {
        page.observing = false;
        stopObserving(page.session);
      }
    });
    await ensureLink();
    page.send('status', status());
    page.send('sessions', sessionsText);
    if (link) page.send('components', JSON.stringify(link.components));
    await startObserving(page);
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actualPort = server.address().port;
  await ensureLink();
  poll = setInterval(() => {
    if (link) refreshSessions();
    else ensureLink();
  }, POLL_MS);

  return {
    url: `http://127.0.0.1:${actualPort}/?token=${token}`,
    port: actualPort,
    token,
    async close() {
      closed = true;
      clearInterval(poll);
      for (const page of streams) page.close();
      streams.clear();
      link?.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
