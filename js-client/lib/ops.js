// The protocol's ops as the client knows them, one line each, in protocol.md's order ("Operations").
//
// Every other list of ops in the client derives from this table; adding an op to the client is an entry
// here, its method, and its declarations in index.d.ts (`RequestResults`). A test of the daemon reads the
// keys of this block and compares them with its own op table, so each entry stays on one line.
//
// - `safeToRepeat`: sent again on the next connection when the connection was lost before its response
//   (repeating it changes nothing).
// - `sessionFree`: does not depend on the session's views, so it is still sent after the daemon started a
//   fresh session on a reconnect (a reset); the others reject with `session_reset`. (`sessions`, `observe` and
//   `unobserve` would qualify too, but a reset has always rejected them: the client's answers stay as they were.)
// - `inBatch`: may be one of a `batch`'s ops (a transaction's); the daemon refuses the others there
//   (`bad_request`).

export const OPS = Object.freeze({
  hello: { safeToRepeat: false, sessionFree: false, inBatch: false },
  create: { safeToRepeat: false, sessionFree: false, inBatch: true },
  update: { safeToRepeat: false, sessionFree: false, inBatch: true },
  setChildren: { safeToRepeat: false, sessionFree: false, inBatch: true },
  delete: { safeToRepeat: false, sessionFree: false, inBatch: true },
  subscribe: { safeToRepeat: false, sessionFree: false, inBatch: true },
  unsubscribe: { safeToRepeat: false, sessionFree: false, inBatch: true },
  command: { safeToRepeat: false, sessionFree: false, inBatch: true },
  emit: { safeToRepeat: false, sessionFree: false, inBatch: true },
  touch: { safeToRepeat: false, sessionFree: false, inBatch: true },
  define: { safeToRepeat: false, sessionFree: false, inBatch: false },
  components: { safeToRepeat: true, sessionFree: false, inBatch: true },
  inspect: { safeToRepeat: true, sessionFree: false, inBatch: true },
  batch: { safeToRepeat: false, sessionFree: false, inBatch: false },
  ack: { safeToRepeat: false, sessionFree: false, inBatch: false },
  ping: { safeToRepeat: true, sessionFree: true, inBatch: true },
  stats: { safeToRepeat: true, sessionFree: true, inBatch: true },
  sessions: { safeToRepeat: false, sessionFree: false, inBatch: false },
  observe: { safeToRepeat: false, sessionFree: false, inBatch: false },
  unobserve: { safeToRepeat: false, sessionFree: false, inBatch: false },
  bye: { safeToRepeat: false, sessionFree: false, inBatch: false },
});

/** The names of the ops whose entry has `flag` set. */
export function opsWhere(flag) {
  return new Set(Object.keys(OPS).filter((name) => OPS[name][flag] === true));
}
