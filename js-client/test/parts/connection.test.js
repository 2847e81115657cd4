// lib/client/connection.js without a socket: lines in, lines out in order behind a full buffer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection } from '../../lib/client/connection.js';
import { FakeSocket } from '../../test-support/fakes.js';

function open(options = {}) {
  const socket = new FakeSocket();
  const seen = [];
  const connection = new Connection(socket, {
    onLine: (line) => seen.push(line),
    onRead: () => seen.push('<read>'),
    ...options,
  });
  return { socket, seen, connection };
}

const item = (n) => ({ line: `{"id":${n}}` });

describe('Connection', () => {
  test('lines split across chunks come out whole, one onRead per chunk', () => {
    const { socket, seen } = open();
    socket.receive('{"a":');
    socket.receive('1}\n{"b":2}\r\n{"c"');
    socket.receive(':3}\n');
    assert.deepEqual(seen, ['<read>', '{"a":1}', '{"b":2}', '<read>', '{"c":3}', '<read>']);
  });

  test('writes at once while the socket takes them, each line with its newline', () => {
    const { socket, connection } = open();
    connection.send(item(1));
    connection.send(item(2));
    assert.deepEqual(socket.written, ['{"id":1}\n', '{"id":2}\n']);
  });

  test('behind a full buffer, sends wait for drain and keep their order; write() does not wait', () => {
    const { socket, connection } = open();
    socket.accepting = false;
    connection.send(item(1)); // written, and the buffer is now full
    connection.send(item(2));
    connection.send(item(3));
    assert.equal(connection.blocked, true);
    assert.equal(connection.queued, 2);
    connection.write(item(9));
    assert.deepEqual(socket.written, ['{"id":1}\n', '{"id":9}\n']);
    socket.drain();
    assert.deepEqual(socket.written, ['{"id":1}\n', '{"id":9}\n', '{"id":2}\n', '{"id":3}\n']);
    assert.equal(connection.queued, 0);
  });

  test('drain stops as soon as the buffer is full again', () => {
    const { socket, connection } = open();
    socket.accepting = false;
    connection.send(item(1));
    connection.send(item(2));
    connection.send(item(3));
    socket.emit('drain'); // still not accepting: item 2 fills it again
    assert.deepEqual(socket.written, ['{"id":1}\n', '{"id":2}\n']);
    socket.drain();
    assert.deepEqual(socket.written.at(-1), '{"id":3}\n');
  });

  test('a queued item no longer writable is skipped; onWrite runs for each line written', () => {
    const wrote = [];
    const gone = new Set([2]);
    const { socket, connection } = open({
      writable: (entry) => !gone.has(JSON.parse(entry.line).id),
      onWrite: (entry) => wrote.push(entry.line),
    });
    socket.accepting = false;
    connection.send(item(1));
    connection.send(item(2));
    connection.send(item(3));
    socket.drain();
    assert.deepEqual(socket.written, ['{"id":1}\n', '{"id":3}\n']);
    assert.deepEqual(wrote, ['{"id":1}', '{"id":3}']);
  });

  test('a line longer than maxFrameBytes is reported, not delivered; the lines after it are', () => {
    const tooLong = [];
    const { socket, seen } = open({ maxFrameBytes: 8, onLineTooLong: (line) => tooLong.push(line.maxBytes) });
    socket.receive('{"long":"0123456789"}\n{"ok":1}\n');
    assert.deepEqual(tooLong, [8]);
    assert.deepEqual(seen, ['{"ok":1}', '<read>']);
  });

  test('by default a line too long ends the connection', () => {
    const { socket } = open({ maxFrameBytes: 4 });
    socket.receive('0123456789\n');
    assert.equal(socket.destroyed, true);
  });

  test('a handler that destroys the socket ends the chunk: no later line, no onRead', () => {
    const seen = [];
    const socket = new FakeSocket();
    new Connection(socket, {
      onLine: (line) => {
        seen.push(line);
        if (line === 'stop') socket.destroy();
      },
      onRead: () => seen.push('<read>'),
    });
    socket.receive('a\nstop\nb\n');
    assert.deepEqual(seen, ['a', 'stop']);
  });

  test('close forgets what waited for drain; error and close reach their handlers', () => {
    const events = [];
    const { socket, connection } = open({ onError: (err) => events.push(err.message), onClose: () => events.push('close') });
    socket.accepting = false;
    connection.send(item(1));
    connection.send(item(2));
    socket.emit('error', new Error('EPIPE'));
    socket.destroy();
    assert.equal(connection.queued, 0);
    assert.deepEqual(events, ['EPIPE', 'close']);
  });
});
