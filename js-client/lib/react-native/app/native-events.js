// The daemon's native events handed to the app's JavaScript, as iOS hands them: touches shaped for the
// architecture's touch handler (paper's RCTTouchHandler through RCTEventEmitter.receiveTouches, Fabric's
// RCTSurfaceTouchHandler through the renderer's dispatch), every other event to its view; the timers the app starts
// meanwhile captured (timers.js). A text input's focus shows the software keyboard.

import { TEXT_INPUT_COMPONENTS } from '../testing/queries.js';

/** The daemon's touch events, subscribed on every root as iOS's RCTTouchHandler is attached to the root view. */
export const TOUCH_EVENTS = Object.freeze(['touchStart', 'touchMove', 'touchEnd', 'touchCancel']);

/**
 * The events a root listens to: the touches, and every bubbling event of `components` (hello's descriptions). iOS
 * sends a bubbling event (a text field's `topFocus`, a switch's `topChange`) to JavaScript whether or not a prop asked
 * for it, and React dispatches it through its own tree; a direct event goes only where a handler prop subscribed it.
 */
export function rootEvents(components) {
  const events = new Set(TOUCH_EVENTS);
  for (const description of Object.values(components)) {
    for (const [name, spec] of Object.entries(description.events ?? {})) if (spec.bubbles) events.add(name);
  }
  return [...events];
}

/**
 * A touch as Fabric's touch handler sends it (RCTSurfaceTouchHandler): the changed touch in `changedTouches`, the
 * touches still down in `touches` (an ended or cancelled one no longer), renderer tags as targets (`rendererTag`
 * maps a daemon tag to the renderer's).
 */
export function fabricTouch(type, nativeEvent, rendererTag) {
  const touches = (nativeEvent.touches ?? []).map((touch) => ({
    ...touch,
    target: rendererTag(touch.target) ?? touch.target,
  }));
  const changed = (nativeEvent.changedIndices ?? [0]).map((i) => touches[i]).filter(Boolean);
  const ended = type === 'topTouchEnd' || type === 'topTouchCancel';
  const down = ended ? touches.filter((t) => !changed.includes(t)) : touches;
  const first = changed[0] ?? touches[0] ?? {};
  const targetTouches = down.filter((t) => t.target === first.target);
  return { ...first, touches: down, changedTouches: changed, targetTouches };
}

/** A ScrollView takes a touch within 16 ms of its last momentum end as a stop of its scroll (its _isAnimating). */
export const MOMENTUM_SETTLED_MS = 17;

/** Where the NativeSide's events go once the app's React Native is loaded. */
export class NativeEvents {
  #clock;
  #native;
  #timers;
  #keyboard;
  #animated;
  /** The renderer's tag of a daemon tag (made once: it runs for every touch). */
  #rendererTag;
  /** Paper: React Native's RCTEventEmitter (its `receiveEvent`, `receiveTouches`), once loaded. */
  eventEmitter = null;
  /** Fabric: the renderer's event dispatch, handed over through the nativeFabricUIManager; null for paper. */
  fabricDispatch = null;
  /** Whether the app commits through Fabric. */
  fabric = false;

  /**
   * @param {object} parts
   * @param {import('../native-side.js').NativeSide} parts.native
   * @param {import('./timers.js').TimerCapture} parts.timers
   * @param {{focused(tag: number): void, blurred(tag: number): void}} parts.keyboard
   * @param {() => object | undefined} parts.animated NativeAnimatedModule's source, when the app made it
   * @param {() => number} [parts.clock] the app's clock, its global's `performance.now()`
   */
  constructor({ native, timers, keyboard, animated, clock = () => performance.now() }) {
    this.#clock = clock;
    this.#native = native;
    this.#timers = timers;
    this.#keyboard = keyboard;
    this.#animated = animated;
    this.#rendererTag = (tag) => native.rendererTag(tag);
  }

  /**
   * Fabric: the renderer registers its event handler with the manager, which hands it to the NativeSide as
   * `deliver`; it is kept here, and the NativeSide's `deliver` is this delivery, so that touches are shaped first.
   */
  takeFabricDispatch() {
    this.fabric = true;
    Object.defineProperty(this.#native, 'deliver', {
      configurable: true,
      get: () => this.#delivery,
      set: (dispatch) => (this.fabricDispatch = dispatch),
    });
  }

  /** The function the NativeSide delivers through, once React Native is loaded (null before). */
  #delivery = null;

  /** React Native is loaded: the NativeSide's events are delivered from now on. */
  start() {
    this.#delivery = (target, type, nativeEvent) => this.deliver(target, type, nativeEvent);
    if (!this.fabric) this.#native.deliver = this.#delivery;
  }

  /**
   * When the last momentum of a scroll view ended, on the app's clock (its global's `performance.now()`, as
   * ScrollView reads it: under a jest test's fake timers, jest's), or null. A touch waits MOMENTUM_SETTLED_MS past it.
   */
  momentumEndedAt = null;

  /** Delivers `type` to the view of renderer tag `target`; iOS shows its keyboard while a text input has the focus. */
  deliver(target, type, nativeEvent) {
    if (type === 'topMomentumScrollEnd') this.momentumEndedAt = this.#clock();
    this.#toJS(target, type, nativeEvent);
    if ((type === 'topFocus' || type === 'topBlur') && TEXT_INPUT_COMPONENTS.has(this.#native.componentOf(target))) {
      if (type === 'topFocus') this.#keyboard.focused(target);
      else this.#keyboard.blurred(target);
    }
  }

  #toJS(target, type, nativeEvent) {
    const rendererTag = this.#rendererTag;
    if (this.fabric) {
      if (!this.fabricDispatch) return;
      let event = nativeEvent;
      if (type.startsWith('topTouch')) event = fabricTouch(type, nativeEvent, rendererTag);
      else {
        nativeEvent.target = target;
        this.#animated()?._nativeEvent?.(target, type, nativeEvent);
      }
      this.#timers.run(() => this.fabricDispatch(target, type, event));
      return;
    }
    if (type.startsWith('topTouch')) {
      const touches = (nativeEvent.touches ?? []).map((touch) => ({
        ...touch,
        target: rendererTag(touch.target) ?? touch.target,
      }));
      const changed = nativeEvent.changedIndices ?? [0];
      this.#timers.run(() => this.eventEmitter.receiveTouches(type, touches, changed));
      return;
    }
    nativeEvent.target = target;
    this.#animated()?._nativeEvent?.(target, type, nativeEvent);
    this.#timers.run(() => this.eventEmitter.receiveEvent(target, type, nativeEvent));
  }

  /** Hands touches to React Native's responder system directly (a touch whose view left the daemon). */
  receiveTouches(type, touches, changedIndices) {
    try {
      // Fabric: the touch's view is gone, so it has no instance to dispatch to, and the responder was released.
      if (this.fabric) return;
      this.#timers.run(() => this.eventEmitter.receiveTouches(type, touches, changedIndices));
    } catch (error) {
      this.#native.fail(error);
    }
  }
}
