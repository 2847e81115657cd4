// The views this client created in its session, their handler subscriptions, and the registration names of
// the session's components.
import { RegistrationNames, SubscriptionTable } from '../events.js';
import { kSetState } from '../internal.js';

/**
 * What the client knows of its session's views: tags it allocated, the live Views by tag, the handlers
 * subscribed on them (events.js SubscriptionTable) and the handler prop names of hello's components. A View
 * changes state here as its session does: 'rolledBack', 'deleted', 'reset'.
 */
export class SessionViews {
  #nextTag = 1;
  /** @type {Map<number, object>} */
  #views = new Map();
  subscriptions = new SubscriptionTable();
  names = new RegistrationNames();

  /** The next tag of this client (tags are never reused, across resets too). */
  allocateTag() {
    return this.#nextTag++;
  }

  /** hello described the session's components: their handler prop names. */
  describe(components) {
    this.names = new RegistrationNames(components);
  }

  get(tag) {
    return this.#views.get(tag);
  }

  track(view) {
    this.#views.set(view.tag, view);
  }

  /** A view that never came to be (its create failed or its transaction rolled back). */
  forget(view) {
    view[kSetState]('rolledBack');
    this.subscriptions.dropTag(view.tag);
    if (this.#views.get(view.tag) === view) this.#views.delete(view.tag);
  }

  /** The daemon deleted these tags (a subtree). */
  deleted(tags) {
    for (const tag of tags) {
      this.subscriptions.dropTag(tag);
      this.#views.get(tag)?.[kSetState]('deleted');
      this.#views.delete(tag);
    }
  }

  /** A fresh session: the old one's views and subscriptions are gone with it. */
  reset() {
    for (const view of this.#views.values()) view[kSetState]('reset');
    this.#views.clear();
    this.subscriptions = new SubscriptionTable();
  }
}
