// The app's host components and the daemon's: what the app's specs declare is defined for the session (`define`),
// so that its view configs and the daemon agree; a component asked for by name with no spec is served untyped; one
// the daemon cannot serve is an error naming it and the package that asked for it. Remembers what nothing checks
// (app.unknownComponents(), app.untypedComponents(), app.unknownProps()).

import path from 'node:path';
import { defaultCacheDirectory } from './transform-cache.js';
import { buildSchema, findSpecs, splitSchema } from './codegen.js';

/**
 * The daemon's name of a made-up host whose name it cannot take as it is: this prefix and the name. Empty
 * (`jest.mock('@expo/vector-icons', () => ({ Ionicons: '' }))`, an element of type '' on the mocks: the daemon takes
 * no empty name), or one of the daemon's own components (a mock's 'View' or 'Slider', the client API's, whose props
 * would refuse the mock's: a gradient's `colors`). Its elements' type stays the mock's name (madeUpType).
 */
export const MADE_UP_PREFIX = 'MadeUp:';

/** The type a made-up host's elements have: the name the mock rendered (for a prefixed name above), else null. */
export function madeUpType(component) {
  if (typeof component !== 'string' || !component.startsWith(MADE_UP_PREFIX)) return null;
  return component.slice(MADE_UP_PREFIX.length);
}

export class HostComponents {
  #bridge;
  #native;
  /** Whether the daemon takes `define` (an older one answers unknown_op: then an unknown component is an error). */
  #canDefine = true;
  /** The components served untyped (asked for by name, with no spec) and created at least once. */
  #untyped = new Set();
  /** The components the daemon could not serve (each failed its render). */
  #unserved = [];
  /** Component name → the file that asked for it by name (requireNativeComponent). */
  #callers = new Map();
  /** Component → the props the app sent that the daemon's component does not declare (left out). */
  #unknownProps = new Map();
  /** React Native's view config registry once serveAnyHostType wrapped it (under jest), else null. */
  #registry = null;
  /** Host type → whether it is a made-up one (holdsText), once asked. */
  #madeUpTypes = new Map();

  /**
   * @param {import('../../bridge.js').Bridge} bridge
   * @param {import('../native-side.js').NativeSide} native
   */
  constructor(bridge, native) {
    this.#bridge = bridge;
    this.#native = native;
  }

  /** Whether the daemon takes `define`. */
  get canDefine() {
    return this.#canDefine;
  }

  /** The NativeSide's `onUnknownProp`: a prop the daemon's component does not declare, left out. */
  unknownProp(component, prop) {
    let props = this.#unknownProps.get(component);
    if (!props) this.#unknownProps.set(component, (props = new Set()));
    props.add(prop);
  }

