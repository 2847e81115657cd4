// ImageLoader: an image's size from its file's header (`Image.getSize`); a URL that is no file fails.

import { fileURLToPath } from 'node:url';
import { imageSize } from '../app/assets.js';

export const name = 'ImageLoader';

/** The local file of an image URI (`file://…` or a path), or null. */
export function fileOf(uri) {
  if (typeof uri !== 'string') return null;
  if (uri.startsWith('file://')) {
    try {
      return fileURLToPath(uri);
    } catch {
      return null;
    }
  }
  return uri.startsWith('/') ? uri : null;
}

function sizeOf(uri) {
  const file = fileOf(uri);
  const size = file ? imageSize(file) : null;
  if (!size) throw new Error(`bridged: cannot read the size of image '${uri}' (only local image files are read)`);
  return size;
}

export function create() {
  return {
    // RCTImageLoader's constants: none (NativeImageLoaderIOS.js declares getConstants).
    getConstants: () => ({}),
    getSize: async (uri) => {
      const { width, height } = sizeOf(uri);
      return [width, height];
    },
    getSizeWithHeaders: async (uri) => {
      const { width, height } = sizeOf(uri);
      return { width, height };
    },
    prefetchImage: async (uri) => fileOf(uri) !== null && imageSize(fileOf(uri)) !== null,
    prefetchImageWithMetadata: async (uri) => fileOf(uri) !== null && imageSize(fileOf(uri)) !== null,
    queryCache: async () => ({}),
  };
}
