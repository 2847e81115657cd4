// Test support: the DevTools server as a command, and a client of its Server-Sent Events that reads them.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { CLI } from './daemon.js';

/** Starts `bridged-client devtools --port 0`; resolves {child, url} once it printed its URL. */
export function startDevtoolsCommand(socket) {
  const child = spawn(process.execPath, [CLI, 'devtools', '--socket', socket, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s) => {
      out += s;
      const found = out.match(/(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/);
      if (found) resolve({ child, url: found[1] });
    });
    child.once('exit', (code) => reject(new Error(`devtools exited (${code}) before printing its URL`)));
  });
}

/**
 * Opens `/api/stream` of the DevTools server at `url` (the URL it printed) for `session`, and reads it as a
 * page's EventSource would: `messages` are `{type, data}` (data parsed), `until(predicate)` resolves the first
 * message (from the start) that satisfies it, `close()` ends it.
 */
export function openEventStream(url, session) {
  const { port, searchParams } = new URL(url);
  const query = new URLSearchParams({ token: searchParams.get('token'), session });
  const messages = [];
  const waiting = new Set();
  let ended = false;
  const check = () => {
    for (const waiter of waiting) {
      const found = messages.find(waiter.predicate);
      if (found) {
        waiting.delete(waiter);
        waiter.resolve(found);
      } else if (ended) {
        waiting.delete(waiter);
        waiter.reject(new Error('the event stream ended'));
      }
    }
  };
  const req = request({ host: '127.0.0.1', port, path: `/api/stream?${query}`, headers: { host: `127.0.0.1:${port}` } });
  req.on('response', (res) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (text) => {
      buffer += text;
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const type = block.match(/^event: (.*)$/m)?.[1];
        const data = block.match(/^data: (.*)$/m)?.[1];
        if (type !== undefined) messages.push({ type, data: JSON.parse(data) });
      }
      check();
    });
    res.on('close', () => {
      ended = true;
      check();
    });
  });
  req.on('error', () => {
    ended = true;
    check();
  });
  req.end();
  return {
    messages,
    until(predicate) {
      return new Promise((resolve, reject) => {
        waiting.add({ predicate, resolve, reject });
        check();
      });
    },
    close() {
      req.destroy();
    },
  };
}
