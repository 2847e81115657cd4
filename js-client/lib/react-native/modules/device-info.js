// DeviceInfo: `Dimensions` (window and screen), from openApp's `{ window: { width, height, scale, fontScale } }`:
// the four keys iOS's RCTDeviceInfo exports for each (RCTExportedDimensions), not the window's safe-area insets,
// which are RNCSafeAreaContext's (safe-area-context.js).

export const name = 'DeviceInfo';

export function create(app) {
  const dimensions = () => {
    const { width, height, scale, fontScale } = app.window;
    return { width, height, scale, fontScale };
  };
  return {
    getConstants: () => ({ Dimensions: { window: dimensions(), screen: dimensions() }, isIPhoneX_deprecated: false }),
  };
}
