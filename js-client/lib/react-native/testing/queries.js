// React Native Testing Library's query grid, run on a snapshot of the daemon's native tree (what native received):
// getBy* (exactly one, else an error with the tree), getAllBy*, queryBy* (null), queryAllBy*, and findBy* /
// findAllBy* (await until present; checked after every settled change, `{ timeout }` 1,000 ms by default), each
// ByText, ByTestId, ByPlaceholderText, ByDisplayValue, ByLabelText and ByRole.

/** The host components whose text is a Text's content (RCTText, and a Text inside a Text). */
export const TEXT_COMPONENTS = new Set(['RCTText', 'RCTVirtualText']);
/** The text fields (iOS's names). */
export const TEXT_INPUT_COMPONENTS = new Set(['RCTSinglelineTextInputView', 'RCTMultilineTextInputView']);

const DEFAULT_FIND_TIMEOUT = 1000;

/** Whitespace collapsed and trimmed, as RNTL's default normalizer does. */
export function normalize(text) {
  return String(text).replace(/\s+/g, ' ').trim();
}

/** Whether `text` matches `matcher`: a string (exact, or with `{exact: false}` a case-insensitive substring) or a RegExp. */
export function matches(text, matcher, { exact = true } = {}) {
  if (text == null) return false;
  const value = normalize(text);
  if (matcher instanceof RegExp) {
    matcher.lastIndex = 0;
    return matcher.test(value);
  }
  if (typeof matcher === 'function') return Boolean(matcher(value));
  const expected = normalize(matcher);
  return exact ? value === expected : value.toLowerCase().includes(expected.toLowerCase());
}

/** The accessible name of a node: its label, else its text, else the text of its subtree. */
function accessibleName(node) {
  if (typeof node.props.accessibilityLabel === 'string') return node.props.accessibilityLabel;
  if (node.text != null) return node.text;
  const texts = [];
  walk(node, (n) => {
    if (TEXT_COMPONENTS.has(n.component) && n.text != null && n.component === 'RCTText') texts.push(n.text);
  });
  return texts.length > 0 ? texts.join(' ') : null;
}

function walk(node, visit) {
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop();
    visit(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
}

/** What each query kind matches on a node, and how its failure reads. */
const KINDS = {
  Text: {
    what: 'text',
    test: (node, matcher, options) => TEXT_COMPONENTS.has(node.component) && matches(node.text, matcher, options),
  },
  TestId: {
    what: 'testID',
    test: (node, matcher, options) => matches(node.props.testID, matcher, options),
  },
  PlaceholderText: {
    what: 'placeholder',
    test: (node, matcher, options) => TEXT_INPUT_COMPONENTS.has(node.component) && matches(node.props.placeholder, matcher, options),
  },
  DisplayValue: {
    what: 'display value',
    test: (node, matcher, options) => TEXT_INPUT_COMPONENTS.has(node.component) && matches(node.text ?? '', matcher, options),
  },
  LabelText: {
    what: 'accessibility label',
    test: (node, matcher, options) => matches(node.props.accessibilityLabel ?? node.props['aria-label'], matcher, options),
  },
  Role: {
    what: 'role',
    test: (node, matcher, options) => {
      const role = node.props.role ?? node.props.accessibilityRole;
      if (!matches(role, matcher)) return false;
      if (options?.name !== undefined && !matches(accessibleName(node), options.name, options)) return false;
      return true;
    },
  },
};

/** A handle without its children: what a query answers. */
function handleOf(node) {
  return node.handle;
}

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

function describe(kind, matcher, options) {
  const shown = matcher instanceof RegExp ? String(matcher) : JSON.stringify(matcher);
  return `${KINDS[kind].what} ${shown}${options?.name !== undefined ? ` and name ${options.name instanceof RegExp ? options.name : JSON.stringify(options.name)}` : ''}`;
}

function error(message, root) {
  const e = new Error(`${message}\n\n${printTree(root)}`);
  e.name = 'QueryError';
  return e;
}

/**
 * The query functions over a tree read by `snapshot()` ({tag, component, props, text, children, handle} nodes),
 * for the `Screen` of an app (`settle` waits for the next settled change, for findBy*).
 */
export function bindQueries(snapshot, { nextChange } = {}) {
  const queries = {};
  for (const kind of Object.keys(KINDS)) {
    const all = (matcher, options) => {
      const root = snapshot();
      const found = [];
      if (root) walk(root, (node) => KINDS[kind].test(node, matcher, options) && found.push(handleOf(node)));
      return found;
    };
    queries[`queryAllBy${kind}`] = all;
    queries[`queryBy${kind}`] = (matcher, options) => {
      const found = all(matcher, options);
      if (found.length > 1) throw error(`Found multiple elements with ${describe(kind, matcher, options)}`, snapshot());
      return found[0] ?? null;
    };
    queries[`getAllBy${kind}`] = (matcher, options) => {
      const found = all(matcher, options);
      if (found.length === 0) throw error(`Unable to find an element with ${describe(kind, matcher, options)}`, snapshot());
      return found;
    };
    queries[`getBy${kind}`] = (matcher, options) => {
      const found = queries[`getAllBy${kind}`](matcher, options);
      if (found.length > 1) throw error(`Found multiple elements with ${describe(kind, matcher, options)}`, snapshot());
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
