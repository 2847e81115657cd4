import ArgumentParser
import BridgeCore

/// The engine limits a recording carries (its meta line's and hello's `limits`), so that it replays under them:
/// the flags of `record`, and of `serve` within ``EngineLimits``. They are ``SessionLimit/all``'s, in its order (the
/// list the meta line and the replayers read), checked and applied through it: a new limit is an `@Option` here and
/// its case in ``subscript(_:)``. `DaemonCommandLineTests` checks that `record --help` lists every one and that
/// each reaches the recording.
struct RecordedLimits: ParsableArguments {
    @Option(help: "The most views a session may have; more is limit_exceeded.")
    var maxViews: Int = Engine.Configuration().maxViewsPerSession

    @Option(help: "The most ops a batch may have; more is limit_exceeded.")
    var maxBatchOps: Int = Engine.Configuration().maxOpsPerBatch

    @Option(help: "The most unacknowledged event frames a session keeps for a resume.")
    var eventBuffer: Int = Engine.Configuration().eventBuffer

    /// The value given for `limit` (its flag's, or the default).
    subscript(_ limit: SessionLimit) -> Int {
        switch limit.keyPath {
        case \Engine.Configuration.maxViewsPerSession: maxViews
        case \Engine.Configuration.maxOpsPerBatch: maxBatchOps
        case \Engine.Configuration.eventBuffer: eventBuffer
        default:
            fatalError("RecordedLimits (Sources/BridgeServer/RecordedLimits.swift) has no option for \(limit.flag)")
        }
    }

    func validate() throws {
        for limit in SessionLimit.all where self[limit] < limit.minimum {
            throw ValidationError(limit.belowMinimum)
        }
    }

    /// `configuration` with these limits.
    func apply(to configuration: inout Engine.Configuration) {
        for limit in SessionLimit.all { configuration[keyPath: limit.keyPath] = self[limit] }
    }
}
