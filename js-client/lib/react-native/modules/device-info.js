// DeviceInfo: `Dimensions` (window and screen), from openApp's `{ window: { width, height, scale, fontScale } }`.

export const name = 'DeviceInfo';

export function create(app) {
  return {
    getConstants: () => ({ Dimensions: { window: { ...app.window }, screen: { ...app.window } }, isIPhoneX_deprecated: false }),
  };
}
