// Reading the daemon's frames: each line parsed and told apart (an event, a response, neither), each response
// matched to the request it answers and settled after the handlers of the events read before it. What undici's
// client-h1.js is to its client.js: the protocol's side, with the session's state left to the Bridge.
import { BridgeError, ErrorCodes, protocolError } from '../errors.js';
import { eventProblem, frameKind, responseProblem } from '../frames.js';

/** A line quoted in an error message, cut short when long. */
export function abbreviate(line) {
  return line.length > 300 ? `${line.slice(0, 300)}… (${line.length} characters)` : line;
}

/**
 * Reads one connection's lines (`read(line)`). A line that is not JSON, or a frame of the wrong shape, is
 * reported as a `protocol_error` (`report(err)`) and read no further; nothing it reads throws. The owner is told:
 * - `onEvent(frame)`: an event frame of the right shape;
 * - `onChange(frame)`: a change frame of a session this connection observes (`observe`);
 * - `onTakenOver(error)`: the daemon said another connection resumed this session (`session_taken_over`);
 * - `beforeResponse()`: a response is about to be matched (a resume's re-sent events end there).
 *
 * A response takes its request out of `pending` (client/pending.js) and settles it once the handler promises
 * `dispatch` (client/dispatch.js) holds for the events before it have settled; `onResponse` of the request runs
 * at once. `record(entry)`, when given, gets every frame read (`{dir: 'out', frame}`).
 */
export class FrameReader {
  #pending;
  #dispatch;
  #report;
  #record;
  #onEvent;
  #onChange;
  #onTakenOver;
  #beforeResponse;

  constructor({ pending, dispatch, report, record, onEvent, onChange = () => {}, onTakenOver, beforeResponse = () => {} }) {
    this.#pending = pending;
    this.#dispatch = dispatch;
    this.#report = report;
    this.#record = record;
    this.#onEvent = onEvent;
    this.#onChange = onChange;
    this.#onTakenOver = onTakenOver;
    this.#beforeResponse = beforeResponse;
  }

  /** One line from the daemon, without its newline. */
  read(line) {
    if (line === '') return;
    let frame;
    try {
      frame = JSON.parse(line);
    } catch {
      this.#report(protocolError(`the daemon sent a line that is not JSON: ${abbreviate(line)}`));
      return;
    }
    this.#record?.({ dir: 'out', frame });
    const kind = frameKind(frame);
    if (kind === 'event') {
      const problem = eventProblem(frame);
      if (problem) this.#report(protocolError(`the daemon sent an event frame whose ${problem}: ${abbreviate(line)}`));
      else this.#onEvent(frame);
    } else if (kind === 'change') {
      this.#onChange(frame);
    } else if (kind === 'response' && frame.id === null && frame.error?.code === ErrorCodes.SESSION_TAKEN_OVER) {
      // Another connection resumed this session: it is theirs now. No reconnect.
      this.#onTakenOver(BridgeError.fromProtocol(frame.error));
    } else if (kind === 'response') {
      this.#response(frame, line);
    } else {
      const message = `the daemon sent a line that is neither a response nor an event: ${abbreviate(line)}`;
      this.#report(protocolError(message));
    }
  }

  #response(frame, line) {
    this.#beforeResponse();
    const waits = this.#dispatch.takeWindow();
    const problem = responseProblem(frame);
    const pending = this.#pending.claim(frame, problem);
    if (typeof pending === 'string') {
      this.#report(protocolError(`${pending}: ${abbreviate(line)}`));
      return;
    }
    if (problem) {
      // The request it answers fails with the same protocol_error, rather than waiting for an answer that came.
      const err = protocolError(`the daemon sent a response whose ${problem}: ${abbreviate(line)}`);
      this.#report(err);
      if (!pending.aborted) pending.reject(err);
      return;
    }
    if (pending.partsLeft > 0) {
      // A part of a batch sent in parts was held (`staged`); the last part's answer settles the batch. A part
      // the daemon refused fails it now (the parts after it are refused too, and ignored).
      if (!frame.ok && !pending.aborted) {
        pending.aborted = true;
        pending.reject(BridgeError.fromProtocol(frame.error));
      }
      return;
    }
    try {
      pending.onResponse?.(frame);
    } catch (err) {
      // The client's own bookkeeping of an answer (deleted tags, a batch's results) found it of another shape.
      const message = `the daemon's answer to ${pending.op} could not be used: ${err?.message ?? err}`;
      this.#report(err instanceof BridgeError ? err : protocolError(message, { cause: err }));
    }
    if (pending.aborted) return; // rejected when its signal aborted; the client's own state is updated above
    const settle = () => {
      if (frame.ok) pending.resolve(frame.result);
      else pending.reject(BridgeError.fromProtocol(frame.error));
    };
    if (waits.length === 0) settle();
    else Promise.all(waits).then(settle);
  }
}
