// ExpoAsset (expo-asset's AssetModule.swift, SDK 50 and later; before it expo-asset used expo-file-system):
// `downloadAsync(url, md5Hash, type)` gives a local file's URL back, standardized, as iOS does; a remote one
// rejects, as bridged has no network.

import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const name = 'ExpoAsset';

export function create() {
  return {
    async downloadAsync(url) {
      const text = String(url);
      if (text.startsWith('file://')) return pathToFileURL(path.normalize(fileURLToPath(text))).href;
      const message = `Unable to download asset from url: '${text}' (a headless phone under bridged has no network)`;
      throw Object.assign(new Error(message), { code: 'ERR_UNABLE_TO_DOWNLOAD_ASSET' });
    },
  };
}
