// LinkingManager: the URLs an app opens, recorded (app.nativeCalls('LinkingManager')); every URL with a scheme can
// be opened, and the app was not opened from one.

export const name = 'LinkingManager';

const hasScheme = (url) => typeof url === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(url);

export function create() {
  return {
    openURL: async (url) => {
      if (!hasScheme(url)) throw new Error(`Unable to open URL: ${url}`);
    },
    canOpenURL: async (url) => hasScheme(url),
    getInitialURL: async () => null,
    openSettings: async () => {},
    addListener() {},
    removeListeners() {},
  };
}
