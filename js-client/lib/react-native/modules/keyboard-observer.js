// KeyboardObserver: Keyboard's listeners (its events come through RCTDeviceEventEmitter: app.emitDeviceEvent).

export const name = 'KeyboardObserver';

export function create() {
  return { addListener() {}, removeListeners() {} };
}
