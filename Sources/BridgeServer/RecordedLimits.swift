import ArgumentParser
import BridgeCore

/// The engine limits a recording carries (its meta line's and hello's `limits`), so that it replays under them:
/// the flags of `record`, and of `serve` within ``EngineLimits``. They are ``SessionLimit/all``'s, in its order (the
/// list the meta line and the replayers read); `DaemonCommandLineTests` checks that `record --help` lists them.
struct RecordedLimits: ParsableArguments {
    @Option(help: "The most views a session may have; more is limit_exceeded.")
    var maxViews: Int = Engine.Configuration().maxViewsPerSession

    @Option(help: "The most ops a batch may have; more is limit_exceeded.")
    var maxBatchOps: Int = Engine.Configuration().maxOpsPerBatch

    @Option(help: "The most unacknowledged event frames a session keeps for a resume.")
    var eventBuffer: Int = Engine.Configuration().eventBuffer

    func validate() throws {
        guard eventBuffer >= 0 else { throw ValidationError("--event-buffer must not be negative") }
        guard maxViews > 0 else { throw ValidationError("--max-views must be positive") }
        guard maxBatchOps > 0 else { throw ValidationError("--max-batch-ops must be positive") }
    }

    /// `configuration` with these limits.
    func apply(to configuration: inout Engine.Configuration) {
        configuration.eventBuffer = eventBuffer
        configuration.maxViewsPerSession = maxViews
        configuration.maxOpsPerBatch = maxBatchOps
    }
}
