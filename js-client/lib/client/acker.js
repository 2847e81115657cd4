// Acknowledgements: cumulative, at most one in flight, never in the way of dispatch.
import { ErrorCodes } from '../errors.js';
import { SYSTEM_TIMERS } from './pending.js';

/**
 * Acks the events dispatched in a session (`ack` option: `{everyEvents, delayMs}`, or null to send none).
 * `last()` is the last seq dispatched; `canSend()` whether the connection may carry an ack now;
 * `send(seq)` sends `{op: 'ack', seq}` and resolves its result. A daemon without `ack` (unknown_op) is not
 * asked again. `sent` and `acked` also follow resumes (`resumed`) and fresh sessions (`reset`).
 */
export class Acker {
  #options;
  #last;
  #canSend;
  #send;
  #timers;
  #supported = true;
  #timer = null;
  #inFlight = false;
  /** Counts fresh sessions: an answer from an older one confirms nothing in this one. */
  #epoch = 0;
  /** The last seq sent in an ack (or a resume) in this session. */
  sent = 0;
  /** The highest seq the daemon confirmed as acknowledged in this session. */
  acked = 0;

  constructor(options, { last, canSend, send, timers = SYSTEM_TIMERS }) {
    this.#options = options;
    this.#last = last;
    this.#canSend = canSend;
    this.#send = send;
    this.#timers = timers;
  }

  /** After each read from the socket: ack now if `everyEvents` are unacked, else within `delayMs`. */
  schedule() {
    if (!this.#options || !this.#supported || !this.#canSend() || this.#inFlight) return;
    const unacked = this.#last() - this.sent;
    if (unacked <= 0) return;
    if (unacked >= this.#options.everyEvents) {
      this.#sendNow();
    } else if (this.#timer === null) {
      this.#timer = this.#timers.setTimeout(() => this.#sendNow(), this.#options.delayMs);
      this.#timer?.unref?.();
    }
  }

  /** The connection is gone: no ack waits for a timer, and the one in flight is not waited for. */
  stop() {
    this.#cancelTimer();
    this.#inFlight = false;
  }

  /** The session was resumed with `ack`: the daemon has it acknowledged. */
  resumed(ack) {
    this.sent = Math.max(this.sent, ack);
    this.acked = Math.max(this.acked, ack);
  }

  /** A fresh session: nothing of it acknowledged yet. */
  reset() {
    this.#epoch++;
    this.sent = 0;
    this.acked = 0;
  }

  #cancelTimer() {
    this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #sendNow() {
    this.#cancelTimer();
    if (!this.#canSend() || this.#inFlight) return;
    const seq = this.#last();
    if (seq <= this.sent) return;
    const epoch = this.#epoch;
    this.#inFlight = true;
    this.sent = seq;
    this.#send(seq)
      .then(
        (result) => {
          if (epoch === this.#epoch) this.acked = Math.max(this.acked, result?.acked ?? seq);
        },
        (err) => {
          // A daemon without resume support: stop acking. Anything else: the next ack covers it.
          if (err?.code === ErrorCodes.UNKNOWN_OP) this.#supported = false;
        },
      )
      .finally(() => {
        this.#inFlight = false;
        this.schedule();
      });
  }
}
