// The soak's model of one client: what its session must look like, folded from the client's journal.
//
// A worker journals every step of every client (request about to be written, response, event, connection
// lost) with a synchronous write before acting on it, so that the journal survives a SIGKILL of the worker.
// The same fold runs in three places: in the worker as it goes (to choose the next action), in a
// replacement worker (to resume the sessions of a killed one with their cursors), and in the parent at the
// end (the verdict). Every rule checked here is a sentence of protocol.md.

/** Each built-in's props as `inspect` reports them when never set, in the daemon's order (protocol.md). */
export const DEFAULTS = {
  View: {
    testID: '', nativeID: '', accessible: false, accessibilityLabel: '', accessibilityHint: '', accessibilityRole: '',
    pointerEvents: 'auto', opacity: 1, backgroundColor: null, hitSlop: null,
  },
  SwiftUIButton: { count: 0, title: '', disabled: false },
  TextField: {
    text: '', placeholder: '', color: '#000000ff', clearButtonMode: 'whileEditing', fontSize: 17, disabled: false,
  },
};

/** Requests that may be sent again after a connection loss left their outcome unknown. */
const IDEMPOTENT = new Set(['create', 'update', 'delete', 'subscribe', 'unsubscribe', 'batch', 'inspect', 'ping', 'ack']);

const MAX_FAILURES_KEPT = 20;

export function newClient(id) {
  return {
    id,
    session: null,
    token: null, // the resume token of the session
    lastSeq: 0, // the last event seq journaled (dispatched) in this session
    acked: 0,
    views: new Map(), // tag -> {component, props, parent, children, bubble, capture}
    nextTag: 1,
    nextId: 1,
    pending: null, // the request in flight: {frame, expect, eventSeen, half, resolve, expectErr}
    ambiguous: null, // the request in flight when the connection was lost
    replaying: false, // between a resume's response and the ping after it
    replayNext: 0, // the seq the next re-sent event of a resume must have
    replayUntil: 0, // the resume's `seq`: the last event the daemon wrote
    ackUncertain: false, // an ack was in flight when the connection was lost (the daemon may have taken it)
    recent: new Map(), // seq -> event text, the last few, to compare a duplicate with the original
    lastEventCount: null,
    verified: false,
    deletedTags: [],
    stats: {
      frames: 0, owed: 0, received: 0, maybeEmitted: 0, maybeNotEmitted: 0, duplicates: 0, gaps: 0, unexpected: 0,
      missing: 0, resumesOk: 0, resets: 0, lost: 0, resent: 0, halfNotApplied: 0, inspects: 0, inspectMismatch: 0,
      sessions: 0, failures: 0,
    },
    failures: [],
  };
}

