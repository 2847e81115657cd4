// The elements RNTL's queries return under preset: 'bridged-client': a host view's (HostElement, by daemon tag, its
// React props from its fiber), a component's (FiberElement, react-test-renderer's instance over the app's fibers,
// for UNSAFE_* and UNSAFE_root), their JSON as react-test-renderer's toJSON, and RNTL's rules for which handler an
// event reaches (fiber helpers).
import { TEXT_INPUT_COMPONENTS } from '../react-native/testing/queries.js';
import { madeUpType } from '../react-native/app/components.js';
import { TEST_JSON } from './format.js';

/** The host component names RNTL's tests see under React Native's jest mocks, for the native ones bridged serves. */
const HOST_TYPES = {
  RCTView: 'View',
  RCTText: 'Text',
  RCTVirtualText: 'Text',
  RCTSinglelineTextInputView: 'TextInput',
  RCTMultilineTextInputView: 'TextInput',
  RCTImageView: 'Image',
  RCTModalHostView: 'Modal',
};

/**
 * react-test-renderer's finders over an instance's `findAll` (every instance has them, a query's host element too):
 * `find`, `findByType` and `findByProps` stop below a match (`deep: false`), as react-test-renderer's do, so that
 * a prop a component passes down to what it renders (a `TextInput`'s `placeholder`, a `testID`) is one match.
 */
const FINDERS = {
  find(predicate) {
    return expectOne(this.findAll(predicate, { deep: false }), 'matching custom predicate');
  },
  findAllByType(type, options) {
    return this.findAll((node) => node.type === type, options);
  },
  findByType(type) {
    return expectOne(this.findAllByType(type, { deep: false }), `with node type: "${typeName(type)}"`);
  },
  findAllByProps(props, options) {
    return this.findAll((node) => node.props && Object.keys(props).every((key) => node.props[key] === props[key]), options);
  },
  findByProps(props) {
    return expectOne(this.findAllByProps(props, { deep: false }), `with props: ${JSON.stringify(props)}`);
  },
};

/** Gives `cls`'s instances the finders, as methods (not enumerable, as a class's own). */
function withFinders(cls) {
  for (const [name, value] of Object.entries(FINDERS)) {
    Object.defineProperty(cls.prototype, name, { value, writable: true, configurable: true });
  }
}

/** A host element as RNTL's queries return one: React's props of the host component, its place in the tree. */
export class HostElement {
  #host;
  #tag;

  constructor(host, tag) {
    this.#host = host;
    this.#tag = tag;
  }

  /** The daemon's tag of the native view. */
  get tag() {
    return this.#tag;
  }

