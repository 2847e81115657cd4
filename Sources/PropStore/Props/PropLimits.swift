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
