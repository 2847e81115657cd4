// The element tree as React Native Testing Library prints it, in its errors and debug(): pretty-format's
// ReactTestComponent printer over the elements' JSON, with only the props that help diagnose a failure (RNTL's
// defaultMapProps). pretty-format is the app's (RNTL and jest depend on it), else jest's own; without either, null.
import { createRequire } from 'node:module';
import path from 'node:path';

/** What RNTL's defaultMapProps keeps of a host element's props, besides style, accessibilityState and -Value. */
const PROPS_SHOWN = [
  'accessible',
  'accessibilityElementsHidden',
  'accessibilityHint',
  'accessibilityLabel',
  'accessibilityLabelledBy',
  'accessibilityRole',
  'accessibilityViewIsModal',
  'aria-busy',
  'aria-checked',
  'aria-disabled',
  'aria-expanded',
  'aria-hidden',
  'aria-label',
  'aria-labelledby',
  'aria-modal',
  'aria-selected',
  'aria-valuemax',
  'aria-valuemin',
  'aria-valuenow',
  'aria-valuetext',
  'defaultValue',
  'importantForAccessibility',
  'nativeID',
  'placeholder',
  'role',
  'testID',
  'title',
  'value',
];

/** The marker react-test-renderer's toJSON objects carry (not enumerable), which pretty-format prints as JSX. */
export const TEST_JSON = Symbol.for('react.test.json');

/** A style prop flattened (arrays nested, falsy entries skipped), as StyleSheet.flatten. */
function flatten(style) {
  if (!style) return undefined;
  if (!Array.isArray(style)) return typeof style === 'object' ? style : undefined;
  const result = {};
  for (const entry of style) Object.assign(result, flatten(entry) ?? {});
  return result;
}

function withoutUndefined(object) {
  if (!object || typeof object !== 'object') return undefined;
  const result = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) result[key] = value;
  return Object.keys(result).length > 0 ? result : undefined;
}

/** RNTL's defaultMapProps. */
function helpfulProps(props) {
  const result = {};
  const style = flatten(props.style);
  if (style) {
    const shown = {};
    if (style.display === 'none') shown.display = 'none';
    if (style.opacity === 0) shown.opacity = 0;
    if (Object.keys(shown).length > 0) result.style = shown;
  }
  const state = withoutUndefined(props.accessibilityState);
  if (state) result.accessibilityState = state;
  const value = withoutUndefined(props.accessibilityValue);
  if (value) result.accessibilityValue = value;
  for (const name of PROPS_SHOWN) if (name in props) result[name] = props[name];
  return result;
}

/** pretty-format, jest's (where this process resolves it), else the app's. */
export function loadPrettyFormat(root) {
  for (const from of [import.meta.url, path.join(root, 'package.json')]) {
    try {
      return createRequire(from)('pretty-format');
    } catch {}
  }
  return null;
}

/** The JSON (one element's, or a list) as RNTL prints it; `mapProps` RNTL's default unless false. */
export function formatTree(prettyFormat, json, { mapProps = helpfulProps } = {}) {
  const { format = prettyFormat.default ?? prettyFormat, plugins } = prettyFormat;
  const printer = typeof format === 'function' ? format : prettyFormat.format;
  const plugin = {
    test: (value) => plugins.ReactTestComponent.test(value),
    serialize: (value, config, indentation, depth, refs, print) =>
      plugins.ReactTestComponent.serialize(mapProps && value.props ? { ...value, props: mapProps(value.props) } : value, config, indentation, depth, refs, print),
  };
  try {
    return printer(json, { plugins: [plugin, plugins.ReactElement], printBasicPrototype: false });
  } catch {
    // pretty-format before 27 (React Native's own dependency) prints no basic prototypes and knows no such option.
    return printer(json, { plugins: [plugin, plugins.ReactElement] });
  }
}
