// Registration names (JSX handler props) and the synthetic event handed to handlers.

/**
 * The handler prop names of `event` as `spec` (its description in hello's components) declares them, or React
 * Native's defaults: a bubbling event's `{bubbled: 'onCountChange', captured: 'onCountChangeCapture'}`, a direct
 * event's `{direct: 'onLoad'}`. The one place both a Bridge's views and React Native's attachment name them.
 */
export function handlerNames(event, spec) {
  const capitalized = `on${event.charAt(0).toUpperCase()}${event.slice(1)}`;
  if (spec?.bubbles) {
    const names = spec.registrationNames ?? {};
    return { bubbled: names.bubbled ?? capitalized, captured: names.captured ?? `${capitalized}Capture` };
  }
  return { direct: spec?.registrationName ?? capitalized };
}

/**
 * Maps handler prop names to (event, phase), built from hello's `components`, as React Native's
 * `phasedRegistrationNames` (bubbling events, usable on any view) and `registrationName` (direct
 * events, only on a component that declares them).
 */
export class RegistrationNames {
  /** @type {Map<string, {event: string, phase: 'bubble' | 'capture'}>} */
  #bubbling = new Map();
  /** @type {Map<string, Map<string, {event: string, phase: 'bubble'}>>} */
  #direct = new Map();

  constructor(components = {}) {
    for (const [component, spec] of Object.entries(components)) {
      const direct = new Map();
      for (const [event, info] of Object.entries(spec?.events ?? {})) {
        const names = handlerNames(event, info);
        if (names.direct === undefined) {
          this.#bubbling.set(names.bubbled, { event, phase: 'bubble' });
          this.#bubbling.set(names.captured, { event, phase: 'capture' });
        } else {
          direct.set(names.direct, { event, phase: 'bubble' });
        }
      }
      this.#direct.set(component, direct);
    }
  }

  /** The (event, phase) that prop `name` subscribes to on a view of `component`, or undefined. */
  lookup(component, name) {
    return this.#direct.get(component)?.get(name) ?? this.#bubbling.get(name);
  }
}

/**
 * What a handler receives. One object per listener on the path; they share the propagation state, so
 * `stopPropagation()` in one handler stops the walk before the next view on the path.
 */
export class SyntheticEvent {
  #propagation;

  constructor(frame, entry, propagation) {
    /** The event name, e.g. `countChange`. */
    this.type = frame.event;
    /** Tag of the view that emitted the event. */
    this.target = frame.target;
    /** Tag of the view whose handler is running. */
    this.currentTarget = entry.tag;
    /** `'capture'` or `'bubble'`. */
    this.phase = entry.phase;
    this.payload = frame.payload;
    /** The same object as `payload`. */
    this.nativeEvent = frame.payload;
    this.seq = frame.seq;
    this.#propagation = propagation;
  }

  stopPropagation() {
    this.#propagation.stopped = true;
  }

  isPropagationStopped() {
    return this.#propagation.stopped;
  }
}

/** Handlers per (tag, event, phase); several handlers share one daemon subscription. */
export class SubscriptionTable {
  /** @type {Map<string, {tag: number, event: string, phase: string, handlers: Set<object>, ready: Promise<void>}>} */
  #entries = new Map();

  static key(tag, event, phase) {
    return `${tag}\u0000${event}\u0000${phase}`;
  }

  get(tag, event, phase) {
    return this.#entries.get(SubscriptionTable.key(tag, event, phase));
  }

  /** Adds a handler registration; returns the entry and whether it is new (then a subscribe is needed). */
  add(tag, event, phase, registration, ready = Promise.resolve()) {
    const key = SubscriptionTable.key(tag, event, phase);
    let entry = this.#entries.get(key);
    const isNew = entry === undefined;
    if (isNew) {
      entry = { tag, event, phase, handlers: new Set(), ready };
      this.#entries.set(key, entry);
    }
    entry.handlers.add(registration);
    return { entry, isNew };
  }

  /** Removes a registration; returns true when it was the last one (then an unsubscribe is needed). */
  remove(tag, event, phase, registration) {
    const key = SubscriptionTable.key(tag, event, phase);
    const entry = this.#entries.get(key);
    if (!entry || !entry.handlers.delete(registration)) return false;
    if (entry.handlers.size > 0) return false;
    this.#entries.delete(key);
    return true;
  }

  /** The registrations that should run for a path entry, in the order they were added. */
  handlers(tag, event, phase) {
    const entry = this.#entries.get(SubscriptionTable.key(tag, event, phase));
    return entry ? [...entry.handlers] : [];
  }

  /** Forgets everything about `tag` (its view was deleted). */
  dropTag(tag) {
    const prefix = `${tag}\u0000`;
    for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.#entries.delete(key);
  }
}
