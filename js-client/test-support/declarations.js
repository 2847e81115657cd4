// Declaration files read as text (no TypeScript API: Debian's tsc checks them, these tests compare them with the
// code): what a `.d.ts` exports as values, and the members of a class, interface or object type it declares; and
// what the code has: a class's own methods and getters, and whether a doc comment marks one `@internal`.
import assert from 'node:assert/strict';

/** The names a declaration file exports as values (`export const|function|class|declare …`; types are not values). */
export function declaredExports(text) {
  return new Set([...text.matchAll(/^export (?:declare )?(?:const|function|class) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]));
}

/**
 * The members of `export class <name> {…}`, `export interface <name> … {…}` or `export type <name> = … & {…}` in a
 * declaration file: `{methods, properties, internal}` (sets of names; `internal`: those whose doc comment says
 * `@internal`).
 */
export function declaredMembers(text, name, file = 'the declaration file') {
  const start = text.search(new RegExp(`^export (?:declare )?(?:class|interface|type) ${name}\\b.*\\{$`, 'm'));
  assert.notEqual(start, -1, `${file} declares no ${name}`);
  const body = text.slice(text.indexOf('\n', start) + 1, text.indexOf('\n}', start));
  const methods = new Set();
  const properties = new Set();
  const internal = new Set();
  let comment = '';
  for (const line of body.split('\n')) {
    if (/^ {2}\/\*\*/.test(line)) comment = '';
    if (/^ {2}(\/\*\*| \*)/.test(line)) {
      comment += line;
      continue;
    }
    const match = line.match(/^ {2}(readonly )?([A-Za-z_$][\w$]*)\??([:(<])/);
    if (match && match[2] !== 'constructor' && match[2] !== 'private') {
      const [, readonly, member, after] = match;
      if (readonly || after === ':') properties.add(member);
      else methods.add(member);
      if (comment.includes('@internal')) internal.add(member);
    }
    if (/^ {2}\S/.test(line)) comment = '';
  }
  return { methods, properties, internal };
}

/** The methods and getters a class defines itself (string keys), as the prototype has them. */
export function ownMembers(cls) {
  const methods = new Set();
  const getters = new Set();
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(cls.prototype))) {
    if (key === 'constructor') continue;
    if (descriptor.get) getters.add(key);
    else if (typeof descriptor.value === 'function') methods.add(key);
  }
  return { methods, getters };
}

/** Whether the doc comment right above `member`'s definition in `source` says `@internal`. */
export function markedInternal(source, member) {
  const definition = source.search(new RegExp(`\\n {2}(?:async |get |static )?${member}\\(`));
  if (definition === -1) return false;
  const before = source.slice(0, definition);
  const comment = before.slice(before.lastIndexOf('/**'));
  return /\*\/\s*$/.test(comment) && comment.includes('@internal');
}
