// The worker thread of a SyncBridge (sync-bridge.js): it holds the daemon connection, an ordinary Bridge, and
// answers each request the main thread posts with the response and every frame read before it (events, the
// session's own change frames), then wakes the main thread, which waits on a shared word (Atomics.wait).
import { workerData } from 'node:worker_threads';
import { connect } from '../../index.js';

const { port, flag, socket, bin, spawn } = workerData;
const signal = new Int32Array(flag);

function answer(message) {
  port.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

function errorOf(error) {
  return {
    name: error?.name,
    message: error?.message ?? String(error),
    code: error?.code,
    details: error?.details,
    index: error?.index,
  };
}

let bridge;
let frames = [];
try {
  bridge = await connect({ socket, bin, spawn: spawn ?? false, client: 'bridged-client/jest' });
  bridge.on('event', (frame) => frames.push(frame));
  bridge.on('change', (frame) => frames.push(frame));
  bridge.on('error', () => {});
  answer({ ok: true, result: { session: bridge.session, components: bridge.components, daemonPid: bridge.daemonPid ?? null } });
} catch (error) {
  answer({ ok: false, error: errorOf(error) });
}

port.on('message', async ({ frame, close }) => {
  if (close) {
    try {
      await bridge?.close();
    } catch {}
    answer({ ok: true, result: {}, frames: [] });
    port.close();
    return;
  }
  try {
    const result = await bridge.request(frame);
    const read = frames;
    frames = [];
    answer({ ok: true, result, frames: read });
  } catch (error) {
    const read = frames;
    frames = [];
    answer({ ok: false, error: errorOf(error), frames: read });
  }
});
