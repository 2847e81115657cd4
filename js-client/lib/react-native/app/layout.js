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
import { existsSync } from 'node:fs';
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
  const { width, height, scale, fontScale, insets } = app.window;
  const window = { width, height, scale, insets, ...(fontScale === undefined ? {} : { fontScale }) };
  app._layoutState = await enableNativeLayout(app.bridge, app.native, { yoga, window });
  if (!app._layoutState.enabled) return app._layoutState;
  app._touchPoint = (tag, action) => touchPoint(app, tag, action);
  app._pointTouch = (x, y) => pointTouch(app, x, y);
  app._scrollSizes = (tag) => scrollSizes(app, tag);
  return app._layoutState;
}

/**
 * A scroll view's size and its content view's (its first child), as laid out: what its scroll events carry as
 * `layoutMeasurement` and `contentSize`. Null when either has no frame.
 */
async function scrollSizes(app, tag) {
  await app.native.flush().catch(() => {});
  const scroll = await app.bridge.request({ op: 'inspect', tag });
  if (!scroll.layout || scroll.children.length === 0) return null;
  const content = await app.bridge.request({ op: 'inspect', tag: scroll.children[0] });
  if (!content.layout) return null;
  return {
    layout: { width: scroll.layout.width, height: scroll.layout.height },
    content: { width: content.layout.width, height: content.layout.height },
  };
}

/**
 * Where a finger touches the view of daemon tag `tag` (testing/actions.js, with layout on): the centre of its part
 * inside the window, hit-tested by the daemon as UIKit does (`layout` with `at`). Resolves `{tag, pageX, pageY,
 * locationX, locationY}`, the view the touch reaches (the view itself, one inside it, or one it is inside); rejects,
 * as Detox's "not hittable", when a user could not touch it there: zero-sized, off-screen, covered by another view
 * (named), or taking no touch (pointerEvents, clipping, opacity).
 */
async function touchPoint(app, tag, action) {
  await app.native.flush().catch(() => {});
  const name = describe(app, tag);
  // A view inside a text (a nested Text, a raw text) has no frame of its own: the text it is in is touched.
  let frame;
  for (let current = tag; current != null && !frame; current = app._liveTree.views.get(current)?.parent ?? null) {
    frame = (await app.bridge.request({ op: 'inspect', tag: current })).layoutInWindow;
  }
  if (!frame) throw notHittable(action, `${name} is not laid out (it is under no root)`);
  if (frame.width <= 0 || frame.height <= 0) {
    throw notHittable(action, `${name} is zero-sized (${frame.width}×${frame.height} at ${frame.x},${frame.y})`);
  }
  const { width, height } = app.window;
  const left = Math.max(frame.x, 0);
  const top = Math.max(frame.y, 0);
  const right = Math.min(frame.x + frame.width, width);
  const bottom = Math.min(frame.y + frame.height, height);
  if (right <= left || bottom <= top) {
    const where = `${frame.width}×${frame.height} at ${frame.x},${frame.y}; the window is ${width}×${height}`;
    throw notHittable(action, `${name} is off-screen (${where})`);
  }
  const x = (left + right) / 2;
  const y = (top + bottom) / 2;
  const { hit } = await app.bridge.request({ op: 'layout', at: { x, y } });
  if (!hit) {
    const why = 'its pointerEvents, a clipping parent, or opacity 0';
    throw notHittable(action, `nothing takes a touch at (${x}, ${y}), the centre of ${name} (${why})`);
  }
  if (hit.tag !== tag && !isAncestor(app, tag, hit.tag) && !isAncestor(app, hit.tag, tag)) {
    throw notHittable(action, `${name} is covered at (${x}, ${y}) by ${describe(app, hit.tag)}`);
  }
  return { tag: hit.tag, pageX: x, pageY: y, locationX: hit.x, locationY: hit.y };
}

/** A touch at (`x`, `y`) of the window: on the view hit-tested there, or `not_hittable` when none takes it. */
async function pointTouch(app, x, y) {
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw new TypeError(`app.pressAt(x, y): two numbers, got ${x}, ${y}`);
  await app.native.flush().catch(() => {});
  const { hit } = await app.bridge.request({ op: 'layout', at: { x, y } });
  if (!hit || app.native.rendererTag(hit.tag) === undefined) {
    throw notHittable('pressAt', `no view of the app's takes a touch at (${x}, ${y})`);
  }
  return { tag: hit.tag, pageX: x, pageY: y, locationX: hit.x, locationY: hit.y };
}

