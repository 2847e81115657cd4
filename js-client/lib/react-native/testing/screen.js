// A screen the app rendered: its root view in the daemon, the daemon's native tree under it as the live tree holds
// it (testing/live-tree.js: every change frame received, applied as it is read), the queries over it, and toJSON().

import { QUERY_NAMES, TEXT_COMPONENTS, TEXT_INPUT_COMPONENTS, bindQueries, kQueries, locate, printTree } from './queries.js';

/** How often findBy* checks again while nothing settles (the app's own timers bring changes too). */
const POLL_MS = 20;

export class Screen {
  #app;
  #snapshot = null;
  #generation = -1;
  /** Each view's node as last built, with the view's `rev` then: kept while nothing at or below it changed. */
  #nodes = new WeakMap();
  #within = null;
  #holder;
  /** The query grid over the whole screen, bound when a query of it is first read (the jest preset reads a render's). */
  #grid = null;
  rootTag;
  /** The daemon's tag of the root view. */
  tag;
  appKey;

  constructor(app, { rootTag, tag, appKey, holder }) {
    this.#app = app;
    this.rootTag = rootTag;
    this.tag = tag;
    this.appKey = appKey;
    this.#holder = holder;
  }

  // The queries (`s.getByText`, `const { getByText } = s`): each read from the screen's grid, bound at the first.
  static {
    for (const name of QUERY_NAMES) {
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        get() {
          this.#grid ??= this.#queries(() => this.#current(), () => false);
          return this.#grid[name];
        },
        // A test's own assignment (a spy) replaces it on that screen.
        set(value) {
          Object.defineProperty(this, name, { value, writable: true, configurable: true, enumerable: true });
        },
      });
    }
  }

  /** The query grid over the tree `snapshot()` gives; `hidden()`: whether an ancestor above it hides it. */
  #queries(snapshot, hidden, excludeRoot = false) {
    return bindQueries(snapshot, {
      nextChange: (within) => this.#nextChange(within),
      hidden,
      includeHiddenElements: () => this.#app.defaultIncludeHiddenElements,
      excludeRoot,
      hostProps: this.#app._hostProps ?? null,
    });
  }

  /**
   * The queries over what is below the view `tagOf()` names, that view left out: a rendered element's views below
   * the containers React Native wraps a root in (the jest preset's render). @internal
   */
  _content(tagOf) {
    const found = () => {
      const snapshot = this.#current();
      return snapshot ? locate(snapshot, tagOf(), { hostProps: this.#app._hostProps ?? null }) : null;
    };
    return this.#queries(
      () => found()?.node ?? null,
      () => found()?.hidden ?? false,
      true,
    );
  }

  /**
   * React Native Testing Library's `within(handle)`: the queries over the subtree of a view of this screen, as it is
   * at each query (none once the view is gone). A handle, a daemon tag.
   */
  within(target) {
    const tag = typeof target === 'number' ? target : target?.tag;
    if (!Number.isInteger(tag)) throw new TypeError('within: a handle a query answered, or a daemon tag');
    const found = () => {
      const snapshot = this.#current();
      return snapshot ? locate(snapshot, tag, { hostProps: this.#app._hostProps ?? null }) : null;
    };
    return this.#queries(
      () => found()?.node ?? null,
      () => found()?.hidden ?? false,
    );
  }

  /** What the root component renders (rerender changes it). @internal (the jest preset) */
  get _holder() {
    return this.#holder;
  }

  /** The native root view's handle (the daemon's view), with its children. */
  get root() {
    return this.toJSON();
  }

  /** Waits for a settled change or a short while, then reads the tree again. */
  #nextChange(within) {
    return this.#app._nextChange(Math.min(POLL_MS, within));
  }

  /** Renders another element into this screen's root. */
  async rerender(element) {
    this.#holder.element = element;
    this.#app._run(this);
    await this.#app.settled();
  }

  /** Unmounts the screen: its views leave the daemon. */
  unmount() {
    return this.#app._unmount(this);
  }

  /** The native tree the daemon holds under this screen's root: `{tag, component, props, text, children}` per view. */
  toJSON() {
    const copy = (node) => ({ ...node.handle, children: node.children.map(copy) });
    const snapshot = this.#current();
    return snapshot ? copy(snapshot) : null;
  }

  /**
   * Kept for tests written before the tree was live: every change the daemon made is already here, a raw request's
   * on the bridge included, once its frames arrived.
   */
  async refresh() {}

  /** The tree as indented text. */
  debug() {
    return printTree(this.#current(), { maxLines: Infinity });
  }

  /**
   * The tree under the root as the daemon holds it at the last frame received: after a change, the nodes of the
   * views changed and of their ancestors are built again, the others kept.
   */
  #current() {
    const tree = this.#app._liveTree;
    if (this.#generation === tree.version) return this.#snapshot;
    this.#within ??= (tag) => this.within(tag);
    this.#snapshot = tree.views.has(this.tag) ? build(this.tag, tree.views, this.#within, this.#nodes) : null;
    this.#generation = tree.version;
    return this.#snapshot;
  }
}

/**
 * A view's node in a screen's tree: what queries read (`component`, `props`, `text`, `children`), and the handle a
 * query answers, made when first asked for (most nodes a query walks are never answered).
 */
class Node {
  #handle = null;
  #layout;
  #within;

  constructor(tag, view, text, children, within) {
    this.tag = tag;
    this.component = view.component;
    this.props = view.props ?? {};
    this.text = text;
    this.children = children;
    // With the session's layout on, the view's frame relative to its parent (onLayout's), as of the last pass.
    this.#layout = view.layout;
    this.#within = within;
  }

  /** `{tag, component, props, text}` (and `layout` with the session's layout on), frozen; `within` kept on it. */
  get handle() {
    if (this.#handle !== null) return this.#handle;
    const handle = { tag: this.tag, component: this.component, props: this.props, text: this.text };
    if (this.#layout) handle.layout = this.#layout;
    Object.defineProperty(handle, kQueries, { value: this.#within });
    this.#handle = Object.freeze(handle);
    return handle;
  }
}

/**
 * The node of `tag` and its subtree from the live tree's views; a Text's `text` is its whole content. Each handle
 * keeps `within` (its screen's, by tag), not enumerated. A view's node in `nodes` is kept while its `rev` is the same
 * (nothing at or below it changed).
 */
function build(tag, views, within, nodes) {
  const view = views.get(tag);
  const kept = nodes.get(view);
  if (kept !== undefined && kept.rev === view.rev) return kept.node;
  const children = [];
  for (const child of view.children ?? []) if (views.has(child)) children.push(build(child, views, within, nodes));
  let text = null;
  if (view.component === 'RCTRawText') text = view.props?.text ?? '';
  else if (TEXT_COMPONENTS.has(view.component)) text = children.map((c) => c.text ?? '').join('');
  else if (TEXT_INPUT_COMPONENTS.has(view.component)) text = view.props?.text ?? '';
  const node = new Node(tag, view, text, children, within);
  nodes.set(view, { rev: view.rev, node });
  return node;
}
