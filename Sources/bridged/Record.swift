import ArgumentParser
import BridgeCore

/// `bridged record FILE`: runs input lines through a fresh engine and prints the recorded session.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a file of request lines through a fresh engine and print the recorded session (JSONL).",
        discussion: "The output replays with 'bridged replay'. Handy for writing a regression session by hand."
    )

    @Argument(help: "A file with one request per line, exactly as a client would send them.")
    var file: String

    @Option(help: "The most views a session may have.")
    var maxViews: Int?

    @Option(help: "The most ops a batch may have.")
    var maxBatchOps: Int?

    func run() throws {
        guard let text = readFile(file) else {
            print("bridged record: cannot read \(file)")
            throw ExitCode(1)
        }
        var configuration = Engine.Configuration()
        if let maxViews { configuration.maxViewsPerSession = maxViews }
        if let maxBatchOps { configuration.maxOpsPerBatch = maxBatchOps }
        let session = Engine(configuration: configuration).makeSession(id: "record")
        defer { session.close() }
        var out = SessionRecord.meta(configuration)
        var lines = Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines {
            var frames: [UInt8] = []
            Array(line).withUnsafeBytes { raw in
                let kind = session.handle(line: raw, into: &frames)
                if let record = SessionRecord.input(line: raw, kind: kind) { out.append(contentsOf: record) }
            }
            frames.withUnsafeBytes { out.append(contentsOf: SessionRecord.output(frames: $0)) }
        }
        print(String(decoding: out, as: UTF8.self), terminator: "")
    }
}
