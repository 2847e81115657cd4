import CCairoPango
import PropStore

/// Draws a session's screen with Cairo, as UIKit composites React Native's views: each laid-out view's
/// background, borders, image and text, with its opacity, transform and clipping, in the order hit-testing reads
/// (``ShadowTree/hitTest(x:y:)``) turned around: windows bottom first (the screen, then each presented modal's
/// content), in each a view before its subviews, subviews by `zIndex`, then in order.
///
/// What is drawn, from `RCTView`, `RCTBorderDrawing`, `RCTImageView` and `RCTTextView` (React Native 0.72, iOS):
/// - `backgroundColor` over the view's bounds, rounded by its corner radii (`borderRadius` and each corner's,
///   `Start`/`End` as left/right);
/// - borders with per-side widths and colours (`borderColor`'s default is black), drawn below the subviews, or
///   above them when uniform (a `CALayer` border, as `RCTView` uses one when it can);
/// - `opacity` (the view and its subviews composited as one), `transform` (translate, scale, rotate, skew and
///   2D matrices, about the view's centre), `overflow: 'hidden'` and every scroll view clipping their subviews to the
///   rounded bounds, a scroll view's content moved by its `contentOffset`, `display: 'none'` drawing nothing;
/// - a `RCTImageView`'s local PNG (`file://` or a path) by its `resizeMode` (`cover` by default, `contain`,
///   `stretch`, `center`, `repeat`) and `tintColor`; a JPEG or a network image draws nothing, as one still loading;
/// - a text's attributed string laid out by ``TextLayout`` in its content box; a text input's text, else its
///   placeholder in grey, one line centred vertically.
/// Not drawn: shadows, `borderStyle` dotted and dashed (solid), 3D rotations (`rotateX`/`rotateY`/`perspective`),
/// other native controls' own look (an activity indicator); a switch is drawn as a `UISwitch`.
struct ScreenPainter {
    let tree: ShadowTree
    /// Pixels per point.
    let scale: Double

    /// The largest picture, in pixels (a 2,048-point square window at scale 3 is 37.7 million).
    static let maxPixels = 40_000_000
    static let maxSide = 16_384

    struct Picture {
        let width: Int
        let height: Int
        let png: [UInt8]
    }

    /// The window drawn into a PNG of `window.width × scale` by `window.height × scale` pixels (rounded up).
    func draw() throws(BridgeError) -> Picture {
        let window = tree.window
        let width = Int((window.width * scale).rounded(.up))
        let height = Int((window.height * scale).rounded(.up))
        guard width > 0, height > 0, width <= Self.maxSide, height <= Self.maxSide, width * height <= Self.maxPixels
        else {
            throw BridgeError(
                .limitExceeded,
                "screenshot: a picture of \(width)x\(height) pixels (a window of \(window.width)x\(window.height) "
                    + "points at scale \(scale)) is over the limit of \(Self.maxSide) pixels a side and "
                    + "\(Self.maxPixels) pixels in all; ask for a smaller 'scale'"
            )
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            throw BridgeError(.limitExceeded, "screenshot: Cairo could not make a \(width)x\(height) surface")
        }
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        // The window's background: UIKit's light system background.
        cairo_set_source_rgb(cairo, 1, 1, 1)
        cairo_paint(cairo)
        cairo_scale(cairo, scale, scale)
        for root in orderedRoots() {
            guard let frame = root.frame else { continue }
            cairo_save(cairo)
            // A modal's content starts at the window's origin, as its frame says.
            paint(root, frame: frame, on: cairo)
            cairo_restore(cairo)
        }
        cairo_surface_flush(surface)
        return Picture(width: width, height: height, png: try PNGWriter.encode(surface))
    }

    /// The roots bottom first: the screen's (by tag), then each presented modal's content (by tag).
    private func orderedRoots() -> [ShadowTree.Node] {
        tree.roots.values.sorted { a, b in
            let aModal = a.view.parent != nil
            let bModal = b.view.parent != nil
            return aModal != bModal ? !aModal : a.view.tag < b.view.tag
        }
    }

