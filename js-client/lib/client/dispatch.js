// Event frames to their listeners: 'event', the events() iterators, and the handlers on the event's path.
import { BridgeError, ClientErrorCodes } from '../errors.js';
import { SyntheticEvent } from '../events.js';

/**
 * Dispatches event frames and keeps the window of handler promises: a response settles only after the
 * handlers of the events read before it (`takeWindow`). `emit(frame)` is the Bridge's 'event';
 * `report(err)` gets each handler failure (`handler_failed`).
 */
export class Dispatcher {
  /** The open iterators of events(). */
  streams = new Set();
  /** Handler promises of the events received since the last response. */
  #window = [];
  #emit;
  #report;

  constructor({ emit = () => {}, report }) {
    this.#emit = emit;
    this.#report = report;
  }

  /**
   * Dispatches `frame` to 'event', the iterators, and the handlers `subscriptions` (events.js
   * SubscriptionTable) has for each step of its path, in order, until one stops propagation. With `hold`
   * the handlers it started are waited for by the next response (a re-sent event belongs to none).
   */
  dispatch(frame, subscriptions, hold = true) {
    this.#emit(frame);
    for (const stream of this.streams) stream.push(frame);
    const propagation = { stopped: false };
    const running = [];
    for (const entry of Array.isArray(frame.path) ? frame.path : []) {
      if (propagation.stopped) break;
      for (const { handler } of subscriptions.handlers(entry.tag, frame.event, entry.phase)) {
        const event = new SyntheticEvent(frame, entry, propagation);
        try {
          const returned = handler(event);
          if (returned && typeof returned.then === 'function') {
            running.push(Promise.resolve(returned).then(undefined, (err) => this.#failed(err, frame)));
          }
        } catch (err) {
          this.#failed(err, frame);
        }
      }
    }
    if (hold && running.length > 0) this.#window.push(Promise.all(running));
  }

  /** The handler promises a response waits for (those of the events since the previous response). */
  takeWindow() {
    const waits = this.#window;
    this.#window = [];
    return waits;
  }

  /** The connection is gone: no later response waits for these handlers. */
  clearWindow() {
    this.#window = [];
  }

  /** Ends every events() iterator (with `error`, or cleanly with null). */
  endStreams(error) {
    for (const stream of [...this.streams]) stream.end(error);
  }

  #failed(cause, frame) {
    const message = `a ${frame.event} handler failed: ${cause instanceof Error ? cause.message : String(cause)}`;
    const err = new BridgeError(ClientErrorCodes.HANDLER_FAILED, message, {
      cause,
      details: { event: frame.event, seq: frame.seq, target: frame.target },
    });
    this.#report(err);
  }
}
