// PNG in and out with node:zlib alone, and the comparison of a screenshot with a saved picture (picture tests).
//
// decodePng reads what PNG encoders write (bit depths 1-16; grey, RGB, palette, grey+alpha, RGBA; not interlaced)
// into 8-bit RGBA; encodePng writes 8-bit RGBA. comparePng writes a diff image beside the expected file when they
// differ: the expected picture faded, the pixels that differ in red.
import { deflateSync, inflateSync } from 'node:zlib';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** `{width, height, data}`: the PNG's pixels as 8-bit RGBA, row by row. Throws naming what it cannot read. */
export function decodePng(bytes) {
  const png = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
  if (png.length < 8 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error('decodePng: not a PNG (no PNG signature)');
  let offset = 8;
  let header = null;
  let palette = null;
  let transparency = null;
  const data = [];
  while (offset + 8 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    offset += 12 + length;
    if (type === 'IHDR') {
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8],
        colorType: body[9],
        interlace: body[12],
      };
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') transparency = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
  }
  if (!header) throw new Error('decodePng: no IHDR chunk');
  const { width, height, depth, colorType, interlace } = header;
  const channels = CHANNELS[colorType];
  if (!channels) throw new Error(`decodePng: colour type ${colorType} is not PNG's`);
  if (interlace !== 0) throw new Error('decodePng: interlaced PNGs are not read');
  if (width * height > 100_000_000) throw new Error(`decodePng: ${width}x${height} is too large`);
  const raw = inflateSync(Buffer.concat(data));
  const bitsPerPixel = channels * depth;
  const bytesPerPixel = Math.max(1, bitsPerPixel >> 3);
  const stride = Math.ceil((width * bitsPerPixel) / 8);
  if (raw.length < height * (stride + 1)) throw new Error('decodePng: the image data is shorter than its size says');
  const rows = Buffer.alloc(height * stride);
  let previous = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = rows.subarray(y * stride, (y + 1) * stride);
    for (let i = 0; i < stride; i++) {
      const left = i >= bytesPerPixel ? out[i - bytesPerPixel] : 0;
      const up = previous[i];
      const upLeft = i >= bytesPerPixel ? previous[i - bytesPerPixel] : 0;
      let value = line[i];
      if (filter === 1) value += left;
      else if (filter === 2) value += up;
      else if (filter === 3) value += (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      } else if (filter !== 0) throw new Error(`decodePng: row ${y} has an unknown filter ${filter}`);
      out[i] = value & 0xff;
    }
    previous = out;
  }
  const rgba = Buffer.alloc(width * height * 4);
  const max = (1 << depth) - 1;
  const sample = (row, index) => {
    if (depth === 8) return row[index];
    if (depth === 16) return row[index * 2];
    const bit = index * depth;
    return (row[bit >> 3] >> (8 - depth - (bit & 7))) & max;
  };
  const scale = (value) => (depth >= 8 ? value : Math.round((value * 255) / max));
  for (let y = 0; y < height; y++) {
    const row = rows.subarray(y * stride, (y + 1) * stride);
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const s = (c) => sample(row, x * channels + c);
      if (colorType === 3) {
        const index = s(0);
        rgba[o] = palette?.[index * 3] ?? 0;
        rgba[o + 1] = palette?.[index * 3 + 1] ?? 0;
        rgba[o + 2] = palette?.[index * 3 + 2] ?? 0;
        rgba[o + 3] = transparency && index < transparency.length ? transparency[index] : 255;
      } else if (colorType === 0 || colorType === 4) {
        const grey = scale(s(0));
        rgba[o] = rgba[o + 1] = rgba[o + 2] = grey;
        rgba[o + 3] = colorType === 4 ? scale(s(1)) : 255;
      } else {
        rgba[o] = scale(s(0));
        rgba[o + 1] = scale(s(1));
        rgba[o + 2] = scale(s(2));
        rgba[o + 3] = colorType === 6 ? scale(s(3)) : 255;
      }
    }
  }
  return { width, height, data: rgba };
}

