#ifndef CCAIROPANGO_SHIM_H
#define CCAIROPANGO_SHIM_H

// Cairo (drawing, PNG in and out) and Pango over Cairo (text shaped by HarfBuzz, fonts found by fontconfig):
// the daemon's text measurement and its pictures of a screen.
#include <stdio.h>
#include <cairo.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
// zlib: the PNG of a picture is deflated by the daemon itself (fast, level 1), not by libpng's level 6.
#include <zlib.h>

/// deflateInit2, a macro Swift cannot import: a zlib stream (PNG's IDAT format) at `level` with `strategy`.
static inline int cp_deflate_init(z_stream *stream, int level, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, 15, 8, strategy);
}

/// PANGO_SCALE, a macro Swift cannot import.
static inline int cp_pango_scale(void) { return PANGO_SCALE; }

/// g_object_unref, typed for Swift's opaque pointers.
static inline void cp_unref(void *object) { g_object_unref(object); }

/// Adds a font file to the fontconfig configuration of `map` (a PangoFcFontMap) and writes the family fontconfig
/// reads in it (its first face's) into `family` (`size` bytes); 1 when it was added.
static inline int cp_add_font_file(PangoFontMap *map, const char *path, char *family, int size) {
    int count = 0;
    FcPattern *face = FcFreeTypeQuery((const FcChar8 *)path, 0, NULL, &count);
    if (face == NULL) return 0;
    FcChar8 *name = NULL;
    if (FcPatternGetString(face, FC_FAMILY, 0, &name) != FcResultMatch || name == NULL) {
        FcPatternDestroy(face);
        return 0;
    }
    snprintf(family, (size_t)size, "%s", (const char *)name);
    FcPatternDestroy(face);
    FcConfig *config = pango_fc_font_map_get_config(PANGO_FC_FONT_MAP(map));
    if (config == NULL) config = FcConfigGetCurrent();
    int added = FcConfigAppFontAddFile(config, (const FcChar8 *)path);
    if (added) pango_fc_font_map_config_changed(PANGO_FC_FONT_MAP(map));
    return added;
}

#endif
