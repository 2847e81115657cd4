// The daemon's views as the app's screens read them, exactly as the daemon holds them at the last frame received:
// the session observes itself (`observe`, protocol.md "Observing sessions"), and each change frame is applied here
// the moment it is read. A query is then synchronous and never stale: a commit from a timer, an animation frame or
// a network answer, a native input, an unmount, are all seen by the next query once their frames arrived.
//
// The observation is `tree: true`: the daemon sends only the frames that change the tree, a created view with only
// its props not at their default (the defaults are hello's `components`', filled in here), and none for
// subscriptions, commands, events (the connection reads those itself) or renders. A 200-row list's mount and unmount
// are then 251 KB of frames to write, read and parse instead of 944 KB; with the defaults left out, the change
// frames of a 200-row mount (its 600 creates and 400 setChildren) are 108 KB instead of 188 KB.

/**
 * A view as the tree holds it; `rev` is the version of the last change to it or below it (a screen builds the
 * nodes of views whose `rev` moved, and keeps the others').
 * @typedef {{tag: number, component: string, props: object, parent: number|null, children: number[], rev: number}} LiveView
 */

/** A component's description (hello's) → its props' defaults that are not null, or null when none are. */
const DEFAULTS = new WeakMap();

export class LiveTree {
  /** tag → the view as the daemon holds it. @type {Map<number, LiveView>} */
  views = new Map();
  /** The components as hello and `define` describe them (name → {props: {name: {default}}}). */
  #components;
  /** Incremented by every change applied: a screen whose snapshot is of an older version builds it again. */
  version = 0;
  /** The session observed, or null before `observe` answered. */
  session = null;

  /** @param {() => object} components the session's components, as hello and `define` describe them */
  constructor(components = () => ({})) {
    this.#components = components;
  }