function fail(c, msg) {
  c.stats.failures++;
  if (c.failures.length < MAX_FAILURES_KEPT) c.failures.push(`client ${c.id} session ${c.session} seq ${c.lastSeq}: ${msg}`);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The subtree of `tag`, pre-order. */
export function subtree(c, tag) {
  const out = [];
  const walk = (t) => {
    const v = c.views.get(t);
    if (!v) return;
    out.push(t);
    for (const ch of v.children) walk(ch);
  };
  walk(tag);
  return out;
}

/** The path protocol.md's dispatch gives: capture listeners root -> target, then bubble target -> root. */
export function expectedPath(c, tag) {
  const chain = [];
  for (let t = tag; t != null; t = c.views.get(t).parent) chain.unshift(t);
  const path = [];
  for (const t of chain) if (c.views.get(t).capture) path.push({ tag: t, phase: 'capture' });
  for (const t of [...chain].reverse()) if (c.views.get(t).bubble) path.push({ tag: t, phase: 'bubble' });
  return path;
}

/** What a press on `tag` must emit now: null when no frame may be written. */
export function expectedPress(c, tag) {
  const v = c.views.get(tag);
  if (!v || v.component !== 'SwiftUIButton' || v.props.disabled) return null;
  const path = expectedPath(c, tag);
  if (path.length === 0) return null;
  return { event: 'countChange', target: tag, payload: { count: v.props.count + 1 }, path };
}

/**
 * A prop value as `inspect` reports it (protocol.md "Typed props"): a color as `#rrggbbaa`, an edgeInsets with
 * all four edges in the order top, left, bottom, right. Floats are sent exactly representable, so they read
 * back as sent.
 */
export function reported(name, val) {
  if (val === null || val === undefined) return val;
  if (name === 'backgroundColor' || name === 'color') {
    let hex = val.slice(1).toLowerCase();
    if (hex.length === 3) hex = [...hex].map((d) => d + d).join('');
    if (hex.length === 6) hex += 'ff';
    return `#${hex}`;
  }
  if (name === 'hitSlop') return { top: val.top ?? 0, left: val.left ?? 0, bottom: val.bottom ?? 0, right: val.right ?? 0 };
  return val;
}

function applyOp(c, op) {
  switch (op.op) {
    case 'create': {
      const props = { ...DEFAULTS[op.component] };
      for (const [k, val] of Object.entries(op.props ?? {})) props[k] = val === null ? DEFAULTS[op.component][k] : reported(k, val);
      c.views.set(op.tag, { component: op.component, props, parent: op.parent ?? null, children: [], bubble: false, capture: false });
      if (op.parent != null) c.views.get(op.parent).children.push(op.tag);
      break;
    }
    case 'update': {
      const v = c.views.get(op.tag);
      for (const [k, val] of Object.entries(op.props)) v.props[k] = val === null ? DEFAULTS[v.component][k] : reported(k, val);
      break;
    }
    case 'delete': {
      const v = c.views.get(op.tag);
      if (v.parent != null) {
        const p = c.views.get(v.parent);
        p.children = p.children.filter((t) => t !== op.tag);
      }
      for (const t of subtree(c, op.tag)) {
        c.views.delete(t);
        c.deletedTags.push(t);
        if (c.deletedTags.length > 8) c.deletedTags.shift();
      }
      break;
    }
    case 'subscribe':
    case 'unsubscribe':
      c.views.get(op.tag)[op.phase ?? 'bubble'] = op.op === 'subscribe';
      break;
    case 'batch':
      for (const inner of op.ops) applyOp(c, inner);
      break;
    default:
      break;
  }
}

/** The outcome a response should have, given the model before the request. */
function checkResult(c, p, res) {
  const f = p.frame;
  const err = res.ok ? null : res.error?.code;
  if (p.expectErr) {
    if (err !== p.expectErr) fail(c, `${f.op} ${JSON.stringify(f)} expected error ${p.expectErr}, got ${JSON.stringify(res)}`);
    return;
  }
  if (p.resolve) {
    // A re-sent request whose first sending may or may not have taken effect.
    const applied =
      (f.op === 'create' && err === 'tag_in_use') ||
      (f.op === 'batch' && err === 'batch_failed' && res.error.index === 0 && res.error.error?.code === 'tag_in_use') ||
      (f.op === 'delete' && err === 'unknown_tag');
    if (res.ok || applied) applyOp(c, f);
    else fail(c, `re-sent ${f.op} failed: ${JSON.stringify(res.error)}`);
    return;
  }
  switch (f.op) {
    case 'hello':
      if (!res.ok) return fail(c, `hello failed: ${JSON.stringify(res.error)}`);
      if (f.resume) {
        if (res.result.resumed === true && res.result.session === f.resume.session) {
          c.stats.resumesOk++;
          if (!(res.result.seq >= c.lastSeq)) fail(c, `resume says seq ${res.result.seq} < ${c.lastSeq} already received`);
          c.replaying = true;
          // The resume's ack acknowledges too (the daemon forgets the events up to it).
          c.acked = Math.max(c.acked, f.resume.ack);
          c.replayNext = f.resume.ack + 1;
          c.replayUntil = res.result.seq;
        } else {
          c.stats.resets++;
          fail(c, `resume of ${f.resume.session} at ${f.resume.ack} not resumed: ${JSON.stringify(res.result.reason)}`);
          freshSession(c, res.result.session, res.result.token);
        }
      } else {
        freshSession(c, res.result.session, res.result.token);
      }
      return;
    case 'ping':
      if (!res.ok) return fail(c, `ping failed: ${JSON.stringify(res.error)}`);
      if (c.replaying) endReplay(c);
      return;
    case 'ack':
      if (!res.ok || res.result.acked !== f.seq) return fail(c, `ack ${f.seq}: ${JSON.stringify(res)}`);
      c.acked = f.seq;
      c.ackUncertain = false;
      return;
    case 'command': {
      if (!res.ok) return fail(c, `press ${f.tag}: ${JSON.stringify(res.error)}`);
      if (p.expect) {
        c.stats.owed++;
        if (p.eventSeen) c.stats.received++;
        else {
          c.stats.missing++;
          fail(c, `press on ${f.tag} answered ok but its event ${JSON.stringify(p.expect)} never came`);
        }
      }
      return;
    }
    case 'inspect': {
      c.stats.inspects++;
      const v = c.views.get(f.tag);
      if (!v) {
        if (err !== 'unknown_tag') fail(c, `inspect of deleted ${f.tag}: ${JSON.stringify(res)}`);
        return;
      }
      if (!res.ok) return fail(c, `inspect ${f.tag}: ${JSON.stringify(res.error)}`);
      const r = res.result;
      if (r.component !== v.component || !same(r.props, v.props) || r.parent !== v.parent || !same(r.children, v.children)) {
        c.stats.inspectMismatch++;
        fail(c, `inspect ${f.tag}: got ${JSON.stringify({ component: r.component, props: r.props, parent: r.parent, children: r.children })}` +
          ` expected ${JSON.stringify({ component: v.component, props: v.props, parent: v.parent, children: v.children })}`);
      }
      return;
    }
    case 'delete':
      if (!res.ok) return fail(c, `delete ${f.tag}: ${JSON.stringify(res.error)}`);
      if (!same(res.result.deleted, subtree(c, f.tag))) fail(c, `delete ${f.tag}: deleted ${JSON.stringify(res.result.deleted)}, expected ${JSON.stringify(subtree(c, f.tag))}`);
      applyOp(c, f);
      return;
    default:
      if (!res.ok) return fail(c, `${f.op} ${JSON.stringify(f)}: ${JSON.stringify(res.error)}`);
      applyOp(c, f);
  }
}

function freshSession(c, session, token) {
  c.session = session;
  c.token = token; // a resume must present it
  c.stats.sessions++;
  c.lastSeq = 0;
  c.acked = 0;
  c.ackUncertain = false;
  c.recent.clear();
  c.views.clear();
  c.ambiguous = null;
  c.replaying = false;
}

/** The resume's re-sent events are all in: a press whose response was lost either emitted or did not. */
function endReplay(c) {
  c.replaying = false;
  if (c.replayNext !== c.replayUntil + 1) {
    fail(c, `resume re-sent events up to ${c.replayNext - 1}, the daemon's last event is ${c.replayUntil}`);
  }
  const a = c.ambiguous;
  if (!a) return;
  if (a.half) {
    // Only part of the line was written before the cut: it is not a frame and must not have taken effect.
    c.stats.halfNotApplied++;
    c.ambiguous = null;
  } else if (a.frame.op === 'command') {
    if (a.expect && a.eventSeen) c.stats.maybeEmitted++;
    else c.stats.maybeNotEmitted++;
    if (a.whole) {
      // Its whole line was written before the writer was killed: a frame, so the daemon ran it.
      c.stats.wholePresses = (c.stats.wholePresses ?? 0) + 1;
      if (a.expect && !a.eventSeen) fail(c, `press ${JSON.stringify(a.frame)} written whole before a SIGKILL: its event never came`);
    }
    c.ambiguous = null;
  } else if (!IDEMPOTENT.has(a.frame.op) || ['inspect', 'ping', 'ack', 'hello'].includes(a.frame.op)) {
    c.ambiguous = null;
  }
  // Otherwise it stays until the worker re-sends it (a `send` with resolve).
}

function onEvent(c, ev) {
  if (c.replaying) {
    if (ev.seq !== c.replayNext) fail(c, `resume re-sent seq ${ev.seq}, expected ${c.replayNext}`);
    c.replayNext = ev.seq + 1;
  }
  const text = JSON.stringify(ev);
  if (ev.seq <= c.lastSeq) {
    c.stats.duplicates++;
    const original = c.recent.get(ev.seq);
    if (original !== undefined && original !== text) fail(c, `duplicate ${text} differs from the original ${original}`);
    return;
  }
  c.recent.set(ev.seq, text);
  if (c.recent.size > 64) c.recent.delete(c.recent.keys().next().value);
  if (ev.seq !== c.lastSeq + 1) {
    c.stats.gaps++;
    fail(c, `gap: event seq ${ev.seq} after ${c.lastSeq}`);
  }
  c.lastSeq = ev.seq;
  let holder = null;
  if (c.pending?.frame.op === 'command') holder = c.pending;
  else if (c.replaying && c.ambiguous?.frame.op === 'command') holder = c.ambiguous;
  if (!holder || !holder.expect || holder.eventSeen) {
    c.stats.unexpected++;
    fail(c, `unexpected event ${JSON.stringify(ev)} (in flight: ${JSON.stringify(c.pending?.frame ?? null)})`);
    return;
  }
  holder.eventSeen = true;
  const e = holder.expect;
  if (ev.event !== e.event || ev.target !== e.target || !same(ev.payload, e.payload) || !same(ev.path, e.path)) {
    fail(c, `event ${JSON.stringify(ev)} does not match ${JSON.stringify(e)}`);
  }
  c.lastEventCount = { tag: ev.target, count: ev.payload?.count };
}

/** Folds one journal record into the client's model. */
export function apply(c, rec) {
  switch (rec.t) {
    case 'send': {
      for (const op of rec.frame.op === 'batch' ? rec.frame.ops : [rec.frame]) {
        if (op.op === 'create' && op.tag >= c.nextTag) c.nextTag = op.tag + 1;
      }
      if (c.pending) fail(c, `send while ${JSON.stringify(c.pending.frame)} is in flight`);
      const f = rec.frame;
      c.stats.frames++;
      if (rec.resolve) c.stats.resent++;
      c.pending = {
        frame: f,
        expect: f.op === 'command' && f.name === 'press' ? expectedPress(c, f.tag) : null,
        eventSeen: false,
        half: !!rec.half,
        whole: !!rec.whole,
        resolve: !!rec.resolve,
        expectErr: rec.expectErr ?? null,
      };
      if (rec.resolve) c.ambiguous = null;
      if (f.op === 'hello') c.verified = false;
      break;
    }
    case 'res': {
      const p = c.pending;
      if (!p || p.frame.id !== rec.frame.id) {
        fail(c, `response ${JSON.stringify(rec.frame)} matches no request in flight`);
        break;
      }
      c.pending = null;
      checkResult(c, p, rec.frame);
      break;
    }
    case 'ev':
      onEvent(c, rec.frame);
      break;
    case 'lost':
      c.stats.lost++;
      if (c.pending?.frame.op === 'ack' || c.pending?.frame.resume) c.ackUncertain = true;
      if (c.pending) {
        const op = c.pending.frame.op;
        // A resume, ping or ack in flight changes nothing the model holds; a first hello's session is gone.
        if (!['hello', 'ping', 'ack', 'inspect'].includes(op) || c.pending.half) {
          if (c.ambiguous && !c.ambiguous.half) fail(c, `two requests of unknown outcome`);
          c.ambiguous = c.pending;
        }
        c.pending = null;
      }
      c.replaying = false;
      break;
    case 'verified':
      c.verified = true;
      break;
    case 'fail':
      fail(c, rec.msg);
      break;
    case 'cut':
      c.stats.cuts = (c.stats.cuts ?? 0) + 1;
      break;
    default:
      break;
  }
}

/** Folds one record of a worker's journal; `inc` (a worker process started) loses every connection it had. */
export function foldRecord(clients, rec) {
  if (rec.t === 'inc') {
    for (const id of rec.clients) {
      if (!clients.has(id)) clients.set(id, newClient(id));
      else apply(clients.get(id), { t: 'lost' });
    }
    return;
  }
  const c = clients.get(rec.c);
  if (c) apply(c, rec);
}

/** Folds a whole journal's text; a torn last line (a writer killed mid-write) is ignored. */
export function foldJournal(clients, text) {
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    foldRecord(clients, JSON.parse(text.slice(start, nl)));
    start = nl + 1;
  }
  return start; // bytes of whole lines
}
