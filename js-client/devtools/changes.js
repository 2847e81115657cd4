// The DevTools page's model of one session: what each change frame (protocol.md, "Observing sessions") does to
// it. A module of its own, with no DOM, so that Node's tests import it too (test/devtools-changes.test.js).
//
// One handler per change kind the daemon sends, in CHANGES; a kind without one is an UnknownChange, thrown:
// the page shows it and stops trusting its model (devtools.js), instead of silently drawing a stale tree.

export const MAX_EVENTS = 1000;
export const MAX_COMMANDS = 1000;

/** A change kind the page has no handler for (a daemon newer than the page). */
export class UnknownChange extends Error {
  constructor(change) {
    const kind = typeof change?.change === 'string' ? change.change : JSON.stringify(change?.change);
    super(
      `this DevTools page does not know the change "${kind}" (is the daemon newer than bridged-client?): ` +
        'what it shows of the session may be wrong from here on',
    );
    this.name = 'UnknownChange';
    this.kind = kind;
  }
}

function detach(state, view) {
  if (view.parent === null) return;
  const parent = state.views.get(view.parent);
  if (parent) parent.children = parent.children.filter((tag) => tag !== view.tag);
  view.parent = null;
}

/**
 * What each kind does to `state` (views by tag, events, snapshot, ended, selected), and which parts of the page
 * it makes `dirty`. `view` is the view the change names by `tag`, if the page has it.
 */
const CHANGES = {
  created({ state, dirty }, change, now) {
    const created = change.view;
    created.updatedAt = now;
    created.commands ??= [];
    state.views.set(created.tag, created);
    if (created.parent !== null) {
      const parent = state.views.get(created.parent);
      if (parent) parent.children.splice(change.index ?? parent.children.length, 0, created.tag);
    }
    dirty.tree = dirty.header = true;
  },
  updated({ state, dirty }, change, now, view) {
    if (!view) return;
    Object.assign(view.props, change.props);
    view.stale = true;
    view.updatedAt = now;
    dirty.rows = true;
    if (view.tag === state.selected) dirty.detail = true;
  },
  moved({ state, dirty }, change, now, view) {
    if (!view) return;
    const kept = new Set(change.children);
    for (const tag of view.children) {
      const child = state.views.get(tag);
      if (child && !kept.has(tag)) child.parent = null;
    }
    for (const tag of change.children) {
      const child = state.views.get(tag);
      if (!child) continue;
      if (child.parent !== view.tag) detach(state, child);
      child.parent = view.tag;
    }
    view.children = change.children.slice();
    view.updatedAt = now;
    dirty.tree = true;
  },
  deleted({ state, dirty }, change) {
    const root = state.views.get(change.tags[0]);
    if (root) detach(state, root);
    for (const tag of change.tags) state.views.delete(tag);
    dirty.tree = dirty.header = true;
    if (change.tags.includes(state.selected)) dirty.detail = true;
  },
  // A layout pass's new frames (a session with layout on): each view's `layout`, shown in its detail.
  laidOut({ state, dirty }, change) {
    for (const { tag, layout } of change.frames ?? []) {
      const view = state.views.get(tag);
      if (!view) continue;
      view.layout = layout;
      if (tag === state.selected) dirty.detail = true;
    }
  },
  subscribed({ state, dirty }, change, now, view) {
    if (!view) return;
    if (change.phases.length === 0) delete view.listeners[change.event];
    else view.listeners[change.event] = change.phases;
    if (view.tag === state.selected) dirty.detail = true;
  },
  command({ state, dirty }, change, now, view) {
    if (!view) return;
    view.commands.push({ name: change.name, args: change.args });
    if (view.commands.length > MAX_COMMANDS * 1.5) view.commands = view.commands.slice(-MAX_COMMANDS);
    if (view.tag === state.selected) dirty.detail = true;
  },
  event({ state, dirty }, change) {
    state.events.push(change.event);
    if (state.events.length > MAX_EVENTS * 1.5) state.events = state.events.slice(-MAX_EVENTS);
    if (state.snapshot) state.snapshot.seq = change.event.seq;
    dirty.log = dirty.header = true;
  },
  render({ state, dirty }, change, now, view) {
    if (!view) return;
    view.render = change.render;
    view.renders = change.renders;
    view.stale = false;
    view.updatedAt = now;
    dirty.rows = true;
    if (view.tag === state.selected) dirty.detail = true;
  },
  ended({ state, dirty }) {
    state.ended = true;
    dirty.header = true;
  },
};

/** The change kinds the page handles (the server handles `cutoff` itself: lib/devtools.js NOT_FORWARDED). */
export const CHANGE_KINDS = Object.freeze(Object.keys(CHANGES));

/**
 * Applies one change frame to the page's model `{state, dirty}` at time `now`. Throws an UnknownChange for a
 * kind it has no handler for, having changed nothing.
 */
export function applyChange(model, change, now) {
  const handler = Object.hasOwn(CHANGES, change?.change) ? CHANGES[change.change] : undefined;
  if (!handler) throw new UnknownChange(change);
  handler(model, change, now, model.state.views.get(change.tag));
}
