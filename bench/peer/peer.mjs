#!/usr/bin/env node
// peer.mjs: what a user would write instead of bridged — the native side mocked in Node.
//
// Zero dependencies. Speaks protocol.md over a Unix socket for the `View` and `SwiftUIButton`
// components (and Examples/CustomComponent's `Chart`, its nested typed props checked and converted, for
// workload (7)): hello, create (parent/index), update (typed props, null resets, invalid_props with
// details), setChildren, delete, subscribe/unsubscribe (capture/bubble), command press (bubbling
// path as React Native dispatches it), inspect, batch (all or nothing), ping, stats.
// Written to be as fast as Node allows: one JSON.parse per line, responses assembled as strings,
// one socket write per chunk read.
//
// usage: node peer.mjs --socket PATH

import net from 'node:net';
import fs from 'node:fs';

// JSON.parse reads numbers as doubles: 2^63 − 1 arrives as 2^63, so the top of the int64 range is
// accepted inclusively (the daemon's parser tells 2^63 − 1 from 2^63; a peer in JS cannot).
const INT64_MIN = -(2 ** 63);
const INT64_MAX = 2 ** 63;
const MAX_OPS_PER_BATCH = 100_000;
const MAX_VIEWS_PER_SESSION = 2_000_000;

// ---------- components ----------

const types = {
  int: {
    name: 'int',
    check: (v) => typeof v === 'number' && Number.isInteger(v) && v >= INT64_MIN && v <= INT64_MAX,
  },
  string: { name: 'string', check: (v) => typeof v === 'string' },
  bool: { name: 'bool', check: (v) => typeof v === 'boolean' },
};

// Typed nested values (protocol.md "Typed props"), for workload (7)'s `Chart`: `convert` returns the value as
// `inspect` reports it, or BAD. A converted value carries its JSON text in `json`, so that "equal after
// conversion changes nothing" is one string comparison, as the daemon compares converted values.
const BAD = Symbol('bad');
const FLOAT_MAX = 3.4028234663852886e38;
const isNum = (v) => typeof v === 'number';
const plain = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const onlyKeys = (v, keys) => { for (const k in v) if (!keys.includes(k)) return false; return true; };
const float = (v) => (isNum(v) && Math.abs(v) <= FLOAT_MAX ? Math.fround(v) : BAD);
function color(v) {
  if (typeof v !== 'string' || v[0] !== '#' || !/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(v)) return BAD;
  let hex = v.slice(1).toLowerCase();
  if (hex.length === 3) hex = hex[0] + hex[0] + hex[1] + hex[1] + hex[2] + hex[2];
  return hex.length === 6 ? `#${hex}ff` : `#${hex}`;
}
function point(v) {
  if (!plain(v) || !isNum(v.x) || !isNum(v.y) || !onlyKeys(v, ['x', 'y'])) return BAD;
  return { x: v.x, y: v.y };
}
function edgeInsets(v) {
  if (!plain(v) || !onlyKeys(v, ['top', 'left', 'bottom', 'right'])) return BAD;
  const e = { top: v.top ?? 0, left: v.left ?? 0, bottom: v.bottom ?? 0, right: v.right ?? 0 };
  return isNum(e.top) && isNum(e.left) && isNum(e.bottom) && isNum(e.right) ? e : BAD;
}
function withJSON(v) {
  if (v !== BAD && v !== null && typeof v === 'object') Object.defineProperty(v, 'json', { value: JSON.stringify(v) });
  return v;
}
const same = (a, b) => a === b || (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && a.json === b.json);
const chartTypes = {
  int32: { name: 'int32', convert: (v) => (Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31 ? v : BAD) },
  float: { name: 'float', convert: float },
  string: { name: 'string', convert: (v) => (typeof v === 'string' ? v : BAD) },
  points: {
    name: 'array',
    convert(v) {
      if (!Array.isArray(v)) return BAD;
      const out = new Array(v.length);
      for (let i = 0; i < v.length; i++) if ((out[i] = point(v[i])) === BAD) return BAD;
      return withJSON(out);
    },
  },
  style: {
    name: 'object',
    convert(v) {
      if (!plain(v) || !onlyKeys(v, ['color', 'insets', 'label'])) return BAD;
      const c = color(v.color);
      const insets = v.insets == null ? { top: 0, left: 0, bottom: 0, right: 0 } : edgeInsets(v.insets);
      const label = v.label ?? null;
      if (c === BAD || insets === BAD || (label !== null && typeof label !== 'string')) return BAD;
      return withJSON({ color: c, insets, label });
    },
  },
};

