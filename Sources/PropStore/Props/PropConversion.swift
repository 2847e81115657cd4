/// Limits on the values a prop accepts; past them the prop is refused (`invalid_props`) with its path.
public struct PropLimits: Sendable {
    /// How deep arrays and objects may nest inside one prop value (the prop itself is depth 1).
    public var maxDepth = 32
    /// The most elements one array may have.
    public var maxArrayElements = 10_000
    /// The most JSON values (every scalar, array and object counts one) one `mixed` value may hold.
    public var maxMixedValues = 100_000
    /// The most problems reported in `details`; a last entry says how many more there were.
    public var maxIssues = 20

    public init() {}

    public static let standard = PropLimits()
}

/// One problem found converting a value: where (`style.insets.top`, `points[2].x`), what was expected, what
/// was there.
public struct PropIssue: Sendable {
    public var path: String
    public var expected: String
    public var got: RawValue
    public var message: String

    public init(path: String, expected: String, got: RawValue, message: String) {
        self.path = path
        self.expected = expected
        self.got = got
        self.message = message
    }
}

/// The problems found converting one request's values, at most `limits.maxIssues` of them kept.
public struct PropIssues: Sendable {
    public private(set) var list: [PropIssue] = []
    /// Every problem found, also those past the cap.
    public private(set) var total = 0
    public let limits: PropLimits

    public init(limits: PropLimits = .standard) { self.limits = limits }

    public var isEmpty: Bool { total == 0 }

    public mutating func add(_ issue: @autoclosure () -> PropIssue) {
        total += 1
        if list.count < limits.maxIssues { list.append(issue()) }
    }

    /// The kept problems, and when some were left out, a last one that says how many.
    public var reported: [PropIssue] {
        guard total > list.count else { return list }
        let more = total - list.count
        return list + [
            PropIssue(
                path: "",
                expected: "",
                got: .null,
                message: "and \(more) more problem\(more == 1 ? "" : "s") not listed (at most \(limits.maxIssues) are)"
            )
        ]
    }
}

/// Where a conversion is inside a value: the prop or parameter name, then `.field` and `[index]` steps.
///
/// Built as steps and turned into text only when a problem is reported, so a value without problems costs no
/// string work.
public struct PropPath: Sendable {
    @usableFromInline
    enum Step: Sendable {
        case field(String)
        case index(Int)
    }

    /// The prop or parameter name (empty for a bare value).
    @usableFromInline let root: String
    /// The steps below it; empty (and not allocated) while the conversion is at the top.
    @usableFromInline var steps: [Step] = []

    public init(_ root: String) { self.root = root }

    @inlinable mutating func push(_ step: Step) { steps.append(step) }
    @inlinable mutating func pop() { steps.removeLast() }

