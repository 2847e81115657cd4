extension PropType {
    /// Converts `source` to this type, or records in `issues` every reason it cannot (with its path) and
    /// returns `nil`. `null` at the top is not handled here: for a prop it means "reset to the default".
    @inlinable
    public func convert<Source: PropSource>(
        _ source: Source,
        path: inout PropPath,
        into issues: inout PropIssues
    ) -> PropValue? {
        var converter = Converter<Source>(issues: issues, limits: issues.limits)
        let value = converter.convert(source, as: self, path: &path, depth: 1)
        issues = converter.issues
        return value
    }

    /// Converts one scalar, or explains, in React Native's words, why it cannot (tests and simple callers).
    public func convert<Source: PropSource>(_ source: Source) -> Result<PropValue, PropConversionError> {
        var path = PropPath("")
        var issues = PropIssues()
        if let value = convert(source, path: &path, into: &issues) { return .success(value) }
        let first = issues.list.first!
        return .failure(PropConversionError(expected: first.expected, message: first.message))
    }
}

/// Walks a source value against a type, converting and collecting problems.
///
/// Each kind of type converts in its own extension: `Converter+Numbers`, `+Enumerations`, `+Color`,
/// `+Dimension`, `+Fields` (point, edgeInsets, imageSource), `+Array`, `+Object`, `+Mixed`.
@usableFromInline
struct Converter<Source: PropSource> {
    @usableFromInline var issues: PropIssues
    @usableFromInline let limits: PropLimits
    /// Values left in the `mixed` value being converted.
    @usableFromInline var mixedBudget = 0

    @inlinable init(issues: PropIssues, limits: PropLimits) {
        self.issues = issues
        self.limits = limits
    }

    /// Records that `source` is not a `type` at `path`; the message says so in React Native's words unless given.
    @inlinable mutating func fail(_ source: Source, _ type: PropType, _ path: PropPath, _ message: String? = nil) {
        let got = source.quoted
        issues.add(
            PropIssue(
                path: path.text,
                expected: type.expected,
                got: got,
                message: message
                    ?? "JSON value '\(got.displayText)' of type \(got.typeName) cannot be converted to \(type.name)"
            )
        )
    }

    /// Records that a required field is absent at `path` (which ends with the field).
    @inlinable mutating func missing(_ path: PropPath, expected: String, message: String) {
        issues.add(PropIssue(path: path.text, expected: expected, got: .null, message: message))
    }

    @inlinable
    mutating func convert(_ source: Source, as type: PropType, path: inout PropPath, depth: Int) -> PropValue? {
        switch type {
        case .int:
            if let i = integer(source) { return .int(Int(i)) }
        case .int32:
            return int32(source, path: path)
        case .float:
            return float(source, path: path)
        case .double:
            if let d = number(source) { return .double(d) }
        case .bool:
            if source.sourceKind == .bool { return .bool(source.boolValue) }
        case .string:
            if source.sourceKind == .string { return .string(source.stringValue) }
        case .enumeration(let values):
            return enumeration(source, values, path: path)
        case .int32Enumeration(let values):
            return int32Enumeration(source, values, path: path)
        case .color:
            return color(source, path: path)
        case .point:
            return fields(source, Point.fields, path: &path, depth: depth).map(PropValue.point)
        case .edgeInsets:
            return fields(source, EdgeInsets.fields, path: &path, depth: depth).map(PropValue.edgeInsets)
        case .imageSource:
            return fields(source, ImageSource.fields, path: &path, depth: depth).map(PropValue.imageSource)
        case .dimension:
            if let dimension = dimension(source) { return .dimension(dimension) }
        case .array(let element):
            return array(source, of: element, path: &path, depth: depth)
        case .object(let fields):
            return object(source, fields: fields, type: type, path: &path, depth: depth)
        case .mixed:
            mixedBudget = limits.maxMixedValues
            return mixed(source, path: &path, depth: depth).map(PropValue.json)
        }
        fail(source, type, path)
        return nil
    }
}
