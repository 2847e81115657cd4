// RNCSafeAreaContext (react-native-safe-area-context): the window's safe-area insets and frame, from openApp's
// `{ window: { width, height, insets: { top, right, bottom, left } } }` (an iPhone's by default). Every mounted
// RNCSafeAreaProvider is told them too (`insetsChange`, app/after-commit.js), as the native provider does on layout.

export const name = 'RNCSafeAreaContext';

/** The window's metrics as react-native-safe-area-context's native side gives them. */
export function windowMetrics(app) {
  const { width, height, insets } = app.window;
  return { insets: { ...insets }, frame: { x: 0, y: 0, width, height } };
}

export function create(app) {
  return { getConstants: () => ({ initialWindowMetrics: windowMetrics(app) }) };
}
