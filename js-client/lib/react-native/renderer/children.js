// The child list of paper's host instances (ReactNativeRenderer's `ReactNativeFiberHostComponent._children`),
// linear where React Native's array is quadratic.
//
// The renderer keeps each host view's children in an array and moves one child per call: appendChild,
// insertBefore and removeChild each take `indexOf` of the child and `splice` it out or in, so reversing or
// clearing N keyed siblings costs N² array steps (clearing 50,000 is 1.25 billion element moves, 1.5 s of the
// renderer's own time). React Native's file is loaded with its constructor's `this._children = []` making one of
// these instead (linear-paper.js). It answers what the renderer
// asks of the array (ReactNativeRenderer-{dev,prod,profiling}.js, RN 0.72: `push`, `indexOf`, `splice(i, 1)`,
// `splice(i, 0, child)`, `length`, `map`, `forEach`) with the same results, in O(√n) per call: a list of up to a few
// hundred children is a plain array, and a longer one is cut into blocks, with a map from each child to its block.

const SMALL = 128;
const BLOCK = 256;

/** Where a renderer loaded by linear-paper.js finds the class. */
export const RENDERER_CHILDREN = Symbol.for('bridged.RendererChildren');

export class RendererChildren {
  /** The children, while there are few (null once the list is in blocks). */
  #items = [];
  /** The children in order, cut into blocks of BLOCK…2·BLOCK (null while the list is small). */
  #blocks = null;
  /** Each child's block (while in blocks). */
  #where = null;
  #length = 0;

  get length() {
    return this.#length;
  }

  push(...children) {
    for (const child of children) this.#insert(this.#length, child);
    return this.#length;
  }

  indexOf(child) {
    if (this.#blocks === null) return this.#items.indexOf(child);
    const block = this.#where.get(child);
    if (block === undefined) return -1;
    let offset = 0;
    for (const b of this.#blocks) {
      if (b === block) return offset + b.indexOf(child);
      offset += b.length;
    }
    return -1;
  }

  includes(child) {
    return this.indexOf(child) >= 0;
  }

  /** Array's splice: removes `deleteCount` children at `start` and inserts `items` there; returns those removed. */
  splice(start, deleteCount = this.#length - start, ...items) {
    start = start < 0 ? Math.max(0, this.#length + start) : Math.min(start, this.#length);
    deleteCount = Math.max(0, Math.min(deleteCount, this.#length - start));
    if (this.#blocks === null && this.#length - deleteCount + items.length <= SMALL) {
      const removed = this.#items.splice(start, deleteCount, ...items);
      this.#length = this.#items.length;
      return removed;
    }
    if (this.#blocks === null) this.#toBlocks();
    const removed = [];
    for (let i = 0; i < deleteCount; i++) removed.push(this.#remove(start));
    for (let i = 0; i < items.length; i++) this.#insert(start + i, items[i]);
    return removed;
  }

  at(index) {
    if (index < 0) index += this.#length;
    if (index < 0 || index >= this.#length) return undefined;
    if (this.#blocks === null) return this.#items[index];
    for (const block of this.#blocks) {
      if (index < block.length) return block[index];
      index -= block.length;
    }
    return undefined;
  }

  forEach(callback, thisArg) {
    if (this.#blocks === null) {
      // Most host views hold a child or none: the array's own loop (the renderer reads neither index nor list).
      this.#items.forEach(callback, thisArg);
      return;
    }
    let i = 0;
    for (const block of this.#blocks) for (const child of block) callback.call(thisArg, child, i++, this);
  }

  map(callback, thisArg) {
    if (this.#blocks === null) return this.#items.map(callback, thisArg);
    const out = new Array(this.#length);
    let i = 0;
    for (const block of this.#blocks) {
      for (const child of block) {
        out[i] = callback.call(thisArg, child, i, this);
        i++;
      }
    }
    return out;
  }

  slice(start, end) {
    return this.toArray().slice(start, end);
  }

  toArray() {
    return this.#blocks === null ? this.#items.slice() : this.#blocks.flat();
  }

  [Symbol.iterator]() {
    return this.toArray()[Symbol.iterator]();
  }

  #insert(index, child) {
    if (this.#blocks === null) {
      if (this.#length < SMALL) {
        if (index === this.#length) this.#items.push(child);
        else this.#items.splice(index, 0, child);
        this.#length++;
        return;
      }
      this.#toBlocks();
    }
    const blocks = this.#blocks;
    let b = blocks.length - 1;
    let i = index - (this.#length - blocks[b].length);
    if (i < 0) {
      i = index;
      for (b = 0; i > blocks[b].length; b++) i -= blocks[b].length;
    }
    const block = blocks[b];
    if (i === block.length) block.push(child);
    else block.splice(i, 0, child);
    this.#where.set(child, block);
    this.#length++;
    if (block.length > 2 * BLOCK) {
      const tail = block.splice(BLOCK);
      blocks.splice(b + 1, 0, tail);
      for (const moved of tail) this.#where.set(moved, tail);
    }
  }

  #remove(index) {
    const blocks = this.#blocks;
    let b = 0;
    for (; index >= blocks[b].length; b++) index -= blocks[b].length;
    const block = blocks[b];
    const child = index === block.length - 1 ? block.pop() : block.splice(index, 1)[0];
    this.#where.delete(child);
    this.#length--;
    if (block.length === 0) {
      if (blocks.length > 1) blocks.splice(b, 1);
      if (this.#length === 0) this.#toSmall();
    }
    return child;
  }

  #toBlocks() {
    const items = this.#items;
    this.#blocks = [];
    this.#where = new Map();
    for (let i = 0; i < items.length || this.#blocks.length === 0; i += BLOCK) {
      const block = items.slice(i, i + BLOCK);
      this.#blocks.push(block);
      for (const child of block) this.#where.set(child, block);
    }
    this.#items = null;
  }

  #toSmall() {
    this.#blocks = null;
    this.#where = null;
    this.#items = [];
  }
}

globalThis[RENDERER_CHILDREN] ??= RendererChildren;
