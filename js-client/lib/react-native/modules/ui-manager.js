// UIManager (paper), as the app's own react-native package reaches it (NativeUIManager → PaperUIManager): the
// calls of paper.js over the daemon (one batch per commit, RCTUIManager's setChildren/manageChildren rules),
// with the constants RCTUIManager gives at load: a view manager config per component the daemon serves (its
// NativeProps typed for getNativeComponentAttributes, its events and commands, from `hello`), and the generic
// event types every view has.

import { createPaperUIManager } from '../paper.js';
import { measurements } from '../no-layout.js';
import { topLevelType, VIEW } from '../view-configs.js';
import { propTypeOf } from '../../prop-types.js';

export const name = 'UIManager';

/**
 * The events every iOS view can send (RCTComponentData's generic event types, React Native 0.72's
 * BaseViewConfig.ios.js): bubbling ones with their phased registration names, direct ones with theirs.
 */
export const GENERIC_BUBBLING = ['topPress', 'topChange', 'topFocus', 'topBlur', 'topSubmitEditing', 'topEndEditing', 'topKeyPress', 'topTouchStart', 'topTouchMove', 'topTouchCancel', 'topTouchEnd'];
export const GENERIC_DIRECT = ['topAccessibilityAction', 'topAccessibilityTap', 'topMagicTap', 'topAccessibilityEscape', 'topLayout'];

const registration = (top) => `on${top.slice(3)}`;

function genericEventTypes() {
  const bubbling = {};
  for (const top of GENERIC_BUBBLING) bubbling[top] = { phasedRegistrationNames: { bubbled: registration(top), captured: `${registration(top)}Capture` } };
  const direct = {};
  for (const top of GENERIC_DIRECT) direct[top] = { registrationName: registration(top) };
  return { bubbling, direct };
}

/**
 * The native type name getNativeComponentAttributes reads to choose a prop's differ and processor: its type's
 * `nativeType` in hello's `propTypes`; an array's element type's `nativeArrayType` where it has one (UIColorArray).
 */
function nativeType(description, propTypes) {
  const own = propTypeOf(propTypes, description, 'UIManager');
  if (!description.elements) return own.nativeType;
  return propTypeOf(propTypes, description.elements, 'UIManager').nativeArrayType ?? own.nativeType;
}

/** A view manager config as RCTUIManager's constants hold it, for one component `hello` describes. */
export function viewManagerConfig(name, description, propTypes) {
  const NativeProps = {};
  for (const [prop, type] of Object.entries(description.props ?? {})) NativeProps[prop] = nativeType(type, propTypes);
  const bubblingEventTypes = {};
  const directEventTypes = {};
  for (const [event, spec] of Object.entries(description.events ?? {})) {
    const top = topLevelType(event);
    // Every iOS view bubbles the generic events (RCTViewManager's customBubblingEventTypes, which each view config
    // gets): one a spec declares direct (rnmapbox's MapView `onPress: DirectEventHandler`, a spec written for the new
    // architecture) bubbles, as the library's old-architecture code declares it (RCTBubblingEventBlock), where the
    // renderer refuses an event that is both ("Event cannot be both direct and bubbling: topPress").
    if (!spec.bubbles && name !== VIEW && GENERIC_BUBBLING.includes(top)) {
      const bubbled = spec.registrationName;
      NativeProps[bubbled] = 'RCTBubblingEventBlock';
      bubblingEventTypes[top] = { phasedRegistrationNames: { bubbled, captured: `${bubbled}Capture` } };
      continue;
    }
    // RCTComponentData lists an event's prop among the view's props, so that the renderer sends the handler.
    if (spec.bubbles) NativeProps[spec.registrationNames.bubbled] = 'RCTBubblingEventBlock';
    else NativeProps[spec.registrationName] = 'RCTDirectEventBlock';
    if (spec.bubbles) bubblingEventTypes[top] = { phasedRegistrationNames: { ...spec.registrationNames } };
    else directEventTypes[top] = { registrationName: spec.registrationName };
  }
  const Commands = {};
  Object.keys(description.commands ?? {}).forEach((command, index) => (Commands[command] = index));
  return {
    NativeProps,
    baseModuleName: name === VIEW ? null : VIEW,
    bubblingEventTypes,
    directEventTypes,
    Commands,
    Constants: {},
    Manager: `${name.replace(/^RCT/, '')}Manager`,
  };
}

export function create(app) {
  const native = app.native;
  const paper = createPaperUIManager(native, { Error: app.global.Error ?? Error });
  // The components grow while the app runs (a component served untyped when first asked for): read them live.
  let constants = null;
  const configs = new Map();
  const configOf = (name) => {
    const components = native.components;
    if (!configs.has(name) || (configs.get(name) === null && Object.hasOwn(components, name))) {
      configs.set(name, Object.hasOwn(components, name) ? viewManagerConfig(name, components[name], native.propTypes) : null);
    }
    return configs.get(name);
  };
  const commandNames = (name) => Object.keys(native.components[name]?.commands ?? {});
  const { bubbling, direct } = genericEventTypes();
  // Guarded: a component the daemon does not serve throws, and takes its commit back (NativeSide.guard), as
  // paper's own calls do (paper.createView is guarded already).
  const beforeCreate = native.guard((viewName) => app._beforeCreate(viewName));
  // paper.js's getViewManagerConfig and hasViewManagerConfig are the renderer alone's JavaScript UIManager; an app's
  // are React Native's own (PaperUIManager.js, over this module): RCTUIManager exports neither (NativeUIManager.js).
  const { getViewManagerConfig, hasViewManagerConfig, ...calls } = paper;
  return {
    ...calls,
    createView(reactTag, viewName, rootTag, props) {
      beforeCreate(viewName);
      paper.createView(reactTag, viewName, rootTag, props);
    },
    dispatchViewManagerCommand(reactTag, command, args) {
      // An old-style command is its index in the config's Commands; codegen's commands are names.
      const name = typeof command === 'number' ? commandNames(native.componentOf(reactTag))[command] ?? String(command) : command;
      paper.dispatchViewManagerCommand(reactTag, name, args);
    },
    // The daemon's frames once the session's layout is on (app/layout.js sets native.frameOf), else app.frameOf's.
    ...measurements(
      (reactTag) => (app.native.frameOf ? app.native.frameOf(reactTag) : app.frameOf(reactTag)),
      () => !app.native.detached,
    ),
    viewIsDescendantOf(reactTag, ancestorReactTag, callback) {
      callback([app.isDescendant(reactTag, ancestorReactTag)]);
    },
    setJSResponder(reactTag, blockNativeResponder) {
      app.responder = reactTag;
    },
    clearJSResponder() {
      app.responder = null;
    },
    getConstants() {
      if (constants) return constants;
      constants = { genericBubblingEventTypes: bubbling, genericDirectEventTypes: direct, LazyViewManagersEnabled: false };
      for (const name of Object.keys(native.components)) constants[name] = configOf(name);
      return constants;
    },
    getConstantsForViewManager(name) {
      return configOf(name);
    },
    getDefaultEventTypes() {
      return { bubblingEventTypes: bubbling, directEventTypes: direct };
    },
    lazilyLoadView(name) {
      return configOf(name) ?? {};
    },
  };
}
