import ArgumentParser
import BridgeCore

/// Every limit flag of the engine, declared once, and the engine configuration they make: `serve`'s. A limit
/// that recordings carry goes in ``RecordedLimits`` (then `record` has it too): any whose value changes a session's
/// answers (`DaemonFlagsReplayTests`); any other one here.
struct EngineLimits: ParsableArguments {
    @Option(help: "The most bytes of unacknowledged event frames a session keeps for a resume.")
    var eventBufferBytes: Int = Engine.Configuration().eventBufferBytes

    @Option(help: "The most sessions kept, connected or waiting to be resumed; at the cap the longest-detached goes.")
    var maxSessions: Int = Engine.Configuration().maxSessions

    @OptionGroup var recorded: RecordedLimits

    func validate() throws {
        guard eventBufferBytes >= 0 else { throw ValidationError("--event-buffer-bytes must not be negative") }
        guard maxSessions > 0 else { throw ValidationError("--max-sessions must be positive") }
    }

    /// The default configuration with these limits.
    var configuration: Engine.Configuration {
        var configuration = Engine.Configuration()
        configuration.eventBufferBytes = eventBufferBytes
        configuration.maxSessions = maxSessions
        recorded.apply(to: &configuration)
        return configuration
    }
}
