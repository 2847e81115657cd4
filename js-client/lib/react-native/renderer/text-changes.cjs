// Changes to a renderer file's text as it is loaded (linear-paper.js, dev-overhead.cjs): each an exact text of React
// Native's file, replaced only where it is found once, so that a file without it (another version, a production
// build) runs as shipped.

'use strict';

/**
 * The text `change.from` found exactly once in `source`, replaced by `change.to`; null when it is not. Its lines end
 * as the file's do (React Native's files are LF as published; a checkout made on Windows, or by git with autocrlf,
 * is CRLF).
 */
function replaceOnce(source, change) {
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const from = eol === '\n' ? change.from : change.from.replaceAll('\n', eol);
  const to = eol === '\n' ? change.to : change.to.replaceAll('\n', eol);
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + from.length) >= 0) return null;
  return source.slice(0, at) + to + source.slice(at + from.length);
}

/** Each of `changes` applied in turn, or null when one of them does not apply (then none is). */
function replaceAll(source, changes) {
  for (const change of changes) {
    source = replaceOnce(source, change);
    if (source === null) return null;
  }
  return source;
}

module.exports = { replaceOnce, replaceAll };