/** Whether the view of tag `ancestor` is above the view of tag `tag` in the daemon's tree (the app's live tree). */
function isAncestor(app, ancestor, tag) {
  const views = app._liveTree.views;
  for (let view = views.get(tag); view && view.parent != null; view = views.get(view.parent)) {
    if (view.parent === ancestor) return true;
  }
  return false;
}

/** `RCTView #testID (tag 12)`, or with its text. */
function describe(app, tag) {
  const view = app._liveTree.views.get(tag);
  if (!view) return `view ${tag}`;
  const id = view.props?.testID ? ` #${view.props.testID}` : '';
  const label = view.props?.accessibilityLabel ? ` "${view.props.accessibilityLabel}"` : '';
  return `${view.component}${id}${label} (tag ${tag})`;
}

function notHittable(action, reason) {
  const error = new Error(`app.${action}(): a user could not touch it: ${reason}`);
  error.code = 'not_hittable';
  return error;
}

/**
 * Turns the session's layout on for a NativeSide (openApp's, or attachReactNative's with `{ layout }`): the `layout`
 * op with `yoga` and `window`; then every component emits `layout` (its `onLayout` subscribes, for components
 * described later too) and the measure calls answer the daemon's frames (`native.frameOf`). Resolves `{enabled:
 * true, yoga, window}`, or `{enabled: false, reason}` where the daemon cannot (no sources, no compiler: the error
 * names which) or has no layout (an older daemon).
 */
export async function enableNativeLayout(bridge, native, { yoga, window } = {}) {
  let result;
  try {
    result = await bridge.request({ op: 'layout', yoga, ...(window ? { window } : {}) });
  } catch (error) {
    if (error?.code !== 'layout_unavailable' && error?.code !== 'unknown_op') throw error;
    return { enabled: false, reason: error.message };
  }
  const add = native.addComponents.bind(native);
  native.addComponents = (descriptions) => add(withLayoutEvent(descriptions));
  native.addComponents(native.components);
  native.frameOf = frameReader(bridge, native);
  return { enabled: true, yoga: result.yoga, window: result.window };
}

/** The `ReactCommon/yoga` of the react-native package a renderer file is in (Libraries/Renderer/…), or null. */
export function yogaBeside(file) {
  let dir = path.dirname(file);
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'ReactCommon', 'yoga');
    if (existsSync(path.join(candidate, 'yoga', 'Yoga.cpp'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

function withLayoutEvent(descriptions) {
  const described = {};
  for (const [name, description] of Object.entries(descriptions ?? {})) {
    const events = { ...(description?.events ?? {}), layout: LAYOUT_EVENT };
    described[name] = description?.events?.layout ? description : { ...description, events };
  }
  return described;
}

/**
 * `frameOf(rendererTag)`: the frame of the view of that renderer tag once what was committed before is applied,
 * `{x, y, width, height}` relative to its parent with `pageX`, `pageY`, its place in the window; null for a view the
 * daemon does not have or has not laid out. The frames asked for in one turn (a press's Pressability measures its
 * responder, a screen's effects measure several views) are read in one request, a batch of their inspects, on the
 * next turn: after the commit they follow, which its batch sends first (it is scheduled).
 */
function frameReader(bridge, native) {
  let asked = null;
  const readAll = async (now) => {
    await native.flush().catch(() => {});
    const tags = now.map(({ rendererTag }) => native.daemonTag(rendererTag));
    const known = [...new Set(tags.filter((tag) => tag !== undefined))];
    const views = new Map();
    if (known.length === 1) {
      views.set(known[0], await bridge.request({ op: 'inspect', tag: known[0] }).catch(() => null));
    } else if (known.length > 1) {
      try {
        const { results } = await bridge.request({ op: 'batch', ops: known.map((tag) => ({ op: 'inspect', tag })) });
        known.forEach((tag, index) => views.set(tag, results[index]));
      } catch {
        // A view gone (not_found) fails the batch: each is read alone then.
        for (const tag of known) views.set(tag, await bridge.request({ op: 'inspect', tag }).catch(() => null));
      }
    }
    now.forEach(({ resolve }, index) => resolve(frameIn(tags[index] === undefined ? null : views.get(tags[index]))));
  };
  return (rendererTag) =>
    new Promise((resolve) => {
      if (asked === null) {
        asked = [];
        setImmediate(() => {
          const now = asked;
          asked = null;
          readAll(now).catch(() => now.forEach(({ resolve }) => resolve(null)));
        });
      }
      asked.push({ rendererTag, resolve });
    });
}

/** The frame of an inspected view, or null without one. */
function frameIn(view) {
  if (!view?.layout) return null;
  const inWindow = view.layoutInWindow ?? view.layout;
  return { ...view.layout, pageX: inWindow.x, pageY: inWindow.y };
}
