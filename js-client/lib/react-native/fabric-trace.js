// Fabric traces: the `nativeFabricUIManager` calls of React Native's Fabric renderer, recorded by an attachment
// (`attachReactNative(bridge, {architecture: 'fabric', trace: []})`), played back without the renderer or React.
//
// The steps are a paper trace's (trace.js), with calls of the Fabric manager. Nodes and child sets are not
// data: a call that makes one is numbered by the order they were made in (1, 2, …, nodes and sets counted
// together), and a call that takes one names it by that number, `{node: n}` or `{set: n}`:
//   {call: 'createNode', args: [tag, viewName, rootTag, payload], node: 1}   (the instance handle is left out)
//   {call: 'cloneNodeWithNewProps', args: [{node: 1}, payload], node: 2}
//   {call: 'createChildSet', args: [rootTag], set: 3}
//   {call: 'appendChildToSet', args: [{set: 3}, {node: 2}]}
//   {call: 'completeRoot', args: [rootTag, {set: 3}]}

import { TRACE_REFERENCES, createFabricUIManager } from './fabric.js';
import { playTrace } from './trace.js';

/** The calls that make a node or a child set, numbered in a trace. */
const MAKES = new Set([
  'createNode',
  'cloneNode',
  'cloneNodeWithNewChildren',
  'cloneNodeWithNewProps',
  'cloneNodeWithNewChildrenAndProps',
  'createChildSet',
]);

/**
 * A Fabric manager over `native` whose methods take a trace's arguments: `{node: n}`/`{set: n}` stand for the
 * n-th node or set the playback made.
 */
export function createFabricTracePlayer(native) {
  // The batches go out at the trace's flush steps, as they went out live.
  const manager = createFabricUIManager(native, { send: false });
  const made = [null];
  const player = {};
  for (const [call, positions] of Object.entries(TRACE_REFERENCES)) {
    player[call] = (...args) => {
      for (const at of positions) {
        const ref = args[at];
        const id = ref?.node ?? ref?.set;
        if (!Number.isInteger(id) || made[id] === undefined) throw new Error(`${call}: the trace names no node or set ${JSON.stringify(ref)}`);
        args[at] = made[id];
      }
      // createNode's instance handle is the renderer's; a playback has none (events are checked, not dispatched).
      const result = manager[call](...args, ...(call === 'createNode' ? [null] : []));
      if (MAKES.has(call)) made.push(result);
      return result;
    };
  }
  return player;
}

/**
 * Plays a Fabric trace back into `bridge`'s daemon through the attachment's own `nativeFabricUIManager`,
 * batch by batch, with the checks playTrace makes (events, refusals, checkpoints).
 */
export function playFabricTrace(bridge, steps, options = {}) {
  return playTrace(bridge, steps, { ...options, createUIManager: createFabricTracePlayer });
}
