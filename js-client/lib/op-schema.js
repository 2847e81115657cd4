// The schema language of the daemon's op descriptions (`bridged ops`; Sources/BridgeCore/Ops/OpSpec.swift):
//   "string" "integer" "number" "boolean" "null" "json" (any) "object" (any object), "a|b" (either);
//   [S] (an array of S); {"name": S, "other?": S} (exactly these members; `?` may be absent); {"*": S} (every
//   member S); {"$oneOf": [S, ...]}; "$name": "Name" in an object (its TypeScript name in index.d.ts).
// `problems` checks a value against one, `typeOf` writes it as a TypeScript type.

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean', 'null', 'json', 'object']);

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

function primitiveHolds(name, value) {
  switch (name) {
    case 'string': return typeof value === 'string';
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'boolean': return typeof value === 'boolean';
    case 'null': return value === null;
    case 'json': return true;
    case 'object': return isPlainObject(value);
    default: throw new Error(`op schema: unknown type '${name}'`);
  }
}

const describe = (value) => (value === undefined ? 'nothing' : JSON.stringify(value));

/** An object schema's members without `$name`: [[name, schema, optional]]. */
function members(schema) {
  return Object.entries(schema)
    .filter(([key]) => key !== '$name')
    .map(([key, inner]) => (key.endsWith('?') ? [key.slice(0, -1), inner, true] : [key, inner, false]));
}

/**
 * Where `value` differs from `schema`: a list of `path: problem` lines (empty when it conforms). An object
 * schema with named members is closed: a member it does not name is a problem.
 */
export function problems(value, schema, path = 'result') {
  if (typeof schema === 'string') {
    const names = schema.split('|');
    for (const name of names) {
      if (!PRIMITIVES.has(name)) throw new Error(`op schema: unknown type '${name}' at ${path}`);
    }
    if (names.some((name) => primitiveHolds(name, value))) return [];
    return [`${path}: expected ${schema}, got ${describe(value)}`];
  }
  if (Array.isArray(schema)) {
    if (!Array.isArray(value)) return [`${path}: expected an array, got ${describe(value)}`];
    return value.flatMap((element, i) => problems(element, schema[0], `${path}[${i}]`));
  }
  if ('$oneOf' in schema) {
    const each = schema.$oneOf.map((option) => problems(value, option, path));
    if (each.some((list) => list.length === 0)) return [];
    return [`${path}: matches none of its ${each.length} shapes (${each.map((list) => list[0]).join('; ')})`];
  }
  if (!isPlainObject(value)) return [`${path}: expected an object, got ${describe(value)}`];
  if ('*' in schema) {
    return Object.entries(value).flatMap(([key, inner]) => problems(inner, schema['*'], `${path}.${key}`));
  }
  const declared = members(schema);
  const found = [];
  for (const [name, inner, optional] of declared) {
    if (!(name in value)) {
      if (!optional) found.push(`${path}.${name}: missing`);
      continue;
    }
    found.push(...problems(value[name], inner, `${path}.${name}`));
  }
  for (const key of Object.keys(value)) {
    if (!declared.some(([name]) => name === key)) found.push(`${path}.${key}: not in the op's result schema`);
  }
  return found;
}

const TS = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  null: 'null',
  json: 'JsonValue',
  object: 'JsonObject',
};

const key = (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));

/** `schema` as a TypeScript type; a schema with `$name` is that name (declared by hand in index.d.ts). */
export function typeOf(schema) {
  if (typeof schema === 'string') return schema.split('|').map((name) => TS[name]).join(' | ');
  if (Array.isArray(schema)) {
    const inner = typeOf(schema[0]);
    return /[ |]/.test(inner) && !inner.startsWith('{') ? `Array<${inner}>` : `${inner}[]`;
  }
  if (schema.$name) return schema.$name;
  if ('$oneOf' in schema) return schema.$oneOf.map(typeOf).join(' | ');
  if ('*' in schema) return `Record<string, ${typeOf(schema['*'])}>`;
  const declared = members(schema);
  if (declared.length === 0) return 'Record<string, never>';
  const written = declared.map(([name, inner, optional]) => `${key(name)}${optional ? '?' : ''}: ${typeOf(inner)}`);
  return `{ ${written.join('; ')} }`;
}
