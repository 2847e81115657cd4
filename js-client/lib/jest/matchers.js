// React Native Testing Library 12.4's matchers, and jest-native 5's (the same names, and its own two:
// `toHaveAccessibilityState` and `toBeEmpty`, the old name of `toBeEmptyElement`), on bridged's host elements
// (host.js): each reads what the daemon holds for the view (its text, a field's text) and the React props the app
// gave it (style, accessibility state), as RNTL reads the host element.
import { MADE_UP_TEXT_INPUTS, STATE_DEFAULTS, TEXT_INPUT_COMPONENTS, hidesItself, isRegExp, matches } from '../react-native/testing/queries.js';
import { FiberElement, HostElement, isTestRendererInstance, kElementOfJSON } from './elements.js';

function flatten(style) {
  if (Array.isArray(style)) return Object.assign({}, ...style.map(flatten));
  return style && typeof style === 'object' ? style : {};
}

/** The matchers read a view's text content: the strings rendered inside it, not a text field's value (host.textOf). */
const NO_FIELDS = Object.freeze({ fields: false });
/** The deprecated names each test file's host has warned of, once each (jest-native's printDeprecationWarning). */
const warnedBy = new WeakMap();

function equal(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => equal(a[k], b[k]));
}

/** Marks jest-native's own forms of the matchers whose rule differs from RNTL 12.4's (see createMatchers). */
export const JEST_NATIVE = Symbol.for('bridged.jestNativeMatcher');

/** jest-native's isEmpty: no children given (nothing, an empty list or object). */
function childless(children) {
  if (!children) return true;
  if (Array.isArray(children)) return children.length === 0;
  if (typeof children === 'object') return Object.keys(children).length === 0;
  return false;
}

/** The components jest-native 5's toBeDisabled reads a `disabled` prop of (its DISABLE_TYPES), by their names. */
const JEST_NATIVE_DISABLE_TYPES = new Set([
  'Button',
  'Slider',
  'Switch',
  'Text',
  'TouchableHighlight',
  'TouchableOpacity',
  'TouchableWithoutFeedback',
  'TouchableNativeFeedback',
  'View',
  'TextInput',
  'Pressable',
]);

/** jest-native's getType: a component's displayName or name, a host element's type. */
function jestNativeType(element) {
  const type = element?.type;
  return type?.displayName || type?.name || type;
}

/**
 * jest-native 5's isElementDisabled over one instance (a host element or a component's): a TextInput whose
 * `editable` is false, or an instance of one of its types given `disabled`, `accessibilityState.disabled` or the old
 * `accessibilityStates` with 'disabled'. `aria-disabled` is not read.
 */
function jestNativeElementDisabled(element) {
  const type = jestNativeType(element);
  const p = element?.props ?? {};
  if (type === 'TextInput' && p.editable === false) return true;
  if (!JEST_NATIVE_DISABLE_TYPES.has(type)) return false;
  return Boolean(p.disabled) || Boolean(p.accessibilityState?.disabled) || Boolean(p.accessibilityStates?.includes?.('disabled'));
}

/**
 * jest-native 5's toBeDisabled rule: the element, or an instance above it (components too, as react-test-renderer's
 * `parent` walks them), is disabled by jest-native's isElementDisabled. As its isAncestorDisabled, an instance is
 * looked at only while it has a parent: the topmost one `render` was given counts only when it is the element.
 */
function jestNativeDisabled(element) {
  if (jestNativeElementDisabled(element)) return true;
  for (let current = element.parent; current?.parent != null; current = current.parent) {
    if (jestNativeElementDisabled(current)) return true;
  }
  return false;
}

/**
 * jest-native 5's getTextContent over an instance of a tree a test rendered with react-test-renderer itself: the
 * strings and numbers of its `children` prop, and of its elements' children, joined.
 */
/** The strings below an instance (a composite's: its `children`, instances and strings, as jest-native 5.4 collects them). */
function instanceText(node) {
  if (typeof node === 'string') return node;
  const children = node?.children;
  if (!Array.isArray(children)) return '';
  let text = '';
  for (const child of children) text += instanceText(child);
  return text;
}

