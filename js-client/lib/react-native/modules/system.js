// The small system modules React Native's core JavaScript asks for, each as iOS answers when nothing happens:
// the status bar, appearance, right-to-left layout, accessibility settings, the app's state, alerts, the
// clipboard, vibration, settings, dev settings, action sheets, modals, sounds and device events. Every call is recorded
// (app.nativeCalls(name)).

const noop = () => {};
const listeners = { addListener: noop, removeListeners: noop };
const callback = (value) => (onSuccess) => typeof onSuccess === 'function' && onSuccess(value);

/** name → the module's methods. */
export const modules = {
  StatusBarManager: (app) => ({
    getConstants: () => ({ HEIGHT: 47, DEFAULT_BACKGROUND_COLOR: 0 }),
    getHeight: (cb) => cb?.({ height: 47 }),
    setStyle: noop,
    setHidden: noop,
    setNetworkActivityIndicatorVisible: noop,
    ...listeners,
  }),
  // iOS's RCTAppearance: the system's scheme is the phone's (openApp's `colorScheme`, light by default);
  // setColorScheme overrides it on the app's windows ('unspecified' gives it back), and the root view's trait
  // collection change then has the module send `appearanceChanged` (after the call, not in it), from which on
  // getColorScheme answers the new scheme (useColorScheme re-renders).
  Appearance: (app) => {
    const system = app.colorScheme ?? 'light';
    let current = system;
    return {
      getColorScheme: () => current,
      setColorScheme: (style) => {
        const next = style === 'dark' || style === 'light' ? style : system;
        queueMicrotask(() => {
          if (next === current) return;
          current = next;
          app._emitFromNative('appearanceChanged', { colorScheme: next });
        });
      },
      ...listeners,
    };
  },
  I18nManager: () => ({
    getConstants: () => ({ isRTL: false, doLeftAndRightSwapInRTL: true, localeIdentifier: 'en_US' }),
    allowRTL: noop,
    forceRTL: noop,
    swapLeftAndRightInRTL: noop,
  }),
  AccessibilityManager: () => ({
    getCurrentBoldTextState: callback(false),
    getCurrentGrayscaleState: callback(false),
    getCurrentInvertColorsState: callback(false),
    getCurrentReduceMotionState: callback(false),
    getCurrentPrefersCrossFadeTransitionsState: callback(false),
    getCurrentReduceTransparencyState: callback(false),
    getCurrentVoiceOverState: callback(false),
    setAccessibilityContentSizeMultipliers: noop,
    setAccessibilityFocus: noop,
    announceForAccessibility: noop,
    announceForAccessibilityWithOptions: noop,
  }),
  AppState: () => ({
    getConstants: () => ({ initialAppState: 'active' }),
    getCurrentAppState: (success) => success?.({ app_state: 'active' }),
    ...listeners,
  }),
  // An alert waits for a test to press one of its buttons (app.alerts(), app.pressAlertButton()).
  AlertManager: (app) => ({ alertWithArgs: (args, callback) => app._alertShown(args, callback) }),
  Clipboard: () => {
    let content = '';
    return {
      getConstants: () => ({}),
      getString: async () => content,
      setString: (text) => {
        content = String(text);
      },
    };
  },
  Vibration: () => ({ getConstants: () => ({}), vibrate: noop, vibrateByPattern: noop, cancel: noop }),
  SettingsManager: () => ({ getConstants: () => ({ settings: {} }), setValues: noop, deleteValues: noop }),
  DevSettings: () => ({
    reload: noop,
    reloadWithReason: noop,
    onFastRefresh: noop,
    setHotLoadingEnabled: noop,
    setIsDebuggingRemotely: noop,
    setProfilingEnabled: noop,
    toggleElementInspector: noop,
    addMenuItem: noop,
    setIsShakeToShowDevMenuEnabled: noop,
    ...listeners,
  }),
  // A share sheet is completed at once, as shared (Share.share resolves `{action: 'sharedAction'}`); an action sheet
  // waits among the alerts (app.alerts(), app.pressAlertButton()).
  ActionSheetManager: (app) => ({
    getConstants: () => ({}),
    showActionSheetWithOptions: (options, callback) => app._actionSheetShown(options, callback),
    showShareActionSheetWithOptions: (options, failure, success) => setImmediate(() => success?.(true, null)),
    dismissActionSheet: noop,
  }),
  // Its `modalDismissed` event is emitted by the app when a presented modal's view goes (paper).
  ModalManager: () => ({ ...listeners }),
  SoundManager: () => ({ playTouchSound: noop }),
  DeviceEventManager: () => ({ invokeDefaultBackPressHandler: noop }),
  ShareModule: () => ({ getConstants: () => ({}), share: async () => ({ action: 'sharedAction' }) }),
  Networking: () => ({ sendRequest: noop, abortRequest: noop, clearCookies: (cb) => cb?.(true), ...listeners }),
  BlobModule: () => ({ getConstants: () => ({ BLOB_URI_SCHEME: 'blob', BLOB_URI_HOST: null }), addNetworkingHandler: noop, addWebSocketHandler: noop, removeWebSocketHandler: noop, sendOverSocket: noop, createFromParts: noop, release: noop }),
  WebSocketModule: () => ({ connect: noop, send: noop, sendBinary: noop, ping: noop, close: noop, ...listeners }),
  DevLoadingView: () => ({ showMessage: noop, hide: noop }),
  PushNotificationManager: () => ({ getConstants: () => ({}), ...listeners }),
};
