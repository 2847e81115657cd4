// The bridged DevTools page: a live view of one session of the daemon. Plain browser JavaScript, no build.
//
// State arrives as a snapshot, then as batches of change frames (protocol.md, "Observing sessions") over
// Server-Sent Events. Changes only mark what is dirty (changes.js, the page's model); the DOM is updated once per
// animation frame. The tree renders only the rows in view once it is large, and the event log keeps the last
// MAX_EVENTS events. A module: changes.js is imported with the page's token, which every file it asks for needs.

const params = new URLSearchParams(location.search);
const token = params.get('token') ?? '';
const { MAX_COMMANDS, MAX_EVENTS, UnknownChange, applyChange } = await import(`./changes.js?${new URLSearchParams({ token })}`);

const ROW_HEIGHT = 20;
/** Up to this many visible rows the tree is rendered whole; above, only the rows in view (plus a margin). */
const WINDOW_ABOVE = 1000;
/** Rows of the event log in the DOM, newest first. */
const SHOWN_EVENTS = 100;
/** The event log is redrawn at most this often (ms): at 1,000 events a second, redrawing it is what costs. */
const LOG_INTERVAL = 250;
const FLASH_MS = 800;
/** How soon an event stream the browser closed is opened again (the server's `retry:` for the others). */
const RECONNECT_MS = 1000;
/** The session's picture is asked for again at most this often (ms) while its tree changes, and never while one is on
 * its way: a session busy for a minute costs at most 120 pictures, an idle one none. */
const SCREEN_INTERVAL = 500;
/** After a picture the daemon refused (layout off in the session), the next is asked for no sooner than this (ms). */
const SCREEN_RETRY = 2000;
/** The change kinds that can change the picture (not events, commands or renders: a command that changed a view's
 * state comes with an `updated`). */
const SCREEN_CHANGES = new Set(['created', 'updated', 'moved', 'deleted', 'laidOut']);
/** The picture's widest side on the page, in CSS pixels, before it is shrunk to the panel. */
const SCREEN_MAX_WIDTH = 420;

const boot = JSON.parse(document.getElementById('boot').textContent);

const state = {
  daemon: boot.status.daemon,
  sessions: boot.sessions,
  session: boot.session,
  components: boot.components,
  ended: false,
  /** The message of a change the page did not know (UnknownChange): shown until the page is reloaded. */
  failure: null,
  /** tag → view; each view has its command log, `commands` (protocol.md: the snapshot's views[].commands). */
  views: new Map(),
  events: [],
  selected: params.has('tag') ? Number(params.get('tag')) : null,
  collapsed: new Set(),
  rows: [],
};

const dirty = { tree: true, rows: true, detail: true, log: true, header: true, screen: true };
let frameRequested = false;

function schedule() {
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    frameRequested = false;
    render();
  });
}

// ---------- the model ----------

function loadSnapshot(snapshot) {
  state.views = new Map();
  for (const view of snapshot?.views ?? []) {
    view.updatedAt = -Infinity;
    view.commands = (view.commands ?? []).slice(-MAX_COMMANDS);
    state.views.set(view.tag, view);
  }
  state.events = (snapshot?.events ?? []).slice(-MAX_EVENTS);
  state.ended = false;
  state.snapshot = snapshot ? { seq: snapshot.seq, client: snapshot.client, connected: snapshot.connected } : null;
  markAll();
  if (snapshot) wantScreen();
}

function markAll() {
  dirty.tree = dirty.rows = dirty.detail = dirty.log = dirty.header = dirty.screen = true;
  schedule();
}

/**
 * A change the page does not know: shown on the page (the status and an alert above the panels) and thrown, so
 * that it is in the console too. The page goes on applying the changes it knows.
 */
function failed(error) {
  state.failure = error.message;
  dirty.header = true;
  schedule();
  throw error;
}

// ---------- rendering ----------

const $ = (id) => document.getElementById(id);
const treeBox = $('tree');
const spacer = $('tree-spacer');

