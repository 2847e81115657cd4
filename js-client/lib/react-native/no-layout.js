// What a native side answers of geometry and the screen (protocol.md, "React Native's renderer"): a view's frame is
// what `frameOf(target)` gives (or resolves to): with the session's layout on (app/layout.js), the daemon's frame,
// `{x, y, width, height}` relative to the parent with `pageX`, `pageY` in the window; without it, every view at 0,0
// with no size. No view is at a point; responders, focus, accessibility events and layout animations do nothing.
// Shared by paper's UIManager, Fabric's nativeFabricUIManager and an app's UIManager; each answers on a later
// turn, as native does, and only while the app is open (`live()`): a phone answers no call of an app that is gone,
// and an answer after a jest file's end would run the app's callback in a torn-down environment (an app that
// measures again in each answer, a loop, would throw outside any test and end the worker).

export const NO_FRAME = Object.freeze({ x: 0, y: 0, width: 0, height: 0 });

/**
 * The measure calls of a UIManager, over `frameOf(target)` (a renderer tag, or a Fabric node; a frame or a promise),
 * answered while `live()`.
 */
export function measurements(frameOf = () => NO_FRAME, live = () => true) {
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
  const answerLater = (answer) =>
    setImmediate(() => {
      if (live()) answer();
    });
  const later = (target, answer) => {
    frame(target).then((f) => answerLater(() => answer(f)));
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
        answerLater(() => onSuccess(pageX(f) - pageX(to), pageY(f) - pageY(to), f.width, f.height)),
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

/** The paper UIManager's calls with no layout engine or screen behind them, answered while `live()`. */
export function paperNoLayout(frameOf, live = () => true) {
  return {
    ...measurements(frameOf, live),
    ...NO_SCREEN,
    findSubviewIn(reactTag, point, callback) {
      setImmediate(() => {
        if (live()) callback(reactTag, 0, 0, 0, 0);
      });
    },
    setJSResponder() {},
    clearJSResponder() {},
    focus() {},
    blur() {},
    setLayoutAnimationEnabledExperimental() {},
  };
}

/** The nativeFabricUIManager's calls with no layout engine or screen behind them, answered while `live()`. */
export function fabricNoLayout(frameOf, live = () => true) {
  return {
    ...measurements(frameOf, live),
    ...NO_SCREEN,
    getBoundingClientRect() {
      return [0, 0, 0, 0];
    },
    findNodeAtPoint(node, x, y, callback) {
      setImmediate(() => {
        if (live()) callback(null);
      });
    },
    setIsJSResponder() {},
  };
}
