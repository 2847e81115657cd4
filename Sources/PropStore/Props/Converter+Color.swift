extension Converter {
    /// A `color`: `#RGB`, `#RRGGBB`, `#RRGGBBAA` or an ARGB integer.
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
        default:
            break
        }
        fail(source, .color, path)
        return nil
    }
}
