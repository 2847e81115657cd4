// The worker thread of a SyncBridge (sync-bridge.js): it holds the daemon connection and answers each request the
// main thread posts with the response line and every line read before it (events, the session's own change
// frames), then wakes the main thread, which waits on a shared word (Atomics.wait). It speaks the protocol's lines
// directly, parsing nothing but the id of a response (the main thread parses what it reads): one request in flight
// at a time, so every line before its response belongs to it. Events are acknowledged as they come.
import { workerData } from 'node:worker_threads';
import { connectOrSpawn } from '../spawn.js';

const { port, flag, socket: socketPath, bin, spawn } = workerData;
const signal = new Int32Array(flag);

function answer(message) {
  port.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

let socket;
let nextId = 1;
let waiting = null;
let frames = [];
let buffered = '';
let ackedSeq = 0;
let seenSeq = 0;

function onLine(line) {
  if (line === '') return;
  if (line.startsWith('{"id":')) {
    const id = Number(line.slice(6, line.indexOf(',', 6)));
    if (waiting && id === waiting.id) {
      const done = waiting;
      waiting = null;
      const read = frames;
      frames = [];
      done.resolve({ line, frames: read });
    }
    // An `ack`'s own answer (sent ahead of a request) is not waited for.
    return;
  }
  const seq = /"seq":(\d+)/.exec(line);
  if (seq && line.startsWith('{"event":')) seenSeq = Math.max(seenSeq, Number(seq[1]));
  frames.push(line);
}

function send(frame) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting = { id, resolve, reject };
    let text = '';
    if (seenSeq > ackedSeq) {
      // The events read so far are delivered by now: acknowledged, so the daemon's buffer of them stays small.
      text += `{"id":${nextId++},"op":"ack","seq":${seenSeq}}\n`;
      ackedSeq = seenSeq;
    }
    text += JSON.stringify({ ...frame, id }) + '\n';
    socket.write(text);
  });
}

try {
  ({ socket } = await connectOrSpawn({ socketPath, spawn: spawn ?? false, bin }));
  socket.setEncoding('utf8');
  socket.setNoDelay?.(true);
  socket.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      onLine(line);
    }
  });
  const closed = () => {
    if (waiting) waiting.reject(new Error('the connection to bridged ended'));
    waiting = null;
  };
  socket.on('close', closed);
  socket.on('error', closed);
  const hello = await send({ op: 'hello', protocol: 1, client: 'bridged-client/jest' });
  answer({ ok: true, line: hello.line, frames: hello.frames });
} catch (error) {
  answer({ ok: false, error: { code: error?.code ?? 'connect_failed', message: error?.message ?? String(error) } });
}

port.on('message', async ({ frame, close }) => {
  if (close) {
    try {
      socket?.end();
      socket?.destroy();
    } catch {}
    answer({ ok: true, line: '{"id":0,"ok":true,"result":{}}', frames: [] });
    port.close();
    return;
  }
  try {
    const { line, frames: read } = await send(frame);
    answer({ ok: true, line, frames: read });
  } catch (error) {
    answer({ ok: false, error: { code: 'connection_closed', message: error?.message ?? String(error) }, frames: [] });
  }
});
