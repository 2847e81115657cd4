// What a native side with no layout engine and no screen answers (protocol.md, "React Native's renderer"): a
// view's frame is what `frameOf(target)` gives, by default every view at 0,0 with no size; no view is at a point;
// responders, focus, accessibility events and layout animations do nothing. Shared by paper's UIManager, Fabric's
// nativeFabricUIManager and an app's UIManager; each answers on the next turn, as native does.

export const NO_FRAME = Object.freeze({ x: 0, y: 0, width: 0, height: 0 });

/** The measure calls of a UIManager, over `frameOf(target)` (a renderer tag, or a Fabric node). */
export function measurements(frameOf = () => NO_FRAME) {
  const later = (target, answer) => {
    const f = frameOf(target) ?? NO_FRAME;
    setImmediate(() => answer(f));
  };
  return {
    measure(target, callback) {
      later(target, (f) => callback(f.x, f.y, f.width, f.height, f.x, f.y));
    },
    measureInWindow(target, callback) {
      later(target, (f) => callback(f.x, f.y, f.width, f.height));
    },
    measureLayout(target, relativeTo, onFail, onSuccess) {
      later(target, (f) => onSuccess(f.x, f.y, f.width, f.height));
    },
    measureLayoutRelativeToParent(target, onFail, onSuccess) {
      later(target, (f) => onSuccess(f.x, f.y, f.width, f.height));
    },
  };
}

/** What both managers do nothing for, with no screen. */
const NO_SCREEN = Object.freeze({
  sendAccessibilityEvent() {},
  configureNextLayoutAnimation() {},
});

/** The paper UIManager's calls with no layout engine or screen behind them. */
export function paperNoLayout(frameOf) {
  return {
    ...measurements(frameOf),
    ...NO_SCREEN,
    findSubviewIn(reactTag, point, callback) {
      setImmediate(() => callback(reactTag, 0, 0, 0, 0));
    },
    setJSResponder() {},
    clearJSResponder() {},
    focus() {},
    blur() {},
    setLayoutAnimationEnabledExperimental() {},
  };
}

/** The nativeFabricUIManager's calls with no layout engine or screen behind them. */
export function fabricNoLayout(frameOf) {
  return {
    ...measurements(frameOf),
    ...NO_SCREEN,
    getBoundingClientRect() {
      return [0, 0, 0, 0];
    },
    findNodeAtPoint(node, x, y, callback) {
      setImmediate(() => callback(null));
    },
    setIsJSResponder() {},
  };
}