const components = {
  View: {
    name: 'View',
    props: { testID: { type: types.string, default: '' } },
    events: {},
    commands: {},
    reads: ['testID'],
    render: (p) => (p.testID === '' ? 'View' : `View #${p.testID}`),
  },
  SwiftUIButton: {
    name: 'SwiftUIButton',
    props: {
      count: { type: types.int, default: 0 },
      title: { type: types.string, default: '' },
      disabled: { type: types.bool, default: false },
    },
    events: { countChange: { bubbles: true } },
    commands: {
      press: {
        args: [],
        run(view, emit) {
          if (!view.props.disabled) emit(view, 'countChange', { count: view.props.count + 1 });
        },
      },
    },
    reads: ['title', 'count', 'disabled'],
    render: (p) => `Button ${JSON.stringify(p.title)} count=${p.count}${p.disabled ? ' disabled' : ''}`,
  },
  // Examples/CustomComponent's Chart (its props, types and defaults; not its command): workload (7).
  Chart: {
    name: 'Chart',
    props: {
      selectedIndex: { type: chartTypes.int32, default: -1 },
      lineWidth: { type: chartTypes.float, default: 1 },
      points: { type: chartTypes.points, default: withJSON([]) },
      style: { type: chartTypes.style, default: withJSON({ color: '#000000ff', insets: { top: 0, left: 0, bottom: 0, right: 0 }, label: null }) },
      title: { type: chartTypes.string, default: null },
    },
    events: {},
    commands: {},
    reads: ['title', 'points', 'lineWidth', 'selectedIndex'],
    render: (p) => `Chart ${p.title ?? 'untitled'} points=${p.points.length} width=${p.lineWidth}` +
      (p.selectedIndex >= 0 ? ` selected=${p.selectedIndex}` : ''),
  },
};

for (const c of Object.values(components)) {
  c.propNames = Object.keys(c.props);
  c.known = c.propNames.join(', ');
  c.readSet = new Set(c.reads);
  c.quoted = Object.fromEntries(c.propNames.map((n) => [n, JSON.stringify(n)]));
}

/** Events some component declares: name → bubbles. */
const declaredEvents = new Map();
for (const c of Object.values(components)) {
  for (const [name, e] of Object.entries(c.events)) declaredEvents.set(name, e.bubbles);
}

function describe() {
  const out = {};
  for (const c of Object.values(components)) {
    const props = {};
    for (const [n, p] of Object.entries(c.props)) props[n] = { type: p.type.name, default: p.default };
    const events = {};
    for (const [n, e] of Object.entries(c.events)) {
      const cap = n[0].toUpperCase() + n.slice(1);
      events[n] = e.bubbles
        ? { bubbles: true, registrationNames: { bubbled: `on${cap}`, captured: `on${cap}Capture` } }
        : { bubbles: false, registrationName: `on${cap}` };
    }
    const commands = {};
    for (const [n, cmd] of Object.entries(c.commands)) commands[n] = { args: cmd.args };
    out[c.name] = { props, events, commands };
  }
  return out;
}
const COMPONENTS_JSON = JSON.stringify(describe());

// ---------- errors ----------

class BridgeError extends Error {
  constructor(code, message, extra) {
    super(message);
    this.code = code;
    this.extra = extra;
  }
  toJSON() {
    return { code: this.code, message: this.message, ...this.extra };
  }
}
const fail = (code, message, extra) => {
  throw new BridgeError(code, message, extra);
};

function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'boolean';
  return typeof v; // number, string, object
}
const display = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

// ---------- sessions ----------

let sessionCounter = 0;
let openSessions = 0;
let totalViews = 0;

const CAPTURE = 1;
const BUBBLE = 2;

