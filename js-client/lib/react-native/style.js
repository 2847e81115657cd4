// The style helpers React Native's renderer imports from `ReactNativePrivateInterface`, as React Native defines
// them: `flattenStyle`, `deepDiffer`, `deepFreezeAndThrowOnMutationInDev`.

/** A style (an object, an array of styles, nested, with falsy entries) flattened into one object. */
export function flattenStyle(style) {
  if (style === null || typeof style !== 'object') return undefined;
  if (!Array.isArray(style)) return style;
  const result = {};
  for (const entry of style) {
    const flat = flattenStyle(entry);
    if (flat) Object.assign(result, flat);
  }
  return result;
}

/**
 * Whether two values differ, compared deeply (React Native's `deepDiffer`): functions are equal unless
 * `unsafelyIgnoreFunctions` is false; `maxDepth` (default -1, no limit) bounds the comparison.
 */
export function deepDiffer(one, two, maxDepthOrOptions = -1, maybeOptions) {
  const options = typeof maxDepthOrOptions === 'number' ? maybeOptions : maxDepthOrOptions;
  const maxDepth = typeof maxDepthOrOptions === 'number' ? maxDepthOrOptions : -1;
  if (maxDepth === 0) return true;
  if (one === two) return false;
  if (typeof one === 'function' && typeof two === 'function') {
    return options?.unsafelyIgnoreFunctions === false;
  }
  if (typeof one !== 'object' || one === null || typeof two !== 'object' || two === null) return true;
  if (one.constructor !== two.constructor) return true;
  if (Array.isArray(one)) {
    if (one.length !== two.length) return true;
    for (let i = 0; i < one.length; i++) if (deepDiffer(one[i], two[i], maxDepth - 1, options)) return true;
    return false;
  }
  for (const key in one) if (deepDiffer(one[key], two[key], maxDepth - 1, options)) return true;
  for (const key in two) if (one[key] === undefined && two[key] !== undefined) return true;
  return false;
}

/**
 * Freezes a props value deeply, as React Native's `deepFreezeAndThrowOnMutationInDev` does in development, so
 * that a component that mutates a prop it passed fails at once instead of drifting from what native holds: each
 * own key becomes a getter and a setter that throws, and the object is frozen and sealed **before** its values
 * are visited, so a cycle (`style.self = style`) ends at the frozen object instead of overflowing the stack.
 */
export function deepFreezeAndThrowOnMutationInDev(object) {
  if (typeof object !== 'object' || object === null || Object.isFrozen(object) || Object.isSealed(object)) return object;
  // Only plain objects and arrays: class instances (an Animated value, a Map) are left alone.
  const proto = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return object;
  const keys = Object.keys(object);
  for (const key of keys) {
    const value = object[key];
    Object.defineProperty(object, key, { get: () => value });
    Object.defineProperty(object, key, { set: (next) => throwOnImmutableMutation(key, next, object) });
  }
  Object.freeze(object);
  Object.seal(object);
  for (const key of keys) deepFreezeAndThrowOnMutationInDev(object[key]);
  return object;
}

function throwOnImmutableMutation(key, value, object) {
  throw new Error(
    `You attempted to set the key \`${key}\` with the value \`${safeStringify(value)}\` on an object that is meant to be immutable and has been frozen.`,
    { cause: object },
  );
}

function safeStringify(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
