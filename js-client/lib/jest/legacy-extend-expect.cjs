// `@testing-library/jest-native/legacy-extend-expect`: jest-native's matchers under `legacy_` names (`legacy_toBeDisabled`,
// …), for a suite moving to React Native Testing Library's own, on bridged's elements.
const host = global.__bridged__;
const LEGACY = [
  'toBeDisabled',
  'toBeEnabled',
  'toBeEmptyElement',
  'toBeOnTheScreen',
  'toBeVisible',
  'toContainElement',
  'toHaveAccessibilityState',
  'toHaveAccessibilityValue',
  'toHaveProp',
  'toHaveStyle',
  'toHaveTextContent',
];
if (host) {
  const matchers = host.matchers({ jestNative: true });
  expect.extend(Object.fromEntries(LEGACY.map((name) => [`legacy_${name}`, matchers[name]])));
}
