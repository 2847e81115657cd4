// A lossless JSON reader/writer for replay: numbers keep their source text (tags up to 2^63−1 survive)
// and objects keep their keys in order, duplicates included, so a recorded frame is sent as recorded.

export class JsonNumber {
  constructor(text) {
    this.text = text;
  }
}

export class JsonObject {
  /** @param {Array<[string, unknown]>} entries */
  constructor(entries = []) {
    this.entries = entries;
  }

  get(key) {
    for (const [k, v] of this.entries) if (k === key) return v;
    return undefined;
  }

  has(key) {
    return this.entries.some(([k]) => k === key);
  }

  set(key, value) {
    for (const entry of this.entries) if (entry[0] === key) entry[1] = value;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const WS = /[ \t\n\r]*/y;

/** Parses JSON text; throws SyntaxError. Numbers become JsonNumber, objects JsonObject. */
export function parseLossless(text) {
  let pos = 0;
  const skip = () => {
    WS.lastIndex = pos;
    WS.exec(text);
    pos = WS.lastIndex;
  };
  const fail = (what) => {
    throw new SyntaxError(`${what} at position ${pos}`);
  };
  const value = () => {
    skip();
    const c = text[pos];
    if (c === '{') {
      pos++;
      const entries = [];
      skip();
      if (text[pos] === '}') {
        pos++;
        return new JsonObject(entries);
      }
      for (;;) {
        skip();
        if (text[pos] !== '"') fail('expected a key');
        const key = string();
        skip();
        if (text[pos] !== ':') fail("expected ':'");
        pos++;
        entries.push([key, value()]);
        skip();
        if (text[pos] === ',') pos++;
        else if (text[pos] === '}') {
          pos++;
          return new JsonObject(entries);
        } else fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      pos++;
      const items = [];
      skip();
      if (text[pos] === ']') {
        pos++;
        return items;
      }
      for (;;) {
        items.push(value());
        skip();
        if (text[pos] === ',') pos++;
        else if (text[pos] === ']') {
          pos++;
          return items;
        } else fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m) fail('unexpected character');
    pos = NUMBER.lastIndex;
    return new JsonNumber(m[0]);
  };
  const string = () => {
    STRING.lastIndex = pos;
    const m = STRING.exec(text);
    if (!m) fail('bad string');
    pos = STRING.lastIndex;
    return JSON.parse(m[0]);
  };
  const result = value();
  skip();
  if (pos !== text.length) fail('trailing characters');
  return result;
}

/** Compact JSON text of a lossless value (plain JS values work too). */
export function stringifyLossless(value) {
  if (value instanceof JsonNumber) return value.text;
  if (value instanceof JsonObject) {
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${stringifyLossless(v)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(stringifyLossless).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${stringifyLossless(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const INTEGER = /^-?\d+$/;

function numbersEqual(a, b) {
  if (INTEGER.test(a.text) && INTEGER.test(b.text)) return BigInt(a.text) === BigInt(b.text);
  return Number(a.text) === Number(b.text);
}

/** Equality as JSON values: key order and spacing do not matter; 5 equals 5.0. */
export function jsonEqual(a, b) {
  if (a instanceof JsonNumber || b instanceof JsonNumber) {
    return a instanceof JsonNumber && b instanceof JsonNumber && numbersEqual(a, b);
  }
  if (a instanceof JsonObject || b instanceof JsonObject) {
    if (!(a instanceof JsonObject && b instanceof JsonObject)) return false;
    if (a.entries.length !== b.entries.length) return false;
    const rest = [...b.entries];
    for (const [k, v] of a.entries) {
      const i = rest.findIndex(([k2, v2]) => k2 === k && jsonEqual(v, v2));
      if (i === -1) return false;
      rest.splice(i, 1);
    }
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  return a === b;
}
