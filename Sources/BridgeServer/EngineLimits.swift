import ArgumentParser
import BridgeCore

/// Every limit flag of the engine, declared once, and the engine configuration they make: `serve`'s. A limit
/// that recordings carry goes in ``RecordedLimits`` (then `record` has it too); any other one here.
struct EngineLimits: ParsableArguments {
    @Option(help: "The most bytes of unacknowledged event frames a session keeps for a resume.")
    var eventBufferBytes: Int = Engine.Configuration().eventBufferBytes

    @Option(help: "The most bytes one request may produce (its events and its response); more is limit_exceeded.")
    var maxRequestOutputBytes: Int = Engine.Configuration().maxRequestOutputBytes

    @Option(help: "The most sessions kept, connected or waiting to be resumed; at the cap the longest-detached goes.")
    var maxSessions: Int = Engine.Configuration().maxSessions

    @Option(help: "The most bytes of lines a batch sent in parts (more: true) may hold; more is limit_exceeded.")
    var maxBatchBytes: Int = Engine.Configuration().maxBatchBytes

    @OptionGroup var recorded: RecordedLimits

    func validate() throws {
        guard eventBufferBytes >= 0 else { throw ValidationError("--event-buffer-bytes must not be negative") }
        guard maxRequestOutputBytes > 0 else { throw ValidationError("--max-request-output-bytes must be positive") }
        guard maxBatchBytes > 0 else { throw ValidationError("--max-batch-bytes must be positive") }
        guard maxSessions > 0 else { throw ValidationError("--max-sessions must be positive") }
    }

    /// The default configuration with these limits.
    var configuration: Engine.Configuration {
        var configuration = Engine.Configuration()
        configuration.eventBufferBytes = eventBufferBytes
        configuration.maxRequestOutputBytes = maxRequestOutputBytes
        configuration.maxSessions = maxSessions
        configuration.maxBatchBytes = maxBatchBytes
        recorded.apply(to: &configuration)
        return configuration
    }
}
