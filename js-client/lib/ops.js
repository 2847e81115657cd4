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
// Which ops a batch may hold is the daemon's to say (protocol.md's Operations table, `batch` column).

export const OPS = Object.freeze({
  hello: { safeToRepeat: false, sessionFree: false },
  create: { safeToRepeat: false, sessionFree: false },
  update: { safeToRepeat: false, sessionFree: false },
  setChildren: { safeToRepeat: false, sessionFree: false },
  delete: { safeToRepeat: false, sessionFree: false },
  subscribe: { safeToRepeat: false, sessionFree: false },
  unsubscribe: { safeToRepeat: false, sessionFree: false },
  command: { safeToRepeat: false, sessionFree: false },
  emit: { safeToRepeat: false, sessionFree: false },
  touch: { safeToRepeat: false, sessionFree: false },
  define: { safeToRepeat: false, sessionFree: false },
  components: { safeToRepeat: true, sessionFree: false },
  inspect: { safeToRepeat: true, sessionFree: false },
  layout: { safeToRepeat: true, sessionFree: false },
  screenshot: { safeToRepeat: true, sessionFree: false },
  batch: { safeToRepeat: false, sessionFree: false },
  ack: { safeToRepeat: false, sessionFree: false },
  ping: { safeToRepeat: true, sessionFree: true },
  stats: { safeToRepeat: true, sessionFree: true },
  sessions: { safeToRepeat: false, sessionFree: false },
  observe: { safeToRepeat: false, sessionFree: false },
  unobserve: { safeToRepeat: false, sessionFree: false },
  bye: { safeToRepeat: false, sessionFree: false },
});

/** The names of the ops whose entry has `flag` set. */
export function opsWhere(flag) {
  return new Set(Object.keys(OPS).filter((name) => OPS[name][flag] === true));
}
