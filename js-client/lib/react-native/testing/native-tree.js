// The daemon's views as the app's screens read them: `inspect` results kept by tag and read again only when
// something changed them. What changes a view is known exactly: the ops of each batch the app's commits sent
// (create, update, setChildren, delete, command) and the native-input commands a test sent; a touch changes no
// view. A full read (`invalidate()`) is there for changes made around the app (a test's own raw requests).

export class NativeTree {
  #bridge;
  /** tag → the last inspect result. */
  #views = new Map();
  /** Tags to read again. */
  #dirty = new Set();
  /** Incremented by every change: a screen whose snapshot is of an older version reads again. */
  version = 0;

  constructor(bridge) {
    this.#bridge = bridge;
  }

  /** The ops of a batch the daemon applied: the views they changed are read again. */
  applied(ops) {
    this.version++;
    for (const op of ops) {
      switch (op.op) {
        case 'create':
          this.#dirty.add(op.tag);
          if (op.parent !== undefined) this.#dirty.add(op.parent);
          break;
        case 'setChildren':
          this.#dirty.add(op.tag);
          // A child that moved here left another parent's children, and its own `parent` changed; a child that was
          // here already changed nothing of its own (its place is in this view's list, read again).
          for (const child of op.children ?? []) {
            const cached = this.#views.get(child);
            if (cached?.parent === op.tag) continue;
            if (cached?.parent != null) this.#dirty.add(cached.parent);
            this.#dirty.add(child);
          }
          break;
        case 'delete': {
          const parent = this.#views.get(op.tag)?.parent;
          if (parent != null) this.#dirty.add(parent);
          this.#forget(op.tag);
          break;
        }
        case 'update':
        case 'command':
          this.#dirty.add(op.tag);
          break;
        default:
          break;
      }
    }
  }

  /** A view a test changed directly (a native-input command). */
  changed(tag) {
    this.version++;
    this.#dirty.add(tag);
  }

  /** Everything is read again next time. */
  invalidate() {
    this.version++;
    this.#views.clear();
    this.#dirty.clear();
  }

  #forget(tag) {
    const stack = [tag];
    while (stack.length > 0) {
      const t = stack.pop();
      const view = this.#views.get(t);
      if (view) for (const child of view.children ?? []) stack.push(child);
      this.#views.delete(t);
      this.#dirty.delete(t);
    }
  }

  /** The inspect results of `root` and its subtree, reading what is unknown or changed, one batch per level. */
  async read(root) {
    const stale = [...this.#dirty].filter((tag) => this.#views.has(tag) || tag === root);
    this.#dirty.clear();
    for (const tag of stale) this.#views.delete(tag);
    let level = [root];
    while (level.length > 0) {
      const missing = level.filter((tag) => !this.#views.has(tag));
      if (missing.length > 0) {
        const { results } = await this.#bridge.request({ op: 'batch', ops: missing.map((tag) => ({ op: 'inspect', tag })) });
        missing.forEach((tag, i) => results?.[i] && this.#views.set(tag, results[i]));
      }
      const next = [];
      for (const tag of level) for (const child of this.#views.get(tag)?.children ?? []) next.push(child);
      level = next;
    }
    return this.#views;
  }
}
