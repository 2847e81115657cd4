// `require('./logo.png')` as Metro's asset plugin gives it: the asset registered with the app's AssetRegistry,
// `width`/`height` read from the file's own header (PNG, JPEG, GIF, WebP, BMP), and a location that React
// Native's AssetSourceResolver turns into the file's own URI (`file:///…/logo.png`) when the bundle is a file.

import { readFileSync, openSync, readSync, closeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';

/** The pixel size of an image file from its header, or null when the format is not one it reads. */
export function imageSize(file) {
  let header;
  try {
    const fd = openSync(file, 'r');
    try {
      header = Buffer.alloc(64 * 1024);
      const n = readSync(fd, header, 0, header.length, 0);
      header = header.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  return sizeOf(header);
}

/** Width and height from an image's first bytes. */
export function sizeOf(b) {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR') {
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), type: 'png' };
  }
  if (b.length >= 10 && b.toString('latin1', 0, 3) === 'GIF') {
    return { width: b.readUInt16LE(6), height: b.readUInt16LE(8), type: 'gif' };
  }
  if (b.length >= 26 && b.toString('latin1', 0, 2) === 'BM') {
    return { width: b.readInt32LE(18), height: Math.abs(b.readInt32LE(22)), type: 'bmp' };
  }
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    const chunk = b.toString('latin1', 12, 16);
    if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3), type: 'webp' };
    if (chunk === 'VP8 ') {
      return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff, type: 'webp' };
    }
    if (chunk === 'VP8L') {
      const bits = b.readUInt32LE(21);
      return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff), type: 'webp' };
    }
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    // JPEG: walk the segments to a start-of-frame marker.
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1];
      const length = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5), type: 'jpeg' };
      }
      i += 2 + length;
    }
  }
  return null;
}

/**
 * The asset Metro registers for `file`: `httpServerLocation` is the file's folder, so that with the bundle at
 * `file:///` (SourceCode's scriptURL) AssetSourceResolver resolves it to the file itself.
 */
export function assetFor(file) {
  const ext = path.extname(file);
  const base = path.basename(file, ext);
  // `logo.ios.png` is registered as `logo`, with the platform file as its location.
  const name = base.replace(/\.(ios|android|native)$/, '').replace(/@\d+(\.\d+)?x$/, '');
  const size = imageSize(file);
  let hash;
  try {
    hash = createHash('md5').update(readFileSync(file)).digest('hex');
  } catch {
    hash = '';
  }
  const fileName = path.basename(file);
  return {
    __packager_asset: true,
    httpServerLocation: path.dirname(file),
    fileSystemLocation: path.dirname(file),
    // The file's own name (with its platform part): what AssetSourceResolver puts after the location.
    name: fileName.slice(0, fileName.length - ext.length),
    ...(size ? { width: size.width, height: size.height } : {}),
    scales: [1],
    files: [file],
    hash,
    type: ext.slice(1),
    registeredName: name,
  };
}
