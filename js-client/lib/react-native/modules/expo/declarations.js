// The native modules an Expo app's installed packages declare, read from each package's `ios/` sources, as a
// device build links them:
// - a package takes part when it has `expo-module.config.json` or `unimodule.json` naming the `ios` platform
//   (what expo-modules-autolinking looks for), in node_modules or in the app's own `modules/` folder;
// - its Swift modules are the classes its config lists (`ios.modules`, `ios.modulesClassNames`: what autolinking
//   writes into ExpoModulesProvider), each read from `definition() -> ModuleDefinition`: `Name`, `Function`,
//   `AsyncFunction`, `Constants`, `Events`, `View` (with its `Prop`s), as expo-modules-core's AppContext exports
//   them (`exportedFunctionNames`: `{name, argumentsCount, key}`, a `Promise` argument not counted);
// - its Objective-C modules are the classes with `EX_EXPORT_MODULE(Name)` (or `EX_REGISTER_MODULE()` and an
//   `exportedModuleName` returning a literal), each method an `EX_EXPORT_METHOD_AS(name, selector)` whose
//   arguments are the selector's parts less the resolver and rejecter (EXNativeModulesProxy.mm's count), its
//   constants the keys of `constantsToExport`, its events `supportedEvents`.
// A value the reader cannot know without running native code (a constant computed at run time) is null.
// Parsed files are kept by their content (sha1), so a second app with the same packages reads each file once.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { perRoot } from '../../app/per-root.js';

/** Folders of a package's `ios/` that a device build does not compile. */
const SKIPPED_FOLDERS = new Set(['Tests', 'Test', 'Mocks', 'Pods', 'Example', 'Examples', 'build', 'node_modules']);
const SOURCE = /\.(swift|m|mm)$/;

/** sha1 of a file's text → what it declares. */
const parsed = new Map();

/**
 * The modules the packages in `root`'s node_modules declare: `{ modules: Map<name, Declaration>, packages }`.
 * A Declaration is `{ name, package, file, language, functions: [{name, argumentsCount, requiredArgumentsCount}],
 * constants: {key: value|null}, events: [name], view: {propsNames} | null }`. Read once per process while the app's
 * packages are unchanged (app/per-root.js): shared, to be read only.
 */
export const readDeclarations = perRoot((root) => {
  const read = declarationsIn(root);
  for (const pkg of read.packages) Object.freeze(Object.freeze(pkg).modules);
  Object.freeze(read.packages);
  return Object.freeze(read);
});

function declarationsIn(root) {
  const modules = new Map();
  const packages = [];
  // The app's own local modules (`modules/<name>`, autolinking's nativeModulesDir), then its node_modules.
  for (const dir of [...packageFolders(path.join(root, 'modules'), false), ...packageFolders(path.join(root, 'node_modules'))]) {
    const config = readConfig(dir);
    if (!config) continue;
    const iosFolder = path.join(dir, 'ios');
    if (!existsSync(iosFolder)) continue;
    const name = config.packageName;
    const listed = [...(config.ios?.modules ?? []), ...(config.ios?.modulesClassNames ?? [])];
    const swiftClasses = new Set(listed.map((c) => String(c).split('.').pop()));
    const found = [];
    for (const file of sourceFiles(iosFolder)) {
      for (const declaration of declarationsOf(file)) {
        if (declaration.language === 'swift' && !swiftClasses.has(declaration.className)) continue;
        const entry = { ...declaration, package: name, file };
        if (!modules.has(entry.name)) modules.set(entry.name, entry);
        found.push(entry.name);
      }
    }
    packages.push({ name, dir, modules: found });
  }
  return { modules, packages };
}

/** Each package folder of a node_modules (scoped ones included, unless `scopes` is false). */
function packageFolders(nodeModules, scopes = true) {
  const folders = [];
  let entries;
  try {
    entries = readdirSync(nodeModules);
  } catch {
    return folders;
  }
  for (const entry of entries.sort()) {
    if (entry.startsWith('.')) continue;
    const full = path.join(nodeModules, entry);
    if (scopes && entry.startsWith('@')) {
      let scoped = [];
      try {
        scoped = readdirSync(full);
      } catch {}
      for (const inner of scoped.sort()) folders.push(path.join(full, inner));
    } else {
      folders.push(full);
    }
  }
  return folders;
}

