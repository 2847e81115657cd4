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
// libjpeg(-turbo): a JPEG image's pixels, decoded straight into a Cairo surface's rows (Cairo reads PNG alone).
#include <setjmp.h>
#include <jpeglib.h>

/// deflateInit2, a macro Swift cannot import: a zlib stream (PNG's IDAT format) at `level` with `strategy`.
static inline int cp_deflate_init(z_stream *stream, int level, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, 15, 8, strategy);
}

/// libjpeg's error manager, which would exit the process: a decoding error jumps back instead.
struct cp_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf back;
};

static void cp_jpeg_fail(j_common_ptr info) { longjmp(((struct cp_jpeg_error *)info->err)->back, 1); }
static void cp_jpeg_quiet(j_common_ptr info, int level) { (void)info; (void)level; }

/// A baseline or progressive JPEG file (grey, YCbCr or RGB) decoded into a new CAIRO_FORMAT_RGB24 surface, or NULL
/// when it is not one, is damaged, or has more than `max_pixels` pixels (its header is read first). The caller
/// destroys it.
static inline cairo_surface_t *cp_jpeg_surface(const char *path, long max_pixels) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    struct jpeg_decompress_struct info;
    struct cp_jpeg_error error;
    cairo_surface_t *volatile surface = NULL;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = cp_jpeg_fail;
    error.manager.emit_message = cp_jpeg_quiet;
    if (setjmp(error.back)) {
        jpeg_destroy_decompress(&info);
        fclose(file);
        if (surface != NULL) cairo_surface_destroy(surface);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_stdio_src(&info, file);
    jpeg_read_header(&info, TRUE);
    if (info.num_components != 1 && info.num_components != 3) longjmp(error.back, 1);
    if ((long)info.image_width * (long)info.image_height > max_pixels) longjmp(error.back, 1);
    info.out_color_space = JCS_EXT_BGRX; // Cairo's RGB24 in memory on a little-endian machine
    jpeg_start_decompress(&info);
    surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)info.output_width, (int)info.output_height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) longjmp(error.back, 1);
    unsigned char *data = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    cairo_surface_flush(surface);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = data + (size_t)info.output_scanline * (size_t)stride;
        jpeg_read_scanlines(&info, &row, 1);
    }
    cairo_surface_mark_dirty(surface);
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    fclose(file);
    return surface;
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
