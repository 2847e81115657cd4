// Losing the connection, reconnecting, resuming: what each pending request becomes, what hello asks, and the
// events the daemon re-sends.
import { BridgeError, ClientErrorCodes, connectionClosed } from '../errors.js';
import { SAFE_TO_REPEAT, SESSION_FREE, backoffDelay } from '../reconnect.js';
import { CLIENT_NAME } from '../version.js';
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

/**
 * What a lost connection does to each pending request (`fateOnLoss`): unsent ones and those safe to repeat wait
 * for the next connection (at most `waitMs`, reconnect.requestTimeoutMs), aborted ones are forgotten, the
 * others fail with `connection_closed` (whose cause is `cause`, the socket's error).
 */
export function settleOnLoss(pending, { waitMs, cause }) {
  for (const [, entry] of pending) {
    switch (fateOnLoss(entry)) {
      case 'wait':
        pending.waitForReconnect(entry, waitMs);
        break;
      case 'drop':
        pending.drop(entry);
        break;
      case 'repeat':
        pending.markUnsent(entry);
        pending.waitForReconnect(entry, waitMs);
        break;
      default:
        pending.drop(entry);
        entry.reject(
          connectionClosed(
            'the connection to bridged was lost before the response; the request may or may not have taken effect',
            cause,
          ),
        );
    }
  }
}

/**
 * Getting a session back after its connection was lost: the requests' fates (`settleOnLoss`), the attempts
 * (`Reconnector`), hello with `resume` on each new connection, and the events the daemon re-sends (`Replay`).
 * The session's own state stays with its owner (the Bridge), reached through `host`:
 * - `pending`: its PendingRequests;
 * - `connect()`: a new connection, resolving `{socket, daemonPid}` (spawn.js connectOrSpawn);
 * - `attach(socket, daemonPid)`: reads and writes through `socket` from now on; false (and the socket is
 *   destroyed) when the owner stopped reconnecting meanwhile;
 * - `request(frame, options)`: sends a request (the Bridge's kRequest);
 * - `drop()`: ends the current connection (an attempt failed);
 * - `session()`, `token()`, `lastSeq()`: what hello's `resume` presents;
 * - `reattached(result, outcome, {previous, ack})`: applies hello's answer (`reattached`'s outcome; what the
 *   resume asked for) to the session and sends the requests that waited, synchronously, before the re-sent
 *   events are read;
 * - `emit(name, info)`: the owner's 'reconnecting' and 'resumed';
 * - `gaveUp(error)`: no attempt succeeded.
 */
export class Resumer {
  #options;
  #timeoutMs;
  #host;
  #timers;
  #random;
  /** The reconnection under way, if any. */
  #reconnector = null;
  #replay = new Replay();

  /**
   * @param {object | null} options reconnect.js reconnectOptions (null: a loss ends the session)
   * @param {number} timeoutMs how long one attempt (connecting, then hello) may take
   */
  constructor(options, timeoutMs, host, { timers = SYSTEM_TIMERS, random = Math.random } = {}) {
    this.#options = options;
    this.#timeoutMs = timeoutMs;
    this.#host = host;
    this.#timers = timers;
    this.#random = random;
  }

  /** Whether a lost connection is reconnected (the `reconnect` option). */
  get enabled() {
    return this.#options !== null;
  }

  /** How long a request waits for the connection to come back (0: no limit). */
  get waitMs() {
    return this.#options?.requestTimeoutMs ?? 0;
  }

  /** The connection dropped (the owner is 'reconnecting' now): settles the pending requests and starts the attempts. */
  lost(firstError, cause) {
    this.#replay.end();
    settleOnLoss(this.#host.pending, { waitMs: this.waitMs, cause });
    this.#run(firstError);
  }

  /** The owner closed: no further attempt, no replay. */
  stop() {
    this.#reconnector?.cancel();
    this.#replay.end();
  }

  /** Whether an event with `seq` is one the daemon re-sends (it belongs to no request of this connection). */
  replays(seq) {
    return this.#replay.covers(seq);
  }

  /** A re-sent event was dispatched: the replay ends (and 'resumed' is emitted) with the last one. */
  replayed(seq) {
    if (this.#replay.active && this.#replay.count(seq)) this.endReplay();
  }

  /** A response was read: the re-sent events, if any were still to come, are over. */
  endReplay() {
    const ended = this.#replay.end();
    if (ended) this.#host.emit('resumed', ended);
  }

  async #run(firstError) {
    const host = this.#host;
    const reconnector = new Reconnector(this.#options, { timers: this.#timers, random: this.#random });
    this.#reconnector = reconnector;
    const lastError = await reconnector.run(firstError, {
      onAttempt: (info) => host.emit('reconnecting', info),
      attempt: async () => {
        const { socket, daemonPid } = await host.connect();
        if (!host.attach(socket, daemonPid)) return;
        await this.#hello();
      },
      onFailure: (err) => {
        host.pending.dropInternal('hello', err);
        host.drop();
      },
    });
    if (this.#reconnector === reconnector) this.#reconnector = null;
    if (lastError !== null) host.gaveUp(lastError);
  }

  /** hello with resume, on the new socket; the outcome is applied as soon as the response is read. */
  #hello() {
    const host = this.#host;
    const previous = host.session();
    const ack = host.lastSeq();
    const resume = resumeOf({ session: previous, token: host.token(), ack });
    const frame = { op: 'hello', protocol: 1, client: CLIENT_NAME, resume };
    const timeoutMs = this.#timeoutMs;
    // Runs synchronously on hello's response, before the retained events that follow it.
    const onResponse = (response) => {
      if (!response.ok) return;
      const result = response.result ?? {};
      const outcome = reattached(result, { session: previous, ack });
      host.reattached(result, outcome, { previous, ack });
      if (!outcome.resumed) return;
      const replaying = this.#replay.start(previous, outcome.until, host.lastSeq());
      if (!replaying) host.emit('resumed', { session: previous, replayed: 0 });
    };
    const signal = this.#timers.timeoutSignal(timeoutMs);
    return host.request(frame, { onResponse, internal: 'hello', signal }).catch((err) => {
      if (err?.code !== ClientErrorCodes.ABORTED) throw err;
      throw new BridgeError(ClientErrorCodes.CONNECT_FAILED, `no answer to hello within ${timeoutMs} ms`, { cause: err });
    });
  }
}
