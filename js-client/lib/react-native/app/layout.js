// openApp's layout: the session's `layout` turned on at open, with Yoga from the app's own react-native package
// (its ReactCommon/yoga, built and cached by the daemon) and openApp's window (protocol.md, "layout").
//
// Once on, the daemon lays the tree out after each batch, as RCTUIManager does:
// - a view with `onLayout` subscribes to the daemon's `layout` event (any view may emit it, as any React Native
//   view does), delivered as `topLayout` with `{layout: {x, y, width, height}}`;
// - the UIManagers' measure calls (`measure`, `measureInWindow`, `measureLayout`) answer the daemon's frames
//   (`native.frameOf`, read by no-layout.js's measurements).
// Where layout cannot be on (no ReactCommon/yoga in the package, no C++ compiler, an older daemon), the app works as
// before, every frame zeros, and `app._layoutState.reason` says why.
import { createRequire } from 'node:module';
import path from 'node:path';

/** The direct event `layout`, as hello describes a direct event: what makes `onLayout` subscribe. */
const LAYOUT_EVENT = Object.freeze({ bubbles: false, registrationName: 'onLayout' });

/**
 * Turns the session's layout on for `app` (an App being opened), unless `options.layout === false`.
 * Resolves `app._layoutState`: `{enabled: true, yoga, window}` or `{enabled: false, reason}`.
 */
export async function enableLayout(app, options = {}) {
  app._layoutState = { enabled: false, reason: null };
  if (options.layout === false) {
    app._layoutState.reason = 'openApp was given { layout: false }';
    return app._layoutState;
  }
  let yoga;
  try {
    const fromRoot = createRequire(path.join(app.root, 'package.json'));
    yoga = path.join(path.dirname(fromRoot.resolve('react-native/package.json')), 'ReactCommon', 'yoga');
  } catch {
    app._layoutState.reason = `the app at ${app.root} has no react-native package to take Yoga from`;
    return app._layoutState;
  }
  const { width, height, scale, insets } = app.window;
  let result;
  try {
    result = await app.bridge.request({ op: 'layout', yoga, window: { width, height, scale, insets } });
  } catch (error) {
    // No sources, no compiler (layout_unavailable), or a daemon without layout (unknown_op): layout stays off.
    if (error?.code !== 'layout_unavailable' && error?.code !== 'unknown_op') throw error;
    app._layoutState.reason = error.message;
    return app._layoutState;
  }
  app._layoutState = { enabled: true, yoga: result.yoga, window: result.window };
  const native = app.native;
  // Every component emits `layout`: its handler prop (`onLayout`) subscribes, for components described later too.
  const add = native.addComponents.bind(native);
  native.addComponents = (descriptions) => add(withLayoutEvent(descriptions));
  native.addComponents(native.components);
  native.frameOf = (rendererTag) => frameOf(app, rendererTag);
  return app._layoutState;
}

function withLayoutEvent(descriptions) {
  const described = {};
  for (const [name, description] of Object.entries(descriptions ?? {})) {
    described[name] = description?.events?.layout ? description : { ...description, events: { ...(description?.events ?? {}), layout: LAYOUT_EVENT } };
  }
  return described;
}

/**
 * The frame of the view of renderer tag `rendererTag` once what was committed before is applied: `{x, y, width,
 * height}` relative to its parent, with `pageX`, `pageY`, its place in the window; null for a view the daemon
 * does not have or has not laid out.
 */
async function frameOf(app, rendererTag) {
  // A measure called from a commit's effects: that commit's batch goes out first (it is scheduled), then this.
  await new Promise((resolve) => setImmediate(resolve));
  await app.native.flush().catch(() => {});
  const tag = app.native.daemonTag(rendererTag);
  if (tag === undefined) return null;
  let view;
  try {
    view = await app.bridge.request({ op: 'inspect', tag });
  } catch {
    return null;
  }
  if (!view.layout) return null;
  const inWindow = view.layoutInWindow ?? view.layout;
  return { ...view.layout, pageX: inWindow.x, pageY: inWindow.y };
}
