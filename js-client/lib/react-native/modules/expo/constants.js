// ExponentConstants (expo-constants' ConstantsModule.swift, its values from EXConstantsService.m), for a bare
// app: `manifest` is the app's own config as expo-constants' build script embeds it (`app.config.js`, called
// with app.json's `expo` when it is a function, else `app.json`'s `expo`), `executionEnvironment` 'bare', no
// `appOwnership`, the device an iPhone simulator of openApp's window.

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const name = 'ExponentConstants';

/** Some of the font families an iPhone has (what `UIFont.familyNames` lists). */
const SYSTEM_FONTS = [
  'Arial', 'Avenir', 'Avenir Next', 'Courier', 'Courier New', 'Georgia', 'Helvetica', 'Helvetica Neue', 'Menlo',
  'Times New Roman', 'Verdana',
];

/** The app's Expo config at `root` (`app.config.js`/`.cjs`/`.json`, else `app.json`'s `expo`), or null. */
export function readAppConfig(root) {
  let config = null;
  const appJson = path.join(root, 'app.json');
  if (existsSync(appJson)) {
    try {
      const json = JSON.parse(readFileSync(appJson, 'utf8'));
      config = json.expo ?? json;
    } catch (error) {
      throw new Error(`openApp: cannot read ${appJson} (the app's Expo config, for expo-constants): ${error.message}`);
    }
  }
  for (const file of ['app.config.js', 'app.config.cjs', 'app.config.json']) {
    const full = path.join(root, file);
    if (!existsSync(full)) continue;
    let exported;
    try {
      if (file.endsWith('.json')) {
        exported = JSON.parse(readFileSync(full, 'utf8'));
      } else {
        // Read afresh at each open, as expo-constants' build script reads it at each build.
        const require = createRequire(full);
        delete require.cache[full];
        exported = require(full);
        delete require.cache[full];
      }
    } catch (error) {
      throw new Error(`openApp: cannot load ${full} (the app's Expo config, for expo-constants): ${error.message}`);
    }
    exported = exported?.__esModule && exported.default ? exported.default : exported;
    const made = typeof exported === 'function' ? exported({ config: { ...(config ?? {}) } }) : exported;
    config = made?.expo ?? made ?? config;
    break;
  }
  return config;
}

/** `context`: `{ root, window }`. */
export function create(context) {
  const sessionId = randomUUID();
  const installationId = randomUUID();
  let manifest;
  return {
    getConstants: () => {
      manifest ??= readAppConfig(context.root);
      const version = manifest?.version ?? '1.0.0';
      const build = String(manifest?.ios?.buildNumber ?? '1');
      return {
        sessionId,
        executionEnvironment: 'bare',
        statusBarHeight: context.window?.insets?.top ?? 47,
        deviceName: 'iPhone',
        isDevice: false,
        systemFonts: SYSTEM_FONTS,
        debugMode: true,
        isHeadless: false,
        nativeAppVersion: version,
        nativeBuildVersion: build,
        installationId,
        manifest: manifest ?? null,
        platform: { ios: { buildNumber: build, platform: 'iPhone14,7', userInterfaceIdiom: 'handset', systemVersion: '16.4' } },
      };
    },
    async getWebViewUserAgentAsync() {
      return 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
    },
  };
}
