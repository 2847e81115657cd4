import CCairoPango
import PropStore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What a picture reads of a view's props (its component's descriptors found once per component).
struct PaintStyle {
    var hidden = false
    var opacity = 1.0
    var backgroundColor: UInt32?
    var transform: [TransformStep]?
    var clips = false
    var radii = CornerRadii()
    var borders = Borders()
    var padding = (top: 0.0, right: 0.0, bottom: 0.0, left: 0.0)
    var imagePath: String?
    var resizeMode = "cover"
    var tintColor: UInt32?
    /// A switch's colours.
    var onTintColor: UInt32?
    var thumbTintColor: UInt32?

    struct Borders {
        var top = 0.0, right = 0.0, bottom = 0.0, left = 0.0
        /// `0xAARRGGBB` of each side.
        var colors = (
            top: UInt32(0xFF00_0000), right: UInt32(0xFF00_0000), bottom: UInt32(0xFF00_0000),
            left: UInt32(0xFF00_0000)
        )
        var any: Bool { top > 0 || right > 0 || bottom > 0 || left > 0 }
        /// The same width and colour on every side.
        var uniform: Bool {
            top == right && right == bottom && bottom == left && colors.top == colors.right
                && colors.right == colors.bottom && colors.bottom == colors.left
        }
    }

    init(_ view: ViewProxy) {
        let props = Descriptors.of(view.type)
        func value(_ name: String) -> PropValue? {
            guard let prop = props.byName[name] else { return nil }
            let value = view.value(of: prop)
            return value == .null ? nil : value
        }
        func number(_ name: String) -> Double? {
            switch value(name) {
            case .double(let n)? where n.isFinite: n
            case .float(let n)? where n.isFinite: Double(n)
            case .int(let n)?: Double(n)
            case .dimension(.points(let n))? where n.isFinite: n
            default: nil
            }
        }
        func color(_ name: String) -> UInt32? {
            if case .color(let color)? = value(name) { return color.argb }
            return nil
        }
        if case .string("none")? = value("display") { hidden = true }
        if let alpha = number("opacity") { opacity = min(1, max(0, alpha)) }
        backgroundColor = color("backgroundColor")
        if case .json(let json)? = value("transform") { transform = TransformStep.list(json) }
        if case .string(let overflow)? = value("overflow") { clips = overflow != "visible" }
        if view.type.name == "RCTScrollView" { clips = true }
        let all = number("borderRadius") ?? 0
        func corner(_ names: String...) -> (Double, Double) {
            let r = max(0, names.lazy.compactMap { number($0) }.first ?? all)
            return (r, r)
        }
        radii = CornerRadii(
            topLeft: corner("borderTopLeftRadius", "borderTopStartRadius", "borderStartStartRadius"),
            topRight: corner("borderTopRightRadius", "borderTopEndRadius", "borderStartEndRadius"),
            bottomRight: corner("borderBottomRightRadius", "borderBottomEndRadius", "borderEndEndRadius"),
            bottomLeft: corner("borderBottomLeftRadius", "borderBottomStartRadius", "borderEndStartRadius")
        )
        let width = number("borderWidth") ?? 0
        borders.top = max(0, number("borderTopWidth") ?? width)
        borders.right = max(0, number("borderRightWidth") ?? number("borderEndWidth") ?? width)
        borders.bottom = max(0, number("borderBottomWidth") ?? width)
        borders.left = max(0, number("borderLeftWidth") ?? number("borderStartWidth") ?? width)
        let allColor = color("borderColor") ?? 0xFF00_0000
        borders.colors = (
            top: color("borderTopColor") ?? color("borderBlockStartColor") ?? color("borderBlockColor") ?? allColor,
            right: color("borderRightColor") ?? color("borderEndColor") ?? allColor,
            bottom: color("borderBottomColor") ?? color("borderBlockEndColor") ?? color("borderBlockColor")
                ?? allColor,
            left: color("borderLeftColor") ?? color("borderStartColor") ?? allColor
        )
        let pad = number("padding") ?? 0
        let horizontal = number("paddingHorizontal") ?? pad
        let vertical = number("paddingVertical") ?? pad
        padding = (
            top: number("paddingTop") ?? vertical,
            right: number("paddingRight") ?? number("paddingEnd") ?? horizontal,
            bottom: number("paddingBottom") ?? vertical,
            left: number("paddingLeft") ?? number("paddingStart") ?? horizontal
        )
        if view.type.name == "RCTImageView" {
            if case .json(let source)? = value("source") { imagePath = PaintStyle.localPath(source) }
            if case .string(let mode)? = value("resizeMode") { resizeMode = mode }
            tintColor = color("tintColor")
        }
        if view.type.name == "RCTSwitch" {
            tintColor = color("tintColor")
            onTintColor = color("onTintColor")
            thumbTintColor = color("thumbTintColor") ?? color("thumbColor")
        }
    }