    private func paint(_ node: ShadowTree.Node, frame: Frame, on cairo: OpaquePointer) {
        let view = node.view
        let style = PaintStyle(view)
        if style.hidden || style.opacity <= 0 { return }
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        cairo_translate(cairo, frame.x, frame.y)
        let size = (width: frame.width, height: frame.height)
        if let transform = style.transform, !transform.isEmpty {
            cairo_translate(cairo, size.width / 2, size.height / 2)
            for step in transform { step.apply(to: cairo) }
            cairo_translate(cairo, -size.width / 2, -size.height / 2)
        }
        let grouped = style.opacity < 1
        if grouped { cairo_push_group(cairo) }
        let radii = style.radii.clamped(width: size.width, height: size.height)
        if let background = style.backgroundColor, background >> 24 != 0 {
            RoundedRect.path(cairo, x: 0, y: 0, width: size.width, height: size.height, radii: radii)
            setColor(cairo, background)
            cairo_fill(cairo)
        }
        let borders = style.borders
        if borders.any && !borders.uniform { drawBorders(borders, radii: radii, size: size, on: cairo) }
        switch node.kind {
        case .text:
            let inset = style.contentInset(borders)
            let content = TextContent(of: view, fontScale: tree.window.fontScale)
            cairo_move_to(cairo, inset.left, inset.top)
            TextLayout.draw(content, width: max(0, size.width - inset.left - inset.right), on: cairo)
        case .textInput:
            let inset = style.contentInset(borders)
            let content = TextContent(of: view, fontScale: tree.window.fontScale)
            let boxWidth = max(0, size.width - inset.left - inset.right)
            let boxHeight = max(0, size.height - inset.top - inset.bottom)
            var top = inset.top
            if content.numberOfLines == 1 {
                top += max(0, (boxHeight - TextLayout.size(content, width: nil).height) / 2)
            }
            cairo_save(cairo)
            cairo_rectangle(cairo, inset.left, inset.top, boxWidth, boxHeight)
            cairo_clip(cairo)
            cairo_move_to(cairo, inset.left, top)
            TextLayout.draw(content, width: boxWidth, on: cairo)
            cairo_restore(cairo)
        default:
            if view.type.name == "RCTImageView" { drawImage(style, radii: radii, size: size, on: cairo) }
            if let switchProps = view.props as? SwitchProps {
                drawSwitch(on: switchProps.value, style, size: size, on: cairo)
            }
        }
        if node.kind == .view || node.kind == .modal {
            let children = view.children.compactMap { tree.nodeOf($0) }
            if !children.isEmpty {
                cairo_save(cairo)
                if style.clips {
                    RoundedRect.path(cairo, x: 0, y: 0, width: size.width, height: size.height, radii: radii)
                    cairo_clip(cairo)
                }
                if let offset = (view.props as? ScrollViewProps)?.contentOffset {
                    cairo_translate(cairo, -offset.x, -offset.y)
                }
                let ordered = children.enumerated().sorted { a, b in
                    let za = PaintStyle.zIndex(a.element.view)
                    let zb = PaintStyle.zIndex(b.element.view)
                    return za != zb ? za < zb : a.offset < b.offset
                }
                for (_, child) in ordered where !child.isRoot {
                    guard let childFrame = child.frame else { continue }
                    paint(child, frame: childFrame, on: cairo)
                }
                cairo_restore(cairo)
            }
        }
        if borders.any && borders.uniform { drawBorders(borders, radii: radii, size: size, on: cairo) }
        if grouped {
            cairo_pop_group_to_source(cairo)
            cairo_paint_with_alpha(cairo, style.opacity)
        }
    }

    /// Each side's band between the outer rounded rect and the inner one (inset by the widths), in its colour:
    /// `RCTBorderDrawing`'s shape, each side's part cut by the lines from the outer corners to the inner ones.
    private func drawBorders(
        _ borders: PaintStyle.Borders,
        radii: CornerRadii,
        size: (width: Double, height: Double),
        on cairo: OpaquePointer
    ) {
        let (w, h) = size
        let (top, right, bottom, left) = (borders.top, borders.right, borders.bottom, borders.left)
        let inner = CornerRadii(
            topLeft: (max(0, radii.topLeft.x - left), max(0, radii.topLeft.y - top)),
            topRight: (max(0, radii.topRight.x - right), max(0, radii.topRight.y - top)),
            bottomRight: (max(0, radii.bottomRight.x - right), max(0, radii.bottomRight.y - bottom)),
            bottomLeft: (max(0, radii.bottomLeft.x - left), max(0, radii.bottomLeft.y - bottom))
        )
        func band() {
            RoundedRect.path(cairo, x: 0, y: 0, width: w, height: h, radii: radii)
            RoundedRect.path(
                cairo,
                x: left,
                y: top,
                width: max(0, w - left - right),
                height: max(0, h - top - bottom),
                radii: inner
            )
            cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
        }
        if borders.uniform {
            band()
            setColor(cairo, borders.colors.top)
            cairo_fill(cairo)
            return
        }
        // Each side's trapezoid, from the outer corners to the inner ones.
        let sides: [(Double, UInt32, [(Double, Double)])] = [
            (top, borders.colors.top, [(0, 0), (w, 0), (w - right, top), (left, top)]),
            (right, borders.colors.right, [(w, 0), (w, h), (w - right, h - bottom), (w - right, top)]),
            (bottom, borders.colors.bottom, [(w, h), (0, h), (left, h - bottom), (w - right, h - bottom)]),
            (left, borders.colors.left, [(0, h), (0, 0), (left, top), (left, h - bottom)]),
        ]
        for (width, color, points) in sides where width > 0 && color >> 24 != 0 {
            cairo_save(cairo)
            cairo_new_path(cairo)
            // The trapezoid, its outer corners moved outwards along the line from the inner corner through the
            // outer one (the corner's diagonal, where two sides' colours meet), far enough that a rounded corner's
            // curve is inside it.
            let far = 2 * max(w, h, 1)
            for (index, point) in points.enumerated() {
                var (x, y) = point
                if index < 2 {
                    let inner = points[3 - index]
                    var dx = x - inner.0
                    var dy = y - inner.1
                    if abs(dx) + abs(dy) < 1e-9 {
                        // No border on either side: away from the centre.
                        dx = x - w / 2
                        dy = y - h / 2
                    }
                    let length = max(1e-9, (dx * dx + dy * dy).squareRoot())
                    x += dx / length * far
                    y += dy / length * far
                }
                index == 0 ? cairo_move_to(cairo, x, y) : cairo_line_to(cairo, x, y)
            }
            cairo_close_path(cairo)
            cairo_clip(cairo)
            band()
            setColor(cairo, color)
            cairo_fill(cairo)
            cairo_restore(cairo)
        }
    }

