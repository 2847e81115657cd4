// Losing the connection, reconnecting, resuming: what each pending request becomes, what hello asks, and the
// events the daemon re-sends.
import { ClientErrorCodes } from '../errors.js';
import { SAFE_TO_REPEAT, SESSION_FREE, backoffDelay } from '../reconnect.js';
import { SYSTEM_TIMERS } from './pending.js';

/**
 * What a pending request becomes when the connection is lost: 'wait' (not written yet: it waits for the next
 * connection), 'drop' (aborted: rejected already), 'repeat' (an op safe to repeat: sent again on the next
 * connection) or 'fail' (it may or may not have taken effect: `connection_closed`).
 */
export function fateOnLoss(entry) {
  if (!entry.sent && entry.internal === null) return 'wait';
  if (entry.aborted) return 'drop';
  if (entry.internal === null && SAFE_TO_REPEAT.has(entry.op)) return 'repeat';
  return 'fail';
}

/** Whether a request that waited for the connection is still sent after the daemon started a fresh session. */
export function keptAfterReset(entry) {
  return SESSION_FREE.has(entry.op);
}

/** hello's `resume`: the session, its token (a daemon that sent none needs none) and the last seq dispatched. */
export function resumeOf({ session, token, ack }) {
  return token === undefined ? { session, ack } : { session, token, ack };
}

/**
 * hello's answer to a resume: `{resumed: true, until}` when `session` was re-attached (the daemon re-sends
 * the events after `ack` up to `until`), else `{resumed: false, reason}` (a fresh session).
 */
export function reattached(result, { session, ack }) {
  if (result.resumed === true && result.session === session) {
    return { resumed: true, until: typeof result.seq === 'number' ? result.seq : ack };
  }
  return { resumed: false, reason: result.reason ?? 'unknown_session' };
}

/**
 * The events a resumed session re-sends: from the resume's answer until the seq it named (or the first
 * response). `start` returns false when nothing is to come.
 */
export class Replay {
  #current = null;

  /** Expects the events after `last` up to `until` of `session`. */
  start(session, until, last) {
    this.#current = until > last ? { session, until, replayed: 0 } : null;
    return this.#current !== null;
  }

  get active() {
    return this.#current !== null;
  }

  /** Whether an event with `seq` is one of the re-sent ones. */
  covers(seq) {
    return this.#current !== null && seq <= this.#current.until;
  }

  /** Counts a re-sent event; true when it was the last one. */
  count(seq) {
    this.#current.replayed++;
    return seq >= this.#current.until;
  }

  /** Ends the replay: `{session, replayed}`, or null when none was active. */
  end() {
    const current = this.#current;
    this.#current = null;
    return current === null ? null : { session: current.session, replayed: current.replayed };
  }
}

/**
 * The reconnection attempts: waits `backoffDelay` before each, at most `maxAttempts` of them, and stops
 * early when `cancel()` is called (the Bridge closed) or an attempt fails for a reason other than a lost or
 * refused connection (the daemon refused the resume itself: trying again would not help).
 */
export class Reconnector {
  #options;
  #timers;
  #random;
  #timer = null;
  #wake = null;
  #cancelled = false;

  constructor(options, { timers = SYSTEM_TIMERS, random = Math.random } = {}) {
    this.#options = options;
    this.#timers = timers;
    this.#random = random;
  }

  /**
   * Runs the attempts. `onAttempt({attempt, delayMs, error})` before each wait; `attempt()` connects and
   * resumes (it throws on failure; `onFailure(err)` cleans up after it). Resolves null once an attempt
   * succeeded or the loop was cancelled, else the last error (the Bridge gives up).
   */
  async run(firstError, { onAttempt, attempt, onFailure }) {
    let lastError = firstError;
    for (let n = 1; n <= this.#options.maxAttempts; n++) {
      const delayMs = backoffDelay(n, this.#options, this.#random);
      onAttempt({ attempt: n, delayMs, error: lastError });
      await new Promise((resolve) => {
        this.#wake = resolve;
        this.#timer = this.#timers.setTimeout(resolve, delayMs);
      });
      this.#timer = null;
      this.#wake = null;
      if (this.#cancelled) return null;
      try {
        await attempt();
        return null;
      } catch (err) {
        lastError = err;
        if (this.#cancelled) return null;
        onFailure(err);
        const transient =
          err?.code === ClientErrorCodes.CONNECTION_CLOSED || err?.code === ClientErrorCodes.CONNECT_FAILED;
        if (!transient) break;
      }
    }
    return lastError;
  }

  /** Stops the loop: a wait ends at once, and no further attempt is made. */
  cancel() {
    this.#cancelled = true;
    this.#timers.clearTimeout(this.#timer);
    this.#wake?.();
  }
}