function jestNativeTextContent(node) {
  if (!node) return '';
  if (typeof node === 'string') return node;
  const children = node.props?.children;
  if (!children) return '';
  if (typeof children === 'string') return children;
  if (!Array.isArray(children)) return jestNativeTextContent(children);
  const parts = [];
  for (const child of children) {
    if (typeof child === 'string') parts.push(child);
    else if (typeof child === 'number') parts.push(child.toString());
    else if (child?.props?.children) parts.push(jestNativeTextContent(child));
  }
  return parts.join('');
}

/**
 * jest-native 5's toBeVisible over such an instance: it and every instance above it shown by its style (no `display:
 * 'none'`, no `opacity: 0`), not a closed `Modal`, and not hidden from accessibility.
 */
function jestNativeInstanceVisible(instance) {
  for (let current = instance; current; current = current.parent) {
    const p = current.props ?? {};
    if (styleHides(flatten(p.style)) || jestNativeHidesItself(p)) return false;
    if (jestNativeType(current) === 'Modal' && p.visible === false) return false;
  }
  return true;
}

/** A flattened style that hides its view, to toBeVisible (RNTL's and jest-native's alike). */
function styleHides(style) {
  return style.display === 'none' || style.opacity === 0;
}

/** Props by which jest-native 5's toBeVisible takes a view for hidden from accessibility (not `aria-hidden`). */
function jestNativeHidesItself(p) {
  return Boolean(p.accessibilityElementsHidden) || p.importantForAccessibility === 'no-hide-descendants';
}

/**
 * The matchers over `host`'s elements. With `jestNative`, those whose rule jest-native 5 has its own of are its:
 * toHaveTextContent matches a part of the text (a string is looked for in it, whitespace runs made one space and the
 * ends trimmed; a RegExp tested), where RNTL's matches the whole; toBeEmptyElement (and toBeEmpty) asks whether the
 * element was given children, where RNTL's counts its host children (a Text's string is none); toBeDisabled and
 * toBeEnabled read a `disabled` prop of the element's components too (its DISABLE_TYPES: a `Button` of the app's
 * own, given `disabled`, disables what it renders) and not `aria-disabled`; toBeVisible hides by style, a closed
 * Modal, `accessibilityElementsHidden` and `importantForAccessibility="no-hide-descendants"` only, where RNTL's also
 * hides by `aria-hidden` and by a sibling modal for accessibility.
 */