class Session {
  constructor() {
    this.id = `s${++sessionCounter}`;
    this.helloed = false;
    this.views = new Map();
    this.seq = 0;
    this.undo = null; // an array while a batch runs
    this.touched = new Set(); // views whose observed props changed in this request
    this.events = null; // deferred event frames while a batch runs
    this.out = '';
    openSessions++;
  }

  close() {
    totalViews -= this.views.size;
    this.views.clear();
    openSessions--;
  }

  tagOf(req, field = 'tag') {
    const t = req[field];
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > INT64_MAX) {
      fail('bad_request', `${req.op}: '${field}' must be a positive integer`);
    }
    return t;
  }

  viewOf(req, field = 'tag') {
    const t = this.tagOf(req, field);
    const v = this.views.get(t);
    if (v === undefined) fail('unknown_tag', `${req.op}: no view with tag ${t}`);
    return v;
  }

  record(fn) {
    if (this.undo !== null) this.undo.push(fn);
  }

  /** Checks every prop; returns [[name, value]] to apply or throws invalid_props listing every bad one. */
  convert(props, comp, tag, op) {
    if (props === null || typeof props !== 'object' || Array.isArray(props)) {
      fail('bad_request', `${op}: 'props' must be an object`);
    }
    const ok = [];
    let issues = null;
    for (const name in props) {
      const v = props[name];
      const p = comp.props[name];
      if (p === undefined) {
        (issues ??= []).push({
          prop: name, expected: `one of ${comp.known}`, got: v, message: `${comp.name} has no prop '${name}'`,
        });
      } else if (v === null) {
        ok.push(name, p.default);
      } else if (p.type.convert !== undefined) {
        const c = p.type.convert(v);
        if (c !== BAD) ok.push(name, c);
        else {
          (issues ??= []).push({
            prop: name, path: name, expected: p.type.name, got: v,
            message: `JSON value '${display(v)}' of type ${typeName(v)} cannot be converted to ${p.type.name}`,
          });
        }
      } else if (p.type.check(v)) {
        ok.push(name, v);
      } else {
        (issues ??= []).push({
          prop: name, expected: p.type.name, got: v,
          message: `JSON value '${display(v)}' of type ${typeName(v)} cannot be converted to ${p.type.name}`,
        });
      }
    }
    if (issues !== null) {
      const what = issues.length === 1 ? `invalid prop '${issues[0].prop}'` : `${issues.length} invalid props`;
      fail('invalid_props', `${op}: ${what} for ${comp.name} (tag ${tag}): ${issues[0].message}`, { details: issues });
    }
    return ok;
  }

  /** Applies converted props; returns the JSON text of the changed names. */
  apply(view, ok) {
    let changed = '';
    const props = view.props;
    const comp = view.comp;
    for (let i = 0; i < ok.length; i += 2) {
      const name = ok[i];
      const old = props[name];
      if (same(old, ok[i + 1])) continue;
      props[name] = ok[i + 1];
      changed += changed === '' ? comp.quoted[name] : ',' + comp.quoted[name];
      if (comp.readSet.has(name)) this.touched.add(view);
      if (this.undo !== null) this.undo.push(() => { props[name] = old; });
    }
    return changed;
  }

  renderTouched() {
    for (const v of this.touched) {
      if (!this.views.has(v.tag) || this.views.get(v.tag) !== v) continue;
      const text = v.comp.render(v.props);
      v.render = text;
      v.renders++;
    }
    this.touched.clear();
  }

  emit(view, event, payload) {
    // Path: capture listeners root → target, then bubble listeners target → root.
    const chain = [];
    for (let v = view; v !== null; v = v.parent) chain.push(v);
    let path = '';
    for (let i = chain.length - 1; i >= 0; i--) {
      const s = chain[i].subs;
      if (s !== null && (s.get(event) & CAPTURE)) path += `${path ? ',' : ''}{"tag":${chain[i].tag},"phase":"capture"}`;
    }
    for (let i = 0; i < chain.length; i++) {
      const s = chain[i].subs;
      if (s !== null && (s.get(event) & BUBBLE)) path += `${path ? ',' : ''}{"tag":${chain[i].tag},"phase":"bubble"}`;
    }
    if (path === '') return;
    const rest = `,"target":${view.tag},"payload":${JSON.stringify(payload)},"path":[${path}]}\n`;
    const pre = `{"event":${JSON.stringify(event)},"seq":`;
    if (this.events !== null) this.events.push(pre, rest);
    else this.out += pre + ++this.seq + rest;
  }

  // ----- ops: each returns the result's JSON text -----

  hello(req) {
    if (req.protocol !== 1) {
      if (typeof req.protocol !== 'number') fail('bad_request', "hello: 'protocol' must be a number");
      fail('unsupported_protocol', `hello: protocol ${req.protocol} is not supported (this server speaks 1)`);
    }
    if (req.client !== undefined && typeof req.client !== 'string') fail('bad_request', "hello: 'client' must be a string");
    this.helloed = true;
    return `{"protocol":1,"server":"node-peer/0.1.0","session":"${this.id}","components":${COMPONENTS_JSON}}`;
  }

  create(req) {
    const tag = this.tagOf(req);
    if (typeof req.component !== 'string') fail('bad_request', "create: 'component' must be a string");
    const comp = components[req.component];
    if (comp === undefined || !Object.hasOwn(components, req.component)) {
      fail('unknown_component', `create: no component named '${req.component}'`);
    }
    if (this.views.has(tag)) fail('tag_in_use', `create: tag ${tag} already has a view`);
    let parent = null;
    let index = -1;
    if (req.parent !== undefined && req.parent !== null) {
      parent = this.viewOf(req, 'parent');
      if (req.index !== undefined && req.index !== null) {
        const i = req.index;
        if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i > parent.children.length) {
          fail('bad_request', `create: index ${JSON.stringify(i)} is outside 0…${parent.children.length}`);
        }
        index = i;
      }
    }
    const ok = req.props === undefined ? [] : this.convert(req.props, comp, tag, 'create');
    if (this.views.size >= MAX_VIEWS_PER_SESSION) {
      fail('limit_exceeded', `create: the session has ${this.views.size} views, the limit is ${MAX_VIEWS_PER_SESSION}`);
    }
    const props = {};
    for (const n of comp.propNames) props[n] = comp.props[n].default;
    const view = { tag, comp, props, parent, children: [], subs: null, render: '', renders: 0 };
    for (let i = 0; i < ok.length; i += 2) props[ok[i]] = ok[i + 1];
    this.views.set(tag, view);
    totalViews++;
    if (parent !== null) {
      if (index < 0) parent.children.push(view);
      else parent.children.splice(index, 0, view);
    }
    this.touched.add(view);
    this.record(() => {
      this.views.delete(tag);
      totalViews--;
      if (parent !== null) parent.children.splice(parent.children.indexOf(view), 1);
    });
    return `{"tag":${tag}}`;
  }

  update(req) {
    const view = this.viewOf(req);
    const ok = this.convert(req.props, view.comp, view.tag, 'update');
    return `{"changed":[${this.apply(view, ok)}]}`;
  }

  setChildren(req) {
    const view = this.viewOf(req);
    if (!Array.isArray(req.children)) fail('bad_request', "setChildren: 'children' must be an array");
    const kids = [];
    const seen = new Set();
    for (let i = 0; i < req.children.length; i++) {
      const t = req.children[i];
      if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > INT64_MAX) {
        fail('bad_request', 'setChildren: children must be positive integers');
      }
      if (seen.has(t)) fail('bad_request', `setChildren: tag ${t} is listed twice`);
      seen.add(t);
      const k = this.views.get(t);
      if (k === undefined) fail('unknown_tag', `setChildren: no view with tag ${t}`);
      for (let a = view; a !== null; a = a.parent) {
        if (a === k) fail('cycle', `setChildren: ${t} is ${view.tag} or one of its ancestors`);
      }
      kids.push(k);
    }
    const oldChildren = view.children;
    const moved = [];
    for (const k of oldChildren) if (!seen.has(k.tag)) { moved.push([k, k.parent]); k.parent = null; }
    for (const k of kids) {
      if (k.parent === view) continue;
      const p = k.parent;
      let at;
      if (p !== null) {
        at = p.children.indexOf(k);
        p.children.splice(at, 1);
      }
      moved.push([k, p, at]);
      k.parent = view;
    }
    view.children = kids;
    this.record(() => {
      view.children = oldChildren;
      for (let i = moved.length - 1; i >= 0; i--) {
        const [k, p, at] = moved[i];
        if (at !== undefined) p.children.splice(at, 0, k);
        k.parent = p;
      }
    });
    return `{"children":[${kids.map((k) => k.tag).join(',')}]}`;
  }

  delete(req) {
    const view = this.viewOf(req);
    const gone = [];
    const walk = (v) => {
      gone.push(v);
      for (const c of v.children) walk(c);
    };
    walk(view);
    const parent = view.parent;
    let at = -1;
    if (parent !== null) {
      at = parent.children.indexOf(view);
      parent.children.splice(at, 1);
    }
    for (const v of gone) this.views.delete(v.tag);
    totalViews -= gone.length;
    this.record(() => {
      for (const v of gone) this.views.set(v.tag, v);
      totalViews += gone.length;
      if (parent !== null) parent.children.splice(at, 0, view);
    });
    return `{"deleted":[${gone.map((v) => v.tag).join(',')}]}`;
  }

  subscription(req, on) {
    const view = this.viewOf(req);
    const event = req.event;
    if (typeof event !== 'string') fail('bad_request', `${req.op}: 'event' must be a string`);
    let phase = BUBBLE;
    if (req.phase !== undefined) {
      if (req.phase === 'capture') phase = CAPTURE;
      else if (req.phase !== 'bubble') fail('bad_request', `${req.op}: 'phase' must be "bubble" or "capture"`);
    }
    const bubbles = declaredEvents.get(event);
    if (bubbles === undefined) fail('unknown_event', `${req.op}: no component declares '${event}'`);
    if (!bubbles) {
      if (!Object.hasOwn(view.comp.events, event)) fail('unknown_event', `${req.op}: ${view.comp.name} does not emit '${event}'`);
      if (phase === CAPTURE) fail('bad_request', `${req.op}: '${event}' is direct and has no capture phase`);
    }
    if (view.subs === null) view.subs = new Map();
    const old = view.subs.get(event) | 0;
    const now = on ? old | phase : old & ~phase;
    view.subs.set(event, now);
    this.record(() => view.subs.set(event, old));
    return '{}';
  }

  command(req) {
    const view = this.viewOf(req);
    if (typeof req.name !== 'string') fail('bad_request', "command: 'name' must be a string");
    const cmd = Object.hasOwn(view.comp.commands, req.name) ? view.comp.commands[req.name] : undefined;
    if (cmd === undefined) fail('unknown_command', `command: ${view.comp.name} has no command '${req.name}'`);
    const args = req.args === undefined ? [] : req.args;
    if (!Array.isArray(args)) fail('bad_request', "command: 'args' must be an array");
    if (args.length !== cmd.args.length) {
      fail('invalid_args', `command: ${req.name} takes ${cmd.args.length} arguments, got ${args.length}`, {
        details: [{ expected: `${cmd.args.length} arguments`, got: args, message: `${req.name} takes ${cmd.args.length} arguments` }],
      });
    }
    cmd.run(view, (v, e, p) => this.emit(v, e, p));
    return '{}';
  }

  inspect(req) {
    const v = this.viewOf(req);
    return JSON.stringify({
      tag: v.tag, component: v.comp.name, props: v.props, parent: v.parent === null ? null : v.parent.tag,
      children: v.children.map((c) => c.tag), render: v.render, renders: v.renders,
    });
  }

  batch(req) {
    if (!Array.isArray(req.ops)) fail('bad_request', "batch: 'ops' must be an array");
    const ops = req.ops;
    if (ops.length > MAX_OPS_PER_BATCH) {
      fail('limit_exceeded', `batch: ${ops.length} ops exceed the limit of ${MAX_OPS_PER_BATCH} per batch`);
    }
    this.undo = [];
    this.events = [];
    let results = '';
    let i = 0;
    try {
      for (; i < ops.length; i++) {
        const op = ops[i];
        if (op === null || typeof op !== 'object' || Array.isArray(op)) fail('bad_request', 'batch: an op must be an object');
        if (op.op === 'hello' || op.op === 'batch') fail('bad_request', `batch: '${op.op}' cannot be nested in a batch`);
        results += (i ? ',' : '') + this.dispatch(op);
      }
    } catch (e) {
      if (!(e instanceof BridgeError)) throw e;
      for (let k = this.undo.length - 1; k >= 0; k--) this.undo[k]();
      this.undo = null;
      this.events = null;
      // A rolled-back view renders only if its props really differ from its last render; keep it simple.
      this.touched.clear();
      fail('batch_failed', `batch: op ${i} failed: ${e.message}`, { index: i, error: e.toJSON() });
    }
    this.undo = null;
    const evs = this.events;
    this.events = null;
    for (let k = 0; k < evs.length; k += 2) this.out += evs[k] + ++this.seq + evs[k + 1];
    return `{"results":[${results}]}`;
  }

  stats() {
    return `{"sessions":${openSessions},"views":${totalViews},"sessionViews":${this.views.size},"seq":${this.seq}}`;
  }

  dispatch(req) {
    switch (req.op) {
      case 'update': return this.update(req);
      case 'command': return this.command(req);
      case 'create': return this.create(req);
      case 'setChildren': return this.setChildren(req);
      case 'delete': return this.delete(req);
      case 'subscribe': return this.subscription(req, true);
      case 'unsubscribe': return this.subscription(req, false);
      case 'inspect': return this.inspect(req);
      case 'ping': return '{}';
      case 'stats': return this.stats();
      case 'batch': return this.batch(req);
      case 'hello': return this.hello(req);
      case undefined: return fail('bad_request', "the request has no 'op'");
      default:
        if (typeof req.op !== 'string') fail('bad_request', "'op' must be a string");
        return fail('unknown_op', `unknown op '${req.op}'`);
    }
  }

  /** Handles one non-blank line; appends event frames and the response to this.out. */
  line(text) {
    let req;
    try {
      req = JSON.parse(text);
    } catch (e) {
      this.out += `{"id":null,"ok":false,"error":${JSON.stringify({ code: 'bad_json', message: e.message })}}\n`;
      return;
    }
    let idText = 'null';
    try {
      if (req === null || typeof req !== 'object' || Array.isArray(req)) fail('bad_request', 'a request must be a JSON object');
      const id = req.id;
      if (id !== undefined && id !== null) {
        if (typeof id === 'number' && Number.isInteger(id)) idText = String(id);
        else if (typeof id === 'string') idText = JSON.stringify(id);
        else fail('bad_request', "'id' must be an integer or a string");
      }
      if (!this.helloed && req.op !== 'hello') fail('hello_required', `'${req.op}' before hello`);
      const result = this.dispatch(req);
      if (this.touched.size) this.renderTouched();
      this.out += `{"id":${idText},"ok":true,"result":${result}}\n`;
    } catch (e) {
      if (!(e instanceof BridgeError)) throw e;
      this.touched.clear();
      this.out += `{"id":${idText},"ok":false,"error":${JSON.stringify(e)}}\n`;
    }
  }
}

