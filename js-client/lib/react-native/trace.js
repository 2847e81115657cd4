// Traces: what React Native's renderer asked of native (its UIManager calls, the commits they were sent in)
// and the events native gave back, recorded by an attachment (`attachReactNative(bridge, {trace: []})`) and
// played back later without the renderer or React, into a real daemon.
//
// A trace is an array of steps:
//   {root: rootTag}                  a root view was created for the next commit
//   {call: 'createView', args: […]}  a UIManager call, with its arguments as the renderer passed them
//   {flush: n, refused?: code}       the queued calls went out as one batch of n ops (refused with code)
//   {aborted: n}                     a call threw: the commit being built (n queued ops) was dropped, undone
//   {held: n}                        n ops queued after a failed commit, held for the next batch
//   {event: {target, type, nativeEvent}}  an event handed to RCTEventEmitter.receiveEvent
//   {native: {op, tag, …}}           a command or emit sent as native code would (the renderer's tag)
//   {checkpoint: name}               a point where a test checked the daemon's side (played back as is)

import { NativeSide } from './native-side.js';
import { createPaperUIManager } from './paper.js';

/**
 * Plays a paper trace's calls through the attachment's own UIManager into `bridge`'s daemon, batch by batch
 * as they were sent, and checks that the daemon delivers the recorded events, in order, with the same
 * contents, and refuses the batches that were refused. `onCheckpoint(name, native)` runs at each checkpoint.
 * `createUIManager(native)` makes what the calls are played through (default: the paper UIManager).
 * Throws at the first step that differs, naming it.
 */
export async function playTrace(bridge, steps, { onCheckpoint, createUIManager = createPaperUIManager } = {}) {
  const native = new NativeSide(bridge);
  const UIManager = createUIManager(native);
  const delivered = [];
  native.deliver = (target, type, nativeEvent) => delivered.push({ target, type, nativeEvent });
  try {
    for (const [index, step] of steps.entries()) {
      const where = `trace step ${index} (${JSON.stringify(step).slice(0, 200)})`;
      if ('root' in step) {
        native.createRoot(step.root);
      } else if ('call' in step) {
        if (typeof UIManager[step.call] !== 'function') throw new Error(`${where}: UIManager has no ${step.call}`);
        try {
          UIManager[step.call](...structuredClone(step.args));
        } catch (error) {
          // A call that threw live too: the next step says its commit was dropped.
          if (!('aborted' in (steps[index + 1] ?? {}))) throw error;
        }
      } else if ('aborted' in step) {
        native.abort(null, { replay: true });
      } else if ('held' in step) {
        native.hold();
      } else if ('flush' in step) {
        let refused;
        try {
          await native.flush();
        } catch (error) {
          refused = error.code ?? String(error);
        }
        if (refused !== step.refused) {
          throw new Error(`${where}: the batch was ${refused ? `refused (${refused})` : 'applied'}, recorded ${step.refused ? `refused (${step.refused})` : 'applied'}`);
        }
      } else if ('event' in step) {
        const got = delivered.shift();
        if (JSON.stringify(got) !== JSON.stringify(step.event)) {
          throw new Error(`${where}: the daemon delivered ${got ? JSON.stringify(got) : 'no event'}`);
        }
      } else if ('native' in step) {
        await native.flush();
        await bridge.request({ ...step.native, tag: native.require(step.native.tag, step.native.op) });
      } else if ('checkpoint' in step) {
        await native.flush().catch(() => {});
        await onCheckpoint?.(step.checkpoint, native);
      }
    }
    await native.flush();
    if (delivered.length > 0) throw new Error(`the daemon delivered events the trace does not have: ${JSON.stringify(delivered)}`);
    return native;
  } finally {
    native.detach();
  }
}
