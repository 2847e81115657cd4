// ExpoFontLoader (expo-font's EXFontLoader.m): `loadAsync(family, localUri)` reads the font's file, as iOS makes
// a CGFont of its data: a file that is not there, or not a TrueType/OpenType font, rejects with EXFontLoader's
// code; a family loaded twice rejects (E_FONT_ALREADY_EXISTS). The families loaded are the app's `fonts`, and the
// daemon's (layout's `fonts`): texts in the family are measured and drawn in the file's font.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const name = 'ExpoFontLoader';

/** sfnt versions: TrueType (0x00010000, 'true'), OpenType with CFF ('OTTO'), a collection ('ttcf'), WOFF, WOFF2. */
const FONT_TAGS = new Set(['00010000', '74727565', '4f54544f', '74746366', '774f4646', '774f4632']);

function codedError(code, message) {
  return Object.assign(new Error(message), { code });
}

/** `context.fonts`: family → the font's file, shared with the app. */
export function create(context) {
  const fonts = context.fonts;
  return {
    async loadAsync(family, localUri) {
      if (fonts.has(family)) throw codedError('E_FONT_ALREADY_EXISTS', `Font with family name '${family}' already loaded`);
      let data = null;
      try {
        const uri = String(localUri);
        data = readFileSync(uri.startsWith('file://') ? fileURLToPath(uri) : uri);
      } catch {}
      if (!data) throw codedError('E_FONT_FILE_NOT_FOUND', `File '${localUri}' for font '${family}' doesn't exist`);
      if (data.length < 12 || !FONT_TAGS.has(data.subarray(0, 4).toString('hex'))) {
        throw codedError('E_FONT_CREATION_FAILED', `Could not create font from loaded data for '${family}'`);
      }
      fonts.set(family, String(localUri));
      // The daemon measures and draws the family's texts in it; one fontconfig cannot read (a WOFF2) falls back.
      const uri = String(localUri);
      await context.layoutFont?.(family, uri.startsWith('file://') ? fileURLToPath(uri) : uri).catch(() => {});
      return null;
    },
  };
}
