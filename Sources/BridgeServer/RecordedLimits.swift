import ArgumentParser
import BridgeCore

/// The engine limits a recording carries (its meta line's and hello's `limits`), so that it replays under them:
/// the flags of `record`, and of `serve` within ``EngineLimits``. They are ``SessionLimit/all``'s, in its order (the
/// list the meta line and the replayers read), checked and applied through it: a new limit is an `@Option` here and
/// its line in ``options``; without them every command that takes these flags stops at start, naming the limit
/// (``validate()``). `DaemonCommandLineTests` checks that `record --help` lists every one and that each reaches the
/// recording.
struct RecordedLimits: ParsableArguments {
    @Option(help: "The most views a session may have; more is limit_exceeded.")
    var maxViews: Int = Engine.Configuration().maxViewsPerSession

    @Option(help: "The most ops a batch may have; more is limit_exceeded.")
    var maxBatchOps: Int = Engine.Configuration().maxOpsPerBatch

    @Option(help: "The most unacknowledged event frames a session keeps for a resume.")
    var eventBuffer: Int = Engine.Configuration().eventBuffer

    @Option(help: "The most bytes one request may produce (its events and its response); more is limit_exceeded.")
    var maxRequestOutputBytes: Int = Engine.Configuration().maxRequestOutputBytes

    @Option(help: "The most bytes of lines a batch sent in parts (more: true) may hold; more is limit_exceeded.")
    var maxBatchBytes: Int = Engine.Configuration().maxBatchBytes

    /// Each limit's option, by the configuration's field the limit sets.
    static let options:
        [(field: PartialKeyPath<Engine.Configuration> & Sendable, option: KeyPath<RecordedLimits, Int> & Sendable)] = [
            (\Engine.Configuration.maxViewsPerSession, \.maxViews),
            (\Engine.Configuration.maxOpsPerBatch, \.maxBatchOps),
            (\Engine.Configuration.eventBuffer, \.eventBuffer),
            (\Engine.Configuration.maxRequestOutputBytes, \.maxRequestOutputBytes),
            (\Engine.Configuration.maxBatchBytes, \.maxBatchBytes),
        ]

    /// The limits of ``SessionLimit/all`` with no line in ``options``.
    static var limitsWithoutOption: [SessionLimit] {
        SessionLimit.all.filter { limit in !options.contains { $0.field == limit.keyPath } }
    }

    /// The value given for `limit` (its flag's, or the default); `nil` for a limit with no option (refused by
    /// ``validate()`` before any command runs).
    subscript(_ limit: SessionLimit) -> Int? {
        RecordedLimits.options.first { $0.field == limit.keyPath }.map { self[keyPath: $0.option] }
    }

    func validate() throws {
        if let missing = RecordedLimits.limitsWithoutOption.first {
            throw ValidationError(
                """
                the recorded limit \(missing.name) (\(missing.flag)) has no option: add its @Option and its line in \
                RecordedLimits.options (Sources/BridgeServer/RecordedLimits.swift)
                """
            )
        }
        for limit in SessionLimit.all where (self[limit] ?? limit.minimum) < limit.minimum {
            throw ValidationError(limit.belowMinimum)
        }
    }

    /// `configuration` with these limits.
    func apply(to configuration: inout Engine.Configuration) {
        for limit in SessionLimit.all {
            if let value = self[limit] { configuration[keyPath: limit.keyPath] = value }
        }
    }
}
