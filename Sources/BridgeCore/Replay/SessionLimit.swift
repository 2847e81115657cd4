/// One of the session limits that `hello`'s `result.limits` and a recording's meta record carry.
///
/// ``all`` is the one list of them: the meta record is written from it and a replay reads it back with it. The
/// Node replayer's list (`LIMITS` in js-client/lib/replay.js) has the same names and flags; a test compares them,
/// and both with protocol.md.
public struct SessionLimit: Sendable {
    /// The member's name in `limits`.
    public let name: String
    /// The `bridged serve` flag that sets it.
    public let flag: String
    /// Where the engine's configuration keeps it.
    public let keyPath: WritableKeyPath<Engine.Configuration, Int> & Sendable

    /// The limits, in the order they are written.
    public static let all: [SessionLimit] = [
        SessionLimit(name: "maxViewsPerSession", flag: "--max-views", keyPath: \.maxViewsPerSession),
        SessionLimit(name: "maxOpsPerBatch", flag: "--max-batch-ops", keyPath: \.maxOpsPerBatch),
        SessionLimit(name: "eventBuffer", flag: "--event-buffer", keyPath: \.eventBuffer),
    ]

    /// Writes `{"maxViewsPerSession":…,…}` with the values of `configuration`.
    public static func write(_ configuration: Engine.Configuration, into w: inout JSONWriter) {
        var separator: StaticString = "{"
        for limit in all {
            w.raw(separator)
            w.string(limit.name)
            w.raw(":")
            w.int(configuration[keyPath: limit.keyPath])
            separator = ","
        }
        w.raw("}")
    }

    /// `configuration` with the limits that `limits` (a meta record's) names as integers; the others unchanged.
    public static func applying(_ limits: JSONRef?, to configuration: Engine.Configuration) -> Engine.Configuration {
        var configuration = configuration
        for limit in all {
            if let value = limits?[limit.name]?.integer { configuration[keyPath: limit.keyPath] = Int(value) }
        }
        return configuration
    }
}
