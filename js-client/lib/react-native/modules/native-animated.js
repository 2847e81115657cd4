// NativeAnimatedModule: the animated node graph that `useNativeDriver: true` builds, kept on the native side.
// A started animation runs for as long as it would on a phone: iOS's drivers (RCTFrameAnimation, RCTSpringAnimation,
// RCTDecayAnimation) step it at 60 frames a second until it ends, and so it ends here at that frame, on a timer of
// the app's (its global's `setTimeout`: under a jest test's fake timers, jest's clock, so the test's advance ends it,
// as it runs the frames of a JavaScript-driven one; in real time, when it is due). Then its node takes the final
// value, every view whose props depend on it gets those props in the daemon (an `update`, as
// UIManager.synchronouslyUpdateViewOnUIThread would), and its end callback gets `{finished: true}`. Headless, no
// frame between is drawn: the node's value on the way is worked out when asked (`getValue`), and is where it stays
// when the animation is stopped (`stopAnimation`, or another animation started on the node), whose end callback
// gets `{finished: false}`. An endless loop (`iterations: -1`) takes its final value at once and runs until stopped.

export const name = 'NativeAnimatedModule';

/** A frame of iOS's display link, in ms: the drivers step an animation at 60 frames a second. */
const FRAME_MS = 1000 / 60;
/** The longest a spring or a decay runs before it is taken as at rest (one that never settles: a spring with no damping). */
const MAX_FRAMES = 60 * 60;

/**
 * How an animation config runs from `from`: `{duration, valueAt(ms), to}` — its length in ms (every iteration), the
 * node's value `ms` after its start, and its value at its end. As React Native 0.72's iOS drivers run them:
 * `frames` (Animated.timing: the eased progress of each frame, from the start to `toValue`), `spring` (the damped
 * oscillator of RCTSpringAnimation and SpringAnimation.js, at rest once within its rest thresholds, or past
 * `toValue` with `overshootClamping`), `decay` (at rest once a frame moves it less than 0.1).
 */
export function driverOf(config, from) {
  const iterations = Number.isInteger(config?.iterations) && config.iterations > 1 ? config.iterations : 1;
  const repeat = (one) => {
    const total = one.duration * iterations;
    return {
      duration: total,
      to: one.to,
      valueAt: (ms) => (ms >= total ? one.to : one.valueAt(one.duration > 0 ? ms % one.duration : ms)),
    };
  };
  switch (config?.type) {
    case 'frames': {
      const frames = Array.isArray(config.frames) && config.frames.length > 0 ? config.frames : [1];
      const to = typeof config.toValue === 'number' ? config.toValue : from;
      const at = (i) => from + (Number(frames[i]) || 0) * (to - from);
      return repeat({
        duration: Math.round((frames.length - 1) * FRAME_MS),
        to,
        valueAt: (ms) => at(Math.min(frames.length - 1, Math.floor(ms / FRAME_MS))),
      });
    }
    case 'spring': {
      const to = typeof config.toValue === 'number' ? config.toValue : from;
      const k = config.stiffness ?? 100;
      const c = config.damping ?? 10;
      const m = config.mass ?? 1;
      const v0 = -(config.initialVelocity ?? 0);
      const zeta = c / (2 * Math.sqrt(k * m));
      const omega0 = Math.sqrt(k / m);
      const omega1 = omega0 * Math.sqrt(1 - zeta * zeta);
      const x0 = to - from;
      const state = (t) => {
        if (zeta < 1) {
          const envelope = Math.exp(-zeta * omega0 * t);
          const a = (v0 + zeta * omega0 * x0) / omega1;
          return {
            position: to - envelope * (a * Math.sin(omega1 * t) + x0 * Math.cos(omega1 * t)),
            velocity:
              zeta * omega0 * envelope * (Math.sin(omega1 * t) * a + x0 * Math.cos(omega1 * t)) -
              envelope * (Math.cos(omega1 * t) * (v0 + zeta * omega0 * x0) - omega1 * x0 * Math.sin(omega1 * t)),
          };
        }
        const envelope = Math.exp(-omega0 * t);
        return { position: to - envelope * (x0 + (v0 + omega0 * x0) * t), velocity: envelope * (v0 * (t * omega0 - 1) + t * x0 * omega0 * omega0) };
      };
      const atRest = ({ position, velocity }) => {
        const overshooting = config.overshootClamping === true && k !== 0 && (from < to ? position > to : position < to);
        const still = Math.abs(velocity) <= (config.restSpeedThreshold ?? 0.001);
        const near = k === 0 || Math.abs(to - position) <= (config.restDisplacementThreshold ?? 0.001);
        return overshooting || (still && near);
      };
      let frame = 1;
      while (frame < MAX_FRAMES && !atRest(state((frame * FRAME_MS) / 1000))) frame++;
      const end = k !== 0 ? to : state((frame * FRAME_MS) / 1000).position;
      return repeat({ duration: Math.round(frame * FRAME_MS), to: end, valueAt: (ms) => state(ms / 1000).position });
    }
    case 'decay': {
      const deceleration = config.deceleration ?? 0.998;
      const velocity = config.velocity ?? 0;
      const at = (ms) => from + (velocity / (1 - deceleration)) * (1 - Math.exp(-(1 - deceleration) * ms));
      let frame = 1;
      while (frame < MAX_FRAMES && Math.abs(at(frame * FRAME_MS) - at((frame - 1) * FRAME_MS)) >= 0.1) frame++;
      const duration = Math.round(frame * FRAME_MS);
      return repeat({ duration, to: at(duration), valueAt: at });
    }
    default: {
      const to = typeof config?.toValue === 'number' ? config.toValue : from;
      return { duration: 0, to, valueAt: () => to };
    }
  }
}

