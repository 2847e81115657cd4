// What a user does to a phone, sent as the native side sends it: a touch goes through the daemon's touch handler
// (the `touch` op: touchStart, then touchEnd, to React Native's responder system), a keyboard types into the
// daemon's text field (its native text, its eventCount), a drag scrolls the daemon's scroll view, a switch
// toggles natively, a modal hears the back gesture. Each resolves once the app settled.

import { commandOp, emitOp, touchOp } from '../../command-op.js';
import { MOMENTUM_SETTLED_MS } from '../app/native-events.js';
import { TEXT_INPUT_COMPONENTS } from './queries.js';

/** How long a long press holds by default: past Pressability's default `delayLongPress` of 500 ms. */
export const LONG_PRESS_MS = 800;
/** The longest timer a press waits for after the touch ended: Pressability's minimum press duration (130 ms) and delays. */
const PRESS_OUT_TIMER_MS = 1000;

function tagOf(app, target, what) {
  if (typeof target === 'number') return target;
  if (target && typeof target === 'object' && typeof target.tag === 'number') return target.tag;
  const tag = app.findNodeHandle(target);
  if (tag == null) throw new TypeError(`app.${what}(): give a query's handle ({ tag }), a daemon tag or a mounted ref`);
  return tag;
}

async function inspect(app, tag) {
  return app.bridge.request({ op: 'inspect', tag });
}

/** The view at `tag` or its nearest ancestor whose component is one of `components`. */
async function closest(app, tag, components, what) {
  for (let t = tag; t != null; ) {
    const view = await inspect(app, t);
    if (components.has(view.component)) return view;
    t = view.parent;
  }
  throw new Error(`app.${what}(): view ${tag} is not a ${[...components].join(' or ')} nor inside one`);
}

/** The presentations iOS lets the user swipe away: a push (back), a page or form sheet (down). */
const SWIPED_AWAY = new Set(['push', 'modal', 'formSheet']);

/**
 * How the user can leave a native stack's top screen (an `RNSScreen` node with its children): `'gesture'` unless its
 * `gestureEnabled` is false or it is presented full screen (`fullScreenModal`, the transparent and contained
 * modals); `'button'` for a pushed screen whose header (`RNSScreenStackHeaderConfig`) is shown, its back button
 * not hidden and not replaced by a `headerLeft` (a `left` header subview).
 */
function backWays(screen) {
  const ways = [];
  const presentation = screen.props.stackPresentation ?? 'push';
  if (screen.props.gestureEnabled !== false && SWIPED_AWAY.has(presentation)) ways.push('gesture');
  const header = screen.children.find((c) => c.component === 'RNSScreenStackHeaderConfig');
  const left = header?.children.some((c) => c.component === 'RNSScreenStackHeaderSubview' && c.props.type === 'left');
  if (presentation === 'push' && header && header.props.hidden !== true && header.props.hideBackButton !== true && !left) ways.push('button');
  return ways;
}

export class Actions {
  #app;
  #now = 0;

  constructor(app) {
    this.#app = app;
  }

