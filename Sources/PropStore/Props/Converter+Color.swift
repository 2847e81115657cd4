extension Converter {
    /// A `color`: `#RGB`, `#RRGGBB`, `#RRGGBBAA`, an ARGB integer, an iOS colour object (`PlatformColor`,
    /// `DynamicColorIOS`, resolved in light mode) or `[red, green, blue, alpha?]` (each 0…1), as `RCTConvert` reads them.
    @inlinable mutating func color(_ source: Source, path: PropPath) -> PropValue? {
        switch source.sourceKind {
        case .string:
            if let color = Color(hex: source.stringValue) { return .color(color) }
            fail(
                source,
                .color,
                path,
                "JSON value '\(source.stringValue)' of type string cannot be converted to color (#RGB, #RRGGBB or #RRGGBBAA)"
            )
            return nil
        case .integer:
            // processColor sends 0xAARRGGBB, as a signed 32-bit int on Android.
            let i = source.integerValue
            if i >= Int64(Int32.min), i <= Int64(UInt32.max) {
                return .color(Color(argb: UInt32(truncatingIfNeeded: i)))
            }
        case .object:
            return iOSColor(source, path: path, depth: 0)
        case .array:
            return componentColor(source, path: path)
        default:
            break
        }
        fail(source, .color, path)
        return nil
    }

    /// How deep `dynamic` colours may nest in one another (a light colour that is itself dynamic, …).
    @usableFromInline static var maxColorNesting: Int { 4 }

    /// An iOS colour object, as `RCTConvert`'s `UIColor:` reads it, resolved in light mode (bridged's appearance):
    /// `{"semantic": name or [names]}` (`PlatformColor`: the first name that is an iOS semantic colour,
    /// ``Color/semantic``) or `{"dynamic": {light, dark, highContrastLight?, highContrastDark?}}`
    /// (`DynamicColorIOS`: its light colour; both light and dark must be colours).
    @usableFromInline mutating func iOSColor(_ source: Source, path: PropPath, depth: Int) -> PropValue? {
        if let semantic = source.sourceMember("semantic") {
            var names: [String] = []
            if semantic.sourceKind == .string {
                names = [semantic.stringValue]
            } else if semantic.sourceKind == .array {
                for index in 0..<semantic.elementCount where semantic.element(at: index).sourceKind == .string {
                    names.append(semantic.element(at: index).stringValue)
                }
            } else {
                fail(source, .color, path, "a semantic color is a name or an array of names (PlatformColor)")
                return nil
            }
            for name in names { if let color = Color.semantic[name] { return .color(color) } }
            let known = Color.semantic.keys.filter { $0.hasSuffix("Color") }.sorted().joined(separator: ", ")
            fail(
                source,
                .color,
                path,
                "\(names.isEmpty ? "no name" : names.map { "'\($0)'" }.joined(separator: ", ")) is not an iOS semantic color "
                    + "(bridged has no asset catalog); expected one of \(known), or the name without 'Color'"
            )
            return nil
        }
        if let dynamic = source.sourceMember("dynamic") {
            guard depth < Self.maxColorNesting else {
                fail(source, .color, path, "dynamic colors nest deeper than \(Self.maxColorNesting) levels")
                return nil
            }
            guard dynamic.sourceKind == .object, let light = dynamic.sourceMember("light"),
                let dark = dynamic.sourceMember("dark")
            else {
                fail(source, .color, path, "a dynamic color (DynamicColorIOS) needs its light and dark colors")
                return nil
            }
            var resolved: Color?
            for (name, appearance) in [("light", light), ("dark", dark)] {
                var inner = path
                inner.push(.field("dynamic"))
                inner.push(.field(name))
                let value =
                    appearance.sourceKind == .object
                    ? iOSColor(appearance, path: inner, depth: depth + 1) : color(appearance, path: inner)
                guard case .color(let c)? = value else { return nil }
                if name == "light" { resolved = c }
            }
            return resolved.map(PropValue.color)
        }
        fail(source, .color, path, "an object color is an iOS semantic color ({semantic}) or dynamic color ({dynamic})")
        return nil
    }

    /// `[red, green, blue, alpha?]`, each 0…1, as `RCTConvert`'s `UIColor:` reads an array.
    @usableFromInline mutating func componentColor(_ source: Source, path: PropPath) -> PropValue? {
        let count = source.elementCount
        var components: [Double] = []
        if count == 3 || count == 4 {
            for index in 0..<count {
                let element = source.element(at: index)
                switch element.sourceKind {
                case .integer: components.append(Double(element.integerValue))
                case .real: components.append(element.realValue)
                default: break
                }
            }
        }
        guard components.count == count, components.allSatisfy({ $0 >= 0 && $0 <= 1 }), count == 3 || count == 4 else {
            fail(source, .color, path, "an array color is [red, green, blue] or [red, green, blue, alpha], each 0 to 1")
            return nil
        }
        func byte(_ value: Double) -> UInt8 { UInt8((value * 255).rounded()) }
        return .color(
            Color(
                red: byte(components[0]),
                green: byte(components[1]),
                blue: byte(components[2]),
                alpha: count == 4 ? byte(components[3]) : 0xFF
            )
        )
    }
}
