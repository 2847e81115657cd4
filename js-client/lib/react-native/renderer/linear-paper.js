// React Native's paper renderer file (ReactNativeRenderer-*.js), loaded as shipped but for two places where its
// work is quadratic in the number of siblings that move. Each change replaces an exact text of React Native
// 0.72's file and is made only where that text is found once; a file without it (another version, a minified
// prod build) runs as shipped. Neither changes a call the renderer makes: the UIManager receives the same calls
// in the same order (react-native-linear-paper.test.js replays random keyed edits through both and compares).
//
// 1. `children`: each host instance's child array (`this._children = []` in ReactNativeFiberHostComponent's
//    constructor) becomes a RendererChildren (children.js), whose indexOf/splice are O(√n), not O(n).
//
// 2. `hostSibling`: React's `getHostSibling(fiber)` finds the host node a placed fiber goes before by walking its
//    later siblings past every one that is also being placed; when N siblings move in one commit (a reversed or
//    shuffled list) that is N²/2 steps: 13 s of the renderer's own time for 50,000 (React's comment: "This leads
//    to exponential search for the next sibling. TODO: Find a more efficient way to do this."; facebook/react
//    #33048 proposed caching it). Placements are committed in sibling order, so when the fiber being placed is
//    the `sibling` of the fiber of the previous search and is itself flagged Placement, that search stepped over
//    it without looking inside and went on exactly as a search from it would: its answer is this one's. Between
//    the two searches only the first fiber's placement and the second's own subtree are committed, and a search
//    from the second never enters its subtree. The remembered search is forgotten at the start of every commit
//    (commitMutationEffects) and whenever another search comes between.

import { RENDERER_CHILDREN } from './children.js';
import { replaceAll, replaceOnce } from './text-changes.cjs';

const CHILDREN = {
  from: 'this._children = [];',
  to: `this._children = new globalThis[Symbol.for(${JSON.stringify(RENDERER_CHILDREN.description)})]();`,
};

const HOST_SIBLING = [
  {
    from: 'function getHostSibling(fiber) {',
    to: `var bridgedLastPlacement = null; // linear-paper.js: the fiber of the last getHostSibling search
var bridgedLastHostSibling = null; // and what it found
function getHostSibling(fiber) {
  if (bridgedLastPlacement !== null && bridgedLastPlacement.sibling === fiber && (fiber.flags & Placement) !== NoFlags) {
    bridgedLastPlacement = fiber;
    return bridgedLastHostSibling;
  }
  var found = getHostSiblingAsShipped(fiber);
  bridgedLastPlacement = fiber;
  bridgedLastHostSibling = found;
  return found;
}
function getHostSiblingAsShipped(fiber) {`,
  },
  {
    from: 'function commitMutationEffects(root, finishedWork, committedLanes) {',
    to: 'function commitMutationEffects(root, finishedWork, committedLanes) {\n  bridgedLastPlacement = null; bridgedLastHostSibling = null; // linear-paper.js',
  },
];

/** Whether the names the host-sibling change uses are the file's own (React 18's flags). */
function hasFlags(source) {
  return /\nvar Placement =/.test(source) && /\nvar NoFlags =/.test(source);
}

/**
 * A paper renderer file's source with the changes above that apply to it; `changes` names them ('children',
 * 'hostSibling'), empty for a file that runs as shipped (Fabric's among them).
 */
export function linearPaperRenderer(source) {
  const changes = [];
  const withChildren = replaceOnce(source, CHILDREN);
  if (withChildren !== null) {
    source = withChildren;
    changes.push('children');
  }
  if (hasFlags(source)) {
    const changed = replaceAll(source, HOST_SIBLING);
    if (changed !== null) {
      source = changed;
      changes.push('hostSibling');
    }
  }
  return { source, changes };
}

/** Whether `file` is one of React Native's paper renderer files (what an app's require changes). */
export function isPaperRendererFile(file) {
  return /[\\/]Libraries[\\/]Renderer[\\/]implementations[\\/]ReactNativeRenderer-(?:dev|prod|profiling)\.js$/.test(file);
}