function text(value) {
  return String(value).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function render() {
  const now = performance.now();
  if (dirty.header) renderHeader();
  if (dirty.tree) {
    buildRows();
    dirty.tree = false;
    dirty.rows = true;
  }
  if (dirty.rows) renderRows(now);
  if (dirty.detail) renderDetail();
  if (dirty.screen || dirty.detail) renderScreen();
  dirty.header = dirty.rows = dirty.detail = dirty.screen = false;
  if (dirty.log) {
    const wait = lastLogRender + LOG_INTERVAL - now;
    if (wait <= 0) {
      renderLog();
      lastLogRender = now;
      dirty.log = false;
    } else if (!logTimer) {
      logTimer = setTimeout(() => {
        logTimer = null;
        schedule();
      }, wait);
    }
  }
}

let lastLogRender = -Infinity;
let logTimer = null;

function renderHeader() {
  const picker = $('session-picker');
  const options = [['', '(choose a session)']];
  for (const s of state.sessions) {
    // The shown session's figures are live; the others' come with the list, once a second.
    const live = s.session === state.session && state.snapshot;
    const views = live ? state.views.size : s.views;
    const seq = live ? state.snapshot.seq : s.seq;
    const label = `${s.session} — ${s.client ?? 'no client name'} — ${views} views, seq ${seq}${s.connected ? '' : ' (detached)'}`;
    options.push([s.session, label]);
  }
  if (state.session && !state.sessions.some((s) => s.session === state.session)) {
    options.push([state.session, `${state.session} (gone)`]);
  }
  const html = options
    .map(([value, label]) => `<option value="${text(value)}"${value === (state.session ?? '') ? ' selected' : ''}>${text(label)}</option>`)
    .join('');
  if (picker.innerHTML !== html) picker.innerHTML = html;
  const status = $('status');
  const failure = $('failure');
  failure.hidden = !state.failure;
  failure.textContent = state.failure ?? '';
  if (state.failure) {
    status.className = 'status down';
    status.textContent = 'error: a change this page does not know';
  } else if (!connectionUp) {
    status.className = 'status down';
    status.textContent = 'DevTools server unreachable — reconnecting…';
  } else if (!state.daemon) {
    status.className = 'status down';
    status.textContent = 'daemon not running — reconnecting…';
  } else if (state.ended) {
    status.className = 'status down';
    status.textContent = `session ${state.session} ended`;
  } else {
    status.className = 'status ok';
    status.textContent = state.session ? 'live' : 'daemon connected';
  }
  const info = state.snapshot && state.session
    ? `${state.snapshot.client ?? ''} seq ${state.snapshot.seq}`
    : '';
  $('session-info').textContent = info;
}

/** The visible rows: a pre-order walk of the roots, skipping the children of collapsed views. */
function buildRows() {
  const rows = [];
  const roots = [];
  for (const view of state.views.values()) if (view.parent === null) roots.push(view.tag);
  roots.sort((a, b) => a - b);
  const stack = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push([roots[i], 0]);
  while (stack.length > 0) {
    const [tag, depth] = stack.pop();
    const view = state.views.get(tag);
    if (!view) continue;
    rows.push([tag, depth]);
    if (state.collapsed.has(tag)) continue;
    for (let i = view.children.length - 1; i >= 0; i--) stack.push([view.children[i], depth + 1]);
  }
  state.rows = rows;
  $('view-count').textContent = `${state.views.size} views`;
}

function renderRows(now) {
  const rows = state.rows;
  spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
  let first = 0;
  let last = rows.length;
  if (rows.length > WINDOW_ABOVE) {
    first = Math.max(0, Math.floor(treeBox.scrollTop / ROW_HEIGHT) - 20);
    last = Math.min(rows.length, first + Math.ceil(treeBox.clientHeight / ROW_HEIGHT) + 40);
  }
  const parts = [];
  for (let i = first; i < last; i++) {
    const [tag, depth] = rows[i];
    const view = state.views.get(tag);
    const classes = ['row'];
    if (tag === state.selected) classes.push('selected');
    if (now - view.updatedAt < FLASH_MS) classes.push('flash');
    const toggle = view.children.length === 0 ? '' : state.collapsed.has(tag) ? '▸' : '▾';
    const testID = view.props.testID ? ` <span class="testid">testID="${text(view.props.testID)}"</span>` : '';
    const title = view.props.title ? ` <span class="type">"${text(view.props.title)}"</span>` : '';
    parts.push(
      `<div class="${classes.join(' ')}" role="treeitem" data-tag="${tag}" data-component="${text(view.component)}"` +
        ` data-depth="${depth}"><span class="toggle">${toggle}</span>` +
        `<span class="component">&lt;${text(view.component)}&gt;</span> <span class="tag">#${tag}</span>${testID}${title}</div>`,
    );
  }
  spacer.innerHTML = parts.join('');
  // Positions through the CSSOM: the page's Content-Security-Policy allows no inline style attributes.
  let i = first;
  for (const row of spacer.children) {
    row.style.top = `${i++ * ROW_HEIGHT}px`;
    row.style.paddingLeft = `${Number(row.dataset.depth) * 14 + 4}px`;
  }
}

treeBox.addEventListener('scroll', () => {
  if (state.rows.length > WINDOW_ABOVE) {
    dirty.rows = true;
    schedule();
  }
});

treeBox.addEventListener('click', (event) => {
  const row = event.target.closest('.row');
  if (!row) return;
  const tag = Number(row.dataset.tag);
  if (event.target.classList.contains('toggle') && state.views.get(tag)?.children.length) {
    if (state.collapsed.has(tag)) state.collapsed.delete(tag);
    else state.collapsed.add(tag);
    dirty.tree = true;
    schedule();
    return;
  }
  select(tag);
});

function select(tag) {
  state.selected = tag;
  // Make the view visible: expand its ancestors.
  let view = state.views.get(tag);
  while (view && view.parent !== null) {
    if (state.collapsed.delete(view.parent)) dirty.tree = true;
    view = state.views.get(view.parent);
  }
  updateURL();
  dirty.rows = dirty.detail = dirty.screen = true;
  schedule();
  requestAnimationFrame(() => {
    const index = state.rows.findIndex(([t]) => t === tag);
    if (index < 0) return;
    const top = index * ROW_HEIGHT;
    if (top < treeBox.scrollTop || top > treeBox.scrollTop + treeBox.clientHeight - ROW_HEIGHT) {
      treeBox.scrollTop = Math.max(0, top - treeBox.clientHeight / 2);
    }
  });
}

function propType(component, name) {
  const prop = state.components[component]?.props?.[name];
  if (!prop) return '?';
  return prop.values ? `enum ${prop.values.join('|')}` : prop.type;
}

function renderDetail() {
  const box = $('detail');
  const view = state.selected === null ? null : state.views.get(state.selected);
  if (!view) {
    box.innerHTML = state.selected === null
      ? '<p class="empty">Select a view in the tree or an event in the log.</p>'
      : `<p class="empty">No view #${text(state.selected)} in this session.</p>`;
    return;
  }
  const props = Object.entries(view.props)
    .map(([name, value]) =>
      `<tr data-prop="${text(name)}"><td>${text(name)}</td><td class="type">${text(propType(view.component, name))}</td>` +
      `<td class="value">${text(JSON.stringify(value))}</td></tr>`)
    .join('');
  const byPhase = { capture: [], bubble: [] };
  for (const [event, phases] of Object.entries(view.listeners)) for (const phase of phases) byPhase[phase].push(event);
  const listeners = ['capture', 'bubble']
    .map((phase) => `<tr data-phase="${phase}"><td class="phase-${phase}">${phase}</td><td>${byPhase[phase].map(text).join(', ') || '—'}</td></tr>`)
    .join('');
  const commands = view.commands.slice(-50).reverse();
  const commandRows = commands
    .map((c) => `<tr class="command"><td>${text(c.name)}</td><td>${text(JSON.stringify(c.args))}</td></tr>`)
    .join('');
  box.innerHTML =
    `<h2 data-tag="${view.tag}"><span class="component">&lt;${text(view.component)}&gt;</span> <span class="tag">#${view.tag}</span></h2>` +
    `<table class="facts"><tr><th>parent</th><td>${view.parent ?? 'none (root)'}</td></tr>` +
    `<tr><th>children</th><td>${view.children.join(', ') || 'none'}</td></tr></table>` +
    `<h3>Props</h3><table id="props"><thead><tr><th>prop</th><th>type</th><th>value</th></tr></thead><tbody>${props}</tbody></table>` +
    `<h3>Render</h3><div class="render" id="render">${view.renders > 0 ? text(view.render) : '<span class="empty">not rendered yet</span>'}</div>` +
    `<table class="facts"><tr><th>renders</th><td id="renders">${view.renders}</td></tr>` +
    `<tr><th>stale</th><td>${view.stale ? 'yes: props changed since the last render' : 'no'}</td></tr></table>` +
    `<h3>Listeners</h3><table id="listeners">${listeners}</table>` +
    `<h3>Commands</h3>${commandRows ? `<table id="commands"><tbody>${commandRows}</tbody></table>` : '<p class="empty">none yet</p>'}`;
}

function eventMatches(event, name, tag) {
  if (name && !event.event.includes(name)) return false;
  if (tag !== null && event.target !== tag && !event.path.some((p) => p.tag === tag)) return false;
  return true;
}

function renderLog() {
  const name = $('filter-event').value.trim();
  const tagText = $('filter-tag').value.trim();
  const tag = tagText === '' ? null : Number(tagText);
  const shown = [];
  for (let i = state.events.length - 1; i >= 0 && shown.length < SHOWN_EVENTS; i--) {
    const event = state.events[i];
    if (eventMatches(event, name, tag)) shown.push(event);
  }
  $('events').innerHTML = shown
    .map((e) => {
      const path = e.path.map((p) => `<span class="phase-${p.phase}">${p.tag} ${p.phase}</span>`).join(' → ');
      return `<tr data-seq="${e.seq}" data-target="${e.target}"><td>${e.seq}</td><td>${text(e.event)}</td>` +
        `<td>#${e.target}</td><td>${text(JSON.stringify(e.payload))}</td><td>${path}</td></tr>`;
    })
    .join('');
  $('event-count').textContent = `${state.events.length > MAX_EVENTS ? MAX_EVENTS : state.events.length} kept, last ${SHOWN_EVENTS} matching shown`;
}

$('events').addEventListener('click', (event) => {
  const row = event.target.closest('tr');
  if (row) select(Number(row.dataset.target));
});
for (const id of ['filter-event', 'filter-tag']) {
  $(id).addEventListener('input', () => {
    dirty.log = true;
    lastLogRender = -Infinity;
    schedule();
  });
}

$('session-picker').addEventListener('change', (event) => {
  state.session = event.target.value || null;
  state.selected = null;
  screen.picture = null;
  screen.error = null;
  loadSnapshot(null);
  updateURL();
  openStream();
});

function updateURL() {
  const next = new URLSearchParams({ token });
  if (state.session) next.set('session', state.session);
  if (state.selected !== null) next.set('tag', String(state.selected));
  history.replaceState(null, '', `?${next}`);
}

// ---------- the screen ----------

/**
 * The session's window as the daemon draws it (`screenshot` of the session, through the server's /api/screen), with
 * the selected view outlined at its frame in the window; a click on it selects the view a touch there reaches (the
 * daemon's hit-test, as touches use: /api/hit). Asked for again when a change can have changed it, at most every
 * SCREEN_INTERVAL, one at a time, and not while the page is hidden.
 */
const screen = {
  /** `{session, width, height, frames: Map<tag, [x, y, width, height]>}`: the window in points, frames in it. */
  picture: null,
  error: null,
  wanted: false,
  inFlight: false,
  last: -Infinity,
  timer: null,
};

function wantScreen() {
  screen.wanted = true;
  askScreen();
}

function askScreen() {
  if (screen.inFlight || screen.timer || !screen.wanted || !state.session || document.hidden) return;
  const wait = screen.last + (screen.error ? SCREEN_RETRY : SCREEN_INTERVAL) - performance.now();
  if (wait > 0) {
    screen.timer = setTimeout(() => {
      screen.timer = null;
      askScreen();
    }, wait);
    return;
  }
  fetchScreen(state.session);
}

async function fetchScreen(session) {
  screen.wanted = false;
  screen.inFlight = true;
  screen.last = performance.now();
  const scale = String(Math.min(3, Math.max(1, Math.ceil(devicePixelRatio))));
  try {
    const response = await fetch(`api/screen?${new URLSearchParams({ token, session, scale })}`);
    const answer = await response.json();
    if (session !== state.session) return;
    if (answer.error) {
      screen.error = answer.error;
    } else {
      screen.error = null;
      const frames = new Map(answer.frames.map(([tag, ...frame]) => [tag, frame]));
      screen.picture = { session, width: answer.width / answer.scale, height: answer.height / answer.scale, frames };
      const image = $('screen-image');
      image.src = `data:image/png;base64,${answer.png}`;
      await image.decode().catch(() => {});
    }
  } catch (error) {
    screen.error = { code: 'unreachable', message: error.message };
  } finally {
    screen.inFlight = false;
    dirty.screen = true;
    schedule();
    askScreen();
  }
}

document.addEventListener('visibilitychange', askScreen);
window.addEventListener('resize', () => {
  dirty.screen = true;
  schedule();
});

/** How many CSS pixels a point of the window takes on the page: the whole picture fits the panel. */
function screenZoom(picture) {
  const box = $('screen-box');
  const width = box.clientWidth - 16;
  const height = box.clientHeight - 16;
  const zoom = Math.min(SCREEN_MAX_WIDTH, width > 0 ? width : SCREEN_MAX_WIDTH) / picture.width;
  return height > 40 ? Math.min(zoom, height / picture.height) : zoom;
}

function renderScreen() {
  const picture = screen.picture?.session === state.session ? screen.picture : null;
  const box = $('screen');
  const empty = $('screen-empty');
  const info = $('screen-info');
  if (!picture) {
    box.hidden = true;
    empty.hidden = false;
    const layoutOff = screen.error?.code === 'bad_request' && /layout is off/.test(screen.error.message);
    empty.textContent = !state.session
      ? 'No session.'
      : layoutOff
        ? 'No picture: layout is off in this session (openApp turns it on; bridge.request({op: "layout", yoga})).'
        : screen.error
          ? `No picture: ${screen.error.message}`
          : 'No picture yet.';
    info.textContent = '';
    return;
  }
  box.hidden = false;
  empty.hidden = true;
  const zoom = screenZoom(picture);
  const image = $('screen-image');
  // Sizes through the CSSOM: the page's Content-Security-Policy allows no inline style attributes.
  image.style.width = `${picture.width * zoom}px`;
  image.style.height = `${picture.height * zoom}px`;
  info.textContent = `${picture.width} × ${picture.height} pt${screen.error ? ` (not refreshed: ${screen.error.message})` : ''}`;
  const outline = $('screen-outline');
  const frame = state.selected === null ? undefined : picture.frames.get(state.selected);
  outline.hidden = !frame;
  if (frame) {
    const [x, y, width, height] = frame;
    outline.style.left = `${x * zoom}px`;
    outline.style.top = `${y * zoom}px`;
    outline.style.width = `${width * zoom}px`;
    outline.style.height = `${height * zoom}px`;
    outline.dataset.tag = String(state.selected);
  }
}

$('screen-image').addEventListener('click', async (event) => {
  const picture = screen.picture;
  if (!picture || picture.session !== state.session) return;
  const zoom = screenZoom(picture);
  const query = new URLSearchParams({ token, session: picture.session, x: String(event.offsetX / zoom), y: String(event.offsetY / zoom) });
  const answer = await (await fetch(`api/hit?${query}`)).json();
  if (answer.error || picture.session !== state.session) return;
  if (answer.hit) select(answer.hit.tag);
  else $('screen-info').textContent = 'no view takes a touch there';
});

// ---------- the stream ----------

let source = null;
let flashTimer = null;
let connectionUp = true;

function openStream() {
  source?.close();
  const query = new URLSearchParams({ token });
  if (state.session) query.set('session', state.session);
  source = new EventSource(`api/stream?${query}`);
  source.addEventListener('open', () => {
    connectionUp = true;
    dirty.header = true;
    schedule();
  });
  source.addEventListener('error', () => {
    connectionUp = false;
    dirty.header = true;
    schedule();
    // A stream the server ended (a page that fell behind is dropped) reconnects by itself, and the server sends
    // a fresh snapshot. One the browser gave up on (an HTTP error: CLOSED) is opened again here.
    const closed = source;
    if (closed.readyState === EventSource.CLOSED) {
      setTimeout(() => {
        if (source === closed) openStream();
      }, RECONNECT_MS);
    }
  });
  source.addEventListener('status', (message) => {
    const status = JSON.parse(message.data);
    state.daemon = status.daemon;
    dirty.header = true;
    schedule();
  });
  source.addEventListener('sessions', (message) => {
    state.sessions = JSON.parse(message.data);
    if (!state.session) {
      const live = state.sessions.filter((s) => s.connected);
      if (live.length === 1) {
        state.session = live[0].session;
        updateURL();
        openStream();
        return;
      }
    }
    dirty.header = true;
    schedule();
  });
  source.addEventListener('components', (message) => {
    state.components = JSON.parse(message.data);
  });
  source.addEventListener('snapshot', (message) => {
    loadSnapshot(JSON.parse(message.data));
  });
  source.addEventListener('missing', () => {
    state.ended = true;
    dirty.header = true;
    schedule();
  });
  source.addEventListener('changes', (message) => {
    const now = performance.now();
    let unknown = null;
    let screenChanged = false;
    for (const change of JSON.parse(message.data)) {
      if (SCREEN_CHANGES.has(change?.change)) screenChanged = true;
      try {
        applyChange({ state, dirty }, change, now);
      } catch (error) {
        if (!(error instanceof UnknownChange)) throw error;
        unknown ??= error;
      }
    }
    schedule();
    if (screenChanged) wantScreen();
    // Take the highlight off once it has played.
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => {
      dirty.rows = true;
      schedule();
    }, FLASH_MS + 50);
    if (unknown) failed(unknown);
  });
}

loadSnapshot(boot.snapshot);
if (boot.session && !params.has('session')) updateURL();
render();
if (state.selected !== null) select(state.selected);
openStream();