function interpolate(input, config) {
  const { inputRange, outputRange } = config;
  if (!Array.isArray(inputRange) || !Array.isArray(outputRange) || inputRange.length < 2) return input;
  let i = 1;
  while (i < inputRange.length - 1 && inputRange[i] < input) i++;
  const [inMin, inMax] = [inputRange[i - 1], inputRange[i]];
  const [outMin, outMax] = [outputRange[i - 1], outputRange[i]];
  let x = input;
  const left = config.extrapolateLeft ?? 'extend';
  const right = config.extrapolateRight ?? 'extend';
  if (x < inMin) {
    if (left === 'identity') return x;
    if (left === 'clamp') x = inMin;
  }
  if (x > inMax) {
    if (right === 'identity') return x;
    if (right === 'clamp') x = inMax;
  }
  if (typeof outMin !== 'number' || typeof outMax !== 'number') return x >= inMax ? outMax : outMin;
  if (inMin === inMax) return x <= inMin ? outMin : outMax;
  return outMin + ((x - inMin) / (inMax - inMin)) * (outMax - outMin);
}

export function create(app) {
  /** tag → {config, parents:Set, children:Set, value, offset, view} */
  const nodes = new Map();
  const eventMappings = [];
  /** The value nodes whose changes JavaScript listens to (startListeningToAnimatedNodeValue: a listener on the value). */
  const listened = new Set();
  /**
   * The native side changed the value of node `tag` (an animation's end or stop, a mapped native event): a node
   * JavaScript listens to hears it, as RCTNativeAnimatedModule sends `onAnimatedValueUpdate` (Animated.Value's
   * listeners, a collapsing header's `scrollY.addListener`). Headless, no frame between is drawn: an animation's
   * listener hears where it ends (or is stopped), not every frame on the way.
   */
  const changed = (tag) => {
    if (listened.has(tag)) app._emitFromNative('onAnimatedValueUpdate', { tag, value: valueOf(tag) });
  };
  /**
   * Animations running, by id: `{node, tag, endCallback, driver, startedAt, timer}` (an endless loop: no driver, no
   * timer), where `startedAt` is the app's clock (`Date.now()` of its global: jest's under its fake timers).
   */
  const running = new Map();
  /** Runs `fn` on a timer of the app's, read at each call (a test may fake them after the module is made). */
  const later = (fn, ms = 0) => app.global.setTimeout(fn, ms);
  const now = () => (typeof app.global.Date?.now === 'function' ? app.global.Date.now() : Date.now());
  /**
   * An end callback's result: React Native 0.72's iOS drivers (RCTFrameAnimation.m, RCTSpringAnimation.m,
   * RCTDecayAnimation.m) send `{finished}` alone, its `EndResult` type; later versions' `EndResult` also has the
   * node's `value` and `offset`.
   */
  const endResult = (finished, n) => {
    const { major, minor } = app.reactNativeVersion;
    return major === 0 && minor <= 72 ? { finished } : { finished, value: n.value, offset: n.offset };
  };
  const node = (tag) => {
    const found = nodes.get(tag);
    if (!found) throw new Error(`NativeAnimatedModule: no animated node ${tag}`);
    return found;
  };

  function valueOf(tag, seen = new Set()) {
    const n = nodes.get(tag);
    if (!n || seen.has(tag)) return 0;
    seen.add(tag);
    const c = n.config;
    const inputs = () => (c.input ?? []).map((t) => valueOf(t, seen));
    switch (c.type) {
      case 'value':
        return (n.animation ? n.animation.driver.valueAt(now() - n.animation.startedAt) : n.value) + n.offset;
      case 'interpolation': {
        const parent = [...n.parents][0];
        return interpolate(parent === undefined ? 0 : valueOf(parent, seen), c);
      }
      case 'addition':
        return inputs().reduce((a, b) => a + b, 0);
      case 'subtraction':
        return inputs().reduce((a, b) => a - b);
      case 'multiplication':
        return inputs().reduce((a, b) => a * b, 1);
      case 'division':
        return inputs().reduce((a, b) => (b === 0 ? a : a / b));
      case 'modulus': {
        const m = c.modulus;
        const v = valueOf(c.input, seen);
        return ((v % m) + m) % m;
      }
      case 'diffclamp':
        return Math.min(Math.max(valueOf(c.input, seen), c.min), c.max);
      case 'tracking':
        return valueOf(c.toValue, seen);
      default:
        return 0;
    }
  }

  function propsOf(n) {
    const props = {};
    for (const [key, tag] of Object.entries(n.config.props ?? {})) {
      const child = nodes.get(tag);
      if (!child) continue;
      if (child.config.type === 'style') {
        for (const [styleKey, styleTag] of Object.entries(child.config.style ?? {})) {
          const styleNode = nodes.get(styleTag);
          if (!styleNode) continue;
          props[styleKey] = styleNode.config.type === 'transform' ? transformOf(styleNode) : valueOf(styleTag);
        }
      } else {
        props[key] = valueOf(tag);
      }
    }
    return props;
  }

  function transformOf(n) {
    return (n.config.transforms ?? []).map((t) => ({ [t.property]: t.type === 'animated' ? valueOf(t.nodeTag) : t.value }));
  }

  /** The props nodes that depend on `tag`, through children links. */
  function dependentProps(tag) {
    const found = new Set();
    const stack = [tag];
    const seen = new Set();
    while (stack.length > 0) {
      const t = stack.pop();
      if (seen.has(t)) continue;
      seen.add(t);
      const n = nodes.get(t);
      if (!n) continue;
      if (n.config.type === 'props') found.add(n);
      stack.push(...n.children);
    }
    return found;
  }

  function applyFrom(tag) {
    for (const propsNode of dependentProps(tag)) {
      if (propsNode.view !== undefined) app.updateViewProps(propsNode.view, propsOf(propsNode));
    }
  }

  /** Stops a running animation where it is: its node keeps the value it has now; its end callback gets `finished: false`. */
  function stop(animationId) {
    const animation = running.get(animationId);
    if (!animation) return;
    running.delete(animationId);
    const n = animation.node;
    if (animation.driver) {
      app.global.clearTimeout(animation.timer);
      const value = animation.driver.valueAt(now() - animation.startedAt);
      n.animation = undefined;
      setNatively(animation.tag, n, value);
    }
    later(() => animation.endCallback?.(endResult(false, n)));
  }

  /** Stops the animations running on node `n` (one at most: a new one stops the one before it). */
  function stopAnimationsOf(n) {
    for (const [id, animation] of running) if (animation.node === n) stop(id);
  }

  /** Node `n` (of `tag`) takes `value` from the native side: its views get it, and JavaScript hears it if it listens. */
  function setNatively(tag, n, value) {
    n.value = value;
    if (nodes.get(tag) !== n) return;
    applyFrom(tag);
    changed(tag);
  }

  return {
    startOperationBatch() {},
    finishOperationBatch() {},
    createAnimatedNode(tag, config) {
      nodes.set(tag, { config, parents: new Set(), children: new Set(), value: config.value ?? 0, offset: config.offset ?? 0, view: undefined });
    },
    updateAnimatedNodeConfig(tag, config) {
      node(tag).config = config;
    },
    getValue(tag, callback) {
      callback(valueOf(tag));
    },
    startListeningToAnimatedNodeValue(tag) {
      listened.add(tag);
    },
    stopListeningToAnimatedNodeValue(tag) {
      listened.delete(tag);
    },
    connectAnimatedNodes(parentTag, childTag) {
      node(parentTag).children.add(childTag);
      node(childTag).parents.add(parentTag);
    },
    disconnectAnimatedNodes(parentTag, childTag) {
      nodes.get(parentTag)?.children.delete(childTag);
      nodes.get(childTag)?.parents.delete(parentTag);
    },
    startAnimatingNode(animationId, nodeTag, config, endCallback) {
      const n = node(nodeTag);
      // One animation a node, as RCTNativeAnimatedNodesManager: one running on it stops where it is.
      stopAnimationsOf(n);
      // A loop that never ends (`iterations: -1`, Animated.loop) takes its final value and runs until it is stopped.
      if (config?.iterations === -1) {
        setNatively(nodeTag, n, driverOf({ ...config, iterations: 1 }, n.value).to);
        running.set(animationId, { endCallback, node: n, tag: nodeTag });
        return;
      }
      const driver = driverOf(config, n.value);
      // No frame to wait for (a timing of 0 ms: TouchableOpacity's press-in): the value at once, the callback after.
      if (driver.duration === 0) {
        setNatively(nodeTag, n, driver.to);
        later(() => endCallback?.(endResult(true, n)));
        return;
      }
      const animation = { endCallback, node: n, tag: nodeTag, driver, startedAt: now(), timer: null };
      n.animation = animation;
      running.set(animationId, animation);
      animation.timer = later(() => {
        if (running.get(animationId) !== animation) return;
        running.delete(animationId);
        n.animation = undefined;
        setNatively(nodeTag, n, animation.driver.to);
        endCallback?.(endResult(true, n));
      }, animation.driver.duration);
    },
    stopAnimation(animationId) {
      stop(animationId);
    },
    setAnimatedNodeValue(tag, value) {
      const n = node(tag);
      // As RCTNativeAnimatedNodesManager: the node's animations stop first (Animated's setValue stops them too).
      stopAnimationsOf(n);
      n.value = value;
      applyFrom(tag);
    },
    setAnimatedNodeOffset(tag, offset) {
      node(tag).offset = offset;
      applyFrom(tag);
    },
    flattenAnimatedNodeOffset(tag) {
      const n = node(tag);
      n.value += n.offset;
      n.offset = 0;
    },
    extractAnimatedNodeOffset(tag) {
      const n = node(tag);
      n.offset += n.value;
      n.value = 0;
    },
    connectAnimatedNodeToView(nodeTag, viewTag) {
      node(nodeTag).view = viewTag;
    },
    disconnectAnimatedNodeFromView(nodeTag) {
      const n = nodes.get(nodeTag);
      if (n) n.view = undefined;
    },
    restoreDefaultValues() {},
    dropAnimatedNode(tag) {
      listened.delete(tag);
      const n = nodes.get(tag);
      stopAnimationsOf(n);
      nodes.delete(tag);
    },
    addAnimatedEventToView(viewTag, eventName, mapping) {
      eventMappings.push({ viewTag, eventName, mapping });
    },
    removeAnimatedEventFromView(viewTag, eventName, animatedNodeTag) {
      const i = eventMappings.findIndex((m) => m.viewTag === viewTag && m.eventName === eventName && m.mapping.animatedValueTag === animatedNodeTag);
      if (i >= 0) eventMappings.splice(i, 1);
    },
    /** A native event reached view `viewTag` (a renderer tag): the values mapped to it take its fields. */
    _nativeEvent(viewTag, eventName, nativeEvent) {
      for (const { viewTag: tag, eventName: event, mapping } of eventMappings) {
        if (tag !== viewTag || (event !== eventName && `top${event.slice(2)}` !== eventName)) continue;
        let value = nativeEvent;
        for (const key of mapping.nativeEventPath ?? []) value = value?.[key];
        if (typeof value === 'number' && nodes.has(mapping.animatedValueTag)) {
          setNatively(mapping.animatedValueTag, nodes.get(mapping.animatedValueTag), value);
        }
      }
    },
    addListener() {},
    removeListeners() {},
    /** The app's end: the animations still running stop, their end callbacks not called (the app is gone). */
    _end() {
      for (const animation of running.values()) if (animation.timer) app.global.clearTimeout?.(animation.timer);
      running.clear();
    },
  };
}
