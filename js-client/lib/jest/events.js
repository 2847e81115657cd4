// fireEvent and userEvent under preset: 'bridged-client': a press, a text change and a scroll are what a phone
// sends (native touches through React Native's responder system, the daemon's text field edited, the native scroll
// view scrolled), where RNTL 12.4 would find an enabled handler; any other event calls its handler as RNTL does.
import { TEXT_INPUT_COMPONENTS } from '../react-native/testing/queries.js';
import { FiberElement, HOST_COMPONENT, HOST_ROOT, currentFiber, eventEnabled, isTestRendererInstance, isTextInputFiber, isTouchResponder } from './elements.js';

/** Pressability's minimum press duration: a press's onPressOut comes this long after its start. */
const MIN_PRESS_DURATION_MS = 130;
/**
 * The `scroll` events of userEvent.scrollTo's drag: RNTL moves the finger through five offsets, a `scroll` at the
 * three between the start and the end; a phone also reports the offset the finger stops at (its `scrollEndDrag`
 * then carries the same offset), so four.
 */
const DRAG_STEPS = 4;
/** Where userEvent.scrollTo's momentum scrolls, as fractions of the way: RNTL's inertial steps (each half the last). */
const MOMENTUM_STEPS = [1 / 2, 3 / 4, 7 / 8, 1];
/** RNTL's default long press duration. */
const LONG_PRESS_MS = 500;