  /** A touch's timestamp: milliseconds, increasing. */
  #timestamp() {
    this.#now = Math.max(this.#now + 1, Math.round(performance.now()));
    return this.#now;
  }

  #touch(tag, phase, at = { tag, pageX: 0, pageY: 0, locationX: 0, locationY: 0 }) {
    const app = this.#app;
    if (app.native.rendererTag(tag) === undefined) throw new Error(`app.press(): view ${tag} is not one of this app's views`);
    const { pageX, pageY, locationX, locationY } = at;
    // The view the touch reached at its start, unless it is gone since (then the view itself, as without layout).
    const target = app.native.rendererTag(at.tag) === undefined ? tag : at.tag;
    return app.bridge.request(touchOp(target, phase, { identifier: 1, pageX, pageY, locationX, locationY, timestamp: this.#timestamp() }));
  }

  /**
   * The end of a touch whose view left the daemon while the finger was down (a long press that deleted its row):
   * iOS's touch handler still ends it with the view's tag, so it goes to React Native as the daemon would send it.
   */
  #endOfRemoved(rendererTag) {
    const touch = { identifier: 1, target: rendererTag, pageX: 0, pageY: 0, locationX: 0, locationY: 0, timestamp: this.#timestamp() };
    this.#app._receiveTouches('topTouchEnd', [touch], [0]);
  }

  /**
   * The timers the app started while the touch ended (Pressability's press-out): in virtual time each runs now,
   * unless the app cleared it; in real time they are waited for. Then the app settles.
   */
  async #afterTimers(timers) {
    const waited = timers.filter((t) => t.delay <= PRESS_OUT_TIMER_MS);
    if (this.#app.time === 'virtual') {
      for (const t of waited.sort((a, b) => a.delay - b.delay)) if (this.#fire(t)) await this.#app.settled();
    } else {
      // A timer the app cleared never fires: wait for each at most its delay and a little more.
      await Promise.all(waited.map((t) => Promise.race([t.done, new Promise((resolve) => setTimeout(resolve, t.delay + 5))])));
    }
    await this.#app.settled();
  }

  /**
   * The finger held `holdMs`: in virtual time the timers the touch's start began (a long-press timer) run when
   * they are due within the hold, and the touch's end comes `holdMs` later by its timestamp; in real time, a sleep.
   */
  async #hold(timers, holdMs) {
    const app = this.#app;
    if (app.time === 'virtual') {
      for (const t of timers.filter((t) => t.delay <= holdMs).sort((a, b) => a.delay - b.delay)) if (this.#fire(t)) await app.settled();
      this.#now += holdMs;
    } else {
      await new Promise((resolve) => setTimeout(resolve, holdMs));
    }
    await app.settled();
  }

  /** Runs a captured timer now (virtual time), counted in `app.timersRunEarly`. */
  #fire(timer) {
    if (!timer.fire()) return false;
    this.#app.timersRunEarly++;
    return true;
  }

  /**
   * A finger never lands within 16 ms of a scroll's momentum end (a paging ScrollView coming to rest), which the
   * ScrollView would take as a stop of its scroll, not a touch of the row: the rest of those ms is waited first.
   */
  async #pastMomentum() {
    const ended = this.#app._momentumEndedAt;
    const wait = ended == null ? 0 : ended + MOMENTUM_SETTLED_MS - this.#app.global.performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
  }

  async #tap(tag, holdMs, action = 'press', point = undefined) {
    const app = this.#app;
    await app.native.flush();
    await this.#pastMomentum();
    const rendererTag = app.native.rendererTag(tag);
    // With layout on, the touch is at the view's centre, on the view the daemon hit-tests there (app/layout.js).
    const at = point ?? (await app._touchPoint?.(tag, action)) ?? undefined;
    const started = await app._capturingTimers(() => this.#touch(tag, 'start', at));
    await app.settled();
    if (holdMs > 0) await this.#hold(started, holdMs);
    const timers = await app._capturingTimers(() =>
      app.native.rendererTag(tag) === undefined ? this.#endOfRemoved(rendererTag) : this.#touch(tag, 'end', at),
    );
    await this.#afterTimers(timers);
  }

  /**
   * A tap on the view: the touch starts and ends on it, and React Native's responder system takes it from there
   * (the innermost touchable responds). A Switch toggles natively instead, unless it is disabled.
   */
  async press(target, { duration = 0 } = {}) {
    const app = this.#app;
    const tag = tagOf(app, target, 'press');
    const view = await inspect(app, tag);
    if (view.component === 'RCTSwitch') return this.toggle(tag);
    await this.#tap(tag, duration);
  }

  /**
   * A tap at a point of the window (`x`, `y`, points), on whatever view the daemon hit-tests there, as a finger would:
   * needs the session's layout on (app/layout.js). Rejects with `not_hittable` when no view takes a touch there.
   */
  async pressAt(x, y, { duration = 0 } = {}) {
    const app = this.#app;
    const at = await app._pointTouch?.(x, y);
    if (!at) throw new Error("app.pressAt(): needs the session's layout, which is off (app._layoutState.reason says why)");
    await this.#tap(at.tag, duration, 'pressAt', at);
  }

  /** A touch held `duration` ms (default 800) before it ends. */
  async longPress(target, { duration = LONG_PRESS_MS } = {}) {
    await this.#tap(tagOf(this.#app, target, 'longPress'), duration, 'longPress');
  }

  /**
   * Types `text` into a text field as its keyboard would: focus first (unless it has it), then one character at
   * a time (the native text changes, `change` is sent, the app re-renders), then, with `{ submit: true }`, the
   * return key.
   */
  async type(target, text, { submit = false } = {}) {
    const app = this.#app;
    const field = await closest(app, tagOf(app, target, 'type'), TEXT_INPUT_COMPONENTS, 'type');
    await this.#command(field.tag, 'focus');
    for (const character of String(text)) await this.#command(field.tag, 'type', [character]);
    if (submit) await this.#command(field.tag, 'submit');
  }

  /** Empties a text field as a user selecting all and deleting would. */
  async clear(target) {
    const app = this.#app;
    const field = await closest(app, tagOf(app, target, 'clear'), TEXT_INPUT_COMPONENTS, 'clear');
    await this.#command(field.tag, 'focus');
    await this.#command(field.tag, 'clear');
  }

  /** Scrolls a ScrollView (the view, or the one it is in) to `{x, y}`, as a drag does. */
  async scrollTo(target, { x = 0, y = 0, contentWidth, contentHeight } = {}) {
    const app = this.#app;
    const scroll = await closest(app, tagOf(app, target, 'scrollTo'), new Set(['RCTScrollView']), 'scrollTo');
    let { width, height } = app.window;
    // With layout on, the scroll view's own size and its content's, as RCTScrollView reports them (app/layout.js).
    const sizes = await app._scrollSizes?.(scroll.tag);
    if (sizes) {
      ({ width, height } = sizes.layout);
      contentWidth ??= sizes.content.width;
      contentHeight ??= sizes.content.height;
    }
    await this.#command(scroll.tag, 'scroll', [x, y, width, height, contentWidth ?? Math.max(width, x + width), contentHeight ?? Math.max(height, y + height)]);
  }

  /**
   * A layout pass's answer for one view: its `onLayout` gets `{ layout: { x, y, width, height } }`, as
   * RCTUIManager sends `topLayout` once it has laid the view out. bridged has no layout engine, so a view is laid
   * out only when a test says where (React Native Testing Library's `fireEvent(view, 'layout', …)`).
   */
  async layout(target, { x = 0, y = 0, width, height } = {}) {
    const rect = { x, y, width, height };
    for (const [name, value] of Object.entries(rect)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || ((name === 'width' || name === 'height') && value < 0)) {
        throw new TypeError(`app.layout(target, { x, y, width, height }): ${name} is ${value}, not a finite${name === 'width' || name === 'height' ? ', non-negative' : ''} number`);
      }
    }
    const app = this.#app;
    const tag = tagOf(app, target, 'layout');
    await app.settled();
    app._layout(tag, rect);
    await app.settled();
  }

  /** Flips a Switch natively (its `change` reaches onValueChange), unless it is disabled. */
  async toggle(target) {
    const app = this.#app;
    const view = await closest(app, tagOf(app, target, 'toggle'), new Set(['RCTSwitch']), 'toggle');
    await this.#command(view.tag, 'toggle');
  }

  /**
   * Pulls a ScrollView (the view, or the one it is in) down to refresh: its RefreshControl (`refreshControl`) starts
   * refreshing natively and `onRefresh` runs.
   */
  async pullToRefresh(target) {
    const scroll = await closest(this.#app, tagOf(this.#app, target, 'pullToRefresh'), new Set(['RCTScrollView', 'RCTRefreshControl']), 'pullToRefresh');
    let control = scroll.component === 'RCTRefreshControl' ? scroll : null;
    if (!control) {
      // iOS nests the refresh control inside its scroll view.
      for (const child of scroll.children ?? []) {
        const view = await inspect(this.#app, child);
        if (view.component === 'RCTRefreshControl') control = view;
      }
    }
    if (!control) throw new Error(`app.pullToRefresh(): the scroll view ${scroll.tag} has no refreshControl`);
    await this.#command(control.tag, 'pullToRefresh');
  }

  /** A Modal's back gesture: `requestClose` from the modal (given its view or any view inside it). */
  async requestClose(target) {
    const app = this.#app;
    const modal = await closest(app, tagOf(app, target, 'requestClose'), new Set(['RCTModalHostView']), 'requestClose');
    await this.#command(modal.tag, 'requestClose');
  }

  /**
   * The user going back in a native stack (react-native-screens): its top screen tells JavaScript it was dismissed
   * (`dismissed {dismissCount: 1}`, what iOS sends when a screen is popped), and the navigator pops it. The stack is
   * the innermost one of the newest screen that has more than one screen on it. As on iOS, the user can only if the
   * top screen lets them: `via: 'gesture'` (the swipe back, or down for a modal) needs its `gestureEnabled`,
   * `via: 'button'` the header's back button (a shown header, not `headerBackVisible: false`, no `headerLeft` in
   * its place); by default either. Rejects, changing nothing, when they cannot.
   */
  async goBack({ via } = {}) {
    if (via !== undefined && via !== 'gesture' && via !== 'button') throw new TypeError("app.goBack({ via }): 'gesture' or 'button'");
    const app = this.#app;
    await app.settled();
    let top = null;
    for (const screen of app._screens()) {
      const visit = (node) => {
        if (node.component === 'RNSScreenStack') {
          const screens = node.children.filter((c) => c.component === 'RNSScreen');
          if (screens.length > 1) top = screens[screens.length - 1];
        }
        node.children.forEach(visit);
      };
      const root = screen.toJSON();
      if (root) visit(root);
    }
    if (!top) throw new Error('app.goBack(): no native stack (RNSScreenStack) with a screen to go back from');
    const ways = backWays(top);
    if (via === undefined ? ways.length === 0 : !ways.includes(via)) {
      const name = top.children.find((c) => c.component === 'RNSScreenStackHeaderConfig')?.props.title;
      const why = [];
      const presentation = top.props.stackPresentation ?? 'push';
      if (via !== 'button') why.push(SWIPED_AWAY.has(presentation) ? 'its gestureEnabled is false' : `a ${presentation} is not swiped away`);
      if (via !== 'gesture') why.push(presentation === 'push' ? 'its header shows no back button' : `a ${presentation} has no back button`);
      throw new Error(`app.goBack(${via ? `{ via: '${via}' }` : ''}): the user cannot leave the top screen${name ? ` ("${name}")` : ''}: ${why.join(' and ')}`);
    }
    const events = app.native.components.RNSScreen?.events ?? {};
    const event = Object.keys(events).find((e) => e === 'dismissed' || events[e].registrationNames?.bubbled === 'onDismissed' || events[e].registrationName === 'onDismissed');
    if (!event) throw new Error("app.goBack(): the daemon's RNSScreen has no dismissed event (react-native-screens' spec was not read)");
    await app.native.flush();
    await app.bridge.request(emitOp(top.tag, event, { dismissCount: 1 }));
    await app.settled();
  }

  async #command(tag, name, args) {
    const app = this.#app;
    await app.native.flush();
    await app.bridge.request(commandOp(tag, name, args));
    await app.settled();
  }
}
