// The host components of an attachment of the renderer alone: React Native's View and Text as their native side
// takes them (an app's own package brings its own). Each applies the rules React Native 0.72's own component
// applies before its native component sees the props, so that what reaches bridged is what an app's `View` and
// `Text` would send on iOS: `Libraries/Components/View/View.js` and `Libraries/Text/Text.js`, with
// `Libraries/Utilities/AcessibilityMapping.js` (sic) for `role`.
//
// Left to the app's package: Text's press handling through Pressability (`onPress` here is passed on as it is).

import { flattenStyle } from '../style.js';

/** React Native's host components over an attachment: View, Text (RCTText or RCTVirtualText by context). */
export function hostComponents(React) {
  const { createElement, createContext, forwardRef, useContext } = React;
  const TextAncestor = createContext(false);

  const View = forwardRef(function View(props, ref) {
    const element = createElement('RCTView', withRef(viewProps(props), ref));
    return useContext(TextAncestor) ? createElement(TextAncestor.Provider, { value: false }, element) : element;
  });
  View.displayName = 'View';

  const Text = forwardRef(function Text(props, ref) {
    if (useContext(TextAncestor)) return createElement('RCTVirtualText', withRef(textProps(props, { virtual: true }), ref));
    return createElement(TextAncestor.Provider, { value: true }, createElement('RCTText', withRef(textProps(props, { virtual: false }), ref)));
  });
  Text.displayName = 'Text';
  return { View, Text, TextAncestor };
}

/**
 * `props` as a plain object: its own properties, in their order. What View.js and Text.js do is then read from
 * this. React's props in development carry `key`/`ref` warning getters defined on each object, so each has a hidden
 * class of its own, and every property read from one (two dozen names, most of them absent) missed V8's caches, and
 * the object rest of them took a slow path: 10 µs a View, most of a 50,000-row re-render's time; this is 0.3 µs.
 */
function plain(props) {
  const copy = {};
  for (const key in props) {
    if (!Object.hasOwn(props, key)) continue;
    // `__proto__` as a spread would copy it: a property of its own, not the prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: props[key], enumerable: true, writable: true, configurable: true });
    else copy[key] = props[key];
  }
  return copy;
}

/** The props (a new object of the component's own) with `ref`, for createElement (which takes it out again). */
function withRef(props, ref) {
  props.ref = ref;
  return props;
}

/** View.js: the `aria-*`, `id`, `role`, `tabIndex` spellings mapped to the props the native view takes. */
export function viewProps(props) {
  const {
    accessibilityElementsHidden,
    accessibilityLabel,
    accessibilityLabelledBy,
    accessibilityLiveRegion,
    accessibilityRole,
    accessibilityState,
    accessibilityValue,
    'aria-busy': ariaBusy,
    'aria-checked': ariaChecked,
    'aria-disabled': ariaDisabled,
    'aria-expanded': ariaExpanded,
    'aria-hidden': ariaHidden,
    'aria-label': ariaLabel,
    'aria-labelledby': ariaLabelledBy,
    'aria-live': ariaLive,
    'aria-selected': ariaSelected,
    'aria-valuemax': ariaValueMax,
    'aria-valuemin': ariaValueMin,
    'aria-valuenow': ariaValueNow,
    'aria-valuetext': ariaValueText,
    focusable,
    id,
    importantForAccessibility,
    nativeID,
    pointerEvents,
    role,
    tabIndex,
    ...otherProps
  } = plain(props);
  // View.js's order: the other props, then these (an undefined one is left out by the renderer).
  const style = flattenStyle(otherProps.style);
  let value;
  if (accessibilityValue != null || ariaValueMax != null || ariaValueMin != null || ariaValueNow != null || ariaValueText != null) {
    value = {
      max: ariaValueMax ?? accessibilityValue?.max,
      min: ariaValueMin ?? accessibilityValue?.min,
      now: ariaValueNow ?? accessibilityValue?.now,
      text: ariaValueText ?? accessibilityValue?.text,
    };
  }
  const out = otherProps;
  out.accessibilityLiveRegion = ariaLive === 'off' ? 'none' : ariaLive ?? accessibilityLiveRegion;
  out.accessibilityLabel = ariaLabel ?? accessibilityLabel;
  out.focusable = tabIndex !== undefined ? !tabIndex : focusable;
  out.accessibilityState = accessibilityStateOf(accessibilityState, ariaBusy, ariaChecked, ariaDisabled, ariaExpanded, ariaSelected);
  out.accessibilityRole = role ? accessibilityRoleFromRole(role) : accessibilityRole;
  out.accessibilityElementsHidden = ariaHidden ?? accessibilityElementsHidden;
  // `aria-labelledby` is a comma-separated list.
  out.accessibilityLabelledBy = ariaLabelledBy?.split(/\s*,\s*/g) ?? accessibilityLabelledBy;
  out.accessibilityValue = value;
  out.importantForAccessibility = ariaHidden === true ? 'no-hide-descendants' : importantForAccessibility;
  out.nativeID = id ?? nativeID;
  // View.js flattens the style, and a style's `pointerEvents` wins over the prop.
  out.style = style;
  out.pointerEvents = style?.pointerEvents || pointerEvents;
  return out;
}

