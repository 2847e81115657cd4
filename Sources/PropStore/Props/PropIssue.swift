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

/// Why a JSON value could not be converted to a prop type.
public struct PropConversionError: Error, Sendable, Equatable {
    /// What the type accepts, e.g. `int`.
    public var expected: String
    /// A human sentence, e.g. "JSON value 'abc' of type string cannot be converted to int".
    public var message: String

    public init(expected: String, message: String) {
        self.expected = expected
        self.message = message
    }
}