    private func drawImage(
        _ style: PaintStyle,
        radii: CornerRadii,
        size: (width: Double, height: Double),
        on cairo: OpaquePointer
    ) {
        guard let path = style.imagePath, size.width > 0, size.height > 0,
            let image = ImageFile.surface(path: path)
        else { return }
        defer { cairo_surface_destroy(image) }
        let imageWidth = Double(cairo_image_surface_get_width(image))
        let imageHeight = Double(cairo_image_surface_get_height(image))
        guard imageWidth > 0, imageHeight > 0 else { return }
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        RoundedRect.path(cairo, x: 0, y: 0, width: size.width, height: size.height, radii: radii)
        cairo_clip(cairo)
        var sx = size.width / imageWidth
        var sy = size.height / imageHeight
        var repeats = false
        switch style.resizeMode {
        case "contain":
            sx = min(sx, sy)
            sy = sx
        case "stretch": break
        case "center":
            sx = min(1, min(sx, sy))
            sy = sx
        case "repeat":
            sx = 1
            sy = 1
            repeats = true
        default:
            sx = max(sx, sy)
            sy = sx
        }
        let x = repeats ? 0 : (size.width - imageWidth * sx) / 2
        let y = repeats ? 0 : (size.height - imageHeight * sy) / 2
        cairo_translate(cairo, x, y)
        cairo_scale(cairo, sx, sy)
        let pattern = cairo_pattern_create_for_surface(image)!
        defer { cairo_pattern_destroy(pattern) }
        if repeats { cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT) }
        if let tint = style.tintColor {
            setColor(cairo, tint)
            cairo_mask(cairo, pattern)
        } else {
            cairo_set_source(cairo, pattern)
            cairo_paint(cairo)
        }
    }

    /// A `UISwitch` as iOS draws it, 51 × 31 points at the frame's origin: a pill, green (`onTintColor`) when on,
    /// light grey when off, with a white thumb (`thumbTintColor`) at the side of its value.
    private func drawSwitch(
        on: Bool,
        _ style: PaintStyle,
        size: (width: Double, height: Double),
        on cairo: OpaquePointer
    ) {
        let width = 51.0
        let height = 31.0
        let radius = height / 2
        let pill = CornerRadii(
            topLeft: (radius, radius),
            topRight: (radius, radius),
            bottomRight: (radius, radius),
            bottomLeft: (radius, radius)
        )
        RoundedRect.path(cairo, x: 0, y: 0, width: width, height: height, radii: pill)
        setColor(cairo, on ? style.onTintColor ?? 0xFF34_C759 : style.tintColor ?? 0xFFE9_E9EA)
        cairo_fill(cairo)
        let thumb = 27.0
        let x = on ? width - 2 - thumb / 2 : 2 + thumb / 2
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x, height / 2, thumb / 2, 0, 2 * .pi)
        setColor(cairo, style.thumbTintColor ?? 0xFFFF_FFFF)
        cairo_fill(cairo)
    }

    private func setColor(_ cairo: OpaquePointer, _ argb: UInt32) {
        func channel(_ shift: UInt32) -> Double { Double((argb >> shift) & 0xFF) / 255 }
        cairo_set_source_rgba(cairo, channel(16), channel(8), channel(0), channel(24))
    }
}