export function createMatchers(host, { jestNative = false } = {}) {
  const ancestors = function* (element) {
    for (let tag = element.tag; tag != null; tag = host.view(tag)?.parent ?? null) yield tag;
  };
  const props = (tag) => host.reactProps(tag) ?? host.view(tag)?.props ?? {};
  const state = (tag, key) => props(tag)[`aria-${key}`] ?? props(tag).accessibilityState?.[key];
  const isDisabled = (element) => {
    for (const tag of ancestors(element)) {
      const p = props(tag);
      if (p['aria-disabled'] === true || p.accessibilityState?.disabled === true) return true;
      if (tag === element.tag && host.view(tag)?.component?.includes('TextInputView') && p.editable === false) return true;
    }
    return false;
  };
  /**
   * As RNTL's: hidden from accessibility (by itself, an ancestor, or a sibling modal for accessibility), else by
   * an ancestor's style or a Modal not visible. With `jestNativeRule`, jest-native 5's: by the style, a closed
   * Modal, `accessibilityElementsHidden` or `importantForAccessibility="no-hide-descendants"` of the element or a
   * view above it (not `aria-hidden`, nor a sibling modal for accessibility).
   */
  const isVisible = (element, { jestNativeRule = false } = {}) => {
    if (!jestNativeRule && host.testingLibrary().isHiddenFromAccessibility(element)) return false;
    for (const tag of ancestors(element)) {
      const view = host.view(tag);
      const p = props(tag);
      if (styleHides(flatten(p.style)) || styleHides(view?.props ?? {})) return false;
      if (jestNativeRule ? jestNativeHidesItself(p) : hidesItself(p)) return false;
      if (view?.component === 'RCTModalHostView' && p.visible === false) return false;
    }
    return true;
  };
  /**
   * RNTL's check of toBeChecked (`roles`: checkbox, radio, and, as RNTL 12.9 takes them, switch or a Switch) and
   * toBePartiallyChecked (checkbox): an accessibility element (its `accessible`, else a text, field or switch) of
   * such a role, or the matcher throws.
   */
  const checkable = (element, roles, message) => {
    const p = props(element.tag);
    const component = host.view(element.tag)?.component;
    const isSwitch = component === 'RCTSwitch';
    const accessible = typeof p.accessible === 'boolean' ? p.accessible : isSwitch || component === 'RCTText' || TEXT_INPUT_COMPONENTS.has(component);
    const role = p.role ?? p.accessibilityRole;
    if ((roles.includes('switch') && isSwitch) || (accessible && roles.includes(role))) return;
    throw new Error(message);
  };
  /** The view whose nativeID is `id` in the live tree, or undefined. */
  const byNativeID = (id) => {
    for (const [tag, view] of host.app._liveTree.views) if ((host.reactProps(tag) ?? view.props)?.nativeID === id) return tag;
    return undefined;
  };
  /**
   * RNTL's accessible name: a label (an empty one is none), else the text of the view aria-labelledby names (React
   * Native 0.72's View makes it a list, `accessibilityLabelledBy: ['plan']`: its first), else the text content.
   */
  const name = (element) => {
    const p = props(element.tag);
    const label = p['aria-label'] ?? p.accessibilityLabel;
    if (label != null && label !== '' && label !== false) return label;
    const labelledBy = p['aria-labelledby'] ?? p.accessibilityLabelledBy;
    const id = Array.isArray(labelledBy) ? labelledBy[0] : labelledBy;
    const by = typeof id === 'string' ? byNativeID(id) : undefined;
    return by !== undefined ? host.textOf(by, NO_FIELDS) : host.textOf(element.tag, NO_FIELDS);
  };
  const isRegExp = (value) => Object.prototype.toString.call(value) === '[object RegExp]';
  const element = (received, matcher) => {
    if (received instanceof HostElement) return received;
    if (received === null || received === undefined) return null;
    // A node of toJSON() (jest-native takes one whose type is a host's).
    if (received[kElementOfJSON] instanceof HostElement) return received[kElementOfJSON];
    throw new Error(`expect(received).${matcher}(): received is not an element a query returned (${typeof received})`);
  };
  const result = (context, pass, what) => ({ pass, message: () => `expected element ${context.isNot ? 'not ' : ''}${what}` });
  /**
   * toHaveProp over an element's props `p`: as RNTL's, a prop given, whatever its value (style={null} included). Its
   * message prints the values as jest-native's does (jest's stringify: a function as `[Function name]`, where
   * JSON.stringify gave undefined for an expected handler and threw on a native instance's circular structure).
   */
  const hasProp = (context, p, prop, value) => {
    const pass = value === undefined ? prop in p : prop in p && context.equals(value, p[prop]);
    const show = (v) => context.utils.stringify(v);
    return { pass, message: () => `expected element ${context.isNot ? 'not ' : ''}to have prop ${prop}${value === undefined ? '' : ` = ${show(value)}`}, it has ${prop in p ? show(p[prop]) : 'none'}` };
  };
  /** toHaveStyle over an element's `style` prop. */
  const hasStyle = (context, given, expected) => {
    const style = flatten(given);
    const wanted = flatten(expected);
    const pass = Object.entries(wanted).every(([k, v]) => context.equals(v, style[k]));
    return { pass, message: () => `expected element ${context.isNot ? 'not ' : ''}to have style ${JSON.stringify(wanted)}, it has ${JSON.stringify(style)}` };
  };
  const onScreen = (el) => el !== null && host.view(el.tag) !== undefined && host.isOnScreen(el.tag);
  const needed = (context, el, matcher) => {
    if (el === null || !onScreen(el)) throw new Error(`expect(element).${matcher}(): the element is not on the screen (null, or unmounted)`);
  };
  /** jest-native's toBeDisabled rule over what `matcher` received: a component's instance too, as its own takes. */
  const disabledByJestNative = (context, received, matcher) => {
    if (received instanceof FiberElement || isTestRendererInstance(received)) return jestNativeDisabled(received);
    const el = element(received, matcher);
    needed(context, el, matcher);
    return jestNativeDisabled(el);
  };

  /** jest-native's warning that toBeEmpty is toBeEmptyElement's old name, once a test file. */
  const warnRenamed = () => {
    const warned = warnedBy.get(host) ?? new Set();
    warnedBy.set(host, warned);
    if (warned.has('toBeEmpty')) return;
    warned.add('toBeEmpty');
    // The test file's console, which a test may spy on.
    (host.app?.global?.console ?? console).warn(
      'Deprecation Warning:\n"toBeEmpty()" matcher has been renamed to "toBeEmptyElement()". Old name will be deleted in future versions of @testing-library/jest-native.',
    );
  };

  /** toBeEmptyElement (and jest-native's old name of it, `matcher`): the element's view has no children. */
  const empty = (context, received, matcher) => {
    const el = element(received, matcher);
    needed(context, el, matcher);
    // As RNTL's: no host child elements (a Text's strings, its raw text views here, are none).
    const children = (host.view(el.tag)?.children ?? []).filter((tag) => host.view(tag)?.component !== 'RCTRawText');
    return result(context, children.length === 0, 'to be empty');
  };

  const matchers = {
    toBeOnTheScreen(received) {
      // A composite's instance (UNSAFE_getByType(Card)) is on the screen when the top of its tree is a screen's, as
      // jest-native finds its root by its parents.
      if (received instanceof FiberElement) {
        let top = received;
        while (top.parent) top = top.parent;
        return result(this, top instanceof FiberElement && host.isRenderedTop(top.fiber), 'to be on the screen');
      }
      const el = element(received, 'toBeOnTheScreen');
      return result(this, onScreen(el), 'to be on the screen');
    },
    toBeVisible(received) {
      const el = element(received, 'toBeVisible');
      return result(this, onScreen(el) && isVisible(el), 'to be visible');
    },
    toBeEmptyElement(received) {
      return empty(this, received, 'toBeEmptyElement');
    },
    /** jest-native's old name of toBeEmptyElement, which it warns of once. */
    toBeEmpty(received) {
      warnRenamed();
      return empty(this, received, 'toBeEmpty');
    },
    /**
     * jest-native's: each state the expectation names (disabled, selected, checked, busy, expanded) is the element's
     * `accessibilityState`'s, or the platforms' default where it has none (disabled, selected and busy false).
     */
    toHaveAccessibilityState(received, expected) {
      const el = element(received, 'toHaveAccessibilityState');
      needed(this, el, 'toHaveAccessibilityState');
      // A state the element leaves undefined is the default (React Native's View lists each key, undefined or not).
      const given = props(el.tag).accessibilityState ?? {};
      const actual = Object.fromEntries(Object.entries(STATE_DEFAULTS).map(([key, value]) => [key, given[key] ?? value]));
      const pass = Object.keys(STATE_DEFAULTS).every((key) => expected?.[key] === undefined || expected[key] === actual[key]);
      const shown = JSON.stringify(Object.fromEntries(Object.entries(actual).filter(([, v]) => v !== undefined)));
      return { pass, message: () => `expected element ${this.isNot ? 'not ' : ''}to have accessibility state ${JSON.stringify(expected)}, it has ${shown}` };
    },
    toHaveTextContent(received, expected, options = {}) {
      const el = element(received, 'toHaveTextContent');
      needed(this, el, 'toHaveTextContent');
      const text = host.textOf(el.tag, NO_FIELDS);
      return { pass: matches(text, expected, { exact: true, ...options }), message: () => `expected element ${this.isNot ? 'not ' : ''}to have text content ${String(expected)}, it has "${text}"` };
    },
    toHaveDisplayValue(received, expected, options = {}) {
      const el = element(received, 'toHaveDisplayValue');
      needed(this, el, 'toHaveDisplayValue');
      const view = host.view(el.tag);
      if (!view.component.includes('TextInputView') && !MADE_UP_TEXT_INPUTS.has(view.component)) throw new Error(`toHaveDisplayValue() works only with host TextInput elements, got ${el.type}`);
      const value = String(view.props?.text ?? props(el.tag).value ?? props(el.tag).defaultValue ?? '');
      return { pass: matches(value, expected, { exact: true, ...options }), message: () => `expected element ${this.isNot ? 'not ' : ''}to have display value ${String(expected)}, it has "${value}"` };
    },
    toBeDisabled(received) {
      const el = element(received, 'toBeDisabled');
      needed(this, el, 'toBeDisabled');
      return result(this, isDisabled(el), 'to be disabled');
    },
    toBeEnabled(received) {
      const el = element(received, 'toBeEnabled');
      needed(this, el, 'toBeEnabled');
      return result(this, !isDisabled(el), 'to be enabled');
    },
    toBeSelected(received) {
      const el = element(received, 'toBeSelected');
      needed(this, el, 'toBeSelected');
      return result(this, state(el.tag, 'selected') === true, 'to be selected');
    },
    toBeChecked(received) {
      const el = element(received, 'toBeChecked');
      needed(this, el, 'toBeChecked');
      checkable(el, ['checkbox', 'radio', 'switch'], 'toBeChecked() works only on accessibility elements with "checkbox" or "radio" role.');
      const checked = state(el.tag, 'checked');
      const isSwitch = host.view(el.tag)?.component === 'RCTSwitch';
      return result(this, checked === true || (isSwitch && (host.view(el.tag).props?.value === true)), 'to be checked');
    },
    toBePartiallyChecked(received) {
      const el = element(received, 'toBePartiallyChecked');
      needed(this, el, 'toBePartiallyChecked');
      checkable(el, ['checkbox'], 'toBePartiallyChecked() works only on accessibility elements with "checkbox" role.');
      return result(this, state(el.tag, 'checked') === 'mixed', 'to be partially checked');
    },
    toBeExpanded(received) {
      const el = element(received, 'toBeExpanded');
      needed(this, el, 'toBeExpanded');
      return result(this, state(el.tag, 'expanded') === true, 'to be expanded');
    },
    toBeCollapsed(received) {
      const el = element(received, 'toBeCollapsed');
      needed(this, el, 'toBeCollapsed');
      return result(this, state(el.tag, 'expanded') === false, 'to be collapsed');
    },
    toBeBusy(received) {
      const el = element(received, 'toBeBusy');
      needed(this, el, 'toBeBusy');
      return result(this, state(el.tag, 'busy') === true, 'to be busy');
    },
    toHaveAccessibleName(received, expected, options = {}) {
      const el = element(received, 'toHaveAccessibleName');
      needed(this, el, 'toHaveAccessibleName');
      const actual = name(el);
      const pass = expected === undefined ? Boolean(actual) : matches(actual, expected, { exact: true, ...options });
      return { pass, message: () => `expected element ${this.isNot ? 'not ' : ''}to have accessible name ${expected === undefined ? '' : String(expected)}, it has "${actual ?? ''}"` };
    },
    toHaveAccessibilityValue(received, expected) {
      const el = element(received, 'toHaveAccessibilityValue');
      needed(this, el, 'toHaveAccessibilityValue');
      const p = props(el.tag);
      const value = { min: p['aria-valuemin'], max: p['aria-valuemax'], now: p['aria-valuenow'], text: p['aria-valuetext'], ...(p.accessibilityValue ?? {}) };
      const pass = Object.entries(expected ?? {}).every(([k, v]) => (k === 'text' && isRegExp(v) ? v.test(value.text ?? '') : equal(value[k], v)));
      return { pass, message: () => `expected element ${this.isNot ? 'not ' : ''}to have accessibility value ${JSON.stringify(expected)}, it has ${JSON.stringify(value)}` };
    },
    toHaveProp(received, prop, value) {
      const el = element(received, 'toHaveProp');
      needed(this, el, 'toHaveProp');
      return hasProp(this, props(el.tag), prop, value);
    },
    toHaveStyle(received, expected) {
      const el = element(received, 'toHaveStyle');
      needed(this, el, 'toHaveStyle');
      return hasStyle(this, props(el.tag).style, expected);
    },
    toContainElement(received, other) {
      // A composite's instance contains what its tree has (jest-native's findAll over it, by type and props).
      if (received instanceof FiberElement) {
        const found = other != null && received.findAll((node) => node === other || (node.type === other.type && this.equals(node.props, other.props))).length > 0;
        return result(this, found, 'to contain the element');
      }
      const el = element(received, 'toContainElement');
      needed(this, el, 'toContainElement');
      if (other !== null) element(other, 'toContainElement');
      let pass = false;
      if (other instanceof HostElement) {
        for (let tag = other.tag; tag != null; tag = host.view(tag)?.parent ?? null) {
          if (tag === el.tag) {
            pass = true;
            break;
          }
        }
      }
      return result(this, pass, 'to contain the element');
    },
  };
  if (!jestNative) return matchers;

  const jestNativeEmpty = (context, received, matcher) => {
    if (isTestRendererInstance(received)) return result(context, childless(received.props.children), 'to be empty');
    const el = element(received, matcher);
    needed(context, el, matcher);
    return result(context, childless(props(el.tag).children), 'to be empty');
  };
  const own = {
    // (jest-native's take any instance: a composite's (UNSAFE_getByType(Card), UNSAFE_root), and one of a tree the test
    // rendered with react-test-renderer itself, are read from their props, as jest-native reads any instance.)
    toHaveTextContent(received, expected) {
      let text;
      if (received instanceof FiberElement) text = instanceText(received);
      else if (isTestRendererInstance(received)) text = jestNativeTextContent(received);
      else {
        const el = element(received, 'toHaveTextContent');
        needed(this, el, 'toHaveTextContent');
        text = host.textOf(el.tag, NO_FIELDS);
      }
      text = text.replace(/\s+/g, ' ').trim();
      const pass = isRegExp(expected) ? expected.test(text) : text.includes(expected);
      return { pass, message: () => `expected element ${this.isNot ? 'not ' : ''}to have text content ${String(expected)}, it has "${text}"` };
    },
    toBeEmptyElement(received) {
      return jestNativeEmpty(this, received, 'toBeEmptyElement');
    },
    toBeEmpty(received) {
      warnRenamed();
      return jestNativeEmpty(this, received, 'toBeEmpty');
    },
    // jest-native's take any instance react-test-renderer gives, a component's too (an element's `.children`,
    // UNSAFE_getByType), and read its props, where RNTL's take host elements only.
    toHaveProp(received, prop, value) {
      if (received instanceof FiberElement || isTestRendererInstance(received)) return hasProp(this, received.props, prop, value);
      return matchers.toHaveProp.call(this, received, prop, value);
    },
    toHaveStyle(received, expected) {
      if (received instanceof FiberElement || isTestRendererInstance(received)) return hasStyle(this, received.props.style, expected);
      return matchers.toHaveStyle.call(this, received, expected);
    },
    toBeDisabled(received) {
      return result(this, disabledByJestNative(this, received, 'toBeDisabled'), 'to be disabled');
    },
    toBeEnabled(received) {
      return result(this, !disabledByJestNative(this, received, 'toBeEnabled'), 'to be enabled');
    },
    toBeVisible(received) {
      if (received instanceof FiberElement || isTestRendererInstance(received)) return result(this, jestNativeInstanceVisible(received), 'to be visible');
      const el = element(received, 'toBeVisible');
      return result(this, onScreen(el) && isVisible(el, { jestNativeRule: true }), 'to be visible');
    },
  };
  for (const matcher of Object.values(own)) matcher[JEST_NATIVE] = true;
  return { ...matchers, ...own };
}
