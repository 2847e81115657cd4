// React Native view configs made from the daemon's `hello`: what React Native's renderer needs to know of a
// native component to send it props (`validAttributes`) and to dispatch its events (`bubblingEventTypes`,
// `directEventTypes`), shaped as React Native's own (`getNativeComponentAttributes`, `BaseViewConfig.ios.js`).

import { handlerNames } from '../events.js';
import { deepDiffer } from './style.js';
import { processColor } from './process-color.js';
import { propTypeOf } from '../prop-types.js';

/** The component every React Native component is: its props are every other component's too. */
export const VIEW = 'RCTView';

/**
 * The names of `ReactNativeStyleAttributes` (React Native 0.72): the props a `style` holds, which the renderer
 * flattens into top-level props.
 */
export const STYLE_ATTRIBUTES = new Set(
  (
    'alignContent alignItems alignSelf aspectRatio borderBottomWidth borderEndWidth borderLeftWidth borderRightWidth ' +
    'borderStartWidth borderTopWidth columnGap borderWidth bottom direction display end flex flexBasis flexDirection ' +
    'flexGrow flexShrink flexWrap gap height justifyContent left margin marginBlock marginBlockEnd marginBlockStart ' +
    'marginBottom marginEnd marginHorizontal marginInline marginInlineEnd marginInlineStart marginLeft marginRight ' +
    'marginStart marginTop marginVertical maxHeight maxWidth minHeight minWidth overflow padding paddingBlock ' +
    'paddingBlockEnd paddingBlockStart paddingBottom paddingEnd paddingHorizontal paddingInline paddingInlineEnd ' +
    'paddingInlineStart paddingLeft paddingRight paddingStart paddingTop paddingVertical position right rowGap start ' +
    'top width zIndex elevation shadowColor shadowOffset shadowOpacity shadowRadius transform backfaceVisibility ' +
    'backgroundColor borderBlockColor borderBlockEndColor borderBlockStartColor borderBottomColor ' +
    'borderBottomEndRadius borderBottomLeftRadius borderBottomRightRadius borderBottomStartRadius borderColor ' +
    'borderCurve borderEndColor borderEndEndRadius borderEndStartRadius borderLeftColor borderRadius ' +
    'borderRightColor borderStartColor borderStartEndRadius borderStartStartRadius borderStyle borderTopColor ' +
    'borderTopEndRadius borderTopLeftRadius borderTopRightRadius borderTopStartRadius opacity pointerEvents color ' +
    'fontFamily fontSize fontStyle fontVariant fontWeight includeFontPadding letterSpacing lineHeight textAlign ' +
    'textAlignVertical textDecorationColor textDecorationLine textDecorationStyle textShadowColor textShadowOffset ' +
    'textShadowRadius textTransform userSelect verticalAlign writingDirection overlayColor resizeMode tintColor objectFit'
  ).split(' '),
);

/**
 * The style attributes a `View` does not take as top-level props: those missing from React Native 0.72's
 * `BaseViewConfig.ios.js` (its `validAttributesForNonEventProps`), which lists every other one both top-level
 * (`<View opacity={0.5}>` sends `opacity`) and in `style`.
 */
const VIEW_STYLE_ONLY_ATTRIBUTES = new Set(
  (
    'elevation borderBlockColor borderBlockEndColor borderBlockStartColor color fontFamily fontSize fontStyle ' +
    'fontVariant fontWeight includeFontPadding letterSpacing lineHeight textAlign textAlignVertical ' +
    'textDecorationColor textDecorationLine textDecorationStyle textShadowColor textShadowOffset textShadowRadius ' +
    'textTransform userSelect verticalAlign writingDirection overlayColor resizeMode tintColor objectFit'
  ).split(' '),
);

// A color may be an object (iOS's PlatformColor and DynamicColorIOS, made anew at each render): compared deeply.
const colorAttribute = Object.freeze({ diff: deepDiffer, process: processColor });
const objectAttribute = Object.freeze({ diff: deepDiffer });

