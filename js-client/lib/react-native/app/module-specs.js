// The specs the served native modules (modules/, system.js's entries) are checked against: React Native's
// own, its package's `Libraries/**/Native*.js` (iOS's where a module has one spec per platform), and, for a module a
// library declares (react-native-safe-area-context's RNCSafeAreaContext), the library's own, as openApp reads the
// specs of an app's dependencies. Both are read with the app's @react-native/codegen (app/codegen.js). A served
// method that no spec declares is a misspelling or a method of another React Native version: it fails
// react-native-module-specs.test.js, naming the module, the method and the spec file, unless NOT_IN_SPEC says why
// React Native needs it all the same.

import { createRequire } from 'node:module';
import path from 'node:path';
import { buildSchema, findSpecs, specFiles, splitSchema } from './codegen.js';
import { specMethods } from '../modules/spec-module.js';

/**
 * React Native's own TurboModule specs in the react-native package of the app at `root`: module name → `{ spec,
 * file }`. A module with a spec per platform (`NativeStatusBarManagerIOS`, `…Android`) has iOS's; Android's own
 * modules (`ToastAndroid`) are left out. Null when the app has no @react-native/codegen.
 */
export function reactNativeSpecs(root, { cacheDir } = {}) {
  const fromRoot = createRequire(path.join(root, 'package.json'));
  const libraries = path.join(path.dirname(fromRoot.resolve('react-native/package.json')), 'Libraries');
  const files = specFiles(libraries).filter((file) => /^Native\w+\.js$/.test(path.basename(file)));
  return specsOf(root, files, { cacheDir, android: false });
}

/** The specs of the app's dependencies (openApp's, app/codegen.js's findSpecs): module name → `{ spec, file }`. */
export function dependencySpecs(root, { cacheDir } = {}) {
  return specsOf(
    root,
    findSpecs(root).flatMap((p) => p.files),
    { cacheDir, android: true },
  );
}

/** The NativeModule specs of `files`, by module name, each with its file; iOS's first unless `android`. */
function specsOf(root, files, { cacheDir, android }) {
  const schema = buildSchema(root, files, { cacheDir });
  if (!schema) return null;
  const fileOf = new Map(files.map((file) => [path.basename(file).replace(/\.\w+$/, ''), file]));
  const specs = {};
  for (const [name, spec] of Object.entries(splitSchema(schema).modules)) {
    const file = fileOf.get(spec.specName) ?? spec.specName;
    if (!android && /Android$/.test(spec.specName)) continue;
    // iOS's spec of a module with one per platform wins over another of the same name.
    if (specs[name] && !/IOS$/.test(spec.specName)) continue;
    specs[name] = { spec, file };
  }
  return specs;
}

/**
 * Served methods React Native's spec does not declare, each with why it is served: module → method → reason. An
 * entry whose method is no longer served, or that the spec now declares, is stale (checkServed's `stale`).
 */
export const NOT_IN_SPEC = Object.freeze({
  UIManager: Object.freeze({
    removeRootView:
      "React Native's renderer calls it to unmount a root (ReactNativeRenderer's " +
      'unmountComponentAtNodeAndRemoveContainer, which AppRegistry.unmountApplicationComponentAtRootTag runs); ' +
      "Android's UIManager exports it, NativeUIManager.js does not declare it",
  }),
});

/** The methods a served module's object has (its functions, `getConstants` included; `_`-named ones are its own). */
function servedMethods(source) {
  return Object.keys(source)
    .filter((key) => typeof source[key] === 'function' && !key.startsWith('_'))
    .sort();
}

/**
 * Each served module (name → its object, as its file makes it) against its spec in `specs` (name → `{spec, file}`):
 * `unknown`, the methods served that the spec does not declare and `exceptions` (NOT_IN_SPEC) does not explain
 * (`{ module, method, file }`, a failure); `stale`, the exceptions that no longer apply (`{ module, method, why }`,
 * a failure); `unserved`, the methods the spec declares that are not served (`{ module, methods, file }`, to know);
 * `withoutSpec`, the modules no spec describes.
 */
export function checkServed(served, specs, exceptions = NOT_IN_SPEC) {
  const unknown = [];
  const stale = [];
  const unserved = [];
  const withoutSpec = [];
  for (const [module, source] of Object.entries(served).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const found = specs[module];
    if (!found) {
      withoutSpec.push(module);
      continue;
    }
    const declared = new Set(specMethods(found.spec).map((m) => m.name));
    const methods = servedMethods(source);
    const excepted = exceptions[module] ?? {};
    for (const method of methods) {
      if (!declared.has(method) && !Object.hasOwn(excepted, method)) unknown.push({ module, method, file: found.file });
    }
    for (const method of Object.keys(excepted)) {
      if (!methods.includes(method)) stale.push({ module, method, why: 'no longer served' });
      else if (declared.has(method)) stale.push({ module, method, why: `${found.file} declares it now` });
    }
    const missing = [...declared].filter((method) => !methods.includes(method)).sort();
    if (missing.length > 0) unserved.push({ module, methods: missing, file: found.file });
  }
  return { unknown, stale, unserved, withoutSpec };
}
