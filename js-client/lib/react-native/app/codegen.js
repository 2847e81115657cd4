// The native side the app's dependencies describe: each package with a `codegenConfig` in its package.json (and
// the app itself) has spec files in its `jsSrcsDir` (`*NativeComponent.ts`, `Native*.ts`), which React Native's
// own codegen (the app's `@react-native/codegen`, `lib/cli/combine/combine-js-to-schema`, the entry that works
// on 0.72 and 0.73) turns into one schema: components for the daemon (`define`), modules for the native
// modules (../modules/spec-module.js). Schemas are cached by the content of the spec files, as transforms are.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { perRoot } from './per-root.js';

const SPEC_FILE = /^(?:Native\w+|\w+NativeComponent)\.(?:js|jsx|ts|tsx)$/;
const CODEGEN_ENTRY = '@react-native/codegen/lib/cli/combine/combine-js-to-schema';
const FORMAT = '1';
/** The schemas this process made or read, as JSON text, by their key (the specs' content, the codegen's version). */
const SCHEMAS = new Map();

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The spec files under `dir`, in name order (folders walked, node_modules and tests left out). */
export function specFiles(dir) {
  const found = [];
  const walk = (folder) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== '__tests__' && !entry.name.startsWith('.')) walk(full);
      } else if (SPEC_FILE.test(entry.name)) {
        found.push(full);
      }
    }
  };
  walk(dir);
  return found;
}

/**
 * The packages whose specs describe the app's native side: the app itself and each dependency (its
 * package.json's `dependencies` and `devDependencies`, resolved from the root) with a `codegenConfig`, and the
 * packages those need (their `dependencies` and required `peerDependencies`, found in node_modules, to any depth)
 * with one: `react-native-screens` for `@react-navigation/native-stack`. A device build links only what the app lists
 * (autolinking reads its package.json); such a package is served all the same, marked `undeclared` with the
 * package that needs it (`neededBy`), for the app to report. `[{ name, root, files, undeclared?, neededBy? }]`,
 * frozen: read once per process while the app's packages are unchanged (per-root.js).
 */
export const findSpecs = perRoot((root) => {
  const found = readSpecs(root);
  for (const pkg of found) Object.freeze(Object.freeze(pkg).files);
  return Object.freeze(found);
});

function readSpecs(root) {
  const manifest = readJson(path.join(root, 'package.json')) ?? {};
  const declared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
  const names = [...new Set(declared)].sort();
  const packages = [{ name: manifest.name ?? '(the app)', root, manifest }];
  const seen = new Set(['react-native', ...names]);
  const queue = [];
  const add = (name, dir, neededBy) => {
    const dependency = readJson(path.join(dir, 'package.json'));
    if (!dependency) return;
    packages.push({ name, root: dir, manifest: dependency, ...(neededBy ? { undeclared: true, neededBy } : {}) });
    // What a development tool needs is not the app's: only the app's own `dependencies` are followed.
    if (neededBy || Object.hasOwn(manifest.dependencies ?? {}, name)) queue.push(packages[packages.length - 1]);
  };
  for (const name of names) add(name, path.join(root, 'node_modules', name), null);
  while (queue.length > 0) {
    const pkg = queue.shift();
    // An optional peer (`peerDependenciesMeta`) is the app's to choose: not needed.
    const optional = pkg.manifest.peerDependenciesMeta ?? {};
    const peers = Object.keys(pkg.manifest.peerDependencies ?? {}).filter((name) => optional[name]?.optional !== true);
    const needs = [...new Set([...Object.keys(pkg.manifest.dependencies ?? {}), ...peers])].sort();
    for (const name of needs) {
      if (seen.has(name)) continue;
      seen.add(name);
      const nested = path.join(pkg.root, 'node_modules', name);
      add(name, existsSync(nested) ? nested : path.join(root, 'node_modules', name), pkg.name);
    }
  }
  const found = [];
  for (const pkg of packages) {
    // React Native's own specs are its core components and modules: bridged serves those itself.
    if (pkg.name === 'react-native') continue;
    const config = pkg.manifest.codegenConfig;
    // `{jsSrcsDir}`, or the older `{libraries: [{jsSrcsDir}, …]}`.
    const libraries = Array.isArray(config?.libraries) ? config.libraries.map((l) => l?.jsSrcsDir) : [];
    const dirs = [config?.jsSrcsDir, ...libraries];
    const files = [];
    for (const dir of dirs) {
      if (typeof dir !== 'string') continue;
      const srcs = path.resolve(pkg.root, dir);
      if (existsSync(srcs)) for (const file of specFiles(srcs)) if (!files.includes(file)) files.push(file);
    }
    if (files.length === 0) continue;
    const undeclared = pkg.undeclared ? { undeclared: true, neededBy: pkg.neededBy } : {};
    found.push({ name: pkg.name, root: pkg.root, files, ...undeclared });
  }
  return found;
}