/** `fireEvent` and `userEvent` over a JestHost; `check(element, what)` refuses what is not an element on screen. */
export function createEvents(host, check) {
  const app = host.app;

  // MARK: fireEvent: press, changeText and scroll are native; any other event calls its handler as RNTL does.

  /**
   * The handler RNTL's fireEvent calls, found as RNTL 12.4's findEventHandler finds it: `on<Event>` (or `<event>`) on
   * the element's fiber or the nearest ancestor's with one that the event is enabled on (a text field's `editable`,
   * `pointerEvents` for a press, a touch responder's onStartShouldSetResponder: a disabled Pressable).
   */
  const handlerFor = (element, eventName, from = null, responder = undefined) => {
    const start = from ?? (element instanceof FiberElement ? element.fiber : isTestRendererInstance(element) ? currentFiber(element._fiber) : host.fiber(element.tag));
    for (let fiber = start; fiber && fiber.tag !== HOST_ROOT; fiber = fiber.return) {
      const props = fiber.memoizedProps;
      if (!props || typeof props !== 'object') continue;
      if (isTouchResponder(fiber)) responder = fiber;
      const handler = handlerIn(props, eventName);
      if (handler && eventEnabled(fiber, eventName, responder)) return { handler, fiber };
    }
    return null;
  };

  /**
   * A React element given where an element belongs (`getByTestId('bar').props.children`): RNTL's fireEvent, which
   * reads `props` and `parent`, calls its `on<Event>` (or `<event>`) prop in act, unless its `pointerEvents` keep a
   * press from it. No view is behind it to touch or type into, so press, changeText and scroll do the same.
   */
  const callElementProp = (element, eventName, data) => {
    const props = element.props;
    const handler = handlerIn(props, eventName);
    if (handler === null || (eventName === 'press' && (props.pointerEvents === 'none' || props.pointerEvents === 'box-none'))) return undefined;
    let result;
    host.act(() => {
      result = handler(...data);
    });
    return result;
  };

  function fireEvent(element, eventName, ...data) {
    if (isReactElement(element)) return callElementProp(element, eventName, data);
    // An instance of a tree rendered with react-test-renderer itself: no view to touch or type into (isTestRendererInstance).
    if (isTestRendererInstance(element)) return callHandler(element, eventName, data, { asGiven: true });
    check(element, `fireEvent(element, '${eventName}')`);
    if (eventName === 'press') return fireEvent.press(element, ...data);
    if (eventName === 'changeText') return fireEvent.changeText(element, ...data);
    if (eventName === 'scroll') return fireEvent.scroll(element, ...data);
    return callHandler(element, eventName, data);
  }

  /** RNTL's own fireEvent: the handler called with `data`, in act. */
  const callHandler = (element, eventName, data, { asGiven = false } = {}) => {
    let found = handlerFor(element, eventName);
    if (!found) return undefined;
    // A text field's native view has React Native's own handler where the app's TextInput was given one (onChange,
    // onSelectionChange, onFocus, onBlur: TextInput's wrappers, which read the native event's text or selection).
    // Given data that is no native event (fireEvent(input, 'change', 'abc'), or nothing), no phone sends that: the
    // handler called is the one RNTL finds on React Native's mocks, whose text field holds the TextInput's props —
    // the app's, from the TextInput up — with the data as given.
    if (isTextInputFiber(found.fiber) && !isNativeEvent(data[0]) && found.handler !== textInputProp(found.fiber, found.handler, eventName)) {
      found = handlerFor(element, eventName, found.fiber.return, found.fiber);
      if (!found) return undefined;
      asGiven = true;
    }
    // A host view's own handler is React Native's (a ScrollView's onScrollEndDrag reads its event's nativeEvent):
    // with no data, it gets an event with an empty nativeEvent, as a native event would carry one.
    const args = data.length === 0 && !asGiven && found.fiber.tag === HOST_COMPONENT ? [{ nativeEvent: {} }] : data;
    let result;
    host.act(() => {
      result = found.handler(...args);
    });
    return result;
  };

  /**
   * A press is a native touch through React Native's responder system, where RNTL's fireEvent would find an
   * enabled onPress (so none where `pointerEvents` or `disabled` keep it from the element, as on a phone); the
   * event's `nativeEvent` coordinates, when given, are the touch's. The handler RNTL finds is called, when the touch
   * ends in it, with the data given, as RNTL documents it (`...data`: "passed to the event handler"); given none,
   * with React Native's press event, as on a phone.
   */
  fireEvent.press = (element, ...data) => {
    if (isReactElement(element)) return callElementProp(element, 'press', data);
    if (isTestRendererInstance(element)) return callHandler(element, 'press', data, { asGiven: true });
    check(element, 'fireEvent.press');
    const found = handlerFor(element, 'press');
    if (!found) return undefined;
    // On a made-up host (a jest.mock's `'TouchableOpacity'` or `'Icon'`, which no phone has and which responds to
    // no touch), the handler is called as RNTL calls it: the mocks' behaviour is the only one such a view has. It is
    // served under its view config's native name (a made-up '' or 'View' is renamed: components.js).
    const served = found.fiber.stateNode?.viewConfig?.uiViewClassName ?? found.fiber.type;
    if (found.fiber.tag === HOST_COMPONENT && app.native.components[served]?.madeUp) {
      return callHandler(element, 'press', data, { asGiven: true });
    }
    host.flush();
    // The finger is on the view its pointerEvents give the touch to (the element's, unless they say otherwise).
    const target = host.touchTarget(element.tag);
    if (target === null) return undefined;
    return returnOfPress(found, data, () => host.act(() => host.tap(target, data[0]?.nativeEvent)));
  };

  /**
   * RNTL's fireEvent returns what the handler returned (`await fireEvent.press(button)` waits for an async onPress):
   * what that same handler returned when the touch called it, as its touchable's onPress (a Pressable's, a
   * TouchableOpacity's, a Button's, a Text's: their Pressability's onPress; a TouchableHighlight's: its props'
   * onPress, which its own calls); else undefined. It is called with `data` when any was given (RNTL's), else with
   * what the touchable passes it (React Native's press event).
   */
  const returnOfPress = (found, data, touch) => {
    let returned;
    const recorder = (...args) => (returned = found.handler(...(data.length > 0 ? data : args)));
    let restore = null;
    // A class touchable reads this.props.onPress when pressed (TouchableHighlight).
    const instance = found.fiber.stateNode;
    if (instance && typeof instance.render === 'function' && instance.props?.onPress === found.handler) {
      const props = instance.props;
      const swapped = { ...props, onPress: recorder };
      instance.props = swapped;
      restore = () => {
        if (instance.props === swapped) instance.props = props;
      };
    }
    watchPressability();
    recording = { handler: found.handler, recorder };
    try {
      touch();
    } finally {
      recording = null;
      restore?.();
    }
    return returned;
  };

  /** The press being made (returnOfPress): the handler RNTL found and the recorder that calls it; else null. */
  let recording = null;
  let watching = false;
  /**
   * Pressability calls its config's onPress when the touch ends (`_performTransitionSideEffects`): while a press is
   * made, a config whose onPress is the handler RNTL found is given the recorder for that call. Installed on the
   * prototype once (replacing a prototype's method at each press costs the engine its caches of Pressability's code).
   */
  const watchPressability = () => {
    if (watching) return;
    watching = true;
    const module = app.require('react-native/Libraries/Pressability/Pressability');
    const proto = (module?.default ?? module)?.prototype;
    const original = proto?._performTransitionSideEffects;
    if (typeof original !== 'function') return;
    proto._performTransitionSideEffects = function performTransitionSideEffects(prevState, nextState, signal, event) {
      const config = this._config;
      if (recording === null || config?.onPress !== recording.handler) return original.call(this, prevState, nextState, signal, event);
      const swapped = { ...config, onPress: recording.recorder };
      this._config = swapped;
      try {
        return original.call(this, prevState, nextState, signal, event);
      } finally {
        // (Unless the touchable was configured anew meanwhile: a re-render's config stays.)
        if (this._config === swapped) this._config = config;
      }
    };
  };

  fireEvent.longPress = (element) => {
    check(element, 'fireEvent.longPress');
    const found = handlerFor(element, 'longPress');
    if (!found) return undefined;
    let result;
    host.act(() => {
      result = found.handler({ nativeEvent: {} });
    });
    return result;
  };

  /** The text field an element is or is inside (RNTL fires on the element or its ancestors). */
  const fieldOf = (element) => host.closest(element.tag, TEXT_INPUT_COMPONENTS);

  fireEvent.changeText = (element, ...data) => {
    if (isReactElement(element)) return callElementProp(element, 'changeText', data);
    if (isTestRendererInstance(element)) return callHandler(element, 'changeText', data, { asGiven: true });
    check(element, 'fireEvent.changeText');
    const field = fieldOf(element);
    // A field that is not editable takes no typing (RNTL calls no handler then either).
    if (field !== null && host.view(field)?.props?.editable === false) return undefined;
    // No text (nothing, or a value no keyboard types: a function, an object) is no edit a finger could make: the
    // handler is called as RNTL calls it, with what was given. (A TextInput hands its onChangeText to its native
    // view: that one is the app's, given what RNTL gives it.)
    const typable = typeof data[0] === 'string' || typeof data[0] === 'number';
    if (field === null || !typable) return callHandler(element, 'changeText', data, { asGiven: true });
    const text = data[0];
    host.flush();
    // No text into an empty field is no edit either (nothing to select or delete, nothing to paste): as RNTL, the
    // handler gets '' (a form's "required" check on a field changed to '').
    if (String(text) === '' && host.textOf(field) === '') return callHandler(element, 'changeText', data, { asGiven: true });
    // The field's whole text becomes `text`, as a selection of everything replaced by a paste (one change, no key:
    // iOS reports no key for pasted text, and RNTL calls onChangeText alone): natively, so that maxLength,
    // editable={false} and a controlled value hold.
    host.act(() => host.command(field, 'paste', [String(text)]));
    return undefined;
  };

  const scrollViewOf = (element) => host.closest(element.tag, 'RCTScrollView');

  /**
   * The user's finger dragging the scroll view's content to (x, y): its `scroll` native input (one `scroll` event),
   * or with `steps`, its `drag` through that many `scroll` events evenly spaced, the last at (x, y).
   */
  const scrollNatively = (tag, { x = 0, y = 0, contentSize, layoutMeasurement, steps = 1 } = {}) => {
    const width = layoutMeasurement?.width ?? app.window.width;
    const height = layoutMeasurement?.height ?? app.window.height;
    const args = [x, y, width, height, contentSize?.width ?? Math.max(width, x + width), contentSize?.height ?? Math.max(height, y + height)];
    host.act(() => (steps > 1 ? host.command(tag, 'drag', [...args, steps]) : host.command(tag, 'scroll', args)));
  };

  /**
   * RNTL's momentum (`momentumX`, `momentumY`): the scroll view, let go with speed, decelerates from where it is to
   * `to`, as UIScrollView does: momentumScrollBegin there, a `scroll` at each of RNTL's inertial steps (half the way,
   * three quarters, seven eighths, then `to`: slower and slower), momentumScrollEnd at `to`. Not on a scroll view
   * the user cannot scroll (`scrollEnabled={false}`), as the drag is not.
   */
  const decelerate = (tag, to, { contentSize, layoutMeasurement } = {}) => {
    const props = host.view(tag)?.props ?? {};
    if (props.scrollEnabled === false) return;
    const from = props.contentOffset ?? { x: 0, y: 0 };
    const layout = { width: layoutMeasurement?.width ?? props.layoutMeasurement?.width ?? app.window.width, height: layoutMeasurement?.height ?? props.layoutMeasurement?.height ?? app.window.height };
    const content = {
      width: contentSize?.width ?? props.contentSize?.width ?? Math.max(layout.width, to.x + layout.width),
      height: contentSize?.height ?? props.contentSize?.height ?? Math.max(layout.height, to.y + layout.height),
    };
    const payload = (offset) => ({
      contentOffset: { x: offset.x, y: offset.y },
      contentSize: content,
      layoutMeasurement: layout,
      contentInset: props.contentInset ?? { top: 0, left: 0, bottom: 0, right: 0 },
      zoomScale: props.zoomScale ?? 1,
    });
    host.act(() => host.emit(tag, 'momentumScrollBegin', payload(from)));
    for (const fraction of MOMENTUM_STEPS) {
      const at = fraction === 1 ? to : { x: from.x + (to.x - from.x) * fraction, y: from.y + (to.y - from.y) * fraction };
      host.act(() => host.command(tag, 'scrollTo', [at.x, at.y, false]));
    }
    host.act(() => host.emit(tag, 'momentumScrollEnd', payload(to)));
  };

  fireEvent.scroll = (element, ...data) => {
    const event = data[0] ?? {};
    if (isReactElement(element)) return callElementProp(element, 'scroll', [event]);
    if (isTestRendererInstance(element)) return callHandler(element, 'scroll', data, { asGiven: true });
    check(element, 'fireEvent.scroll');
    const tag = scrollViewOf(element);
    const nativeEvent = event?.nativeEvent ?? {};
    if (tag === null) return callHandler(element, 'scroll', [event]);
    host.flush();
    scrollNatively(tag, { ...(nativeEvent.contentOffset ?? {}), contentSize: nativeEvent.contentSize, layoutMeasurement: nativeEvent.layoutMeasurement });
    return undefined;
  };

  // MARK: userEvent: the same native inputs, with the waits a user's fingers take, in the test's time.

  function setup(options = {}) {
    const delay = options.delay ?? 0;
    const advanceTimers = typeof options.advanceTimers === 'function' ? options.advanceTimers : null;
    // One of RNTL's waits (`wait(config, ms)`): at the same points, so that a test's own `advanceTimers` (given to
    // setup, as RNTL's docs show for fake timers) is called as often and with what RNTL gives it, and moves jest's
    // clock by what it moves it (a function that advances 10 s a call lets a 10 s timer of the app run during a
    // press). Without one, bridged's own wait: jest's clock moved by `ms` under fake timers, else real time.
    const tick = async (ms) => {
      if (advanceTimers === null) {
        if (ms > 0) await host.wait(ms);
        return;
      }
      let advanced;
      host.act(() => {
        advanced = advanceTimers(ms);
      });
      await advanced;
      if (host.fakeTimers()) await host.settle();
      else if (ms > 0) await host.wait(ms);
    };
    // As RNTL's press: the finger held `ms`, then, for a touchable, what is left of Pressability's minimum press
    // duration (its onPressOut comes then); a text field's tap waits for nothing more. A press typing starts with
    // (`typing`) waits once, for the delay, as RNTL's type does.
    const hold = async (element, ms, what, { typing = false } = {}) => {
      check(element, what);
      if (!typing) await tick(delay);
      host.flush();
      // A press's finger is on the view the element's pointerEvents give the touch to; typing's on the field.
      const target = typing ? element.tag : host.touchTarget(element.tag);
      if (target === null) return;
      host.act(() => host.touch(target, 'start'));
      await tick(typing ? delay : ms);
      if (!host.view(target)) return;
      host.act(() => host.touch(target, 'end'));
      const field = TEXT_INPUT_COMPONENTS.has(host.view(element.tag)?.component);
      if (!field && MIN_PRESS_DURATION_MS - ms > 0) await tick(MIN_PRESS_DURATION_MS - ms);
    };
    // As RNTL's type, clear and paste: nothing on a field that is not editable, or that no finger reaches (its own
    // `pointerEvents` 'none' or 'box-none', an ancestor's 'none' or 'box-only': a form locked while it saves), as a
    // phone's user cannot focus it to type.
    const usable = (field) => host.view(field).props?.editable !== false && host.touchTarget(field) === field;
    const requireField = (element, what) => {
      check(element, what);
      const view = host.view(element.tag);
      if (!TEXT_INPUT_COMPONENTS.has(view.component)) throw new Error(`${what} works only on host TextInput elements, got ${element.type}`);
      return element.tag;
    };
    // Each of RNTL's user events ends with one more wait for the delay; the whole event runs with React's act
    // environment off (RNTL's wrapAsync), the updates the app left for after its last act let in before it ends.
    const ending = (action) => async (...args) => {
      const result = await host.outsideAct(
        async () => {
          const value = await action(...args);
          await tick(delay);
          return value;
        },
        { settled: true },
      );
      host.flush();
      return result;
    };
    return {
      // RNTL's instance keeps its options, its defaults filled in (bridged's waits advance jest's clock itself).
      config: { delay, advanceTimers: options.advanceTimers ?? (() => Promise.resolve()) },
      press: ending((element) => hold(element, 0, 'userEvent.press')),
      longPress: ending((element, { duration = LONG_PRESS_MS } = {}) => hold(element, duration, 'userEvent.longPress')),
      // RNTL 12.9's skipBlur: the field keeps its focus (no endEditing, no blur) after the text.
      type: ending(async (element, text, { skipPress = false, submitEditing = false, skipBlur = false } = {}) => {
        const field = requireField(element, 'userEvent.type');
        if (!usable(field)) return;
        const keys = parseKeys(String(text));
        if (!skipPress) await hold(element, 0, 'userEvent.type', { typing: true });
        else host.act(() => host.command(field, 'focus'));
        for (const key of keys) {
          await tick(delay);
          host.act(() => {
            // Return submits a single-line field and types a new line in a multi-line one, as on a phone; Backspace
            // is the keyboard's delete key (keyPress 'Backspace', then the last character gone).
            if (key === 'Enter') host.command(field, 'submit');
            else if (key === 'Backspace') host.command(field, 'deleteBackward');
            else host.command(field, 'type', [key]);
          });
        }
        await tick(delay);
        // The return key at the end, as RNTL's submitEditing: on a field that still has the focus (a `{Enter}` typed
        // into a single-line field submitted it and took its focus, as on a phone: no second submit).
        if (submitEditing && app._hasFocus(field)) host.act(() => host.command(field, 'submit'));
        if (!skipBlur) host.act(() => host.command(field, 'blur'));
      }),
      clear: ending(async (element) => {
        const field = requireField(element, 'userEvent.clear');
        if (!usable(field)) return;
        host.act(() => host.command(field, 'focus'));
        await tick(delay);
        // As RNTL's clear and a phone's select-all then delete: the selection over the text, keyPress 'Backspace',
        // the change to '' (the key alone on an empty field).
        host.act(() => host.command(field, 'deleteAll'));
        await tick(delay);
        host.act(() => host.command(field, 'blur'));
      }),
      paste: ending(async (element, text) => {
        const field = requireField(element, 'userEvent.paste');
        if (!usable(field)) return;
        host.act(() => host.command(field, 'focus'));
        // As RNTL's paste and a phone's select-all then paste: the selection over the text, then the text replaced as
        // one change, no key (iOS reports none for pasted text).
        host.act(() => host.command(field, 'paste', [String(text)]));
        await tick(delay);
        host.act(() => host.command(field, 'blur'));
      }),
      // As RNTL's: a drag to `x`/`y` (an axis not given stays where it is; none given, no drag), then a momentum to
      // `momentumX`/`momentumY` when given.
      scrollTo: ending(async (element, { x, y, momentumX, momentumY, contentSize, layoutMeasurement } = {}) => {
        check(element, 'userEvent.scrollTo');
        const tag = scrollViewOf(element);
        if (tag === null) throw new Error('userEvent.scrollTo works only on host ScrollView elements');
        host.flush();
        const at = () => host.view(tag)?.props?.contentOffset ?? { x: 0, y: 0 };
        if (x !== undefined || y !== undefined) {
          scrollNatively(tag, { x: x ?? at().x, y: y ?? at().y, contentSize, layoutMeasurement, steps: DRAG_STEPS });
          await tick(delay);
        }
        if (momentumX !== undefined || momentumY !== undefined) {
          decelerate(tag, { x: momentumX ?? at().x, y: momentumY ?? at().y }, { contentSize, layoutMeasurement });
          await tick(delay);
        }
      }),
    };
  }

  const defaultUser = setup();
  const userEvent = {
    setup,
    press: (...args) => defaultUser.press(...args),
    longPress: (...args) => defaultUser.longPress(...args),
    type: (...args) => defaultUser.type(...args),
    clear: (...args) => defaultUser.clear(...args),
    paste: (...args) => defaultUser.paste(...args),
    scrollTo: (...args) => defaultUser.scrollTo(...args),
  };

  return { fireEvent, userEvent };
}

