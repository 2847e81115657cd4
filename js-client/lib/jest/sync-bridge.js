// A Bridge whose requests are synchronous: what React Native Testing Library's synchronous API needs (render,
// fireEvent and the queries return with the daemon's work done). A worker thread holds the connection
// (sync-worker.js); each request is posted to it and the calling thread waits on a shared word until the answer
// is in (Atomics.wait), then reads it at once (receiveMessageOnPort). The frames read before a response (the
// events its request caused, the session's own change frames) are emitted here, in order, before it returns.
import { EventEmitter } from 'node:events';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { BridgeError } from '../errors.js';
import { kAllocateTag, kRequest, kUnsentBytes } from '../internal.js';

/** How long a request may take before the waiting thread gives up (the daemon gone, the worker stuck). */
const REQUEST_TIMEOUT_MS = 60_000;

export class SyncBridge extends EventEmitter {
  #worker;
  #port;
  #signal;
  #nextTag = 1;
  #closed = false;
  session = null;
  components = {};
  daemonPid = null;

  /**
   * Connects to the daemon at `socket` (spawning `bin` there when `spawn`): returns once the session said hello.
   * @param {{socket: string, bin?: string, spawn?: boolean | 'detached'}} options
   */
  constructor({ socket, bin, spawn = false }) {
    super();
    const flag = new SharedArrayBuffer(4);
    this.#signal = new Int32Array(flag);
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#worker = new Worker(new URL('./sync-worker.js', import.meta.url), {
      workerData: { port: port2, flag, socket, bin, spawn },
      transferList: [port2],
    });
    this.#worker.unref();
    const hello = this.#wait('hello');
    this.session = hello.session;
    this.components = hello.components ?? {};
    this.daemonPid = hello.daemonPid;
  }

  get closed() {
    return this.#closed;
  }

  #wait(what) {
    if (Atomics.wait(this.#signal, 0, 0, REQUEST_TIMEOUT_MS) === 'timed-out') {
      throw new BridgeError('connection_closed', `bridged did not answer ${what} within ${REQUEST_TIMEOUT_MS} ms`);
    }
    Atomics.store(this.#signal, 0, 0);
    const received = receiveMessageOnPort(this.#port);
    if (!received) throw new BridgeError('connection_closed', `the connection to bridged ended before ${what} was answered`);
    const { ok, line, error, frames } = received.message;
    for (const text of frames ?? []) {
      const frame = JSON.parse(text);
      this.emit(typeof frame.observe === 'string' && typeof frame.change === 'string' ? 'change' : 'event', frame);
    }
    if (!ok) throw new BridgeError(error.code ?? 'connection_closed', error.message);
    const response = JSON.parse(line);
    if (response.ok) return response.result;
    throw BridgeError.fromProtocol(response.error);
  }

  /** Sends `frame` and returns its result, every frame before the answer emitted; throws the daemon's error. */
  requestSync(frame) {
    if (this.#closed) throw new BridgeError('connection_closed', `${frame?.op}: the bridge is closed`);
    this.#port.postMessage({ frame });
    return this.#wait(frame?.op ?? 'the request');
  }

  /** The Bridge's asynchronous form: done already when it returns (a settled promise). */
  request(frame) {
    try {
      return Promise.resolve(this.requestSync(frame));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  [kRequest](frame) {
    return this.request(frame);
  }

  [kAllocateTag]() {
    return this.#nextTag++;
  }

  [kUnsentBytes]() {
    return 0;
  }

  /** Ends the session (the daemon forgets it) and the worker. */
  close() {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#port.postMessage({ close: true });
    try {
      this.#wait('close');
    } catch {}
    this.#port.close();
    return this.#worker.terminate().then(() => undefined);
  }
}