/** Text.js on iOS: the same spellings, and the defaults and clamps a native text is given. */
export function textProps(props, { virtual }) {
  const {
    accessible,
    accessibilityLabel,
    accessibilityRole,
    accessibilityState,
    allowFontScaling,
    'aria-busy': ariaBusy,
    'aria-checked': ariaChecked,
    'aria-disabled': ariaDisabled,
    'aria-expanded': ariaExpanded,
    'aria-label': ariaLabel,
    'aria-selected': ariaSelected,
    ellipsizeMode,
    id,
    nativeID,
    role,
    ...restProps
  } = plain(props);
  const state = accessibilityStateOf(accessibilityState, ariaBusy, ariaChecked, ariaDisabled, ariaExpanded, ariaSelected);
  const disabled = restProps.disabled != null ? restProps.disabled : state?.disabled;
  // Text.js: `numberOfLines` below 0 (or NaN) is an error, logged, and sent as 0.
  let numberOfLines = restProps.numberOfLines;
  if (numberOfLines != null && !(numberOfLines >= 0)) {
    console.error(`'numberOfLines' in <Text> must be a non-negative number, received: ${numberOfLines}. The value will be set to 0.`);
    numberOfLines = 0;
  }
  let style = flattenStyle(restProps.style);
  let selectable = restProps.selectable;
  if (style != null) {
    style = { ...style };
    if (typeof style.fontWeight === 'number') style.fontWeight = style.fontWeight.toString();
    if (style.userSelect != null) {
      selectable = USER_SELECT_TO_SELECTABLE[style.userSelect];
      delete style.userSelect;
    }
    if (style.verticalAlign != null) {
      style.textAlignVertical = VERTICAL_ALIGN_TO_TEXT_ALIGN_VERTICAL[style.verticalAlign];
      delete style.verticalAlign;
    }
  }
  // Text.js's order: the other props, then these (an undefined one is left out by the renderer).
  if (virtual) {
    const out = restProps;
    out.accessibilityLabel = ariaLabel ?? accessibilityLabel;
    out.accessibilityRole = role ? accessibilityRoleFromRole(role) : accessibilityRole;
    out.accessibilityState = state;
    out.isHighlighted = false;
    out.isPressable = (restProps.onPress != null || restProps.onLongPress != null || restProps.onStartShouldSetResponder != null) && disabled !== true;
    out.nativeID = id ?? nativeID;
    out.numberOfLines = numberOfLines;
    out.selectable = selectable;
    out.style = style;
    return out;
  }
  const out = restProps;
  out.accessibilityLabel = ariaLabel ?? accessibilityLabel;
  out.accessibilityRole = role ? accessibilityRoleFromRole(role) : accessibilityRole;
  // The outermost text's accessibility state carries `disabled` as the prop gives it.
  out.accessibilityState = disabled !== state?.disabled ? { ...state, disabled } : state;
  // iOS: a text is accessible unless told not to be (Platform.select({ios: accessible !== false})).
  out.accessible = accessible !== false;
  out.allowFontScaling = allowFontScaling !== false;
  out.disabled = disabled;
  out.ellipsizeMode = ellipsizeMode ?? 'tail';
  out.isHighlighted = false;
  out.nativeID = id ?? nativeID;
  out.numberOfLines = numberOfLines;
  out.selectable = selectable;
  out.style = style;
  return out;
}

/** View.js and Text.js: `aria-busy`… override the fields of `accessibilityState`; undefined when none is given. */
function accessibilityStateOf(accessibilityState, busy, checked, disabled, expanded, selected) {
  if (accessibilityState == null && busy == null && checked == null && disabled == null && expanded == null && selected == null) return undefined;
  return {
    busy: busy ?? accessibilityState?.busy,
    checked: checked ?? accessibilityState?.checked,
    disabled: disabled ?? accessibilityState?.disabled,
    expanded: expanded ?? accessibilityState?.expanded,
    selected: selected ?? accessibilityState?.selected,
  };
}

/** AcessibilityMapping.js's `getAccessibilityRoleFromRole`: the web `role`s iOS has a role for. */
const ROLE_TO_ACCESSIBILITY_ROLE = Object.freeze({
  alert: 'alert',
  button: 'button',
  checkbox: 'checkbox',
  combobox: 'combobox',
  grid: 'grid',
  heading: 'header',
  img: 'image',
  link: 'link',
  list: 'list',
  menu: 'menu',
  menubar: 'menubar',
  menuitem: 'menuitem',
  none: 'none',
  presentation: 'none',
  progressbar: 'progressbar',
  radio: 'radio',
  radiogroup: 'radiogroup',
  scrollbar: 'scrollbar',
  searchbox: 'search',
  slider: 'adjustable',
  spinbutton: 'spinbutton',
  summary: 'summary',
  switch: 'switch',
  tab: 'tab',
  tablist: 'tablist',
  timer: 'timer',
  toolbar: 'toolbar',
});

export function accessibilityRoleFromRole(role) {
  return Object.hasOwn(ROLE_TO_ACCESSIBILITY_ROLE, role) ? ROLE_TO_ACCESSIBILITY_ROLE[role] : undefined;
}

/** Text.js's `userSelectToSelectableMap`. */
const USER_SELECT_TO_SELECTABLE = Object.freeze({ auto: true, text: true, none: false, contain: true, all: true });

/** Text.js's `verticalAlignToTextAlignVerticalMap`. */
const VERTICAL_ALIGN_TO_TEXT_ALIGN_VERTICAL = Object.freeze({ auto: 'auto', top: 'top', bottom: 'bottom', middle: 'center' });