/**
 * The codegen schema of `files`, made by the app's own `@react-native/codegen` (cached in `cacheDir` by the files'
 * content and the codegen's version), or null when the app has no codegen. A file the codegen cannot read is left
 * out and named in the schema's `unread` (`[{ file, message }]`).
 */
export function buildSchema(root, files, { cacheDir } = {}) {
  if (files.length === 0) return { modules: {} };
  const appRequire = createRequire(path.join(root, 'noop.js'));
  let entry;
  try {
    entry = appRequire.resolve(CODEGEN_ENTRY);
  } catch {
    return null;
  }
  const version = readJson(path.join(entry, '..', '..', '..', '..', 'package.json'))?.version ?? 'unknown';
  const hash = createHash('sha256').update(FORMAT).update('\0').update(version);
  for (const file of files) hash.update('\0').update(file).update('\0').update(readFileSync(file));
  const key = hash.digest('hex');
  // A process reads the same specs again for each app it opens (a jest worker, for each test file): kept as text,
  // each caller gets its own copy.
  const known = SCHEMAS.get(key);
  if (known !== undefined) return JSON.parse(known);
  const cached = cacheDir ? path.join(cacheDir, 'schemas', `${key}.json`) : null;
  if (cached) {
    const schema = readJson(cached);
    if (schema) {
      SCHEMAS.set(key, JSON.stringify(schema));
      return schema;
    }
  }
  const combine = appRequire(entry);
  const combineSchemas = typeof combine === 'function' ? combine : combine.combineSchemas;
  let schema;
  try {
    schema = combineSchemas(files);
  } catch {
    // A spec file this codegen cannot read (one written for a later React Native: 0.72's reads no `UnsafeMixed`)
    // does not take the others with it: they are read one by one, and what it declares is left out (`unread`), its
    // components served untyped as one no spec describes.
    schema = { modules: {}, unread: [] };
    for (const file of files) {
      try {
        Object.assign(schema.modules, combineSchemas([file]).modules);
      } catch (error) {
        schema.unread.push({ file, message: String(error?.message ?? error) });
      }
    }
  }
  SCHEMAS.set(key, JSON.stringify(schema));
  if (cached) {
    try {
      mkdirSync(path.dirname(cached), { recursive: true });
      writeFileSync(`${cached}.${process.pid}.tmp`, JSON.stringify(schema));
      renameSync(`${cached}.${process.pid}.tmp`, cached);
    } catch {}
  }
  return schema;
}

/** The components of a schema (name → its module's component entry) and its native modules (name → spec). */
export function splitSchema(schema) {
  const components = {};
  const modules = {};
  for (const [moduleName, module] of Object.entries(schema?.modules ?? {})) {
    if (module?.type === 'Component') Object.assign(components, module.components);
    else if (module?.type === 'NativeModule') {
      const names = [module.moduleName, ...(module.moduleNames ?? [])].filter(Boolean);
      for (const name of names) modules[name] = { ...module, specName: moduleName };
    }
  }
  return { components, modules };
}

