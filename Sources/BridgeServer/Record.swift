import ArgumentParser
import BridgeCore

/// `bridged record FILE`: runs input lines through a fresh engine and prints the recorded session.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a file of request lines through a fresh engine and print the recorded session (JSONL).",
        discussion: "The output replays with 'bridged replay'. Handy for writing a regression session by hand."
    )

    @Argument(
        help: """
            A file with one request per line, exactly as a client would send them. A line \
            {"dir":"meta","connection":"closed"} makes the client reconnect there (so does a bye).
            """
    )
    var file: String

    @OptionGroup var limits: RecordedLimits

    @OptionGroup var components: ComponentsOption

    func run() throws {
        guard let text = readFile(file) else {
            print("bridged record: cannot read \(file)")
            throw ExitCode(1)
        }
        var configuration = Engine.Configuration()
        limits.apply(to: &configuration)
        let registry = try components.registry { printError("bridged record: \($0)") }
        let engine = Engine(registry: registry, configuration: configuration)
        var connection = engine.connect()
        defer { connection.close() }
        var out = SessionRecord.meta(configuration, components: engine.describedComponentsJSON)
        var lines = Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        let reconnect = Array(SessionRecord.connectionClosed.dropLast())
        for line in lines {
            if Array(line) == reconnect {
                // The input says the client reconnects here: the next lines come on a new connection.
                connection.close()
                connection = engine.connect()
                out.append(contentsOf: SessionRecord.connectionClosed)
                continue
            }
            var frames: [UInt8] = []
            Array(line).withUnsafeBytes { raw in
                let kind = connection.handle(line: raw, into: &frames)
                if let record = SessionRecord.input(line: raw, kind: kind) { out.append(contentsOf: record) }
            }
            frames.withUnsafeBytes { out.append(contentsOf: SessionRecord.output(frames: $0)) }
            if connection.hasEnded {
                // After `bye` the daemon closes the connection: the next lines come on a new one.
                connection.close()
                connection = engine.connect()
                out.append(contentsOf: SessionRecord.connectionClosed)
            }
        }
        print(String(decoding: out, as: UTF8.self), terminator: "")
    }
}