/** The package's Expo module config (with its package name), when it takes part on iOS; else null. */
function readConfig(dir) {
  for (const file of ['expo-module.config.json', 'unimodule.json']) {
    const full = path.join(dir, file);
    if (!existsSync(full)) continue;
    let config;
    try {
      config = JSON.parse(readFileSync(full, 'utf8'));
    } catch (error) {
      throw new Error(`openApp: cannot read ${full} (an Expo module's config): ${error.message}`);
    }
    const platforms = config.platforms ?? [];
    if (!platforms.includes('ios') && !platforms.includes('apple')) return null;
    let packageName = config.name;
    try {
      packageName = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name ?? packageName;
    } catch {}
    return { ...config, packageName: packageName ?? path.basename(dir) };
  }
  return null;
}

function* sourceFiles(folder) {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory() || (entry.isSymbolicLink() && statSync(full, { throwIfNoEntry: false })?.isDirectory())) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.endsWith('Tests')) yield* sourceFiles(full);
    } else if (SOURCE.test(entry.name)) {
      yield full;
    }
  }
}

/** What one source file declares (read once per content). */
function declarationsOf(file) {
  const text = readFileSync(file, 'utf8');
  if (!/ModuleDefinition|EX_EXPORT_MODULE|EX_REGISTER_MODULE/.test(text)) return [];
  const key = createHash('sha1').update(file.endsWith('.swift') ? 'swift\0' : 'objc\0').update(text).digest('hex');
  if (!parsed.has(key)) parsed.set(key, file.endsWith('.swift') ? parseSwift(text) : parseObjectiveC(text));
  return parsed.get(key);
}

// MARK: Reading source text