    /// The content box's insets: borders and padding (in points; a padding in percent counts as none).
    func contentInset(_ borders: Borders) -> (top: Double, right: Double, bottom: Double, left: Double) {
        (
            borders.top + padding.top, borders.right + padding.right, borders.bottom + padding.bottom,
            borders.left + padding.left
        )
    }

    /// The file of an image source's `uri` (its first element when it is an array): a `file://` URL or an absolute
    /// path; nil for anything else (a network image is never fetched).
    static func localPath(_ source: JSONValue) -> String? {
        var first = source
        if case .array(let elements) = source { first = elements.first ?? .null }
        guard case .object(let members) = first,
            case .string(let uri)? = members.first(where: { $0.name == "uri" })?.value
        else { return nil }
        if uri.hasPrefix("file://") {
            let path = String(uri.dropFirst("file://".count))
            return percentDecoded(path)
        }
        return uri.hasPrefix("/") ? uri : nil
    }

    /// `%20` and the like decoded; the text as it is when it is not well formed.
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    static func zIndex(_ view: ViewProxy) -> Double {
        guard let prop = Descriptors.of(view.type).byName["zIndex"] else { return 0 }
        switch view.value(of: prop) {
        case .double(let z): return z
        case .int(let z): return Double(z)
        default: return 0
        }
    }

    /// A component's props by name, for the names a picture reads.
    struct Descriptors {
        let byName: [String: ComponentType.PropDescriptor]

        static let names = [
            "display", "opacity", "backgroundColor", "transform", "overflow", "zIndex", "borderRadius",
            "borderTopLeftRadius", "borderTopStartRadius", "borderStartStartRadius", "borderTopRightRadius",
            "borderTopEndRadius", "borderStartEndRadius", "borderBottomRightRadius", "borderBottomEndRadius",
            "borderEndEndRadius", "borderBottomLeftRadius", "borderBottomStartRadius", "borderEndStartRadius",
            "borderWidth", "borderTopWidth", "borderRightWidth", "borderEndWidth", "borderBottomWidth",
            "borderLeftWidth", "borderStartWidth", "borderColor", "borderTopColor", "borderBlockStartColor",
            "borderBlockColor", "borderRightColor", "borderEndColor", "borderBottomColor", "borderBlockEndColor",
            "borderLeftColor", "borderStartColor", "padding", "paddingHorizontal", "paddingVertical", "paddingTop",
            "paddingRight", "paddingEnd", "paddingBottom", "paddingLeft", "paddingStart", "source", "resizeMode",
            "tintColor", "onTintColor", "thumbTintColor", "thumbColor",
        ]

        static func of(_ type: ComponentType) -> Descriptors {
            let key = ObjectIdentifier(type)
            if let found = cache.withLock({ $0[key] }) { return found }
            var byName: [String: ComponentType.PropDescriptor] = [:]
            for name in names { if let prop = type.prop(named: name) { byName[name] = prop } }
            let made = Descriptors(byName: byName)
            cache.withLock { $0[key] = made }
            return made
        }

