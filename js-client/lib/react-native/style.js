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
 * Freezes a props value deeply, as React Native does in development so that a component that mutates a prop
 * it passed fails at once instead of drifting from what native holds.
 */
export function deepFreezeAndThrowOnMutationInDev(object) {
  if (typeof object !== 'object' || object === null || Object.isFrozen(object) || Object.isSealed(object)) return object;
  // Only plain objects and arrays: class instances (Animated values…) are left alone, as React Native does.
  const proto = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return object;
  for (const key of Object.keys(object)) deepFreezeAndThrowOnMutationInDev(object[key]);
  Object.freeze(object);
  return object;
}
