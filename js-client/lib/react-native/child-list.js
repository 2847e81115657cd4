// A view's children as a list of blocks: the one ordered list of paper's attachment, kept both by the UIManager
// (paper.js: each view's children, in renderer tags) and by the renderer's own host instances
// (renderer/children.js's RendererChildren, the renderer's `_children`). React moves one child per call, so that
// reversing N siblings is N single moves: an array makes each a copy of the list (N²), blocks make each
// O(n / BLOCK + BLOCK).

/** Lists are blocks of BLOCK…2 × BLOCK children (the last one fewer). */
const BLOCK = 256;
/** Past this many children a list keeps each child's block in a map, so that indexOf is O(√n), not a scan. */
const INDEXED = 128;

/**
 * The blocks of every list that never had a child, shared: most views have none (a list's own blocks are made by
 * its first insert), and the renderer makes a list for every host view.
 */
const NO_BLOCKS = Object.freeze([Object.freeze([])]);

/**
 * A view's children: the child at an index, an insert and a removal at an index, and the index of a child. A child
 * is in a list once (a view has one parent).
 */
export class ChildList {
  blocks = NO_BLOCKS;
  length = 0;
  /**
   * Each child's block, built by the first indexOf of a list of more than INDEXED children (null before, and once
   * emptied): most lists are never searched (a mount's lists are only appended to), and are never indexed. A child
   * taken out keeps its entry, which indexOf sees is stale (the block no longer holds it): a move is then one `set`
   * of a key the map has. Deleting and setting again, each move left a deleted entry in the map's table, which V8
   * rebuilt every few thousand moves (reversing 50,000 siblings made about 25 MB of tables, in both lists). Stale
   * entries grow the map only as new children come in: past twice the list's length, an insert builds it again.
   * A removal never does, so that emptying a list (a clear) builds no smaller indexes on the way (9 MB of tables
   * for 50,000 siblings) and drops its index at the end.
   */
  #where = null;

  /** A list of `children` (an array the list does not keep). */
  static of(children) {
    const list = new this();
    if (children.length <= 2 * BLOCK) list.blocks = [children.slice()];
    else {
      list.blocks = [];
      for (let i = 0; i < children.length; i += BLOCK) list.blocks.push(children.slice(i, i + BLOCK));
    }
    list.length = children.length;
    return list;
  }

  /** The child at `index` (undefined outside 0…length−1). */
  at(index) {
    if (index < 0 || index >= this.length) return undefined;
    for (const block of this.blocks) {
      if (index < block.length) return block[index];
      index -= block.length;
    }
    return undefined;
  }

  /** Inserts `child` at `index` (clamped to 0…length). */
  insert(index, child) {
    index = Math.max(0, Math.min(index, this.length));
    if (this.blocks === NO_BLOCKS) this.blocks = [[]];
    const blocks = this.blocks;
    let b = blocks.length - 1;
    if (index < this.length - blocks[b].length) {
      for (b = 0; index > blocks[b].length; b++) index -= blocks[b].length;
    } else {
      index -= this.length - blocks[b].length;
    }
    const block = blocks[b];
    if (index === block.length) block.push(child);
    else {
      // Moved up in place, a loop (splice would allocate the empty array of what it removed on every call, and
      // V8's copyWithin is twenty times slower than either).
      block.push(child);
      for (let k = block.length - 1; k > index; k--) block[k] = block[k - 1];
      block[index] = child;
    }
    this.length++;
    const where = this.#where;
    if (where !== null) where.set(child, block);
    if (block.length > 2 * BLOCK) {
      const tail = block.splice(BLOCK);
      blocks.splice(b + 1, 0, tail);
      if (where !== null) for (const moved of tail) where.set(moved, tail);
    }
    if (where !== null && where.size > 2 * this.length + INDEXED) this.#index();
  }

  /** Takes out the child at `index` and returns it. */
  removeAt(index) {
    const blocks = this.blocks;
    let b = 0;
    for (; index >= blocks[b].length; b++) index -= blocks[b].length;
    const block = blocks[b];
    // shift and pop return the child without the array splice makes (a clear removes at 0 every time); in the
    // middle, the rest moved down in place and the last slot dropped.
    let child;
    if (index === 0) child = block.shift();
    else if (index === block.length - 1) child = block.pop();
    else {
      child = block[index];
      for (let k = index; k < block.length - 1; k++) block[k] = block[k + 1];
      block.pop();
    }
    this.length--;
    if (block.length === 0 && blocks.length > 1) blocks.splice(b, 1);
    if (this.length === 0) this.#where = null;
    return child;
  }

  /** The index of `child`, or −1. */
  indexOf(child) {
    if (this.#where === null && this.length > INDEXED) this.#index();
    const where = this.#where;
    if (where === null) {
      let offset = 0;
      for (const block of this.blocks) {
        const i = block.indexOf(child);
        if (i >= 0) return offset + i;
        offset += block.length;
      }
      return -1;
    }
    const block = where.get(child);
    if (block === undefined) return -1;
    let offset = 0;
    for (const b of this.blocks) {
      if (b === block) {
        // -1: a stale entry (the child was taken out; its block is still in the list).
        const at = b.indexOf(child);
        return at < 0 ? -1 : offset + at;
      }
      offset += b.length;
    }
    return -1;
  }

  /**
   * Array's map: `callback(child, index, list)` of each child, in order, as an array (no copy of the list first).
   * A list of one block maps it as an array (the callback's third argument is then that block).
   */
  map(callback, thisArg) {
    if (this.blocks.length === 1) return this.blocks[0].map(callback, thisArg);
    const out = new Array(this.length);
    let i = 0;
    for (const block of this.blocks) {
      for (let k = 0; k < block.length; k++, i++) out[i] = callback.call(thisArg, block[k], i, this);
    }
    return out;
  }

  toArray() {
    return this.blocks.length === 1 ? this.blocks[0].slice() : this.blocks.flat();
  }

  #index() {
    const where = new Map();
    for (const block of this.blocks) for (const child of block) where.set(child, block);
    this.#where = where;
  }
}
