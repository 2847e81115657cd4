import CCairoPango
import Synchronization

/// Text laid out by Pango (shaped by HarfBuzz, fonts found by fontconfig), as iOS's text system lays out a
/// `Text`'s attributed string: what measures a text for Yoga and what draws it in a picture.
///
/// Sizes are in points, one Pango device unit a point, with unhinted metrics and unrounded glyph positions, so a
/// text measures the same at any scale it is drawn at. The default family is ``defaultFamily`` (Inter, close to
/// iOS's San Francisco in its metrics); a `fontFamily` fontconfig does not have falls back to it.
enum TextLayout {
    /// The family of a text that names none, and of one whose family is not installed.
    static let defaultFamily = "Inter"

    /// Pango's font map and context, and the sizes measured. Unchecked: Pango's objects are not thread-safe, and
    /// these are only reached under ``pango``'s lock.
    private struct Pango: ~Copyable, @unchecked Sendable {
        let map: UnsafeMutablePointer<PangoFontMap>
        let context: OpaquePointer
        var cache: [Key: Size] = [:]
        /// The families of the fonts an app loaded (`layout`'s `fonts`): the name it uses → the family in the file.
        var loaded: [String: String] = [:]

        init() {
            map = pango_cairo_font_map_new()!
            context = pango_font_map_create_context(map)!
            let options = cairo_font_options_create()
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
            pango_cairo_context_set_font_options(context, options)
            cairo_font_options_destroy(options)
            pango_context_set_round_glyph_positions(context, 0)
            pango_cairo_context_set_resolution(context, 72)
        }
    }

    private static let pango = Mutex(Pango())

    struct Size: Equatable {
        var width: Double
        var height: Double
    }

    private struct Key: Hashable {
        let content: TextContent
        let width: Double?
    }

    /// Readies the text system: fontconfig's configuration (a hundred files read and parsed), Pango's font map and
    /// the default family's font, which the first text measured would otherwise do while its client waits (5–9 ms
    /// of the first `inspect` a jest file's first press sends, whose layout pass measures its texts):
    /// ``Engine/prepareTextAside()`` runs it on a thread of the daemon's when a session turns its layout on.
    static func prepare() {
        var content = TextContent()
        content.spans = [TextSpan(text: "Aa", style: TextStyle())]
        _ = size(content, width: nil)
    }

    /// The size of `content` laid out in `width` points (nil: unbounded), as `NSLayoutManager`'s used rect: the
    /// widest line and the lines' height, `numberOfLines` of them at most. An empty text is 0 by 0, an empty input
    /// one line high.
    static func size(_ content: TextContent, width: Double?) -> Size {
        if content.isEmpty && !content.isInput { return Size(width: 0, height: 0) }
        let key = Key(content: content, width: width)
        return pango.withLock { pango in
            if let size = pango.cache[key] { return size }
            let layout = make(content, width: width, align: false, context: pango.context, loaded: pango.loaded)
            defer { cp_unref(UnsafeMutableRawPointer(layout)) }
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            let scale = Double(cp_pango_scale())
            var size = Size(width: Double(logical.width) / scale, height: Double(logical.height) / scale)
            if content.isEmpty { size.width = 0 }
            if pango.cache.count >= 8_192 { pango.cache.removeAll(keepingCapacity: true) }
            pango.cache[key] = size
            return size
        }
    }

    /// Draws `content` in `width` points at the current point of `cairo`, aligned as its `textAlign` says.
    static func draw(_ content: TextContent, width: Double, on cairo: OpaquePointer) {
        if content.isEmpty { return }
        pango.withLock { pango in
            let layout = make(content, width: width, align: true, context: pango.context, loaded: pango.loaded)
            defer { cp_unref(UnsafeMutableRawPointer(layout)) }
            if content.isInput && content.numberOfLines == 1 {
                // A one-line field is laid out unwrapped, with no width to align in: UITextField aligns its text (or
                // placeholder) in its box.
                var logical = PangoRectangle()
                pango_layout_get_extents(layout, nil, &logical)
                let free = width - Double(logical.width) / Double(cp_pango_scale())
                let shift = content.textAlign == "center" ? free / 2 : content.textAlign == "right" ? free : 0
                if shift > 0 { cairo_rel_move_to(cairo, shift, 0) }
            }
            // A span with no colour is black (UIKit's default text colour); Pango draws it in the source colour.
            cairo_set_source_rgb(cairo, 0, 0, 0)
            pango_cairo_show_layout(cairo, layout)
        }
    }

    /// Adds the font file at `path` under the family name `family` (as `expo-font`'s `loadAsync(family, uri)`
    /// names it): a text whose `fontFamily` is `family` is laid out in it. Throws `bad_request` naming the file when
    /// fontconfig cannot read it.
    static func load(family: String, path: String) throws(BridgeError) {
        let result: String? = pango.withLock { pango in
            var name = [CChar](repeating: 0, count: 256)
            guard cp_add_font_file(pango.map, path, &name, Int32(name.count)) == 1 else { return nil }
            let real = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            pango.loaded[family] = real
            pango.cache.removeAll()
            return real
        }
        guard result != nil else {
            throw BridgeError(
                .badRequest,
                "layout: the font '\(family)' at \(path) could not be read (no such file, or not a font)"
            )
        }
    }

