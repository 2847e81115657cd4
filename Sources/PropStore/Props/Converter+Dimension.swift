extension Converter {
    /// A `dimension`: a number (points), `"auto"` or a percentage; `nil` for anything else.
    @inlinable func dimension(_ source: Source) -> Dimension? {
        if let d = number(source) { return .points(d) }
        if source.sourceKind == .string { return Dimension(text: source.stringValue) }
        return nil
    }
}