let crcTable = null;
function crc32(buffers) {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let crc = -1;
  for (const buffer of buffers) for (const byte of buffer) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** A PNG (8-bit RGBA, not interlaced) of `{width, height, data}` (RGBA bytes, row by row). */
export function encodePng({ width, height, data }) {
  if (data.length !== width * height * 4) throw new Error(`encodePng: ${width}x${height} RGBA needs ${width * height * 4} bytes, got ${data.length}`);
  const raw = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    Buffer.from(data.buffer, data.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  const chunk = (type, body) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32([head.subarray(4), body]), 0);
    return [head, body, crc];
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    SIGNATURE,
    ...chunk('IHDR', header),
    ...chunk('IDAT', deflateSync(raw)),
    ...chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Compares the PNG `actual` (bytes) with the PNG file `expectedFile`. A pixel differs when a channel differs by
 * more than `tolerance` (0-255, default 0); the pictures match when at most `maxDiffPixels` pixels differ (default
 * 0) and their sizes agree. When they do not, writes `diffFile` (default: beside the expected, `.diff.png`: the
 * expected picture faded, the differing pixels red) and the actual picture (`.actual.png`). With no expected file
 * (or `update: true`, or `$BRIDGED_UPDATE_PICTURES=1`), writes `actual` there and reports it `created`.
 *
 * @returns {{match: boolean, created: boolean, differentPixels: number, width: number, height: number,
 *   diffFile: string | null, actualFile: string | null, message: string}}
 */
export function comparePng(actual, expectedFile, options = {}) {
  const { tolerance = 0, maxDiffPixels = 0 } = options;
  const update = options.update ?? process.env.BRIDGED_UPDATE_PICTURES === '1';
  const bytes = Buffer.isBuffer(actual) ? actual : Buffer.from(actual);
  const got = decodePng(bytes);
  if (update || !existsSync(expectedFile)) {
    mkdirSync(dirname(expectedFile), { recursive: true });
    writeFileSync(expectedFile, bytes);
    return { match: true, created: true, differentPixels: 0, width: got.width, height: got.height, diffFile: null, actualFile: null, message: `wrote ${expectedFile}` };
  }
  const want = decodePng(readFileSync(expectedFile));
  const width = Math.max(got.width, want.width);
  const height = Math.max(got.height, want.height);
  const diff = Buffer.alloc(width * height * 4);
  let differentPixels = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const inGot = x < got.width && y < got.height;
      const inWant = x < want.width && y < want.height;
      const g = (y * got.width + x) * 4;
      const w = (y * want.width + x) * 4;
      let differs = inGot !== inWant;
      if (inGot && inWant) {
        for (let c = 0; c < 4 && !differs; c++) differs = Math.abs(got.data[g + c] - want.data[w + c]) > tolerance;
      }
      if (differs) {
        differentPixels++;
        diff[o] = 255;
        diff[o + 1] = 0;
        diff[o + 2] = 0;
        diff[o + 3] = 255;
      } else {
        const grey = inWant ? (want.data[w] * 0.3 + want.data[w + 1] * 0.59 + want.data[w + 2] * 0.11) : 255;
        diff[o] = diff[o + 1] = diff[o + 2] = Math.round(255 - (255 - grey) * 0.25);
        diff[o + 3] = 255;
      }
    }
  }
  const sameSize = got.width === want.width && got.height === want.height;
  const match = sameSize && differentPixels <= maxDiffPixels;
  if (match) return { match, created: false, differentPixels, width, height, diffFile: null, actualFile: null, message: 'the pictures match' };
  const base = expectedFile.replace(/\.png$/i, '');
  const diffFile = options.diffFile ?? `${base}.diff.png`;
  const actualFile = `${base}.actual.png`;
  writeFileSync(diffFile, encodePng({ width, height, data: diff }));
  writeFileSync(actualFile, bytes);
  const size = sameSize ? '' : ` (sizes ${got.width}x${got.height} and ${want.width}x${want.height})`;
  return {
    match,
    created: false,
    differentPixels,
    width,
    height,
    diffFile,
    actualFile,
    message: `${differentPixels} pixels differ by more than ${tolerance} from ${expectedFile}${size}; the diff is ${diffFile}, the picture ${actualFile}`,
  };
}
