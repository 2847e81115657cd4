/// One of the session limits that `hello`'s `result.limits` and a recording's meta record carry.
///
/// ``all`` is the one list of them: hello's `limits` and the meta record are written from it, `record`'s and
/// `serve`'s flags are applied and checked through it (`RecordedLimits`), and a replay reads them back with it.
/// A flag whose value changes a session's answers is one (`DaemonFlagsReplayTests` records a session with every
/// flag set and names a flag whose recording does not replay). Adding one: its field in ``Engine/Configuration``,
/// its entry here, its `@Option` and its line in `RecordedLimits.options` (Sources/BridgeServer/RecordedLimits.swift;
/// without them every command stops at start, naming it), its row in protocol.md's "Limits and flags" and its name in
/// the hello example's `limits` (`ReplayerAgreementTests.theLimitsAreOneList`), then regenerate js-client/lib/ops.js
/// (`LIMITS`: node js-client/scripts/generate.js). Recordings made before it replay unchanged (replay-rules.json's
/// `limits.*`).
public struct SessionLimit: Sendable {
    /// The member's name in `limits`.
    public let name: String
    /// The `bridged serve` flag that sets it.
    public let flag: String
    /// Where the engine's configuration keeps it.
    public let keyPath: WritableKeyPath<Engine.Configuration, Int> & Sendable
    /// The least value its flag takes.
    public let minimum: Int

    /// The limits, in the order they are written.
    public static let all: [SessionLimit] = [
        SessionLimit(name: "maxViewsPerSession", flag: "--max-views", keyPath: \.maxViewsPerSession, minimum: 1),
        SessionLimit(name: "maxOpsPerBatch", flag: "--max-batch-ops", keyPath: \.maxOpsPerBatch, minimum: 1),
        SessionLimit(name: "eventBuffer", flag: "--event-buffer", keyPath: \.eventBuffer, minimum: 0),
        SessionLimit(
            name: "maxRequestOutputBytes",
            flag: "--max-request-output-bytes",
            keyPath: \.maxRequestOutputBytes,
            minimum: 1
        ),
        SessionLimit(name: "maxBatchBytes", flag: "--max-batch-bytes", keyPath: \.maxBatchBytes, minimum: 1),
    ]

    /// The error of a flag given less than ``minimum``.
    public var belowMinimum: String {
        switch minimum {
        case 0: "\(flag) must not be negative"
        case 1: "\(flag) must be positive"
        default: "\(flag) must be at least \(minimum)"
        }
    }

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
