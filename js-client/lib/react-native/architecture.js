// Which of React Native's renderers an app uses, for `attachReactNative(bridge, {architecture: 'auto'})`: the
// new architecture (Fabric) when the app enables it the way React Native 0.72 reads it, else paper.

import { readFileSync } from 'node:fs';
import path from 'node:path';

function read(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * 'fabric' or 'paper' for the app at `root`, by the first of these that says:
 *   1. $RCT_NEW_ARCH_ENABLED (`1`/`true`: Fabric; `0`/`false`: paper), the flag iOS builds read
 *      (`RCT_NEW_ARCH_ENABLED=1 pod install`, RCTAppDelegate's `#if RCT_NEW_ARCH_ENABLED`);
 *   2. `android/gradle.properties`'s `newArchEnabled=true|false`, the flag Android builds read;
 *   3. `ios/Podfile.properties.json`'s `"newArchEnabled": "true"|"false"` (Expo's prebuild writes it);
 * else paper, React Native 0.72's default.
 */
export function appArchitecture(root, env = process.env) {
  const flag = env.RCT_NEW_ARCH_ENABLED?.trim().toLowerCase();
  if (flag === '1' || flag === 'true') return 'fabric';
  if (flag === '0' || flag === 'false') return 'paper';
  const gradle = read(path.join(root, 'android', 'gradle.properties'))?.match(/^\s*newArchEnabled\s*=\s*(\w+)\s*$/m);
  if (gradle) return gradle[1].toLowerCase() === 'true' ? 'fabric' : 'paper';
  const podfile = read(path.join(root, 'ios', 'Podfile.properties.json'));
  if (podfile) {
    try {
      const value = JSON.parse(podfile).newArchEnabled;
      if (value !== undefined) return String(value).toLowerCase() === 'true' ? 'fabric' : 'paper';
    } catch {
      // not JSON: says nothing
    }
  }
  return 'paper';
}