/**
 * The keys RNTL's userEvent.type presses for `text`: each character, `{Enter}` and `{Backspace}` (a new line is
 * `Enter`), `{{` a `{`; another `{name}`, or a `{` not closed, throws as RNTL's parseKeys does.
 */
function parseKeys(text) {
  const keys = [];
  for (let i = 0; i < text.length; ) {
    if (text.startsWith('{{', i)) {
      keys.push('{');
      i += 2;
    } else if (text[i] === '{') {
      const end = text.indexOf('}', i);
      if (end === -1) throw new Error(`Invalid key sequence "${text.slice(i)}"`);
      const key = text.slice(i + 1, end);
      if (key !== 'Enter' && key !== 'Backspace') throw new Error(`Unknown key "${key}" in "${text}"`);
      keys.push(key);
      i = end + 1;
    } else {
      const character = String.fromCodePoint(text.codePointAt(i));
      keys.push(character === '\n' ? 'Enter' : character);
      i += character.length;
    }
  }
  return keys;
}

/** An event as a native view sends one: an object with a `nativeEvent` object. */
function isNativeEvent(value) {
  return value !== null && typeof value === 'object' && value.nativeEvent !== null && typeof value.nativeEvent === 'object';
}

/** What the TextInput component rendering a text field's native view was given for an event (its nearest composite). */
function textInputProp(fiber, fallback, eventName) {
  const handlerName = handlerNameOf(eventName);
  for (let parent = fiber.return; parent; parent = parent.return) {
    const component = parent.type;
    if (typeof component === 'function' || (component && typeof component === 'object' && component.render)) {
      return parent.memoizedProps?.[handlerName] ?? parent.memoizedProps?.[eventName];
    }
  }
  return fallback;
}

/** The prop RNTL's fireEvent calls for `eventName`: `on<Event>` ('press' → 'onPress'; 'onPress' as given). */
function handlerNameOf(eventName) {
  return eventName.startsWith('on') ? eventName : `on${capitalize(eventName)}`;
}

/** The function `props` has for `eventName`, as RNTL's getEventHandler reads it: `on<Event>`, else `<event>`; or null. */
function handlerIn(props, eventName) {
  const handlerName = handlerNameOf(eventName);
  if (typeof props[handlerName] === 'function') return props[handlerName];
  return typeof props[eventName] === 'function' ? props[eventName] : null;
}

/** A React element (what JSX makes), not an element a query returned. */
function isReactElement(value) {
  return value !== null && typeof value === 'object' && value.$$typeof === Symbol.for('react.element') && value.props !== null && typeof value.props === 'object';
}

function capitalize(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
