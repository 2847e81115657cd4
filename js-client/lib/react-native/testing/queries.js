// React Native Testing Library's query grid, run on a snapshot of the daemon's native tree (what native received):
// getBy* (exactly one, else an error with the tree), getAllBy*, queryBy* (null), queryAllBy*, and findBy* /
// findAllBy* (await until present; checked after every settled change, `{ timeout }` 1,000 ms by default), each
// ByText, ByTestId, ByPlaceholderText, ByDisplayValue, ByLabelText (also as ByA11yLabel and ByAccessibilityLabel,
// names RNTL 12 no longer has, for files written against RNTL 7 to 9), ByHintText (RNTL 12's aliases ByA11yHint,
// ByAccessibilityHint), ByRole, and RNTL 12's deprecated
// ByA11yState and ByA11yValue (an object to match). As in RNTL 12, a query leaves out what is hidden from accessibility (a covered
// screen of a navigator, `display: 'none'`, …: isHiddenFromAccessibility below) unless `{ includeHiddenElements: true }`
// (or `hidden: true`) or the screen's default says otherwise, and ByRole matches accessibility elements only.

/**
 * The host components whose text is a Text's content (RCTText, and a Text inside a Text); and, under jest, a made-up
 * host named `Text` (a jest mock's `React.createElement('Text', props, name)`, which React Native's mocks take for their
 * text host: the daemon serves it as `Text`, or `MadeUp:Text` where it has a component of that name), which no phone has.
 */
export const TEXT_COMPONENTS = new Set(['RCTText', 'RCTVirtualText', 'Text', 'MadeUp:Text']);
/** The text fields (iOS's names). */
export const TEXT_INPUT_COMPONENTS = new Set(['RCTSinglelineTextInputView', 'RCTMultilineTextInputView']);
/**
 * Under jest, a made-up host named `TextInput` (React Native's own `jest/mockComponent` of TextInput, what its mocks
 * render for a text field), which no phone has: the queries by placeholder and display value find it as RNTL does,
 * its value read from its props (there is no native field behind it to type into).
 */
export const MADE_UP_TEXT_INPUTS = new Set(['TextInput', 'MadeUp:TextInput']);
const fieldText = (node) => (TEXT_INPUT_COMPONENTS.has(node.component) ? node.text ?? '' : MADE_UP_TEXT_INPUTS.has(node.component) ? String(node.props.value ?? node.props.defaultValue ?? '') : null);
/** The switches: with text and text fields, what is an accessibility element without an `accessible` prop (RNTL 12). */
const SWITCH_COMPONENTS = new Set(['RCTSwitch']);
/** Where a handle keeps the queries of its screen, for within(handle). */
export const kQueries = Symbol('bridged.queries');

const DEFAULT_FIND_TIMEOUT = 1000;

export function isRegExp(value) {
  return Object.prototype.toString.call(value) === '[object RegExp]';
}

/** Whitespace collapsed and trimmed, as RNTL's default normalizer does. */
export function normalize(text) {
  return String(text).replace(/\s+/g, ' ').trim();
}

/**
 * Whether `text` matches `matcher`: a string (exact, or with `{exact: false}` a case-insensitive substring), a RegExp
 * or a predicate, after `normalizer` (default: whitespace collapsed and trimmed, RNTL's).
 */
export function matches(text, matcher, { exact = true, normalizer = normalize } = {}) {
  if (text == null) return false;
  const value = normalizer(String(text));
  // A RegExp of another realm (a jest test file's) is one too.
  if (isRegExp(matcher)) {
    matcher.lastIndex = 0;
    return matcher.test(value);
  }
  if (typeof matcher === 'function') return Boolean(matcher(value));
  // Half an emoji in the test's text (a string cut with slice) is U+FFFD on the screen, as a phone draws it.
  let expected = normalizer(String(matcher));
  if (!expected.isWellFormed()) expected = expected.toWellFormed();
  return exact ? value === expected : value.toLowerCase().includes(expected.toLowerCase());
}

/**
 * Whether `name` is a node's accessible name as RNTL 12.4's ByRole asks (matchAccessibleNameIfNeeded: queryAllByText
 * and queryAllByLabelText within it): a Text in its subtree (itself included) whose text matches, or a view there
 * whose accessibility label (or the text it is labelled by) matches, with the default text match (exact, whitespace
 * collapsed). Those queries leave out what is hidden from accessibility, unless the configured default includes it
 * (`includeHidden`, not the ByRole query's own option): nothing when the node itself is (`hidden`: by an ancestor
 * or itself), else not the part of its subtree that is (an icon's glyph under `accessibilityElementsHidden`).
 */
