// NativeAnimatedModule: the animated node graph that `useNativeDriver: true` builds, kept on the native side.
// Headless, a started animation completes at once: its node takes the animation's final value, every view whose
// props depend on it gets those props in the daemon (an `update`, as UIManager.synchronouslyUpdateViewOnUIThread
// would), and its end callback gets `{finished: true}` from a timer of the app's (`setTimeout` of 0 on its
// global: under a jest test's fake timers, jest's clock, so the test's advance delivers it, as it runs the frames of
// a JavaScript-driven one). An endless loop (`iterations: -1`) takes its final value too but runs until
// stopAnimation, which ends it with `finished: false`.

export const name = 'NativeAnimatedModule';

/** The final value of an animation config (frames, spring, decay), from the node's current value. */
function finalValue(config, current) {
  switch (config?.type) {
    case 'frames':
    case 'spring':
      return typeof config.toValue === 'number' ? config.toValue : current;
    case 'decay': {
      // RN's DecayAnimation: value(t) = from + v/(1-d)·(1-e^{-(1-d)t}); as t → ∞.
      const deceleration = config.deceleration ?? 0.998;
      return current + (config.velocity ?? 0) / (1 - deceleration);
    }
    default:
      return typeof config?.toValue === 'number' ? config.toValue : current;
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
  /** Animations still running (endless loops), by id. */
  const running = new Map();
  /** Runs `fn` on a timer of the app's, read at each call (a test may fake them after the module is made). */
  const later = (fn) => app.global.setTimeout(fn, 0);
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
        return n.value + n.offset;
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
    startListeningToAnimatedNodeValue() {},
    stopListeningToAnimatedNodeValue() {},
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
      const target = finalValue(config, n.value);
      n.value = target;
      applyFrom(nodeTag);
      // A loop that never ends (`iterations: -1`, Animated.loop) keeps running: it ends when it is stopped.
      if (config?.iterations === -1) {
        running.set(animationId, { endCallback, node: n });
        return;
      }
      later(() => endCallback?.(endResult(true, n)));
    },
    stopAnimation(animationId) {
      const animation = running.get(animationId);
      if (!animation) return;
      running.delete(animationId);
      later(() => animation.endCallback?.(endResult(false, animation.node)));
    },
    setAnimatedNodeValue(tag, value) {
      node(tag).value = value;
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
          nodes.get(mapping.animatedValueTag).value = value;
          applyFrom(mapping.animatedValueTag);
        }
      }
    },
    addListener() {},
    removeListeners() {},
  };
}
