// PlatformConstants (iOS): what `Platform` reads. `isTesting` is false: with true, Animated swaps itself for a mock.

export const name = 'PlatformConstants';

export function create(app) {
  const version = app.reactNativeVersion;
  return {
    getConstants: () => ({
      isTesting: false,
      isDisableAnimations: false,
      reactNativeVersion: { major: version.major, minor: version.minor, patch: version.patch, prerelease: version.prerelease },
      forceTouchAvailable: false,
      osVersion: '16.4',
      systemName: 'iOS',
      interfaceIdiom: 'phone',
    }),
  };
}