  /** The native view as the daemon holds it: `{tag, component, props, text}`. */
  get native() {
    const view = this.#host.view(this.#tag);
    if (!view) return null;
    return { tag: this.#tag, component: view.component, props: view.props, text: this.#host.textOf(this.#tag) };
  }

  get type() {
    const component = this.#host.view(this.#tag)?.component;
    return HOST_TYPES[component] ?? madeUpType(component) ?? component ?? null;
  }

  /** The React props the app's host component was given (testID, style, accessibilityState, children, …). */
  get props() {
    return this.#host.reactProps(this.#tag) ?? this.#host.view(this.#tag)?.props ?? {};
  }

  /**
   * As react-test-renderer's (RNTL 12's): the nearest instance above, a component's or a host view's (the `Text`
   * component above a host text, a `Pressable` above its host view); null above what `render` was given.
   */
  get parent() {
    const fiber = this.#host.fiber(this.#tag);
    return fiber ? instanceParent(this.#host, fiber) : null;
  }

  /** As react-test-renderer's: the instances right below (components and host views) and the texts, as strings. */
  get children() {
    const fiber = this.#host.fiber(this.#tag);
    if (!fiber) return this.hostChildren;
    return instanceChildren(fiber).map((c) => (typeof c === 'string' ? c : this.#host.instanceOf(c)));
  }

  /** The host elements and texts right below in the native tree (toJSON's). @internal */
  get hostChildren() {
    const view = this.#host.view(this.#tag);
    if (!view) return [];
    return view.children.map((tag) => {
      const child = this.#host.view(tag);
      return child?.component === 'RCTRawText' ? String(child.props?.text ?? '') : this.#host.elementOf(tag);
    });
  }

  /** The host component's instance (its ref). */
  get instance() {
    return this.#host.fiber(this.#tag)?.stateNode ?? null;
  }

  /**
   * react-test-renderer's own field, which teams' helpers read (`_fiber.memoizedProps`, `_fiber.pendingProps`): the
   * host view's fiber, the current one.
   */
  get _fiber() {
    return this.#host.fiber(this.#tag);
  }

  /** As react-test-renderer's: the instances from this one down (itself included) that `predicate` matches. */
  findAll(predicate, { deep = true } = {}) {
    const fiber = this.#host.fiber(this.#tag);
    return fiber ? findAllInstances(this.#host, fiber, predicate, deep) : [];
  }

  toJSON() {
    return elementJSON(this);
  }
}
withFinders(HostElement);

/** The fibers react-test-renderer's instances are: components and host views (not fragments, providers, …). */
const INSTANCE_FIBERS = new Set([0, 1, 2, 5, 11, 14, 15]);
const HOST_TEXT = 6;

/**
 * The instance above `fiber` (react-test-renderer's parent): the nearest component or host view, through the fibers
 * that are none; null above the element `render` was given (its wrapper's, with one), as in RNTL's tree.
 */
function instanceParent(host, fiber) {
  if (host.isRenderedTop(fiber)) return null;
  for (let f = fiber.return; f; f = f.return) {
    if (f.tag === HOST_ROOT) return null;
    if (INSTANCE_FIBERS.has(f.tag)) return host.instanceOf(f);
    if (host.isRenderedTop(f)) return null;
  }
  return null;
}

/** The instances (and host texts, as strings) right below `fiber`, through the fibers that are none. */
function instanceChildren(fiber) {
  const found = [];
  const visit = (child) => {
    for (let f = child; f; f = f.sibling) {
      if (INSTANCE_FIBERS.has(f.tag)) found.push(f);
      else if (f.tag === HOST_TEXT) found.push(String(f.memoizedProps ?? ''));
      else visit(f.child);
    }
  };
  visit(fiber.child);
  return found;
}

/**
 * A component's instance as RNTL's UNSAFE_* queries and UNSAFE_root return one (react-test-renderer's
 * ReactTestInstance over the app's own fibers): `.type`, `.props`, `.parent`, `.children`, `.instance`, and
 * find/findAll/findByType/findAllByType/findByProps/findAllByProps. A host view's is its HostElement. `.tag` is the
 * daemon tag of its first host view (where a touch lands).
 */
export class FiberElement {
  #host;
  #fiber;

  constructor(host, fiber) {
    this.#host = host;
    this.#fiber = fiber;
  }

  /**
   * The pair's fiber that is on screen now: React renders into a fiber's alternate and swaps the two at each commit
   * that re-renders the component, so the fiber this element was made for holds the props of an earlier render
   * after an update (`rerender`, a state change); react-test-renderer's instance reads the current one alike
   * (its `_currentFiber`, React's findCurrentFiberUsingSlowPath).
   */
  get #current() {
    return currentFiber(this.#fiber);
  }

  /** @internal */
  get fiber() {
    return this.#current;
  }

  get type() {
    return this.#fiber.type;
  }

  get props() {
    return this.#current.memoizedProps ?? {};
  }

  get instance() {
    return this.#fiber.tag === 1 ? this.#fiber.stateNode : null;
  }

  /** react-test-renderer's own field, as a host view's: the component's fiber. */
  get _fiber() {
    return this.#current;
  }

  get parent() {
    return instanceParent(this.#host, this.#current);
  }

  get children() {
    return instanceChildren(this.#current).map((c) => (typeof c === 'string' ? c : this.#host.instanceOf(c)));
  }

  get tag() {
    const stack = [this.#current];
    while (stack.length > 0) {
      const f = stack.shift();
      if (f.tag === HOST_COMPONENT) {
        const rendererTag = f.stateNode?._nativeTag ?? f.stateNode?.canonical?.nativeTag;
        return rendererTag === undefined ? null : this.#host.app.native.daemonTag(rendererTag) ?? null;
      }
      for (let c = f.child; c; c = c.sibling) stack.push(c);
    }
    return null;
  }

  findAll(predicate, { deep = true } = {}) {
    return findAllInstances(this.#host, this.#current, predicate, deep);
  }
}
withFinders(FiberElement);

/**
 * Whether `value` is an instance of a tree a test rendered with react-test-renderer itself
 * (`create(<Screen />).root.findByProps(…)`): react-test-renderer's ReactTestInstance, over that renderer's fibers.
 * No native view is behind it: RNTL's fireEvent, which calls the handler it finds, is the only event it can take.
 */
export function isTestRendererInstance(value) {
  if (value === null || typeof value !== 'object' || value instanceof HostElement || value instanceof FiberElement) return false;
  const fiber = value._fiber;
  return fiber !== null && typeof fiber === 'object' && 'memoizedProps' in fiber && typeof value.findByProps === 'function';
}

/**
 * Of a fiber and its alternate, the one in the tree on screen: React's findCurrentFiberUsingSlowPath (what
 * react-test-renderer's instances read through), walking both up to the root and down their parents' child lists.
 * A fiber of a tree no longer mounted is answered as it is (its last props, as react-test-renderer keeps them).
 */
export function currentFiber(fiber) {
  const alternate = fiber.alternate;
  if (!alternate) return fiber;
  let a = fiber;
  let b = alternate;
  for (;;) {
    const parentA = a.return;
    if (parentA === null) break;
    const parentB = parentA.alternate;
    if (parentB === null) {
      // Both parents are the same fiber (it has rendered once): on up.
      if (parentA.return !== null) {
        a = b = parentA.return;
        continue;
      }
      break;
    }
    if (parentA.child === parentB.child) {
      // The parents share their children (they bailed out): whichever of the two is among them is current.
      for (let child = parentA.child; child; child = child.sibling) {
        if (child === a) return fiber;
        if (child === b) return alternate;
      }
      return fiber;
    }
    if (a.return !== b.return) {
      a = parentA;
      b = parentB;
    } else {
      let found = false;
      for (let child = parentA.child; child; child = child.sibling) {
        if (child === a) [found, a, b] = [true, parentA, parentB];
        else if (child === b) [found, b, a] = [true, parentA, parentB];
        if (found) break;
      }
      if (!found) {
        for (let child = parentB.child; child; child = child.sibling) {
          if (child === a) [found, a, b] = [true, parentB, parentA];
          else if (child === b) [found, b, a] = [true, parentB, parentA];
          if (found) break;
        }
      }
      if (!found) return fiber;
    }
  }
  if (a.tag !== HOST_ROOT) return fiber;
  return a.stateNode?.current === a ? fiber : alternate;
}

/**
 * react-test-renderer's findAll over the fibers from `rootFiber`: the instances matching, the root's included (with
 * deep: false, none below a match).
 */
function findAllInstances(host, rootFiber, predicate, deep) {
  const found = [];
  const visit = (fiber) => {
    const node = host.instanceOf(fiber);
    const match = predicate(node);
    if (match) found.push(node);
    if (match && !deep) return;
    for (const child of instanceChildren(fiber)) if (typeof child !== 'string') visit(child);
  };
  visit(rootFiber);
  return found;
}

export function typeName(type) {
  return typeof type === 'string' ? type : type?.displayName ?? type?.name ?? type?.render?.displayName ?? type?.render?.name ?? 'Unknown';
}

export function expectOne(found, what) {
  if (found.length === 1) return found[0];
  throw new Error(found.length === 0 ? `No instances found ${what}` : `Expected 1 but found ${found.length} instances ${what}`);
}

/** The view name of React Native's native instance of a view (what a ref to one holds), else undefined. */
function nativeInstanceName(value) {
  if (value === null || typeof value !== 'object' || typeof value._nativeTag !== 'number') return undefined;
  return value.viewConfig?.uiViewClassName ?? 'native view';
}

/**
 * A prop as toJSON gives it, but for React Native's native instance of a view, in it or in a ref object in it (React
 * Native's TextInput hands the app's ref down to its host as `forwardedRef`): shown by its view's name, as pretty-format
 * would otherwise walk the app's whole fiber tree from it (its _internalFiberInstanceHandleDEV), a snapshot taking
 * minutes, or ever.
 */
function jsonProp(value) {
  const name = nativeInstanceName(value);
  if (name) return `[${name}]`;
  const current = value !== null && typeof value === 'object' && Object.keys(value).length === 1 ? nativeInstanceName(value.current) : undefined;
  return current ? { current: `[${current}]` } : value;
}

/** The prototypes given a toJSON for pretty-format (printable). */
const PRINTABLE = new WeakSet();

/** A fiber's component, as React's DevTools name it, or its tag. */
function fiberName(fiber) {
  const type = fiber.type;
  if (typeof type === 'string') return type;
  const named = (t) => (t && (typeof t === 'object' || typeof t === 'function') ? t.displayName || t.name : undefined);
  return named(type) || named(type?.render) || named(type?.type) || named(type?._context) || `tag ${fiber.tag}`;
}

/** Gives `prototype` (not Object's, nor one that has its own) a toJSON for pretty-format: `describe(this)`. */
function printAs(prototype, describe) {
  if (!prototype || prototype === Object.prototype || PRINTABLE.has(prototype)) return;
  PRINTABLE.add(prototype);
  if (Object.prototype.hasOwnProperty.call(prototype, 'toJSON')) return;
  Object.defineProperty(prototype, 'toJSON', {
    configurable: true,
    writable: true,
    // JSON.stringify calls toJSON(key), and gets the object itself: it throws on its circular structure, as on a phone.
    value: function toJSON(...key) {
      return key.length === 0 ? describe(this) : this;
    },
  });
}

/**
 * React's fibers and React Native's native instances of views (the prototypes of `fiber` and of its native instance),
 * as pretty-format prints them in a failing matcher's message or a snapshot: one line naming the component or the
 * view, `"[fiber Pressable]"`, `"[RCTView]"`. pretty-format would walk the app's whole fiber tree from either (each
 * path to an object printed anew, as it only marks an object circular on its own path): a press's event, React
 * Native's own, persisted by Pressability, holds the pressed view's fiber (`_targetInst`) and native instance
 * (`target`), so `expect(onPress).toHaveBeenCalledWith(data)` ran the jest worker out of memory instead of failing.
 * pretty-format calls `toJSON()` with no argument; JSON.stringify calls `toJSON(key)`, which gets the object itself.
 */
export function printable(fiber) {
  printAs(Object.getPrototypeOf(fiber), (f) => `[fiber ${fiberName(f)}]`);
  if (fiber.tag !== HOST_COMPONENT || !fiber.stateNode || typeof fiber.stateNode !== 'object') return false;
  // Paper's stateNode is the native instance; Fabric's holds it as `canonical`.
  const instance = fiber.stateNode.canonical ?? fiber.stateNode;
  printAs(Object.getPrototypeOf(instance), (view) => `[${nativeInstanceName(view) ?? 'native view'}]`);
  return true;
}

/** An element as react-test-renderer's toJSON gives one: its type, its props but children, its children's JSON. */
export function elementJSON(element) {
  const props = {};
  for (const [key, value] of Object.entries(element.props ?? {})) {
    if (key === 'children') continue;
    props[key] = jsonProp(value);
  }
  const children = element.hostChildren.map((c) => (typeof c === 'string' ? c : elementJSON(c)));
  const json = { type: element.type, props, children: children.length > 0 ? children : null };
  Object.defineProperty(json, '$$typeof', { value: TEST_JSON });
  Object.defineProperty(json, kElementOfJSON, { value: element });
  return json;
}

/**
 * The element a toJSON node was made from (not enumerable: snapshots, equality and JSON.stringify do not see it):
 * jest-native's matchers take such a node where its type is a host's (`expect(toJSON()).toHaveStyle(…)`).
 */
export const kElementOfJSON = Symbol('bridged.elementOfJSON');

/** React's fiber tags this file reads. */
export const HOST_ROOT = 3;
export const HOST_COMPONENT = 5;

/** Whether a fiber is a host text field (a TextInput's native view). */
export function isTextInputFiber(fiber) {
  return fiber?.tag === HOST_COMPONENT && TEXT_INPUT_COMPONENTS.has(fiber.type);
}

/**
 * RNTL's isTouchResponder: a host view with onStartShouldSetResponder, or a text field. A scroll view is not one here:
 * under React Native's mocks its host has no responder handlers, so RNTL lets every event through it (a FlatList's
 * onEndReached); its real handlers need a touch's event.
 */
const SCROLL_VIEWS = new Set(['RCTScrollView', 'RCTScrollContentView']);
export function isTouchResponder(fiber) {
  if (fiber.tag !== HOST_COMPONENT || SCROLL_VIEWS.has(fiber.type)) return false;
  return Boolean(fiber.memoizedProps?.onStartShouldSetResponder) || isTextInputFiber(fiber);
}

/** A responder's `on…ShouldSetResponder()` asked with no event, as RNTL asks it (undefined when it needs one). */
function askResponder(handler) {
  if (typeof handler !== 'function') return undefined;
  try {
    return handler();
  } catch {
    return undefined;
  }
}

/** The nearest host fiber above `fiber`. */
function hostParent(fiber) {
  for (let f = fiber.return; f; f = f.return) if (f.tag === HOST_COMPONENT) return f;
  return null;
}

/**
 * RNTL's isPointerEventEnabled: the element takes touches unless its `pointerEvents` is `none` or `box-none`, or a
 * host ancestor's is `none` or `box-only` (React Native's pointerEvents rules).
 */
function pointerEventsEnabled(fiber) {
  let current = fiber.tag === HOST_COMPONENT ? fiber : hostParent(fiber);
  let parent = fiber.tag !== HOST_COMPONENT;
  for (; current; current = hostParent(current), parent = true) {
    const value = current.memoizedProps?.pointerEvents;
    if (value === 'none' || value === (parent ? 'box-only' : 'box-none')) return false;
  }
  return true;
}

/** The text field events `editable={false}` does not stop (RNTL's list). */
const EDITABLE_IGNORED = new Set(['contentSizeChange', 'onContentSizeChange', 'layout', 'onLayout', 'scroll', 'onScroll']);

/** RNTL 12.4's isEventEnabled, on fibers. */
export function eventEnabled(fiber, eventName, responder) {
  if (responder && isTextInputFiber(responder)) return responder.memoizedProps?.editable !== false || EDITABLE_IGNORED.has(eventName);
  if ((eventName === 'press' || eventName === 'onPress') && !pointerEventsEnabled(fiber)) return false;
  const start = askResponder(responder?.memoizedProps?.onStartShouldSetResponder);
  const move = askResponder(responder?.memoizedProps?.onMoveShouldSetResponder);
  if (start || move) return true;
  return start === undefined && move === undefined;
}
