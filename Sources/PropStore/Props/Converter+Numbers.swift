extension Converter {
    /// A number as a double, or `nil` when the source is not a number.
    @inlinable func number(_ source: Source) -> Double? {
        switch source.sourceKind {
        case .integer: Double(source.integerValue)
        case .real: source.realValue
        default: nil
        }
    }

    /// An integer, from an integer or an integral real within the 64-bit range.
    @inlinable func integer(_ source: Source) -> Int64? {
        switch source.sourceKind {
        case .integer: return source.integerValue
        case .real:
            let d = source.realValue
            guard d.rounded(.towardZero) == d, d >= -9.223_372_036_854_775_808e18, d < 9.223_372_036_854_775_808e18
            else { return nil }
            return Int64(d)
        default: return nil
        }
    }

    /// An `int32`: an integer in its range; out of it, the message names the range.
    @inlinable mutating func int32(_ source: Source, path: PropPath) -> PropValue? {
        guard let i = integer(source) else {
            fail(source, .int32, path)
            return nil
        }
        if let i32 = Int32(exactly: i) { return .int(Int(i32)) }
        fail(
            source,
            .int32,
            path,
            "JSON value '\(source.quoted.displayText)' is outside the int32 range -2147483648...2147483647"
        )
        return nil
    }

    /// A `float`: any number that stays finite as a 32-bit float.
    @inlinable mutating func float(_ source: Source, path: PropPath) -> PropValue? {
        guard let d = number(source) else {
            fail(source, .float, path)
            return nil
        }
        let f = Float(d)
        if f.isFinite { return .float(f) }
        fail(
            source,
            .float,
            path,
            "JSON value '\(source.quoted.displayText)' is outside the 32-bit float range (±3.4028235e38)"
        )
        return nil
    }
}