/** `processFontVariant`: `'small-caps oldstyle-nums'` → `['small-caps', 'oldstyle-nums']`. */
function processFontVariant(value) {
  return typeof value === 'string' ? value.split(' ').filter(Boolean) : value;
}

/** `processAspectRatio`: `'16/9'` or `'1.5'` → a number. */
function processAspectRatio(value) {
  if (typeof value !== 'string') return value;
  const parts = value.split('/').map((part) => Number(part.trim()));
  if (parts.length === 1 && Number.isFinite(parts[0])) return parts[0];
  if (parts.length === 2 && parts.every(Number.isFinite) && parts[1] !== 0) return parts[0] / parts[1];
  return value;
}

/** Whether a type is processed by `processColor`: its native type is UIColor (getProcessorForType's rule). */
const isColor = (description, propTypes) => propTypeOf(propTypes, description, 'view config').nativeType === 'UIColor';

/**
 * For a type that holds colors below it (an array of colors, an object with a color field…), a function that
 * processes each of them as React Native's `processColor`/`processColorArray` do; null for any other type.
 */
function colorProcessor(description, propTypes) {
  if (description.elements) {
    const element = colorProcessor(description.elements, propTypes);
    return element && ((value) => (Array.isArray(value) ? value.map(element) : value));
  }
  if (description.fields) {
    const fields = Object.entries(description.fields)
      .map(([field, type]) => [field, colorProcessor(type, propTypes)])
      .filter(([, process]) => process);
    if (fields.length === 0) return null;
    return (value) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const copy = { ...value };
      for (const [field, process] of fields) if (field in copy) copy[field] = process(copy[field]);
      return copy;
    };
  }
  return isColor(description, propTypes) ? processColor : null;
}

/**
 * How the renderer sends one prop of a type `hello` describes: colors processed, the types hello's `propTypes`
 * says are deep-diffed compared by their contents.
 */
function attributeFor(name, description, propTypes) {
  if (name === 'fontVariant') return { process: processFontVariant };
  if (name === 'aspectRatio') return { process: processAspectRatio };
  if (isColor(description, propTypes)) return colorAttribute;
  const process = colorProcessor(description, propTypes);
  if (process) return { diff: deepDiffer, process };
  return propTypeOf(propTypes, description, 'view config').deepDiffs ? objectAttribute : true;
}

/**
 * The event handler props the daemon's events give, by prop name: `onCountChange` → {event: 'countChange',
 * phase: 'bubble'}, `onCountChangeCapture` → capture; a direct event's `onFoo` → {event, phase: 'bubble',
 * direct: true}. Built once per attachment from every component's events.
 */
export function handlerProps(components) {
  const handlers = new Map();
  for (const description of Object.values(components)) {
    for (const [event, spec] of Object.entries(description.events ?? {})) {
      const names = handlerNames(event, spec);
      if (names.direct === undefined) {
        handlers.set(names.bubbled, { event, phase: 'bubble', direct: false });
        handlers.set(names.captured, { event, phase: 'capture', direct: false });
      } else {
        handlers.set(names.direct, { event, phase: 'bubble', direct: true });
      }
    }
  }
  return handlers;
}

