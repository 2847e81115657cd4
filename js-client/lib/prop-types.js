// The prop types a daemon describes in hello's `propTypes` (protocol.md, "hello"), by name: React Native's native
// type of each, whether React Native's renderer deep-diffs it, its TypeScript types. The client reads a type's
// facts here and never switches on type names; a type's parameters (an enum's `values`, an array's `elements`,
// an object's `fields`) are read from its description's shape.

/**
 * The `propTypes` entry of `description`'s type. Throws, naming `where` and the type, when the daemon describes
 * no such type (a daemon older than `propTypes`, or a description from elsewhere).
 */
export function propTypeOf(propTypes, description, where) {
  const type = description?.type;
  const entry = propTypes && Object.hasOwn(propTypes, type) ? propTypes[type] : undefined;
  if (entry) return entry;
  const known = Object.keys(propTypes ?? {});
  throw new Error(
    `${where}: the daemon's hello describes no prop type ${JSON.stringify(type)} ` +
      (known.length ? `(its propTypes are ${known.join(', ')})` : '(it sent no propTypes: a daemon older than this client)'),
  );
}
