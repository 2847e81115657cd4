// The child list of paper's host instances (ReactNativeRenderer's `ReactNativeFiberHostComponent._children`),
// linear where React Native's array is quadratic.
//
// The renderer keeps each host view's children in an array and moves one child per call: appendChild,
// insertBefore and removeChild each take `indexOf` of the child and `splice` it out or in, so reversing or
// clearing N keyed siblings costs N² array steps (clearing 50,000 is 1.25 billion element moves, 1.5 s of the
// renderer's own time). React Native's file is loaded with its constructor's `this._children = []` making one of
// these instead (linear-paper.js): the UIManager's own ChildList (child-list.js), answering what the renderer asks
// of its array (ReactNativeRenderer-{dev,prod,profiling}.js, RN 0.72: `push`, `indexOf`, `splice(i, 1)`,
// `splice(i, 0, child)`, `length`, `map`, `forEach`) with the same results, in O(√n) per call.

import { ChildList } from '../child-list.js';

/** Where a renderer loaded by linear-paper.js finds the class. */
export const RENDERER_CHILDREN = Symbol.for('bridged.RendererChildren');

/** A ChildList that answers as the renderer's array. */
export class RendererChildren extends ChildList {
  push(child) {
    // The renderer pushes one child at a time: no rest array per call (arguments for the rare several).
    if (arguments.length === 1) this.insert(this.length, child);
    else for (let i = 0; i < arguments.length; i++) this.insert(this.length, arguments[i]);
    return this.length;
  }

  includes(child) {
    return this.indexOf(child) >= 0;
  }

  /**
   * Array's splice: removes `deleteCount` children at `start` (all from it, when not given) and inserts the
   * arguments after it there; returns those removed. The renderer takes one child out or puts one in per call
   * (`splice(i, 1)`, `splice(i, 0, child)`): no array is made but the one returned, sized to what it holds (a rest
   * parameter and an array grown by push made 200 bytes a call: 20 MB to reverse 50,000 siblings).
   */
  splice(start, deleteCount) {
    const count = arguments.length;
    if (count === 0) return [];
    start = Math.trunc(start) || 0;
    start = start < 0 ? Math.max(0, this.length + start) : Math.min(start, this.length);
    deleteCount = count < 2 ? this.length - start : Math.max(0, Math.min(Math.trunc(deleteCount) || 0, this.length - start));
    let removed;
    if (deleteCount === 0) removed = [];
    else if (deleteCount === 1) removed = [this.removeAt(start)];
    else {
      removed = new Array(deleteCount);
      for (let i = 0; i < deleteCount; i++) removed[i] = this.removeAt(start);
    }
    for (let i = 2; i < count; i++) this.insert(start + i - 2, arguments[i]);
    return removed;
  }

  at(index) {
    return super.at(index < 0 ? index + this.length : index);
  }

  forEach(callback, thisArg) {
    // Most host views hold a child or none: the block's own loop (the renderer reads neither index nor list).
    if (this.blocks.length === 1) return this.blocks[0].forEach(callback, thisArg);
    let i = 0;
    for (const block of this.blocks) for (const child of block) callback.call(thisArg, child, i++, this);
  }

  slice(start, end) {
    return this.toArray().slice(start, end);
  }

  [Symbol.iterator]() {
    return this.toArray()[Symbol.iterator]();
  }
}

globalThis[RENDERER_CHILDREN] ??= RendererChildren;
