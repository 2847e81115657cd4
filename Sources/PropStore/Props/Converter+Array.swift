extension Converter {
    /// Records that a value nests deeper than the limit.
    @inlinable mutating func tooDeep(_ source: Source, _ type: PropType, _ path: PropPath) {
        fail(source, type, path, "the value nests deeper than \(limits.maxDepth) levels")
    }

    /// An `array`: every element converts to `element`, within the depth and length limits. A `null` element is left
    /// out (but in an array of `mixed`, where it is a value), as iOS's `RCTConvertArrayValue` leaves out each element
    /// `RCTConvert` turns into nil (`snapToOffsets={[undefined, 50]}` is `[50]` on a phone).
    @inlinable
    mutating func array(_ source: Source, of element: PropType, path: inout PropPath, depth: Int) -> PropValue? {
        let type = PropType.array(element)
        guard source.sourceKind == .array else {
            fail(source, type, path)
            return nil
        }
        guard depth <= limits.maxDepth else {
            tooDeep(source, type, path)
            return nil
        }
        let count = source.elementCount
        guard count <= limits.maxArrayElements else {
            fail(source, type, path, "the array has \(count) elements; the limit is \(limits.maxArrayElements)")
            return nil
        }
        var values: [PropValue] = []
        values.reserveCapacity(count)
        let before = issues.total
        let keepsNull: Bool
        if case .mixed = element { keepsNull = true } else { keepsNull = false }
        for index in 0..<count {
            let item = source.element(at: index)
            if !keepsNull && item.sourceKind == .null { continue }
            path.push(.index(index))
            let value = convert(item, as: element, path: &path, depth: depth + 1)
            path.pop()
            if let value, issues.total == before { values.append(value) }
        }
        return issues.total == before ? .array(values) : nil
    }
}