    /// `style.insets.top`, `points[2].x`.
    public var text: String {
        var text = root
        for step in steps {
            switch step {
            case .field(let name): text += text.isEmpty ? name : "." + name
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

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

    @inlinable mutating func fail(_ source: Source, _ type: PropType, _ path: PropPath, _ message: String? = nil) {
        let got = source.quoted
        issues.add(
            PropIssue(
                path: path.text,
                expected: type.expected,
                got: got,
                message: message ?? "JSON value '\(got.displayText)' of type \(got.typeName) cannot be converted to \(type.name)"
            )
        )
    }

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

    @inlinable
    mutating func convert(_ source: Source, as type: PropType, path: inout PropPath, depth: Int) -> PropValue? {
        switch type {
        case .int:
            if let i = integer(source) { return .int(Int(i)) }
        case .int32:
            if let i = integer(source) {
                if let i32 = Int32(exactly: i) { return .int(Int(i32)) }
                fail(source, type, path, "JSON value '\(source.quoted.displayText)' is outside the int32 range -2147483648...2147483647")
                return nil
            }
        case .float:
            if let d = number(source) {
                let f = Float(d)
                if f.isFinite { return .float(f) }
                fail(source, type, path, "JSON value '\(source.quoted.displayText)' is outside the 32-bit float range (±3.4028235e38)")
                return nil
            }
        case .double:
            if let d = number(source) { return .double(d) }
        case .bool:
            if source.sourceKind == .bool { return .bool(source.boolValue) }
        case .string:
            if source.sourceKind == .string { return .string(source.stringValue) }
        case .enumeration(let values):
            if source.sourceKind == .string {
                let s = source.stringValue
                if values.contains(s) { return .string(s) }
                fail(source, type, path, "JSON value '\(s)' of type string is not one of \(values.joined(separator: ", "))")
                return nil
            }
        case .int32Enumeration(let values):
            if let i = integer(source) {
                if let i32 = Int32(exactly: i), values.contains(i32) { return .int(Int(i32)) }
                fail(source, type, path, "JSON value '\(i)' is not one of \(values.map(String.init).joined(separator: ", "))")
                return nil
            }
        case .color:
            return color(source, path: path)
        case .point:
            return point(source, path: &path)
        case .edgeInsets:
            return edgeInsets(source, path: &path)
        case .imageSource:
            return imageSource(source, path: &path, depth: depth)
        case .dimension:
            if let d = number(source) { return .dimension(.points(d)) }
            if source.sourceKind == .string, let dimension = Dimension(text: source.stringValue) {
                return .dimension(dimension)
            }
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

    @inlinable mutating func color(_ source: Source, path: PropPath) -> PropValue? {
        switch source.sourceKind {
        case .string:
            if let color = Color(hex: source.stringValue) { return .color(color) }
            fail(
                source, .color, path,
                "JSON value '\(source.stringValue)' of type string cannot be converted to color (#RGB, #RRGGBB or #RRGGBBAA)"
            )
            return nil
        case .integer:
            // processColor sends 0xAARRGGBB, as a signed 32-bit int on Android.
            let i = source.integerValue
            if i >= Int64(Int32.min), i <= Int64(UInt32.max) { return .color(Color(argb: UInt32(truncatingIfNeeded: i))) }
        default:
            break
        }
        fail(source, .color, path)
        return nil
    }

    /// Reads the number fields (at most four) of a small struct object (`point`, `edgeInsets`): unknown fields
    /// and, when `required`, missing ones are errors. A missing optional field is 0. Allocates nothing.
    @inlinable mutating func numberFields(
        _ source: Source,
        type: PropType,
        names: [String],
        required: Bool,
        path: inout PropPath
    ) -> SIMD4<Double>? {
        guard source.sourceKind == .object else {
            fail(source, type, path)
            return nil
        }
        var values = SIMD4<Double>()
        var present: UInt8 = 0
        let before = issues.total
        source.forEachSourceMember { name, value in
            guard let index = names.firstIndex(of: name) else {
                path.push(.field(name))
                fail(value, type, path, "\(type.name) has no field '\(name)'; its fields are \(names.joined(separator: ", "))")
                path.pop()
                return
            }
            present |= 1 << index
            guard let number = number(value) else {
                path.push(.field(name))
                fail(value, .double, path)
                path.pop()
                return
            }
            values[index] = number
        }
        if required {
            for (index, name) in names.enumerated() where present & (1 << index) == 0 {
                path.push(.field(name))
                issues.add(
                    PropIssue(
                        path: path.text,
                        expected: "number",
                        got: .null,
                        message: "\(type.name) needs '\(name)' (a number)"
                    )
                )
                path.pop()
            }
        }
        guard issues.total == before else { return nil }
        return values
    }

    @inlinable mutating func point(_ source: Source, path: inout PropPath) -> PropValue? {
        guard let v = numberFields(source, type: .point, names: Point.fieldNames, required: true, path: &path) else {
            return nil
        }
        return .point(Point(x: v[0], y: v[1]))
    }

    @inlinable mutating func edgeInsets(_ source: Source, path: inout PropPath) -> PropValue? {
        guard
            let v = numberFields(source, type: .edgeInsets, names: EdgeInsets.fieldNames, required: false, path: &path)
        else {
            return nil
        }
        return .edgeInsets(EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3]))
    }

    @inlinable mutating func imageSource(_ source: Source, path: inout PropPath, depth: Int) -> PropValue? {
        if source.sourceKind == .string { return .imageSource(ImageSource(uri: source.stringValue)) }
        guard source.sourceKind == .object else {
            fail(source, .imageSource, path)
            return nil
        }
        var image = ImageSource(uri: "")
        var hasURI = false
        let before = issues.total
        source.forEachSourceMember { name, value in
            path.push(.field(name))
            defer { path.pop() }
            switch name {
            case "uri":
                if value.sourceKind == .string {
                    image.uri = value.stringValue
                    hasURI = true
                } else {
                    fail(value, .string, path)
                }
            case "width", "height", "scale":
                guard let number = number(value) else { return fail(value, .double, path) }
                switch name {
                case "width": image.width = number
                case "height": image.height = number
                default: image.scale = number
                }
            default:
                guard ImageSource.passThroughFields.contains(name) else {
                    return fail(
                        value, .imageSource, path,
                        "imageSource has no field '\(name)'; its fields are uri, width, height, scale, "
                            + ImageSource.passThroughFields.joined(separator: ", ")
                    )
                }
                mixedBudget = limits.maxMixedValues
                if let kept = mixed(value, path: &path, depth: depth + 1) { image.extra.append(JSONMember(name, kept)) }
            }
        }
        if !hasURI && issues.total == before {
            path.push(.field("uri"))
            issues.add(PropIssue(path: path.text, expected: "string", got: .null, message: "imageSource needs 'uri' (a string)"))
            path.pop()
        }
        return issues.total == before ? .imageSource(image) : nil
    }

    @inlinable mutating func tooDeep(_ source: Source, _ type: PropType, _ path: PropPath) {
        fail(source, type, path, "the value nests deeper than \(limits.maxDepth) levels")
    }

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
        for index in 0..<count {
            path.push(.index(index))
            let value = convert(source.element(at: index), as: element, path: &path, depth: depth + 1)
            path.pop()
            if let value, issues.total == before { values.append(value) }
        }
        return issues.total == before ? .array(values) : nil
    }

    @inlinable mutating func object(
        _ source: Source,
        fields: [PropField],
        type: PropType,
        path: inout PropPath,
        depth: Int
    ) -> PropValue? {
        guard source.sourceKind == .object else {
            fail(source, type, path)
            return nil
        }
        guard depth <= limits.maxDepth else {
            tooDeep(source, type, path)
            return nil
        }
        var values = [PropValue?](repeating: nil, count: fields.count)
        let before = issues.total
        source.forEachSourceMember { name, value in
            path.push(.field(name))
            defer { path.pop() }
            guard let index = fields.firstIndex(where: { $0.name == name }) else {
                let names = fields.map(\.name).joined(separator: ", ")
                fail(value, type, path, "unknown field '\(name)'; the fields are \(names)")
                return
            }
            let field = fields[index]
            if value.sourceKind == .null {
                values[index] = field.defaultValue
                return
            }
            values[index] = convert(value, as: field.type, path: &path, depth: depth + 1)
        }
        var members: [PropMember] = []
        members.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() {
            if let value = values[index] {
                members.append(PropMember(field.name, value))
            } else if field.isOptional {
                members.append(PropMember(field.name, field.defaultValue))
            } else if source.sourceMember(field.name) == nil {
                path.push(.field(field.name))
                issues.add(
                    PropIssue(
                        path: path.text,
                        expected: field.type.expected,
                        got: .null,
                        message: "missing required field '\(field.name)' (\(field.type.expected))"
                    )
                )
                path.pop()
            }
        }
        return issues.total == before ? .object(members) : nil
    }

    /// Copies any JSON value, within the depth and size limits.
    @inlinable mutating func mixed(_ source: Source, path: inout PropPath, depth: Int) -> JSONValue? {
        mixedBudget -= 1
        guard mixedBudget >= 0 else {
            if mixedBudget == -1 {
                fail(source, .mixed, path, "the value holds more than \(limits.maxMixedValues) JSON values")
            }
            return nil
        }
        switch source.sourceKind {
        case .null: return .null
        case .bool: return .bool(source.boolValue)
        case .integer: return .int(source.integerValue)
        case .real: return .double(source.realValue)
        case .string: return .string(source.stringValue)
        case .array, .object:
            guard depth <= limits.maxDepth else {
                tooDeep(source, .mixed, path)
                mixedBudget = -2
                return nil
            }
            let count = source.elementCount
            if count > mixedBudget {
                fail(source, .mixed, path, "the value holds more than \(limits.maxMixedValues) JSON values")
                mixedBudget = -2
                return nil
            }
            if source.sourceKind == .array {
                var elements: [JSONValue] = []
                elements.reserveCapacity(count)
                for index in 0..<count {
                    path.push(.index(index))
                    let element = mixed(source.element(at: index), path: &path, depth: depth + 1)
                    path.pop()
                    guard let element else { return nil }
                    elements.append(element)
                }
                return .array(elements)
            }
            var members: [JSONMember] = []
            members.reserveCapacity(count)
            var failed = false
            source.forEachSourceMember { name, value in
                guard !failed else { return }
                path.push(.field(name))
                defer { path.pop() }
                if let member = mixed(value, path: &path, depth: depth + 1) {
                    members.append(JSONMember(name, member))
                } else {
                    failed = true
                }
            }
            return failed ? nil : .object(members)
        }
    }
}

extension PropType {
    /// Why `value` is not a value of this type (e.g. a default that is not among an enum's values), or `nil`
    /// when it is one. `null` is always accepted: it is "no value".
    public func problem(with value: PropValue) -> String? {
        switch (self, value) {
        case (_, .null): return nil
        case (.int, .int), (.double, .double), (.bool, .bool), (.string, .string), (.color, .color),
            (.point, .point), (.edgeInsets, .edgeInsets), (.imageSource, .imageSource), (.dimension, .dimension),
            (.mixed, .json):
            return nil
        case (.int32, .int(let i)):
            return Int32(exactly: i) == nil ? "\(i) is outside the int32 range" : nil
        case (.int, .double(let d)) where d.isFinite && d.rounded() == d && Int64(exactly: d) == nil:
            return "\(d) is outside the int range"
        case (.float, .float(let f)):
            return f.isFinite ? nil : "\(f) is not a finite float"
        case (.enumeration(let values), .string(let s)):
            return values.contains(s) ? nil : "'\(s)' is not one of \(values.joined(separator: ", "))"
        case (.int32Enumeration(let values), .int(let i)):
            return Int32(exactly: i).map(values.contains) == true
                ? nil : "\(i) is not one of \(values.map(String.init).joined(separator: ", "))"
        case (.array(let element), .array(let elements)):
            for (index, value) in elements.enumerated() {
                if let problem = element.problem(with: value) { return "[\(index)]: \(problem)" }
            }
            return nil
        case (.object(let fields), .object(let members)):
            for member in members {
                guard let field = fields.first(where: { $0.name == member.name }) else {
                    return "unknown field '\(member.name)'"
                }
                if let problem = field.type.problem(with: member.value) { return "\(member.name): \(problem)" }
            }
            for field in fields {
                if let problem = field.type.problem(with: field.defaultValue) {
                    return "the default of field '\(field.name)': \(problem)"
                }
            }
            return nil
        default:
            return "a \(value.kindName) value is not a \(name)"
        }
    }
}

extension PropValue {
    /// The case's name, for messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .int: "integer"
        case .float: "float"
        case .double: "double"
        case .bool: "bool"
        case .string: "string"
        case .color: "color"
        case .point: "point"
        case .edgeInsets: "edgeInsets"
        case .imageSource: "imageSource"
        case .dimension: "dimension"
        case .array: "array"
        case .object: "object"
        case .json: "mixed"
        }
    }
}
