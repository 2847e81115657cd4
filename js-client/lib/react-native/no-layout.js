// What a native side answers of geometry and the screen (protocol.md, "React Native's renderer"): a view's frame is
// what `frameOf(target)` gives (or resolves to): with the session's layout on (app/layout.js), the daemon's frame,
// `{x, y, width, height}` relative to the parent with `pageX`, `pageY` in the window; without it, every view at 0,0
// with no size. No view is at a point; responders, focus, accessibility events and layout animations do nothing.
// Shared by paper's UIManager, Fabric's nativeFabricUIManager and an app's UIManager; each answers on a later
// turn, as native does.

export const NO_FRAME = Object.freeze({ x: 0, y: 0, width: 0, height: 0 });

/** The measure calls of a UIManager, over `frameOf(target)` (a renderer tag, or a Fabric node; a frame or a promise). */
export function measurements(frameOf = () => NO_FRAME) {
  const frame = (target) => {
    let f;
    try {
      f = frameOf(target);
    } catch {
      f = null;
    }
    return Promise.resolve(f).then(
      (value) => value ?? NO_FRAME,
      () => NO_FRAME,
    );
  };
  const later = (target, answer) => {
    frame(target).then((f) => setImmediate(() => answer(f)));
  };
  const pageX = (f) => f.pageX ?? f.x;
  const pageY = (f) => f.pageY ?? f.y;
  return {
    // RCTUIManager's measure: the frame's size and origin in its parent, then its origin in the window.
    measure(target, callback) {
      later(target, (f) => callback(f.x, f.y, f.width, f.height, pageX(f), pageY(f)));
    },
    measureInWindow(target, callback) {
      later(target, (f) => callback(pageX(f), pageY(f), f.width, f.height));
    },
    // RCTUIManager's measureLayout: the frame relative to `relativeTo`'s, both in the window.
    measureLayout(target, relativeTo, onFail, onSuccess) {
      Promise.all([frame(target), frame(relativeTo)]).then(([f, to]) =>
        setImmediate(() => onSuccess(pageX(f) - pageX(to), pageY(f) - pageY(to), f.width, f.height)),
      );
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
