// Symbols for the methods View and Transaction use on a Bridge; not part of the public API.
export const kRequest = Symbol('bridged.request');
export const kAllocateTag = Symbol('bridged.allocateTag');
export const kSubscriptions = Symbol('bridged.subscriptions');
export const kRegistrationNames = Symbol('bridged.registrationNames');
export const kTrackView = Symbol('bridged.trackView');
export const kForgetView = Symbol('bridged.forgetView');
export const kViewsDeleted = Symbol('bridged.viewsDeleted');
/** The bytes of requests waiting to be written (a React Native attachment sends a commit's parts only while none do). */
export const kUnsentBytes = Symbol('bridged.unsentBytes');
/**
 * Which React Native attachment's commit has parts out on a Bridge (its session holds one batch in parts at a
 * time: another's first part would drop them), or undefined.
 */
export const kPartsOwner = Symbol('bridged.partsOwner');

export const kPlan = Symbol('bridged.view.plan');
export const kSetState = Symbol('bridged.view.setState');

/** The tag of a View or a plain tag number. */
export function tagOf(view) {
  if (typeof view === 'number') return view;
  if (view !== null && typeof view === 'object' && typeof view.tag === 'number') return view.tag;
  throw new TypeError(`expected a View or a tag, got ${typeof view}`);
}

/** One signal that aborts when any of `signals` does (undefined ones are left out). */
export function anySignal(signals) {
  const present = signals.filter(Boolean);
  if (present.length <= 1) return present[0];
  return AbortSignal.any(present);
}