    /// A Pango layout of `content`; the caller unrefs it.
    private static func make(
        _ content: TextContent,
        width: Double?,
        align: Bool,
        context: OpaquePointer,
        loaded: [String: String]
    ) -> OpaquePointer {
        let scale = Double(cp_pango_scale())
        let layout = pango_layout_new(context)!
        var text = ""
        let attributes = pango_attr_list_new()!
        defer { pango_attr_list_unref(attributes) }
        func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ start: Int, _ end: Int) {
            guard let attribute else { return }
            attribute.pointee.start_index = UInt32(start)
            attribute.pointee.end_index = UInt32(end)
            pango_attr_list_insert(attributes, attribute)
        }
        for span in content.spans {
            let start = text.utf8.count
            text += span.text
            let end = text.utf8.count
            let style = span.style
            let fontScale = style.allowFontScaling == false ? 1 : content.fontScale
            let size = (style.fontSize ?? TextStyle.defaultFontSize) * fontScale
            insert(pango_attr_size_new_absolute(Int32((size * scale).rounded())), start, end)
            let family = style.fontFamily.map { TextLayout.family($0, loaded: loaded) } ?? defaultFamily
            family.withCString { insert(pango_attr_family_new($0), start, end) }
            insert(pango_attr_weight_new(PangoWeight(rawValue: UInt32(style.fontWeight ?? 400))), start, end)
            if style.italic == true { insert(pango_attr_style_new(PANGO_STYLE_ITALIC), start, end) }
            if let spacing = style.letterSpacing, spacing != 0 {
                insert(pango_attr_letter_spacing_new(Int32((spacing * scale).rounded())), start, end)
            }
            if let lineHeight = style.lineHeight {
                let height = lineHeight * fontScale
                insert(pango_attr_line_height_new_absolute(Int32((height * scale).rounded())), start, end)
            }
            if let color = style.color {
                func channel(_ shift: UInt32) -> UInt16 { UInt16((color >> shift) & 0xFF) * 257 }
                insert(pango_attr_foreground_new(channel(16), channel(8), channel(0)), start, end)
                let alpha = UInt16(color >> 24) * 257
                if alpha != 0xFFFF { insert(pango_attr_foreground_alpha_new(max(1, alpha)), start, end) }
            }
            switch style.textDecorationLine {
            case "underline":
                insert(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), start, end)
            case "line-through":
                insert(pango_attr_strikethrough_new(1), start, end)
            case "underline line-through":
                insert(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), start, end)
                insert(pango_attr_strikethrough_new(1), start, end)
            default: break
            }
        }
        if content.isEmpty {
            // An empty input is one line of its font high: a zero-width space carries the attributes.
            text = "\u{200B}"
            let style = content.spans.first?.style ?? TextStyle()
            let size = (style.fontSize ?? TextStyle.defaultFontSize) * content.fontScale
            insert(pango_attr_size_new_absolute(Int32((size * scale).rounded())), 0, 3)
            defaultFamily.withCString { insert(pango_attr_family_new($0), 0, 3) }
        }
        pango_layout_set_text(layout, text, Int32(text.utf8.count))
        pango_layout_set_attributes(layout, attributes)
        if let width, width.isFinite, width >= 0 {
            pango_layout_set_width(layout, Int32(min(width * scale, Double(Int32.max / 2)).rounded(.down)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        if content.isInput && content.numberOfLines == 1 {
            pango_layout_set_single_paragraph_mode(layout, 1)
            pango_layout_set_width(layout, -1)
        }
        if content.numberOfLines > 0 && !(content.isInput && content.numberOfLines == 1) {
            pango_layout_set_height(layout, Int32(-content.numberOfLines))
            let mode: PangoEllipsizeMode =
                switch content.ellipsizeMode {
                case "head": PANGO_ELLIPSIZE_START
                case "middle": PANGO_ELLIPSIZE_MIDDLE
                // `clip` cuts the lines off: the same lines as the ellipsis, its last one cut where it overflows.
                default: PANGO_ELLIPSIZE_END
                }
            if width != nil { pango_layout_set_ellipsize(layout, mode) }
        }
        if align {
            switch content.textAlign {
            case "center": pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
            case "right": pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
            case "justify": pango_layout_set_justify(layout, 1)
            default: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
            }
        }
        return layout
    }

    /// The family fontconfig is asked for: `System` (React Native's name for the system font) and the iOS names of
    /// San Francisco are the default family; a family an app loaded is the family in its file.
    private static func family(_ name: String, loaded: [String: String]) -> String {
        if let real = loaded[name] { return real + "," + defaultFamily }
        return switch name {
        case "System", "system-ui", "-apple-system", ".AppleSystemUIFont", "SF Pro", "SF Pro Text", "SF Pro Display":
            defaultFamily
        default:
            name + "," + defaultFamily
        }
    }
}
