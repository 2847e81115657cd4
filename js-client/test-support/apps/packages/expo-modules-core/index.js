// A stand-in for expo-modules-core's module and view lookups (written for bridged's tests, not Expo's code): how an
// Expo package reaches its native side, through globalThis.expo.modules and NativeModules.NativeUnimoduleProxy.
import {NativeModules, requireNativeComponent} from 'react-native';

export function requireNativeModule(name) {
  const module = globalThis.expo?.modules?.[name] ?? globalThis.ExpoModules?.[name];
  if (!module) throw new Error(`Cannot find native module '${name}'`);
  return module;
}

export function requireNativeViewManager(name) {
  const metadata = NativeModules.NativeUnimoduleProxy.viewManagersMetadata[name];
  if (!metadata) throw new Error(`no view manager ${name}`);
  return requireNativeComponent(`ViewManagerAdapter_${name}`);
}