export function capitalize(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The top-level type React Native names an event by: `countChange` → `topCountChange`. */
export function topLevelType(event) {
  return `top${capitalize(event)}`;
}

/**
 * The view config of `name`, as React Native's `ReactNativeViewConfigRegistry` holds it: its props and View's,
 * with `style` as a nested map of React Native's style attributes (the renderer flattens a `style` into
 * top-level props through it); the handler props of its events and of every bubbling event (any view may
 * listen for its descendants' bubbling events, as in React Native), and its events' types.
 * Throws when the daemon serves no such component.
 */
export function viewConfigFor(name, components, propTypes) {
  const description = components[name];
  if (!description) {
    const known = Object.keys(components).join(', ');
    throw new Error(`requireNativeComponent: '${name}' was not found in the UIManager (the daemon serves ${known})`);
  }
  const view = components[VIEW] ?? { props: {} };
  const validAttributes = {};
  const style = {};
  const own = description.props ?? {};
  for (const [prop, type] of Object.entries(view.props ?? {})) {
    if (Object.hasOwn(own, prop)) continue;
    if (STYLE_ATTRIBUTES.has(prop)) style[prop] = attributeFor(prop, type, propTypes);
    else validAttributes[prop] = attributeFor(prop, type, propTypes);
  }
  for (const [prop, type] of Object.entries(own)) {
    // A style attribute a `style` can set; a component's own prop of that name is a top-level prop as well.
    if (STYLE_ATTRIBUTES.has(prop)) style[prop] = attributeFor(prop, type, propTypes);
    if (!STYLE_ATTRIBUTES.has(prop) || name !== VIEW || !VIEW_STYLE_ONLY_ATTRIBUTES.has(prop)) validAttributes[prop] = attributeFor(prop, type, propTypes);
  }
  const bubblingEventTypes = {};
  const directEventTypes = {};
  for (const component of Object.values(components)) {
    for (const [event, spec] of Object.entries(component.events ?? {})) {
      if (!spec.bubbles) continue;
      const { bubbled, captured } = handlerNames(event, spec);
      bubblingEventTypes[topLevelType(event)] = { phasedRegistrationNames: { bubbled, captured } };
      validAttributes[bubbled] = true;
      validAttributes[captured] = true;
    }
  }
  for (const [event, spec] of Object.entries(description.events ?? {})) {
    if (spec.bubbles) continue;
    const registrationName = handlerNames(event, spec).direct;
    directEventTypes[topLevelType(event)] = { registrationName };
    validAttributes[registrationName] = true;
  }
  validAttributes.style = { ...style };
  // Copied into a new object: built a key at a time, an object of a hundred keys or more is a dictionary in V8,
  // and the renderer walks every key of it (`for…in`) in each createInstance in development (ReactNativeRenderer-
  // dev.js freezes the props it names): 4.5 µs a walk for View's 139, allocating their names each time; a copy made
  // by spreading has fast properties and a cached key list (0.1 µs).
  return { uiViewClassName: name, validAttributes: { ...validAttributes }, bubblingEventTypes, directEventTypes };
}

/**
 * React Native's `ReactNativeViewConfigRegistry`, one per attachment: view configs registered by name and
 * made on first use, their event types gathered into `customBubblingEventTypes`/`customDirectEventTypes`,
 * which the renderer's event plugin reads.
 */
export class ViewConfigRegistry {
  customBubblingEventTypes = {};
  customDirectEventTypes = {};
  #callbacks = new Map();
  #configs = new Map();

  // Arrow functions: the renderer takes `get` off the registry and calls it alone.
  register = (name, callback) => {
    if (this.#callbacks.has(name)) return name;
    this.#callbacks.set(name, callback);
    return name;
  };

  get = (name) => {
    let config = this.#configs.get(name);
    if (config) return config;
    const callback = this.#callbacks.get(name);
    if (typeof callback !== 'function') {
      throw new Error(
        `View config getter callback for component \`${name}\` must be a function (received \`${callback === null ? 'null' : typeof callback}\`).` +
          (typeof name === 'string' && /^[a-z]/.test(name) ? ' Make sure to start component names with a capital letter.' : ''),
      );
    }
    config = callback();
    for (const [type, value] of Object.entries(config.bubblingEventTypes ?? {})) {
      if (this.customBubblingEventTypes[type] == null) this.customBubblingEventTypes[type] = value;
    }
    for (const [type, value] of Object.entries(config.directEventTypes ?? {})) {
      if (this.customDirectEventTypes[type] == null) this.customDirectEventTypes[type] = value;
    }
    this.#configs.set(name, config);
    return config;
  };
}