  /** The props of `component` that are not null at their default, with it. */
  #defaultsOf(component) {
    const description = this.#components()?.[component];
    if (description === null || typeof description !== 'object') return null;
    let defaults = DEFAULTS.get(description);
    if (defaults === undefined) {
      defaults = null;
      for (const name in description.props ?? {}) {
        const value = description.props[name]?.default;
        if (value !== null && value !== undefined) (defaults ??= {})[name] = value;
      }
      DEFAULTS.set(description, defaults);
    }
    return defaults;
  }

  /** A view as the tree keeps it: its props that are set, a `tree: true` frame's defaults filled in. */
  #live(view) {
    const defaults = this.#defaultsOf(view.component);
    const props = defaults === null ? {} : { ...defaults };
    for (const key in view.props) {
      const value = view.props[key];
      if (value !== null) props[key] = value;
    }
    return {
      tag: view.tag,
      component: view.component,
      props,
      parent: view.parent ?? null,
      children: [...(view.children ?? [])],
      rev: this.version + 1,
    };
  }

  /**
   * Marks the view of `tag` and its ancestors as changed in the version being applied (a view just created has that
   * version already; its ancestors are marked all the same).
   */
  #touch(tag) {
    const rev = this.version + 1;
    const view = this.views.get(tag);
    if (view === undefined) return;
    view.rev = rev;
    for (let up = this.#parentOf(view); up !== undefined && up.rev !== rev; up = this.#parentOf(up)) up.rev = rev;
  }

  #parentOf(view) {
    return view.parent != null ? this.views.get(view.parent) : undefined;
  }

  /**
   * The request that starts the observation of a connection's own `session`, whose answer `reset` takes; with `{ layout:
   * false }`, without the `laidOut` frames (the views then have no `layout`; the daemon defers its passes).
   */
  static observe(session, { layout = true } = {}) {
    const request = { op: 'observe', session, tree: true, grouped: true };
    if (!layout) request.layout = false;
    return request;
  }

  /** Starts from `observe`'s snapshot of the session. */
  reset(snapshot) {
    this.views.clear();
    this.session = snapshot?.session ?? null;
    for (const view of snapshot?.views ?? []) this.views.set(view.tag, this.#live(view));
    this.version++;
  }

  /**
   * One change frame of the observed session: `{observe, change, …}`, or a request's changes grouped (`{observe,
   * tree: [[change, …], …]}`, `observe`'s `grouped`), each applied in order.
   */
  apply(frame) {
    if (frame.observe !== this.session) return;
    if (Array.isArray(frame.tree)) {
      for (const change of frame.tree) if (Array.isArray(change)) this.#applyGrouped(change);
      return;
    }
    switch (frame.change) {
      case 'created':
        this.#created(frame.view, frame.index);
        break;
      case 'updated':
        this.#updated(frame.tag, frame.props);
        break;
      case 'moved':
        this.#move(frame.tag, frame.children ?? []);
        break;
      // The session's layout (app/layout.js): each view's frame relative to its parent, as onLayout has it.
      case 'laidOut':
        this.#laidOut(frame.frames);
        break;
      case 'deleted':
        this.#deleted(frame.tags);
        break;
      case 'ended':
      case 'cutoff':
        this.session = null;
        break;
      default:
        return;
    }
    this.version++;
  }

  #created(frameView, index) {
    const view = this.#live(frameView);
    this.views.set(view.tag, view);
    if (view.parent != null) {
      const parent = this.views.get(view.parent);
      if (parent && !parent.children.includes(view.tag)) {
        parent.children.splice(Number.isInteger(index) ? index : parent.children.length, 0, view.tag);
      }
    }
    this.#touch(view.tag);
  }

  #updated(tag, props) {
    const view = this.views.get(tag);
    if (!view) return;
    for (const key in props) {
      const value = props[key];
      if (value === null) delete view.props[key];
      else view.props[key] = value;
    }
    this.#touch(tag);
  }

  #laidOut(frames) {
    for (const { tag, layout } of frames ?? []) {
      const view = this.views.get(tag);
      if (view) {
        view.layout = layout;
        this.#touch(tag);
      }
    }
  }

  #deleted(tags) {
    for (const tag of tags ?? []) {
      const view = this.views.get(tag);
      if (!view) continue;
      const parent = view.parent != null ? this.views.get(view.parent) : undefined;
      if (parent) {
        parent.children = parent.children.filter((t) => t !== tag);
        this.#touch(parent.tag);
      }
      this.views.delete(tag);
    }
  }

  /**
   * A grouped change (protocol.md, `observe`'s `grouped`): `['created', tag, component, props, parent, children,
   * index?]`, `['updated', tag, props]`, `['moved', tag, children]`, `['deleted', tags]`, `['laidOut', frames]`.
   */
  #applyGrouped(change) {
    switch (change[0]) {
      case 'created':
        this.#created({ tag: change[1], component: change[2], props: change[3], parent: change[4], children: change[5] }, change[6]);
        break;
      case 'updated':
        this.#updated(change[1], change[2]);
        break;
      case 'moved':
        this.#move(change[1], change[2] ?? []);
        break;
      case 'deleted':
        this.#deleted(change[1]);
        break;
      case 'laidOut':
        this.#laidOut(change[1]);
        break;
      default:
        return;
    }
    this.version++;
  }

  /** `setChildren`: children moved here leave their former parent; former children not kept become roots. */
  #move(tag, children) {
    const view = this.views.get(tag);
    if (!view) return;
    const kept = new Set(children);
    for (const child of view.children) {
      if (kept.has(child)) continue;
      const former = this.views.get(child);
      if (former && former.parent === tag) former.parent = null;
    }
    for (const child of children) {
      const moved = this.views.get(child);
      if (!moved) continue;
      if (moved.parent != null && moved.parent !== tag) {
        const old = this.views.get(moved.parent);
        if (old) {
          old.children = old.children.filter((t) => t !== child);
          this.#touch(old.tag);
        }
      }
      moved.parent = tag;
    }
    view.children = [...children];
    this.#touch(tag);
  }
}