        private static let cache = Mutex<[ObjectIdentifier: Descriptors]>([:])
    }
}

/// Each corner's radii, horizontal and vertical.
struct CornerRadii {
    var topLeft = (x: 0.0, y: 0.0)
    var topRight = (x: 0.0, y: 0.0)
    var bottomRight = (x: 0.0, y: 0.0)
    var bottomLeft = (x: 0.0, y: 0.0)

    init() {}

    init(
        topLeft: (Double, Double),
        topRight: (Double, Double),
        bottomRight: (Double, Double),
        bottomLeft: (Double, Double)
    ) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// Scaled down together so that no two corners overlap on a side (`RCTBorderDrawing`'s rule, CSS's).
    func clamped(width: Double, height: Double) -> CornerRadii {
        let sums = [
            (topLeft.x + topRight.x, width), (bottomLeft.x + bottomRight.x, width),
            (topLeft.y + bottomLeft.y, height), (topRight.y + bottomRight.y, height),
        ]
        var factor = 1.0
        for (sum, side) in sums where sum > side && sum > 0 { factor = min(factor, max(0, side) / sum) }
        guard factor < 1 else { return self }
        return CornerRadii(
            topLeft: (topLeft.x * factor, topLeft.y * factor),
            topRight: (topRight.x * factor, topRight.y * factor),
            bottomRight: (bottomRight.x * factor, bottomRight.y * factor),
            bottomLeft: (bottomLeft.x * factor, bottomLeft.y * factor)
        )
    }
}

/// A rounded rectangle as a Cairo path.
enum RoundedRect {
    static func path(_ cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radii: CornerRadii) {
        cairo_new_sub_path(cairo)
        func corner(_ cx: Double, _ cy: Double, _ r: (x: Double, y: Double), _ from: Double) {
            if r.x <= 0 || r.y <= 0 {
                cairo_line_to(cairo, cx, cy)
                return
            }
            let centreX = cx + (cx == x ? r.x : -r.x)
            let centreY = cy + (cy == y ? r.y : -r.y)
            cairo_save(cairo)
            cairo_translate(cairo, centreX, centreY)
            cairo_scale(cairo, r.x, r.y)
            cairo_arc(cairo, 0, 0, 1, from, from + .pi / 2)
            cairo_restore(cairo)
        }
        corner(x, y, radii.topLeft, .pi)
        corner(x + width, y, radii.topRight, -.pi / 2)
        corner(x + width, y + height, radii.bottomRight, 0)
        corner(x, y + height, radii.bottomLeft, .pi / 2)
        cairo_close_path(cairo)
    }
}

/// One step of React Native's `transform` list (`[{rotate: '45deg'}, {scale: 2}]`), or a matrix.
enum TransformStep {
    case translate(Double, Double)
    case scale(Double, Double)
    case rotate(Double)
    case skew(Double, Double)
    case matrix(Double, Double, Double, Double, Double, Double)

    func apply(to cairo: OpaquePointer) {
        switch self {
        case .translate(let x, let y): cairo_translate(cairo, x, y)
        case .scale(let x, let y) where x != 0 && y != 0: cairo_scale(cairo, x, y)
        case .scale: cairo_scale(cairo, 1e-9, 1e-9)
        case .rotate(let angle): cairo_rotate(cairo, angle)
        case .skew(let x, let y):
            var matrix = cairo_matrix_t(xx: 1, yx: tan(y), xy: tan(x), yy: 1, x0: 0, y0: 0)
            cairo_transform(cairo, &matrix)
        case .matrix(let a, let b, let c, let d, let tx, let ty):
            var matrix = cairo_matrix_t(xx: a, yx: b, xy: c, yy: d, x0: tx, y0: ty)
            if a * d - b * c != 0 { cairo_transform(cairo, &matrix) }
        }
    }

