// KeyboardObserver: Keyboard's listeners (its events come through RCTDeviceEventEmitter: app.emitDeviceEvent), and
// the keyboard itself, which iOS shows while a text input has the focus.

export const name = 'KeyboardObserver';

export function create() {
  return { addListener() {}, removeListeners() {} };
}

/** An iPhone 14's keyboard in portrait, with its suggestions bar: its height in points. */
export const KEYBOARD_HEIGHT = 336;

/**
 * The software keyboard: shown when a text input takes the focus and none had it, hidden when the last one loses it
 * (not between two fields: the focus moving from one to the next is a blur then a focus, read together from one
 * answer of the daemon, and the hide waits for the microtasks after them). Each change is RCTKeyboardObserver's four events, in UIKit's order:
 * `keyboardWillChangeFrame`, `keyboardWillShow`/`keyboardWillHide`, `keyboardDidChangeFrame`,
 * `keyboardDidShow`/`keyboardDidHide`, each `{startCoordinates, endCoordinates, duration, easing,
 * isEventFromThisApp}`.
 */
export class Keyboard {
  /** The renderer tags of the text inputs that have the focus (one, but for a component's own doing). */
  #focused = new Set();
  #shown = false;
  #window;
  #emit;
  #live;

  /**
   * @param {{width: number, height: number}} window the window the keyboard slides into
   * @param {(name: string, body: object) => void} emit a device event
   * @param {(rendererTag: number) => boolean} live whether a view still exists (a removed field has no focus)
   */
  constructor(window, emit, live) {
    this.#window = window;
    this.#emit = emit;
    this.#live = live;
  }

  /** Whether the text input of `rendererTag` has the focus. */
  has(rendererTag) {
    return this.#focused.has(rendererTag);
  }

  /** A text input took the focus. */
  focused(rendererTag) {
    this.#focused.add(rendererTag);
    if (!this.#shown) this.#slide(true);
  }

  /** A text input lost the focus: the keyboard goes, unless another one has it once the events read with it ran. */
  blurred(rendererTag) {
    this.#focused.delete(rendererTag);
    queueMicrotask(() => this.removed());
  }

  /** Views were removed (a commit applied): a text input that had the focus and is gone takes the keyboard with it. */
  removed() {
    if (this.#focused.size > 0) for (const tag of this.#focused) if (!this.#live(tag)) this.#focused.delete(tag);
    if (this.#shown && this.#focused.size === 0) this.#slide(false);
  }

  #slide(show) {
    this.#shown = show;
    const { width, height } = this.#window;
    const up = { screenX: 0, screenY: height - KEYBOARD_HEIGHT, width, height: KEYBOARD_HEIGHT };
    const down = { screenX: 0, screenY: height, width, height: KEYBOARD_HEIGHT };
    const body = () => ({ startCoordinates: show ? { ...down } : { ...up }, endCoordinates: show ? { ...up } : { ...down }, duration: 250, easing: 'keyboard', isEventFromThisApp: true });
    const phase = show ? 'Show' : 'Hide';
    for (const name of ['keyboardWillChangeFrame', `keyboardWill${phase}`, 'keyboardDidChangeFrame', `keyboardDid${phase}`]) this.#emit(name, body());
  }
}