  /**
   * Reads the specs of the app at `root` and of its dependencies (codegen), hands their native modules to
   * `addModuleSpecs`, and adds their components to this session of the daemon (`define`). Resolves
   * `{specPackages, specsSkipped}`: the packages with specs, and why specs were not read (undefined when they were).
   * `cache`: openApp's option (false: no cache).
   */
  async describe(root, { cache, addModuleSpecs }) {
    let specsSkipped;
    const cacheDir = cache === false ? undefined : path.dirname(cache ?? defaultCacheDirectory());
    // What this session already has (a resumed one), and whether the daemon takes `define` at all.
    try {
      const { components } = await this.#bridge.request({ op: 'components' });
      this.#native.addComponents(components ?? {});
    } catch (error) {
      if (error?.code !== 'unknown_op') throw error;
      this.#canDefine = false;
      specsSkipped = 'the daemon has no define op (an older bridged): components from specs are not served';
    }
    const packages = findSpecs(root);
    const specPackages = packages.map((p) => ({
      name: p.name,
      files: p.files.length,
      ...(p.undeclared ? { undeclared: true, neededBy: p.neededBy } : {}),
    }));
    for (const p of packages.filter((p) => p.undeclared)) {
      // Served all the same (its components would otherwise be untyped, and a provider waiting for its native
      // event would never render its children), but a device build would not link it: said once, at open.
      console.warn(
        `openApp: ${p.name} (needed by ${p.neededBy}) is not in the app's package.json; a device build would not ` +
          `link it (autolinking reads the app's own dependencies). bridged serves it from its spec all the same.`,
      );
    }
    if (packages.length === 0) return { specPackages, specsSkipped };
    const schema = buildSchema(
      root,
      packages.flatMap((p) => p.files),
      { cacheDir },
    );
    if (!schema) {
      const why = "the app has no @react-native/codegen to read its dependencies' specs with";
      return { specPackages, specsSkipped: why };
    }
    if (schema.unread?.length > 0) {
      const files = schema.unread.map((u) => `${path.relative(root, u.file)} (${u.message})`).join('; ');
      specsSkipped = `the app's @react-native/codegen cannot read ${files}: what it declares is served untyped`;
    }
    const { components, modules } = splitSchema(schema);
    addModuleSpecs(modules);
    if (Object.keys(components).length === 0 || !this.#canDefine) return { specPackages, specsSkipped };
    const componentModules = Object.fromEntries(
      Object.entries(schema.modules).filter(([, m]) => m?.type === 'Component'),
    );
    try {
      const result = await this.#bridge.request({ op: 'define', schema: { modules: componentModules } });
      this.#native.addComponents(result.components ?? {});
    } catch (error) {
      error.message = `openApp: the daemon refused the components of the app's specs: ${error.message}`;
      throw error;
    }
    return { specPackages, specsSkipped };
  }

  /**
   * Remembers which file asks for each native component by name (React Native's requireNativeComponent, through
   * `loader`), to name it when the daemon serves none; a component no spec describes is served untyped.
   */
  wrapRequireNativeComponent(loader) {
    let file;
    try {
      file = loader.resolve('react-native/Libraries/ReactNative/requireNativeComponent');
    } catch {
      return;
    }
    const module = loader.require('react-native/Libraries/ReactNative/requireNativeComponent');
    const callers = this.#callers;
    const components = this;
    const native = this.#native;
    const wrap = (original) =>
      function requireNativeComponent(name) {
        if (!callers.has(name)) callers.set(name, callerFile(stackFiles(), file));
        if (typeof name === 'string' && !Object.hasOwn(native.components, name) && components.#canDefine) {
          return components.#serveUntyped(name, loader);
        }
        return original.apply(this, arguments);
      };
    // An ES module compiled to CommonJS: its importers read `.default` when they call it, so the wrapper is seen.
    if (module && typeof module.default === 'function') module.default = wrap(module.default);
  }

  /**
   * Under jest: a host element whose name no component has (a `jest.mock` of a native library that renders
   * `'Icon'` or `<mock-map-view>`, as React Native's own jest mocks render any name) is served untyped when the
   * renderer first asks for its view config, where React Native would throw that it has none. Only a jest mock
   * renders a host name that nothing registered a view config for (React Native's components and a package's
   * `requireNativeComponent` register theirs before rendering), so such a name is made up even where the daemon has
   * a component of that name that React Native has no view for (the client API's `View`, `Slider`, `TextField`: an
   * expo-linear-gradient mocked as `React.createElement('View', {}, children)`).
   */
  serveAnyHostType(loader) {
    const registry = loader.require('react-native/Libraries/Renderer/shims/ReactNativeViewConfigRegistry');
    const get = registry.get;
    const components = this;
    this.#registry = registry;
    registry.get = function getOrServe(name) {
      try {
        return get.apply(this, arguments);
      } catch (error) {
        const noConfig = /View config getter callback/.test(String(error?.message));
        if (typeof name !== 'string' || !noConfig || !components.#canDefine) throw error;
        components.#serveUntyped(name, loader, { madeUp: true });
        return get.apply(this, arguments);
      }
    };
  }

  /**
   * Under jest: whether a host element of `type` takes strings among its children, as React Native's renderer lets
   * only its text views' (RCTText, RCTVirtualText, the text inputs) take them: a made-up host (a jest mock's
   * stand-in, served by serveAnyHostType) does, as every host does on React Native's mocks, where an icon library's
   * mock that renders `React.createElement('Text', props, props.name)` shows the name. No phone has such a host, so
   * this changes nothing of what a phone's components do. The renderer asks it for each host element it begins
   * (runtime.cjs gives its getChildHostContext this question), before it asks the type's view config: the type's
   * config is asked for here, which serves a made-up one as the renderer would a moment later.
   */
  holdsText(type) {
    let madeUp = this.#madeUpTypes.get(type);
    if (madeUp === undefined) {
      madeUp = false;
      try {
        const name = this.#registry?.get(type)?.uiViewClassName;
        madeUp = typeof name === 'string' && this.#native.components[name]?.madeUp === true;
      } catch {}
      this.#madeUpTypes.set(type, madeUp);
    }
    return madeUp;
  }

  /**
   * A component asked for by name that no spec describes (an older package's `requireNativeComponent('Foo')`):
   * served as a View that takes any prop, untyped (`define` with `untyped`), its view config accepting every
   * attribute (style flattened as a View's). Its events cannot be told apart from their names, so none reach it.
   * A made-up name (`madeUp`: a jest mock's stand-in, which no phone has) takes any prop as React Native's mocks
   * do: only its `style` lays it out; a prop of its own that names a style attribute (an svg's `width="30"`, an
   * icon's `color`) stays the element's and is not sent, where the native side would read it as the View's own
   * layout prop and refuse a value such as "30".
   */
  #serveUntyped(name, loader, { madeUp = false } = {}) {
    // `madeUp` stays on the description: such a view does nothing natively (fireEvent calls its handlers as RNTL does).
    const description = { props: {}, events: {}, commands: {}, untyped: true, ...(madeUp ? { madeUp: true } : {}) };
    // A made-up name the daemon cannot take (empty, or one of its own components, which is left as it is) is served
    // under a name of its own.
    const renamed = madeUp && (name === '' || Object.hasOwn(this.#native.components, name));
    const nativeName = renamed ? MADE_UP_PREFIX + name : name;
    this.#native.addComponents({ [nativeName]: description });
    const registry = loader.require('react-native/Libraries/Renderer/shims/ReactNativeViewConfigRegistry');
    const styles = 'react-native/Libraries/Components/View/ReactNativeStyleAttributes';
    const styleAttributes = interop(loader.require(styles));
    // Every prop but React's `children` and the handlers: a native component is never sent its React children.
    const validAttributes = new Proxy(
      {},
      {
        get: (_, key) => {
          if (key === 'style') return styleAttributes;
          if (madeUp && typeof key === 'string' && Object.hasOwn(styleAttributes, key)) return undefined;
          return typeof key === 'string' && key !== 'children' && !/^on[A-Z]/.test(key) ? true : undefined;
        },
      },
    );
    const viewConfig = () => ({
      uiViewClassName: nativeName,
      validAttributes,
      bubblingEventTypes: {},
      directEventTypes: {},
    });
    registry.register(name, viewConfig);
    return name;
  }

  /**
   * Before a view of `viewName` is created (paper's createView, Fabric's createNode): a component the daemon does
   * not serve is an error naming it; one served untyped is defined for the session when first created (React
   * Native asks for Android's components too and never creates them). The define goes out before the commit's
   * batch, and the daemon answers requests in order.
   */
  beforeCreate(viewName) {
    const native = this.#native;
    if (!Object.hasOwn(native.components, viewName)) throw this.unserved(viewName);
    if (native.components[viewName]?.untyped && !this.#untyped.has(viewName)) {
      this.#untyped.add(viewName);
      const define = { op: 'define', schema: { modules: {} }, untyped: [viewName] };
      this.#bridge.request(define).catch((error) => native.fail(error));
    }
  }

  /** The error of a host component the daemon does not serve: names it, the package that asked for it, how to serve. */
  unserved(name) {
    const caller = this.#callers.get(name);
    const pkg = caller ? packageOf(caller) : null;
    const from = pkg ? ` (asked for by the package '${pkg}', ${caller})` : caller ? ` (asked for by ${caller})` : '';
    const error = new Error(
      `bridged does not serve the native component '${name}'${from}: start the daemon with its codegen schema ` +
        `(bridged --components schema.json) or register a Swift component named '${name}'`,
    );
    error.code = 'unknown_component';
    error.component = name;
    if (pkg) error.package = pkg;
    this.#unserved.push(name);
    return error;
  }

  /** React Native's error for a native component UIManager does not know, as the error of an unserved one. */
  explain(error) {
    const message = String(error?.message);
    const match =
      /requireNativeComponent: "([^"]+)" was not found in the UIManager/.exec(message) ??
      /View config getter callback for component `([^`]+)` must be a function/.exec(message);
    return match ? this.unserved(match[1]) : error;
  }

  /** The components served untyped (no spec) and the ones the daemon could not serve. */
  unknown() {
    return [...new Set([...this.#untyped, ...this.#unserved])];
  }

  /** The native components served untyped (no spec): they take any prop, and nothing checks them. */
  untyped() {
    return [...this.#untyped];
  }

  /** The props the app sent that the daemon's components do not declare: component → sorted names. */
  unknownProps() {
    return Object.fromEntries([...this.#unknownProps].map(([component, props]) => [component, [...props].sort()]));
  }
}

/** Where in node_modules a file is: the package's name, or null for the app's own files. */
export function packageOf(file) {
  const parts = file.split(/[\\/]node_modules[\\/]/);
  if (parts.length < 2) return null;
  const rest = parts[parts.length - 1].split(/[\\/]/);
  return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

/** The first file in `stack` outside React Native's own component machinery: who asked for a component. */
export function callerFile(stack, self) {
  const files = [...String(stack).matchAll(/\(?((?:\/|[A-Za-z]:\\)[^():]+):\d+:\d+\)?/g)].map((m) => m[1]);
  const machinery = /[\\/]react-native[\\/]Libraries[\\/](?:ReactNative|Utilities|NativeComponent|Renderer)[\\/]/;
  const ours = (f) => f.includes('bridged-client') || f.includes('js-client');
  return files.find((f) => f !== self && !machinery.test(f) && !ours(f)) ?? null;
}

/**
 * The current stack as `(file:0:0)` lines (the callers' files are what is asked for), read from V8's call sites:
 * `new Error().stack` would be formatted by whatever `Error.prepareStackTrace` is installed, and jest's maps every
 * frame through its source map (a map parsed per file: 110 of a warm test file's 1,600 ms went there for the native
 * components React Native asks for).
 */
export function stackFiles() {
  const previous = Error.prepareStackTrace;
  // The file alone: a frame's line and column have V8 find the line ends of its script (a megabyte for the renderer).
  const line = (site) => `(${site.getFileName()}:0:0)`;
  Error.prepareStackTrace = (_, sites) => sites.map(line).join('\n');
  try {
    return new Error().stack;
  } finally {
    Error.prepareStackTrace = previous;
  }
}

/** A module's default export when it is an ES module compiled to CommonJS, else the module. */
export function interop(module) {
  return module && module.__esModule && module.default ? module.default : module;
}
