extension Converter {
    /// A string `enum` value: a string among `values`.
    @inlinable mutating func enumeration(_ source: Source, _ values: [String], path: PropPath) -> PropValue? {
        guard source.sourceKind == .string else {
            fail(source, .enumeration(values), path)
            return nil
        }
        let s = source.stringValue
        if values.contains(s) { return .string(s) }
        fail(
            source,
            .enumeration(values),
            path,
            "JSON value '\(s)' of type string is not one of \(values.joined(separator: ", "))"
        )
        return nil
    }

    /// An `int32Enum` value: an integer among `values`.
    @inlinable mutating func int32Enumeration(_ source: Source, _ values: [Int32], path: PropPath) -> PropValue? {
        guard let i = integer(source) else {
            fail(source, .int32Enumeration(values), path)
            return nil
        }
        if let i32 = Int32(exactly: i), values.contains(i32) { return .int(Int(i32)) }
        fail(
            source,
            .int32Enumeration(values),
            path,
            "JSON value '\(i)' is not one of \(values.map(String.init).joined(separator: ", "))"
        )
        return nil
    }
}
