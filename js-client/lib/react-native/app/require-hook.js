// The app's `require`, scoped to the app: a file reached from the app's root (its own files and what they require
// through its node_modules) is resolved for the platform (resolver.js), transformed when jest's React Native
// preset would transform it (transformer.js, cached by transform-cache.js), and an image is an asset
// (assets.js). Every other file, the test's own and bridged's included, loads as Node loads it. `remove()` puts
// Node's loader back and forgets the app's modules, so a later openApp loads them anew.

import { readFileSync, realpathSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { isDevRendererFile, withoutDevOverhead } from '../renderer/dev-overhead.cjs';
import { isPaperRendererFile, linearPaperRenderer } from '../renderer/linear-paper.js';
import { assetFor } from './assets.js';
import { ASSET_EXTENSIONS, Resolver } from './resolver.js';

/**
 * Packages under node_modules that are transformed: jest's React Native preset's `transformIgnorePatterns`
 * exceptions (`react-native`, `@react-native`, `@react-native-community`, `jest-react-native`), jest-expo's
 * (`expo`, `@expo`, `expo-*`, `@expo-google-fonts`, `react-navigation`, `@react-navigation`, `@unimodules`,
 * `unimodules`, `sentry-expo`, `native-base`, `react-native-svg`), and React Native libraries shipped as source
 * (`react-native-*`).
 */
const TRANSFORMED_PACKAGES = new RegExp(
  String.raw`[\\/]node_modules[\\/](?:` +
    [
      String.raw`(?:jest-)?react-native(?:-[^\\/]+)?`,
      '@react-native(?:-community)?',
      '@react-navigation',
      'react-navigation',
      '@expo',
      String.raw`expo(?:nent)?(?:-[^\\/]+)?`,
      '@expo(?:nent)?',
      '@expo-google-fonts',
      '@unimodules',
      String.raw`unimodules(?:-[^\\/]+)?`,
      'sentry-expo',
      'native-base',
      String.raw`@react-native-[^\\/]+`,
    ].join('|') +
    String.raw`)[\\/]`,
);
/**
 * React Native's modules that are not loaded, each a stand-in in its place (openApp's require hook here, the jest
 * preset's registry through `jest.doMock`):
 * - InitializeCore, an empty module, as jest's React Native preset replaces it: it sets up a device's JavaScript
 *   environment (a packager URL, DevTools, polyfills Node has its own of);
 * - LogBox's notifications container, a component rendering null: LogBox is installed by InitializeCore alone, so
 *   it never holds a log here and the container AppContainer renders beside the app is always null (its UI modules
 *   were 30 ms of openApp's load and 56 ms of a jest test file's). Its UI's imports register the view configs of
 *   `RCTText`, `RCTVirtualText`, `RCTImageView` and `RCTTextInlineImage`, as on a phone, where AppContainer loads
 *   it in development before the app renders: the stand-in loads those native components (`require`, the
 *   loader's), so a host element of such a name that no `Text` or `Image` the app imported registered (a jest
 *   mock's icon rendering `'RCTText'`) is created, as on a phone.
 */
const LOGBOX_NATIVE_COMPONENTS = [
  'react-native/Libraries/Text/TextNativeComponent',
  'react-native/Libraries/Image/ImageViewNativeComponent',
  'react-native/Libraries/Image/TextInlineImageNativeComponent',
];
export const STAND_INS = [
  {
    module: 'react-native/Libraries/Core/InitializeCore',
    file: /[\\/]react-native[\\/]Libraries[\\/]Core[\\/]InitializeCore\.js$/,
    exports: () => ({}),
  },
  {
    module: 'react-native/Libraries/LogBox/LogBoxNotificationContainer',
    file: /[\\/]react-native[\\/]Libraries[\\/]LogBox[\\/]LogBoxNotificationContainer\.js$/,
    exports: (require) => {
      for (const name of LOGBOX_NATIVE_COMPONENTS) {
        // A React Native version without one of them registers it elsewhere, or has no such component.
        try {
          require(name);
        } catch {}
      }
      return { __esModule: true, default: () => null };
    },
  },
];
const ESM_OR_FLOW = /^\s*(?:import\s|export\s|import\{|export\{|\/\/\s*@flow|\/\*\s*@flow)|@flow\b/m;

/**
 * A file's real path (links resolved; `realpath(3)`, one call, where Node's own walks the path component by
 * component), kept in `cache` (a hook's: a link changed between two opens is seen by the second).
 */
function real(file, cache = null) {
  let found = cache?.get(file);
  if (found === undefined) {
    try {
      found = realpathSync.native(file);
    } catch {
      found = file;
    }
    // Bounded: an app's files number in the thousands.
    if (cache !== null && cache.size >= 50_000) cache.clear();
    cache?.set(file, found);
  }
  return found;
}

export class RequireHook {
  #root;
  /** The real paths of the files resolved (real()). */
  #realPaths = new Map();
  #resolver;
  #transformer;
  #cache;
  /** Every file this hook resolved: the app's modules (real paths). */
  #files = new Set();
  #original = null;
  /** Names of the modules that were required and which need a transform, counted. */
  transformed = 0;

  /** Whether React Native's renderer files load untouched (openApp's `rendererAsShipped`). */
  #rendererAsShipped;

  constructor({ root, platform, transformer, cache, rendererAsShipped = false }) {
    this.#rendererAsShipped = rendererAsShipped;
    this.#root = real(root);
    this.#resolver = new Resolver({ platform });
    this.#transformer = transformer;
    this.#cache = cache;
  }

  get resolver() {
    return this.#resolver;
  }

  /** Whether `file` (a real path) is one of the app's modules. */
  owns(file) {
    return this.#files.has(file);
  }

  /** The file `request` names from the app's root, or throws as Node does (code MODULE_NOT_FOUND). */
  resolveFromRoot(request) {
    const found = Resolver.isBuiltin(request) ? undefined : this.#resolver.resolve(request, this.#root);
    if (!found) {
      const platform = this.#resolver.platform;
      const error = new Error(
        `Cannot find module '${request}' from the app's root ${this.#root} (platform '${platform}')`,
      );
      error.code = 'MODULE_NOT_FOUND';
      throw error;
    }
    const file = real(found, this.#realPaths);
    this.#files.add(file);
    return file;
  }

  /** Requires `request` as a file at the app's root would. */
  require(request) {
    if (Resolver.isBuiltin(request)) return Module.createRequire(path.join(this.#root, 'noop.js'))(request);
    return Module._load(this.resolveFromRoot(request), null, false);
  }

  install() {
    if (this.#original) return;
    const original = {
      resolveFilename: Module._resolveFilename,
      extensions: { ...Module._extensions },
    };
    this.#original = original;
    const hook = this;
    Module._resolveFilename = function resolveFilename(request, parent, isMain, options) {
      const ours = parent?.filename && hook.#files.has(parent.filename);
      if (ours && !Resolver.isBuiltin(request)) {
        // A package reached through a link resolves from its real folder, then, as an installed app's packages
        // find each other, from the app's node_modules (a bare request only).
        const bare = !request.startsWith('.') && !path.isAbsolute(request);
        const found =
          hook.#resolver.resolve(request, path.dirname(parent.filename)) ??
          (bare ? hook.#resolver.resolve(request, hook.#root) : undefined);
        if (found) {
          const file = real(found, hook.#realPaths);
          hook.#files.add(file);
          return file;
        }
      }
      try {
        return original.resolveFilename.call(this, request, parent, isMain, options);
      } catch (error) {
        if (ours && error?.code === 'MODULE_NOT_FOUND') hook.#explainCached(error, parent.filename);
        throw error;
      }
    };
    const load = function loadJavaScript(module, filename) {
      if (!hook.#files.has(filename)) return original.extensions['.js'](module, filename);
      const standIn = STAND_INS.find(({ file }) => file.test(filename));
      if (standIn) {
        module.exports = standIn.exports((name) => module.require(name));
        return;
      }
      let source = readFileSync(filename, 'utf8');
      if (!hook.#rendererAsShipped && isPaperRendererFile(filename)) source = linearPaperRenderer(source).source;
      if (!hook.#rendererAsShipped && isDevRendererFile(filename)) source = withoutDevOverhead(source).source;
      module._compile(hook.#needsTransform(filename, source) ? hook.#transform(source, filename) : source, filename);
    };
    for (const ext of ['.js', '.jsx', '.ts', '.tsx', '.mjs', '.cjs']) Module._extensions[ext] = load;
    for (const ext of ASSET_EXTENSIONS) {
      Module._extensions[ext] = function loadAsset(module, filename) {
        if (!hook.#files.has(filename)) {
          return (original.extensions[ext] ?? original.extensions['.js'])(module, filename);
        }
        const registry = module.require('react-native/Libraries/Image/AssetRegistry');
        module.exports = registry.registerAsset(assetFor(filename));
      };
    }
  }

  #needsTransform(filename, source) {
    if (!/[\\/]node_modules[\\/]/.test(filename)) return true;
    if (TRANSFORMED_PACKAGES.test(filename)) return true;
    const ext = path.extname(filename);
    if (ext === '.ts' || ext === '.tsx' || ext === '.jsx' || ext === '.mjs') return true;
    return ESM_OR_FLOW.test(source);
  }

  #transform(source, filename) {
    this.transformed++;
    try {
      return this.#cache.get(source, filename, this.#transformer);
    } catch (error) {
      error.message = `openApp: ${this.#transformer.kind} could not transform ${filename}: ${error.message}`;
      throw error;
    }
  }

  /**
   * A module not found by a file whose transform came from the cache: the transform may be stale (made before a
   * package its preset probes was installed or removed), so the message says so, and how to clear the cache.
   */
  #explainCached(error, filename) {
    const served = this.#cache.servedFrom?.(filename);
    if (!served || String(error.message).includes('transform cache')) return;
    const dir = this.#cache.directory;
    const before = error.message;
    error.message +=
      `\n(openApp: the code of ${filename} came from bridged's transform cache, ${served}, not from Babel just now. ` +
      `If that transform is stale, clear the cache: rm -rf ${dir}, or open the app with { cache: false }.)`;
    if (typeof error.stack === 'string') error.stack = error.stack.replace(before, error.message);
  }

  /** Puts Node's loader back and forgets every module of the app (a later require loads it anew). */
  remove() {
    if (!this.#original) return;
    Module._resolveFilename = this.#original.resolveFilename;
    for (const ext of Object.keys(Module._extensions)) {
      if (!(ext in this.#original.extensions)) delete Module._extensions[ext];
    }
    Object.assign(Module._extensions, this.#original.extensions);
    this.#original = null;
    for (const file of this.#files) delete Module._cache[file];
    this.#files.clear();
  }
}