// ---------- socket ----------

function serve(socketPath) {
  try { fs.unlinkSync(socketPath); } catch {}
  const server = net.createServer((sock) => {
    const session = new Session();
    let pending = '';
    sock.setEncoding('utf8');
    sock.on('data', (chunk) => {
      let text = pending === '' ? chunk : pending + chunk;
      let start = 0;
      let nl;
      while ((nl = text.indexOf('\n', start)) !== -1) {
        let end = nl;
        if (end > start && text.charCodeAt(end - 1) === 13) end--;
        if (end > start) session.line(text.slice(start, end));
        start = nl + 1;
      }
      pending = start === 0 ? text : text.slice(start);
      if (session.out !== '') {
        const out = session.out;
        session.out = '';
        if (!sock.write(out)) {
          sock.pause();
          sock.once('drain', () => sock.resume());
        }
      }
    });
    sock.on('error', () => {});
    sock.on('close', () => session.close());
  });
  server.listen(socketPath, () => process.stderr.write(`node peer: listening on ${socketPath}\n`));
  const stop = () => {
    server.close();
    try { fs.unlinkSync(socketPath); } catch {}
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

const args = process.argv.slice(2);
const at = args.indexOf('--socket');
if (at < 0 || !args[at + 1]) {
  process.stderr.write('usage: node peer.mjs --socket PATH\n');
  process.exit(2);
}
serve(args[at + 1]);
