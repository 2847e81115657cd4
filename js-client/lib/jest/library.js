// React Native Testing Library 12's API under preset: 'bridged-client' (what `@testing-library/react-native`
// resolves to): render and its result, screen, within, the query grid over the rendered element's views, UNSAFE_*
// queries, act, waitFor, renderHook, configure; fireEvent and userEvent from events.js.
import { QUERY_NAMES, hidesItself, isModal } from '../react-native/testing/queries.js';
import { FiberElement, HostElement, elementJSON, expectOne, typeName } from './elements.js';
import { createEvents } from './events.js';
import { formatTree, loadPrettyFormat } from './format.js';

/** The synchronous queries of a grid (the getBy, getAllBy, queryBy and queryAllBy ones), wrapped to answer elements. */
const SYNC_QUERY_NAMES = QUERY_NAMES.filter((name) => !name.startsWith('find'));
/** Each getBy and getAllBy query, with the findBy or findAllBy query made of it (`getByText` → `findByText`). */
const FIND_OF_GET = SYNC_QUERY_NAMES.filter((name) => name.startsWith('get')).map((name) => [name, `find${name.slice(3)}`]);

const SCREEN_MISSING = '`render` method has not been called';

/** RNTL's API over a JestHost. */
export function createLibrary(host) {
  const app = host.app;
  let config = { asyncUtilTimeout: 1000, defaultIncludeHiddenElements: false, defaultDebugOptions: undefined };

  const check = (element, what) => {
    if (!(element instanceof HostElement) && !(element instanceof FiberElement)) {
      throw new TypeError(`${what}: give an element a query returned (bridged's host element), got ${element === null ? 'null' : typeof element}`);
    }
    if (element instanceof FiberElement) return;
    if (!host.view(element.tag)) throw new Error(`${what}: the element is no longer on the screen (unmounted)`);
  };

  const { fireEvent, userEvent } = createEvents(host, check);

  /**
   * RNTL's UNSAFE_*ByType and UNSAFE_*ByProps over the instances of a rendered element (composites included). The
   * get/query ones are react-test-renderer's findByType/findByProps, which stop below a match (`deep: false`): a prop
   * a component hands down (`<TextInput placeholder>` to its own host) is one match, not one at each level.
   */
  const unsafeQueries = (rootOf) => {
    const all = {
      Type: (root, type, options) => root.findAllByType(type, options),
      Props: (root, props, options) => root.findAllByProps(props, options),
    };
    const queries = {};
    for (const [kind, findAll] of Object.entries(all)) {
      const what = (arg) => (kind === 'Type' ? `with node type: "${typeName(arg)}"` : `with props: ${JSON.stringify(arg)}`);
      const found = (arg, options) => {
        host.flush();
        const root = rootOf();
        return root ? findAll(root, arg, options) : [];
      };
      queries[`UNSAFE_queryAllBy${kind}`] = (arg) => found(arg);
      queries[`UNSAFE_getAllBy${kind}`] = (arg) => {
        const list = found(arg);
        if (list.length === 0) throw new Error(`No instances found ${what(arg)}`);
        return list;
      };
      queries[`UNSAFE_getBy${kind}`] = (arg) => expectOne(found(arg, { deep: false }), what(arg));
      queries[`UNSAFE_queryBy${kind}`] = (arg) => {
        const list = found(arg, { deep: false });
        if (list.length > 1) throw new Error(`Expected 1 but found ${list.length} instances ${what(arg)}`);
        return list[0] ?? null;
      };
    }
    return queries;
  };

  let prettyFormat;
  /** The screen's tree as RNTL prints it (format.js), or null without pretty-format. */
  const printScreen = (json, options) => {
    prettyFormat ??= loadPrettyFormat(app.root) ?? false;
    if (!prettyFormat || json == null) return null;
    return formatTree(prettyFormat, json, options);
  };

  /** A query's error with the screen printed as RNTL prints it in place of the native tree. */
  const withScreenTree = (error) => {
    if (error?.name !== 'QueryError') return error;
    const message = error.message.split('\n\n')[0];
    const printed = printScreen(host.screen?.toJSON());
    error.message = printed ? `${message}\n\n${printed}` : message;
    return error;
  };

  /** A query's error with no tree printed (a findBy's at each check, and the one its onTimeout is given). */
  const withoutTree = (error) => {
    if (error?.name === 'QueryError') error.message = error.message.split('\n\n')[0];
    return error;
  };

  /** RNTL's warning of a wait's option given among a findBy*'s query options, on the test file's console. */
  const warnDeprecatedWaitOption = (key, value) => {
    (app?.global?.console ?? console).warn(
      `Use of option "${key}" in a findBy* query options (2nd parameter) is deprecated. Please pass this option in the waitForOptions (3rd parameter).\nExample:\n\n  findByText(text, {}, { ${key}: ${String(value)} })`,
    );
  };

  /** The queries of a screen (or a within), their answers as elements; findBy* wait in the test's time. */
  const wrapQueries = (queries) => {
    const wrapped = {};
    /** A query's answer as elements; its error with the screen printed (`printed`), or as the query threw it. */
    const run = (query, args, printed) => {
      host.flush();
      let found;
      try {
        found = query(...args);
      } catch (error) {
        throw printed ? withScreenTree(error) : withoutTree(error);
      }
      return Array.isArray(found) ? found.map((h) => host.elementOf(h.tag)) : found ? host.elementOf(found.tag) : null;
    };
    for (const name of SYNC_QUERY_NAMES) {
      const query = queries[name];
      if (typeof query === 'function') wrapped[name] = (...args) => run(query, args, true);
    }
    for (const [name, find] of FIND_OF_GET) {
      if (!(name in wrapped)) continue;
      // As RNTL's: the screen is printed once, into the error the wait ends with (not at each failed check), and
      // not at all into the error an onTimeout of the test's own is given.
      // As RNTL 12.4's: the wait's options are the third argument's; a timeout or interval among the query's options
      // (the second) still counts, with its warning; an onTimeout there does not.
      wrapped[find] = (matcher, options = {}, { onTimeout, ...waitOptions } = {}) => {
        const deprecated = {};
        for (const key of ['timeout', 'interval']) {
          if (options?.[key] === undefined) continue;
          deprecated[key] = options[key];
          if (options[key]) warnDeprecatedWaitOption(key, options[key]);
        }
        return waitFor(() => run(queries[name], [matcher, options], false), {
          ...deprecated,
          ...waitOptions,
          onTimeout: typeof onTimeout === 'function' ? onTimeout : withScreenTree,
        });
      };
    }
    return wrapped;
  };

  const within = (element) => {
    check(element, 'within');
    const rendered = host.renderedOf(element.tag);
    if (rendered === null) throw new Error('within: the element is not on a rendered screen');
    // As RNTL's within: the query grid below the element, and the UNSAFE_*ByType/ByProps ones over its instances.
    return { ...wrapQueries(rendered.screen.within(element.tag)), ...unsafeQueries(() => element) };
  };

  function render(element, options = {}) {
    const rendered = host.render(element, options);
    const queries = wrapQueries(rendered.screen._content(() => host.contentParent(rendered.screen.tag)));
    const result = {
      ...queries,
      rerender: (next) => host.rerender(rendered, next),
      update: (next) => host.rerender(rendered, next),
      unmount: () => host.unmount(rendered),
      toJSON: () => {
        host.flush();
        if (!host.view(rendered.screen.tag)) return null;
        const children = host.contentTags(rendered.screen.tag).map((tag) => elementJSON(host.elementOf(tag)));
        return children.length === 0 ? null : children.length === 1 ? children[0] : children;
      },
      debug: Object.assign(
        (options) => {
          host.flush();
          // RNTL's debug(message) (deprecated, with its warning) and debug({ message, mapProps }), over the
          // configured defaultDebugOptions: the tree as RNTL prints it, all props unless mapProps says otherwise (the
          // native tree where pretty-format is missing), after the message as a first argument of its own.
          const out = app.global?.console ?? console;
          if (typeof options === 'string') {
            out.warn('Using debug("message") is deprecated and will be removed in future release, please use debug({ message; "message" }) instead.');
          }
          const { message, mapProps = (props) => props } = typeof options === 'string' ? { ...config.defaultDebugOptions, message: options } : { ...config.defaultDebugOptions, ...options };
          const text = printScreen(result.toJSON(), { mapProps }) ?? rendered.screen.debug();
          if (message) out.log(`${message}\n\n`, text);
          else out.log(text);
        },
        { shallow: (message) => result.debug(message === undefined ? undefined : { message }) },
      ),
      // RNTL's: the first host element rendered, undefined when there is none (a component that returns null).
      get root() {
        const first = host.contentTags(rendered.screen.tag)[0];
        return first === undefined ? undefined : host.elementOf(first);
      },
      get UNSAFE_root() {
        host.flush();
        const fiber = host.renderedFiber(rendered);
        return fiber ? host.instanceOf(fiber) : null;
      },
    };
    Object.assign(result, unsafeQueries(() => result.UNSAFE_root));
    // RNTL 12's: not enumerable (a test may spread the result), and it throws.
    Object.defineProperty(result, 'container', {
      enumerable: false,
      get() {
        throw new Error("'container' property has been renamed to 'UNSAFE_root'.\n\nConsider using 'root' property which returns root host element.");
      },
    });
    host.screen = result;
    return result;
  }

  /** RNTL's screen before any render (and after cleanup): every member says render was not called. */
  const missingScreen = new Proxy(
    {},
    {
      get(_target, key) {
        if (typeof key !== 'string' || key === 'then' || key === 'asymmetricMatch' || key === '$$typeof' || key === 'nodeType' || key === 'toJSON') return undefined;
        if (key === 'root' || key === 'UNSAFE_root') throw new Error(`${SCREEN_MISSING} and hence 'screen.${key}' is not available`);
        const missing = () => {
          throw new Error(`${SCREEN_MISSING} and hence 'screen.${key}' is not available`);
        };
        if (key === 'debug') missing.shallow = missing;
        return missing;
      },
    },
  );

  const cleanup = () => host.cleanup();

  const act = (callback) => host.act(callback);

  async function waitFor(expectation, { timeout = config.asyncUtilTimeout, interval = 50, onTimeout } = {}) {
    if (typeof expectation !== 'function') throw new TypeError('Received `expectation` arg must be a function');
    const start = Date.now();
    let elapsed = 0;
    let due = 0;
    let lastError;
    for (;;) {
      let value;
      try {
        host.flush();
        value = expectation();
        if (value && typeof value.then === 'function') value = await value;
      } catch (error) {
        lastError = error;
        if (elapsed >= timeout) break;
        // The next check is due an interval after this one was due (a timer can fire a millisecond early by
        // Date.now()), or an interval from now where the app held the thread past that.
        due = Math.max(due, Date.now() - start) + interval;
        await host.wait(interval);
        // As RNTL's: under fake timers, checked at each interval up to the timeout included; in real time, its
        // timeout comes before a check due at the same time, and a check due before it runs first even where the
        // app held the thread past both (a slow render during the wait: RNTL's interval timer is the earlier due).
        const fake = host.fakeTimers();
        elapsed = fake ? elapsed + interval : Date.now() - start;
        if (!fake && due >= timeout) break;
        continue;
      }
      // What the app queued as it settled (a promise's state update, the effects it runs) is applied before the
      // test goes on, as RNTL's waitFor flushes microtasks before returning.
      await host.actAfterOthers(async () => {
        await new Promise((resolve) => setImmediate(resolve));
      });
      return value;
    }
    // As RNTL's: what the expectation threw is an Error (a string thrown is the message of one, the test file's).
    const error = Object.prototype.toString.call(lastError) === '[object Error]' ? lastError : new (app.global?.Error ?? Error)(String(lastError));
    if (typeof onTimeout === 'function') {
      const replaced = onTimeout(error);
      if (replaced) throw replaced;
    }
    throw error;
  }

  async function waitForElementToBeRemoved(expectation, options) {
    const present = (value) => (Array.isArray(value) ? value.length > 0 : value != null);
    const first = expectation();
    if (!present(first)) {
      throw new Error('The element(s) given to waitForElementToBeRemoved are already removed. waitForElementToBeRemoved requires that the element(s) exist(s) before waiting for removal.');
    }
    return waitFor(() => {
      let value;
      try {
        value = expectation();
      } catch {
        return first;
      }
      if (present(value)) throw new Error('Timed out in waitForElementToBeRemoved.');
      return first;
    }, options);
  }

  function renderHook(callback, { initialProps, wrapper } = {}) {
    const React = app._React;
    // As RNTL's: a ref, set by an effect after each render (a state update outside act shows once effects ran).
    const result = React.createRef();
    function TestComponent({ hookProps }) {
      const value = callback(hookProps);
      React.useEffect(() => {
        result.current = value;
      });
      return null;
    }
    const rendered = render(React.createElement(TestComponent, { hookProps: initialProps }), { wrapper });
    return {
      result,
      rerender: (props) => rendered.rerender(React.createElement(TestComponent, { hookProps: props })),
      unmount: () => rendered.unmount(),
    };
  }

  /**
   * RNTL's isHiddenFromAccessibility: no element, or the element or an ancestor hides itself (queries.js's rule, on
   * its native props or its host React props: `importantForAccessibility` never reaches an iOS view) or has a sibling
   * that is modal for accessibility (`accessibilityViewIsModal`, `aria-modal`), as the queries leave such elements out.
   */
  const isHiddenFromAccessibility = (element) => {
    if (element == null) return true;
    for (let tag = element.tag; tag != null; tag = host.view(tag)?.parent ?? null) {
      if (hidesItself(host.view(tag)?.props ?? {}) || hidesItself(host.reactProps(tag) ?? {})) return true;
      const parent = host.view(tag)?.parent;
      const siblings = parent == null ? [] : host.view(parent)?.children ?? [];
      if (siblings.some((s) => s !== tag && isModal(host.view(s)?.props ?? {}))) return true;
    }
    return false;
  };

  const library = {
    render,
    get screen() {
      return host.screen ?? missingScreen;
    },
    within,
    getQueriesForElement: within,
    cleanup,
    act,
    fireEvent,
    userEvent,
    waitFor,
    waitForElementToBeRemoved,
    renderHook,
    isHiddenFromAccessibility,
    isInaccessible: isHiddenFromAccessibility,
    getDefaultNormalizer,
    configure(options = {}) {
      // RNTL's `defaultHidden` is the older name of `defaultIncludeHiddenElements`: it applies unless both are given.
      const { defaultHidden, ...rest } = options;
      config = { ...config, ...rest };
      if (defaultHidden !== undefined && rest.defaultIncludeHiddenElements === undefined) config.defaultIncludeHiddenElements = defaultHidden;
      app.defaultIncludeHiddenElements = Boolean(config.defaultIncludeHiddenElements);
    },
    resetToDefaults() {
      config = { asyncUtilTimeout: 1000, defaultIncludeHiddenElements: false, defaultDebugOptions: undefined };
      app.defaultIncludeHiddenElements = false;
    },
    getConfig: () => ({ ...config }),
    /** bridged's own: the App (openApp's API: nativeCalls, alerts, pressAlertButton, …) this test file runs. */
    bridged: app,
  };
  return library;
}

/** RNTL's getDefaultNormalizer: whitespace trimmed and collapsed, each optional. */
function getDefaultNormalizer({ trim = true, collapseWhitespace = true } = {}) {
  return (text) => {
    let normalized = text;
    if (trim) normalized = normalized.trim();
    if (collapseWhitespace) normalized = normalized.replace(/\s+/g, ' ');
    return normalized;
  };
}