/** The text with its comments blanked (same length, so positions stay), strings kept. */
export function stripComments(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '"') {
      const stop = stringEnd(text, i);
      out += text.slice(i, stop);
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The index after the string literal that starts at `start` (a `"`; Swift's `"""` too). */
function stringEnd(text, start) {
  if (text.startsWith('"""', start)) {
    const end = text.indexOf('"""', start + 3);
    return end === -1 ? text.length : end + 3;
  }
  let i = start + 1;
  while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}

const OPENERS = { '(': ')', '[': ']', '{': '}' };

/** The index of the bracket closing the one at `open`, skipping strings; -1 when it is not closed. */
export function matching(text, open) {
  const stack = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = stringEnd(text, i) - 1;
    } else if (OPENERS[c]) {
      stack.push(OPENERS[c]);
    } else if (c === ')' || c === ']' || c === '}') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** `text` split at its top-level commas (outside brackets and strings), each part trimmed, empty ones left out. */
export function splitTopLevel(text, separator = ',') {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i) - 1;
    else if (OPENERS[c]) depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** The string literals of `text`, unescaped. */
function stringLiterals(text) {
  return [...text.matchAll(/"((?:[^"\\\n]|\\.)*)"/g)].map((m) => unescape(m[1]));
}

function unescape(s) {
  return s.replace(/\\(.)/g, (_, c) => ({ n: '\n', t: '\t', r: '\r', 0: '\0' })[c] ?? c);
}

/** A literal's value (string, number, boolean), else null: what a reader knows without running the code. */
function literal(text) {
  let t = text.trim();
  if (t.startsWith('@(') && t.endsWith(')')) t = t.slice(2, -1).trim();
  else if (/^@["\d-]|^@YES$|^@NO$/.test(t)) t = t.slice(1);
  if (/^"(?:[^"\\\n]|\\.)*"$/.test(t)) return unescape(t.slice(1, -1));
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === 'true' || t === 'YES') return true;
  if (t === 'false' || t === 'NO') return false;
  return null;
}

/** The top-level calls of a block's text: `[{ callee, args, closure, at }]` (`Name("x")`, `Function("f") { … }`). */
function topLevelCalls(body) {
  const calls = [];
  const re = /(?<![.\w])([A-Za-z]+)\s*(?=[({])/g;
  let depth = 0;
  let scanned = 0;
  let match;
  while ((match = re.exec(body))) {
    // The depth at the match: count brackets from the last position scanned.
    for (let i = scanned; i < match.index; i++) {
      const c = body[i];
      if (c === '"') i = stringEnd(body, i) - 1;
      else if (OPENERS[c]) depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
    }
    scanned = match.index;
    if (depth !== 0) continue;
    let i = match.index + match[0].length;
    let args = '';
    let closure = null;
    if (body[i] === '(') {
      const close = matching(body, i);
      if (close === -1) break;
      args = body.slice(i + 1, close);
      i = close + 1;
    }
    const after = /^\s*/.exec(body.slice(i))[0].length;
    if (body[i + after] === '{') {
      const close = matching(body, i + after);
      if (close === -1) break;
      closure = body.slice(i + after + 1, close);
      i = close + 1;
    }
    const modifiers = /^(?:\s*\.\w+\([^()]*\))*/.exec(body.slice(i))[0];
    calls.push({ callee: match[1], args, closure, after: modifiers });
    // Continue after the call (its brackets are balanced: depth is unchanged).
    re.lastIndex = i;
    scanned = i;
  }
  return calls;
}

// MARK: Swift: `definition() -> ModuleDefinition`

/** The modules a Swift file defines: `[{ className, name, language: 'swift', functions, constants, events, view }]`. */
export function parseSwift(source) {
  const text = stripComments(source);
  const modules = [];
  for (const match of text.matchAll(/\bclass\s+(\w+)\s*:\s*([^{]*)\{/g)) {
    const inherits = match[2].split(',').map((s) => s.trim());
    if (!inherits.some((s) => s === 'Module' || s.endsWith('.Module'))) continue;
    const open = match.index + match[0].length - 1;
    const close = matching(text, open);
    if (close === -1) continue;
    const classBody = text.slice(open + 1, close);
    const definition = /func\s+definition\s*\(\s*\)\s*->\s*ModuleDefinition\s*\{/.exec(classBody);
    if (!definition) continue;
    const start = definition.index + definition[0].length - 1;
    const end = matching(classBody, start);
    if (end === -1) continue;
    const module = { className: match[1], name: match[1], language: 'swift', functions: [], constants: {}, events: [], view: null };
    for (const call of topLevelCalls(classBody.slice(start + 1, end))) {
      // SDK 45's DSL spelled them in lower case (`name`, `function`, `constants`, `events`, `viewManager`, `prop`), and
      // its `function` (`method` before it) was asynchronous unless `.runSynchronously()`.
      switch (DSL[call.callee] ?? call.callee) {
        case 'Name':
          module.name = stringLiterals(call.args)[0] ?? module.name;
          break;
        case 'Function':
        case 'AsyncFunction':
          module.functions.push(swiftFunction(call));
          break;
        case 'Constants':
          Object.assign(module.constants, swiftConstants(call));
          break;
        case 'Property': {
          const key = stringLiterals(call.args)[0];
          if (key && !(key in module.constants)) module.constants[key] = null;
          break;
        }
        case 'Events':
          module.events.push(...stringLiterals(call.args));
          break;
        case 'View':
          module.view = {
            propsNames: topLevelCalls(call.closure ?? '')
              .filter((c) => (DSL[c.callee] ?? c.callee) === 'Prop')
              .map((c) => stringLiterals(c.args)[0])
              .filter(Boolean),
          };
          break;
      }
    }
    modules.push(module);
  }
  return modules;
}

/** The DSL's names in SDK 45 and before, as today's. */
const DSL = {
  name: 'Name', function: 'AsyncFunction', method: 'AsyncFunction', constants: 'Constants', events: 'Events',
  viewManager: 'View', ViewManager: 'View', prop: 'Prop',
};

/**
 * A `Function("f") { (a: String, promise: Promise) -> T in … }`: its name and arguments (a Promise not counted).
 * A function given by reference (`AsyncFunction("f", f)`) has an arity the reader cannot know: `arityUnknown`,
 * and its calls are not checked.
 */
function swiftFunction(call) {
  const [nameArgument, ...rest] = splitTopLevel(call.args);
  const name = literal(nameArgument ?? '') ?? '';
  // The body: the trailing closure, or a closure passed as the second argument.
  const closure = call.closure ?? (rest[0]?.startsWith('{') ? rest[0].slice(1, -1) : null);
  const params = closure === null ? [] : closureParameters(closure);
  const counted = params.filter((p) => !/^Promise\b/.test(p.type ?? ''));
  const synchronous = call.callee === 'Function' || (call.callee === 'function' && /\.runSynchronously\(/.test(call.after ?? ''));
  return {
    name: String(name),
    async: !synchronous,
    ...(closure === null && rest.length > 0 ? { arityUnknown: true } : {}),
    argumentsCount: counted.length,
    requiredArgumentsCount: counted.filter((p) => !(p.type ?? '').endsWith('?')).length,
  };
}

/** A closure's parameters from its header (`(a: A, b: B) -> R in`, or `a, b in`): `[{ name, type }]`. */
function closureParameters(closure) {
  const header = /^\s*(?:\[[^\]]*\]\s*)?(\([^]*?\)|[\w\s,]*?)\s*(?:async\s*)?(?:throws\s*)?(?:->\s*[^{}]*?)?\s+in\b/.exec(closure);
  if (!header) return [];
  let list = header[1].trim();
  if (list.startsWith('(')) {
    const close = matching(list, 0);
    list = list.slice(1, close === -1 ? undefined : close);
  }
  return splitTopLevel(list).map((p) => {
    const colon = p.indexOf(':');
    return colon === -1 ? { name: p.trim(), type: null } : { name: p.slice(0, colon).trim(), type: p.slice(colon + 1).trim() };
  });
}

/** `Constants(["k": v])` or `Constants { return ["k": v] }`: the keys, literal values kept, others null. */
function swiftConstants(call) {
  const source = call.closure ?? call.args;
  const open = source.indexOf('[');
  if (open === -1) return {};
  const close = matching(source, open);
  return dictionaryEntries(source.slice(open + 1, close === -1 ? undefined : close), '');
}

/** The entries of a dictionary literal's inside (`"k": v, …`, or ObjC's `@"k": v`). */
function dictionaryEntries(inside, prefix) {
  const entries = {};
  for (const part of splitTopLevel(inside)) {
    const key = new RegExp(`^${prefix}"((?:[^"\\\\]|\\\\.)*)"\\s*:`).exec(part);
    if (!key) continue;
    entries[unescape(key[1])] = literal(part.slice(key[0].length));
  }
  return entries;
}

// MARK: Objective-C: EX_EXPORT_MODULE, EX_EXPORT_METHOD_AS

/** The modules an Objective-C file exports (one per @implementation): `[{ className, name, language: 'objc', … }]`. */
export function parseObjectiveC(source) {
  const text = stripComments(source);
  const modules = [];
  const implementations = [...text.matchAll(/@implementation\s+(\w+)/g)];
  for (let n = 0; n < implementations.length; n++) {
    const from = implementations[n].index;
    const end = text.indexOf('@end', from);
    const body = text.slice(from, end === -1 ? undefined : end);
    let name = /\bEX_EXPORT_MODULE(?:_WITH_CUSTOM_LOAD)?\s*\(\s*(\w*)/.exec(body)?.[1];
    if (!name && /\bEX_REGISTER_MODULE\s*\(/.test(body)) {
      name = /exportedModuleName\s*\{\s*return\s+@"([^"]+)"/.exec(body)?.[1];
    }
    if (!name) continue;
    const module = { className: implementations[n][1], name, language: 'objc', functions: [], constants: {}, events: [], view: null };
    for (const match of body.matchAll(/\bEX_EXPORT_METHOD_AS\s*\(/g)) {
      const open = match.index + match[0].length - 1;
      const close = matching(body, open);
      if (close === -1) continue;
      const [jsName, ...selector] = splitTopLevel(body.slice(open + 1, close));
      // Each part of the selector takes one argument; the last two are the promise's resolver and rejecter.
      const parts = countOutside(selector.join(','), ':');
      const count = Math.max(0, parts - 2);
      module.functions.push({ name: jsName.trim(), async: true, argumentsCount: count, requiredArgumentsCount: count });
    }
    const constants = methodBody(body, 'constantsToExport');
    if (constants !== null) {
      const open = constants.indexOf('@{');
      if (open !== -1) module.constants = dictionaryEntries(constants.slice(open + 2, matching(constants, open + 1)), '@');
    }
    const events = methodBody(body, 'supportedEvents');
    if (events !== null) {
      const open = events.indexOf('@[');
      const list = open === -1 ? '' : events.slice(open + 2, matching(events, open + 1));
      for (const item of splitTopLevel(list)) {
        const value = /^@"((?:[^"\\]|\\.)*)"$/.exec(item)?.[1] ?? constantString(text, item);
        if (value) module.events.push(value);
      }
    }
    modules.push(module);
  }
  return modules;
}

/** How many `char`s of `text` are outside brackets. */
function countOutside(text, char) {
  let depth = 0;
  let count = 0;
  for (const c of text) {
    if (OPENERS[c]) depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === char && depth === 0) count++;
  }
  return count;
}

/** The body of the Objective-C method `- (…)name` in `text`, or null. */
function methodBody(text, name) {
  const match = new RegExp(`[-+]\\s*\\([^)]*\\)\\s*${name}\\s*\\{`).exec(text);
  if (!match) return null;
  const open = match.index + match[0].length - 1;
  const close = matching(text, open);
  return text.slice(open + 1, close === -1 ? undefined : close);
}

/** The value of `NSString *const NAME = @"…"` in `text`, or null. */
function constantString(text, name) {
  if (!/^\w+$/.test(name)) return null;
  return new RegExp(`\\b${name}\\s*=\\s*@"((?:[^"\\\\]|\\\\.)*)"`).exec(text)?.[1] ?? null;
}