function nameMatches(node, name, root, context, { includeHidden = false, hidden = false } = {}) {
  if (hidden && !includeHidden) return false;
  let found = false;
  visitHidden(
    node,
    (n, hides) => {
      if (hides && !includeHidden) return false;
      if (TEXT_COMPONENTS.has(n.component) && matches(n.text, name)) found = true;
      else if (matches(n.props.accessibilityLabel ?? n.props['aria-label'], name) || labelledBy(root, n, name, {}, context)) found = true;
      return found;
    },
    false,
    context,
  );
  return found;
}

/** Visits every node of the tree under `node`, parents first. */
function walk(node, visit) {
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop();
    visit(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
}

/**
 * Whether a node hides itself and its subtree from accessibility, as RNTL's isHiddenFromAccessibility reads a host
 * element: `display: 'none'`, `aria-hidden`, `accessibilityElementsHidden` (what React Navigation sets on the screens
 * a navigator covers) or `importantForAccessibility: 'no-hide-descendants'`.
 */
export function hidesItself(props) {
  return (
    props.display === 'none' ||
    props['aria-hidden'] === true ||
    props.accessibilityElementsHidden === true ||
    props.importantForAccessibility === 'no-hide-descendants'
  );
}

/** Whether a node is modal for accessibility: its siblings are hidden (`aria-modal`, `accessibilityViewIsModal`). */
export function isModal(props) {
  return props['aria-modal'] === true || props.accessibilityViewIsModal === true;
}

/**
 * Whether a node hides itself, read from its native props and, where `context.hostProps` gives them (the jest
 * preset), its host React props: `importantForAccessibility` is Android's, so iOS's view config leaves it out of what
 * reaches the native view, and RNTL reads it from the element's props on either platform.
 */
function nodeHides(node, context) {
  return hidesItself(node.props) || context?.hostProps?.(node.tag)?.importantForAccessibility === 'no-hide-descendants';
}

/**
 * Visits each node under `root`, parents first, with whether it is hidden from accessibility (`hides`: by itself or
 * an ancestor) and whether an ancestor hides it (`above`; `hidden`: `root` is, by an ancestor above it). Stops
 * when `visit` returns true.
 */
function visitHidden(root, visit, hidden = false, context = null) {
  const stack = [[root, hidden]];
  while (stack.length > 0) {
    const [n, above] = stack.pop();
    const hides = above || nodeHides(n, context);
    if (visit(n, hides, above) === true) return;
    const modal = n.children.find((c) => isModal(c.props));
    for (let i = n.children.length - 1; i >= 0; i--) {
      const child = n.children[i];
      stack.push([child, hides || (modal !== undefined && child !== modal)]);
    }
  }
}

/**
 * Calls `found(node, path)` for each node under `root` (parents first, in order) that `test` accepts, `path` being
 * its ancestors from `root` down (a new array each time; `root` itself is passed with none). Nothing else is
 * computed per node: whether a match is hidden is read along its path afterwards (`hiddenAlong`), for the few that
 * match, not for the whole tree.
 */
function visitMatches(root, test, found) {
  if (test(root)) found(root, []);
  const path = [root];
  const next = [0];
  while (path.length > 0) {
    const last = path.length - 1;
    const parent = path[last];
    const i = next[last];
    if (i >= parent.children.length) {
      path.pop();
      next.pop();
      continue;
    }
    next[last] = i + 1;
    const child = parent.children[i];
    if (test(child)) found(child, path.slice());
    if (child.children.length > 0) {
      path.push(child);
      next.push(0);
    }
  }
}

/**
 * Whether `node`, below `path` (its ancestors from the walk's root down), is hidden from accessibility, as
 * visitHidden decides it on the way down: `hidden` (the root is, by an ancestor above it), a node on the way that
 * hides itself, or a modal sibling of a node on the way.
 */
function hiddenAlong(path, node, hidden, context) {
  let hides = hidden;
  for (let k = 0; k < path.length && !hides; k++) {
    const n = path[k];
    if (nodeHides(n, context)) return true;
    const child = k + 1 < path.length ? path[k + 1] : node;
    const modal = n.children.find((c) => isModal(c.props));
    hides = modal !== undefined && child !== modal;
  }
  return hides || nodeHides(node, context);
}

/**
 * The node of `tag` under `root`, and whether an ancestor hides it from accessibility: {node, hidden}, or null.
 * `context`: as bindQueries' (`hostProps`).
 */
export function locate(root, tag, context = null) {
  let found = null;
  visitHidden(root, (node, hides, above) => {
    if (node.tag !== tag) return false;
    found = { node, hidden: above };
    return true;
  }, false, context);
  return found;
}

/**
 * Whether a node is an accessibility element, as RNTL 12's `*ByRole` asks: its `accessible` prop when it has one
 * (a `Pressable`, a `Touchable*`, a `Text` send it), else whether it is a text, a text field or a switch.
 */
function isAccessibilityElement(node) {
  if (typeof node.props.accessible === 'boolean') return node.props.accessible;
  return TEXT_COMPONENTS.has(node.component) || TEXT_INPUT_COMPONENTS.has(node.component) || SWITCH_COMPONENTS.has(node.component);
}

/** A node's role: `role`, else `accessibilityRole`, else `text` for a Text, a nested one too (RNTL's getRole: any host Text). */
function roleOf(node) {
  const explicit = node.props.role ?? node.props.accessibilityRole;
  if (typeof explicit === 'string' && explicit !== '') return explicit;
  return TEXT_COMPONENTS.has(node.component) ? 'text' : 'none';
}

/**
 * React Native's roles by their ARIA names: what a `role` prop becomes natively (AcessibilityMapping.js's
 * getAccessibilityRoleFromRole, e.g. `heading` → `header`), so that either name finds it, as RNTL's normalizeRole.
 */
const ARIA_ROLE = { header: 'heading', image: 'img', adjustable: 'slider', search: 'searchbox', none: 'presentation' };

/** Whether a node's role matches: its own name, or the ARIA name of it, or the matcher's ARIA name. */
function roleMatches(node, matcher) {
  const role = roleOf(node);
  if (matches(role, matcher) || matches(ARIA_ROLE[role], matcher)) return true;
  return typeof matcher === 'string' && ARIA_ROLE[matcher] !== undefined && ARIA_ROLE[matcher] === ARIA_ROLE[role];
}

/** The accessibility state RNTL's ByRole options test (`disabled`, `selected`, `checked`, `busy`, `expanded`). */
export const STATE_DEFAULTS = Object.freeze({ disabled: false, selected: false, checked: undefined, busy: false, expanded: undefined });

function stateOf(node, key) {
  const aria = node.props[`aria-${key}`];
  if (aria !== undefined && aria !== null) return aria;
  const state = node.props.accessibilityState;
  if (state && typeof state === 'object' && state[key] !== undefined && state[key] !== null) return state[key];
  if (key === 'checked' && SWITCH_COMPONENTS.has(node.component) && typeof node.props.value === 'boolean') return node.props.value;
  return STATE_DEFAULTS[key];
}

/** Whether a node's accessibilityValue has each of `expected`'s fields (`text` a TextMatch). */
function valueMatches(node, expected) {
  const value = node.props.accessibilityValue ?? {};
  for (const key of ['min', 'max', 'now']) {
    if (expected[key] !== undefined && (value[key] ?? node.props[`aria-value${key}`]) !== expected[key]) return false;
  }
  if (expected.text !== undefined && !matches(value.text ?? node.props['aria-valuetext'], expected.text)) return false;
  return true;
}

/**
 * RNTL 12.4's error messages, word for word, per kind: `missing` (getBy*: `Unable to find an element with …`) and
 * `multiple` (`Found multiple elements with …`), which differ for some kinds (`displayValue` / `display value `).
 */
const said = (missing, multiple = missing) => ({ missing, multiple });
const named = (name, spaced = false) => said((m) => `${name}: ${String(m)}`, (m) => `${name}: ${String(m)}${spaced ? ' ' : ''}`);
const stateWords = (state) =>
  Object.keys(STATE_DEFAULTS).filter((k) => state?.[k] !== undefined).map((k) => `${k} state: ${state[k]}`);
const valueWords = (value) =>
  ['min', 'max', 'now', 'text'].filter((k) => value?.[k] !== undefined).map((k) => `${k} value: ${value[k]}`);

/** What each query kind matches on a node, and how its failure reads. */
const HINT = {
  ...named('accessibilityHint', true),
  test: (node, matcher, options) => matches(node.props.accessibilityHint, matcher, options),
};
const LABEL = {
  ...named('accessibility label', true),
  test: (node, matcher, options, root, context) =>
    matches(node.props.accessibilityLabel ?? node.props['aria-label'], matcher, options) || labelledBy(root, node, matcher, options, context),
};

/**
 * Whether the view an element names by `aria-labelledby` / `accessibilityLabelledBy` (its `nativeID`) has a text
 * content matching `matcher` (RNTL's matchLabelText).
 */
function labelledBy(root, node, matcher, options, context) {
  const host = context?.hostProps?.(node.tag);
  let id = node.props['aria-labelledby'] ?? node.props.accessibilityLabelledBy ?? host?.['aria-labelledby'] ?? host?.accessibilityLabelledBy;
  if (Array.isArray(id)) id = id[0];
  if (typeof id !== 'string' || id === '' || !root) return false;
  let found = false;
  walk(root, (n) => {
    if (!found && n.props.nativeID === id && matches(textContent(n), matcher, options)) found = true;
  });
  return found;
}

/** A node's text content: its own text (a Text's, a field's), else its descendants' texts joined. */
function textContent(node) {
  if (node.text != null) return node.text;
  const texts = [];
  walk(node, (n) => {
    if (n !== node && n.component === 'RCTText' && n.text != null) texts.push(n.text);
  });
  return texts.join('');
}
const KINDS = {
  Text: {
    ...named('text'),
    test: (node, matcher, options) => TEXT_COMPONENTS.has(node.component) && matches(node.text, matcher, options),
  },
  TestId: {
    ...named('testID'),
    test: (node, matcher, options) => matches(node.props.testID, matcher, options),
  },
  PlaceholderText: {
    ...named('placeholder', true),
    test: (node, matcher, options) => (TEXT_INPUT_COMPONENTS.has(node.component) || MADE_UP_TEXT_INPUTS.has(node.component)) && matches(node.props.placeholder, matcher, options),
  },
  DisplayValue: {
    ...said((m) => `displayValue: ${String(m)}`, (m) => `display value: ${String(m)} `),
    test: (node, matcher, options) => {
      const text = fieldText(node);
      return text !== null && matches(text, matcher, options);
    },
  },
  LabelText: LABEL,
  HintText: HINT,
  A11yHint: HINT,
  AccessibilityHint: HINT,
  A11yLabel: LABEL,
  AccessibilityLabel: LABEL,
  // React Native Testing Library 12's deprecated state and value queries: the matcher is the object to match.
  A11yState: {
    ...said((m) => stateWords(m).join(', ')),
    test: (node, expected) => Object.keys(expected ?? {}).every((key) => stateOf(node, key) === expected[key]),
  },
  A11yValue: {
    ...said((m) => valueWords(m).join(', ')),
    test: (node, expected) => valueMatches(node, expected ?? {}),
  },
  AccessibilityState: null,
  AccessibilityValue: null,
  Role: {
    ...said((role, options) =>
      [`role: "${String(role)}"`, ...(options?.name ? [`name: "${String(options.name)}"`] : []), ...stateWords(options), ...valueWords(options?.value)].join(', '),
    ),
    test: (node, matcher, options, root, context) => {
      // Its name (options.name) is asked of the matches afterwards, where whether each is hidden is known.
      if (!isAccessibilityElement(node) || !roleMatches(node, matcher)) return false;
      for (const key of Object.keys(STATE_DEFAULTS)) {
        if (options?.[key] !== undefined && stateOf(node, key) !== options[key]) return false;
      }
      if (options?.value !== undefined && !valueMatches(node, options.value)) return false;
      return true;
    },
  },
};

KINDS.AccessibilityState = KINDS.A11yState;
KINDS.AccessibilityValue = KINDS.A11yValue;
/** The kinds whose matches are the deepest only: a Text whose nested Text matches is not one (RNTL's ByText). */
const DEEPEST_ONLY = new Set(['Text']);

/** The tree as text, for an error: one line per view, indented, with its text and testID. */
export function printTree(root, { maxLines = 200 } = {}) {
  const lines = [];
  const visit = (node, depth) => {
    if (lines.length >= maxLines) return;
    const details = [];
    if (node.props.testID) details.push(`testID="${node.props.testID}"`);
    if (node.props.accessibilityLabel) details.push(`accessibilityLabel="${node.props.accessibilityLabel}"`);
    if (node.props.placeholder) details.push(`placeholder="${node.props.placeholder}"`);
    if (node.text != null && node.component !== 'RCTRawText') details.push(JSON.stringify(node.text));
    lines.push(`${'  '.repeat(depth)}<${node.component} tag=${node.tag}${details.length ? ' ' + details.join(' ') : ''}>`);
    for (const child of node.children) visit(child, depth + 1);
  };
  if (root) visit(root, 0);
  if (lines.length >= maxLines) lines.push('  …');
  return lines.join('\n');
}

function describe(kind, matcher, options, which = 'missing') {
  return KINDS[kind][which](matcher, options);
}

function error(message, root) {
  const e = new Error(`${message}\n\n${printTree(root)}`);
  e.name = 'QueryError';
  return e;
}

/**
 * The query functions over a tree read by `snapshot()` ({tag, component, props, text, children, handle} nodes),
 * for the `Screen` of an app (`nextChange` waits for the next settled change, for findBy*). `hidden()`: whether
 * an ancestor above the snapshot's root hides it (within(handle)); `includeHiddenElements()`: the default of the
 * option of that name.
 */
export function bindQueries(
  snapshot,
  { nextChange, hidden = () => false, includeHiddenElements = () => false, excludeRoot = false, hostProps = null } = {},
) {
  // What a query may read besides the native props: a view's host React props (the jest preset's), by tag.
  const context = { hostProps };
  // With `excludeRoot`, the snapshot's root is a container above what is queried (a rendered element's views).
  const shown = () => {
    const root = snapshot();
    return excludeRoot && root ? { ...root, component: '', children: root.children } : root;
  };
  const queries = {};
  for (const kind of Object.keys(KINDS)) {
    const all = (matcher, options) => {
      const root = snapshot();
      const found = [];
      if (!root) return found;
      const includeHidden = options?.includeHiddenElements ?? options?.hidden ?? includeHiddenElements();
      // One pass: each node tested (hidden ones too, for the deepest-only rule); whether a match is hidden is read
      // along its ancestors afterwards, and only where it decides something.
      const matched = new Map();
      const test = KINDS[kind].test;
      const paths = new Map();
      visitMatches(
        root,
        (node) => !(excludeRoot && node === root) && test(node, matcher, options, root, context),
        (node, path) => paths.set(node, path),
      );
      if (paths.size > 0) {
        const above = hidden();
        const named = kind === 'Role' && options?.name !== undefined;
        for (const [node, path] of paths) {
          if (includeHidden && !named) {
            matched.set(node, false);
            continue;
          }
          const hides = hiddenAlong(path, node, above, context);
          if (named && !nameMatches(node, options.name, root, context, { includeHidden: includeHiddenElements(), hidden: hides })) continue;
          matched.set(node, includeHidden ? false : hides);
        }
      }
      // A match with a matching descendant is left out (RNTL's matchDeepestOnly), hidden descendants included.
      if (DEEPEST_ONLY.has(kind) && matched.size > 1) {
        for (const node of [...matched.keys()]) {
          let inner = false;
          walk(node, (n) => {
            if (n !== node && matched.has(n)) inner = true;
          });
          if (inner) matched.delete(node);
        }
      }
      for (const [node, hides] of matched) if (includeHidden || !hides) found.push(node.handle);
      return found;
    };
    queries[`queryAllBy${kind}`] = all;
    queries[`queryBy${kind}`] = (matcher, options) => {
      const found = all(matcher, options);
      if (found.length > 1) throw error(`Found multiple elements with ${describe(kind, matcher, options, 'multiple')}`, shown());
      return found[0] ?? null;
    };
    queries[`getAllBy${kind}`] = (matcher, options) => {
      const found = all(matcher, options);
      if (found.length === 0) throw error(`Unable to find an element with ${describe(kind, matcher, options)}`, shown());
      return found;
    };
    queries[`getBy${kind}`] = (matcher, options) => {
      const found = queries[`getAllBy${kind}`](matcher, options);
      if (found.length > 1) throw error(`Found multiple elements with ${describe(kind, matcher, options, 'multiple')}`, shown());
      return found[0];
    };
    const find = (get) => async (matcher, options = {}, waitOptions = {}) => {
      const timeout = waitOptions.timeout ?? options.timeout ?? DEFAULT_FIND_TIMEOUT;
      const deadline = Date.now() + timeout;
      for (;;) {
        try {
          return get(matcher, options);
        } catch (e) {
          if (Date.now() >= deadline) throw e;
        }
        await nextChange(Math.max(0, deadline - Date.now()));
      }
    };
    queries[`findBy${kind}`] = find(queries[`getBy${kind}`]);
    queries[`findAllBy${kind}`] = find(queries[`getAllBy${kind}`]);
  }
  return queries;
}

/** The names of the query grid bindQueries makes, in its order (`getByText`, `queryAllByTestId`, `findByRole`…). */
export const QUERY_NAMES = Object.freeze(Object.keys(bindQueries(() => null)));

/**
 * React Native Testing Library's `within(handle)`: the queries of the handle's screen, over the handle's subtree as
 * it is at each query (a handle from an earlier snapshot names its view by tag).
 */
export function within(handle) {
  const of = handle?.[kQueries];
  if (of === undefined) throw new TypeError('within: not a handle a query of a screen answered');
  return of(handle.tag);
}