    /// The steps of a `transform` prop; the ones a flat picture cannot show (`perspective`, `rotateX`, `rotateY`)
    /// are left out.
    static func list(_ json: JSONValue) -> [TransformStep] {
        func number(_ value: JSONValue) -> Double? {
            switch value {
            case .int(let n): Double(n)
            case .double(let n) where n.isFinite: n
            case .string(let text): Double(text)
            default: nil
            }
        }
        func angle(_ value: JSONValue) -> Double? {
            if case .string(let text) = value {
                if text.hasSuffix("deg"), let degrees = Double(text.dropLast(3)) { return degrees * .pi / 180 }
                if text.hasSuffix("rad"), let radians = Double(text.dropLast(3)) { return radians }
            }
            return number(value)
        }
        guard case .array(let items) = json else { return [] }
        // A bare matrix of 16 numbers (paper's processed transform), column-major.
        if items.count == 16, items.allSatisfy({ number($0) != nil }) {
            let m = items.compactMap(number)
            return [.matrix(m[0], m[1], m[4], m[5], m[12], m[13])]
        }
        var steps: [TransformStep] = []
        for item in items {
            guard case .object(let members) = item, let member = members.first else { continue }
            let value = member.value
            switch member.name {
            case "translateX": if let n = number(value) { steps.append(.translate(n, 0)) }
            case "translateY": if let n = number(value) { steps.append(.translate(0, n)) }
            case "translate":
                if case .array(let xy) = value, xy.count >= 2, let x = number(xy[0]), let y = number(xy[1]) {
                    steps.append(.translate(x, y))
                }
            case "scale": if let n = number(value) { steps.append(.scale(n, n)) }
            case "scaleX": if let n = number(value) { steps.append(.scale(n, 1)) }
            case "scaleY": if let n = number(value) { steps.append(.scale(1, n)) }
            case "rotate", "rotateZ": if let a = angle(value) { steps.append(.rotate(a)) }
            case "skewX": if let a = angle(value) { steps.append(.skew(a, 0)) }
            case "skewY": if let a = angle(value) { steps.append(.skew(0, a)) }
            case "matrix":
                if case .array(let entries) = value {
                    let m = entries.compactMap(number)
                    if m.count == 16 { steps.append(.matrix(m[0], m[1], m[4], m[5], m[12], m[13])) }
                    if m.count == 9 { steps.append(.matrix(m[0], m[1], m[3], m[4], m[6], m[7])) }
                }
            default: break
            }
        }
        return steps
    }
}

/// A local PNG or JPEG file read into a Cairo surface; the caller destroys it. Its size is read from its header
/// first: a file that is neither, or one of more than ``maxPixels``, is not decoded at all (it draws nothing).
enum ImageFile {
    static let maxPixels = 40_000_000

    static func surface(path: String) -> OpaquePointer? {
        let head = header(path)
        if let (width, height) = pngSize(head) {
            guard width * height <= maxPixels, let surface = cairo_image_surface_create_from_png(path) else {
                return nil
            }
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
                cairo_surface_destroy(surface)
                return nil
            }
            return surface
        }
        // A JPEG starts with its SOI marker and the next marker's byte; libjpeg checks its size against maxPixels.
        guard head.starts(with: [0xFF, 0xD8, 0xFF]) else { return nil }
        return cp_jpeg_surface(path, maxPixels)
    }

    /// The file's first 24 bytes (fewer for a shorter file, none for one that cannot be read).
    static func header(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var head = [UInt8](repeating: 0, count: 24)
        let read = fread(&head, 1, 24, file)
        return Array(head.prefix(read))
    }

    /// The width and height in a PNG's `IHDR`, nil when `head` is not PNG's signature and header.
    static func pngSize(_ head: [UInt8]) -> (Int, Int)? {
        guard head.count == 24,
            head[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            head[12..<16].elementsEqual(Array("IHDR".utf8))
        else { return nil }
        func big(_ at: Int) -> Int { head[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }
}
