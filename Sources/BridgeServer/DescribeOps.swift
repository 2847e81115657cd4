import ArgumentParser
import BridgeCore

/// `bridged ops`: prints the protocol's ops as the daemon's op table describes them (``OpTable/describe()``: each
/// op's batch rule, fields, sample request and result shape; the session limits), one JSON object. The Node
/// client's `lib/ops.js` and `index.d.ts`'s `RequestResults` are generated from it (`bridged-client generate`).
struct DescribeOps: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ops",
        abstract: "Print every op of the protocol (fields, sample request, result shape) and the limits, as JSON.",
        discussion: "What bridged-client generate reads to write the Node client's op list and result types."
    )

    func run() throws {
        print(OpTable.describe())
    }
}
