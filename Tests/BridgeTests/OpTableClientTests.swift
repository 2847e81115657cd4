import Foundation
import Testing

@testable import BridgeCore

/// The op table against the Node client's lists: `js-client/lib/ops.js`'s `OPS` (one line an op, which every
/// other op list of the client derives from) and `index.d.ts`'s `RequestResults`.
@Suite("Op table: the client")
struct OpTableClientTests {
    /// `OPS`'s entries in order: each line `  name: { safeToRepeat: …, sessionFree: … },`.
    static func clientOps() throws -> [String] {
        let url = OpTableTests.root.appendingPathComponent("js-client/lib/ops.js")
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "export const OPS = Object.freeze({" })
        var ops: [String] = []
        for line in lines[(start + 1)...] {
            if line == "});" { break }
            let entry = try #require(line.wholeMatch(of: #/  ([A-Za-z]+): \{ (.*) \},/#), "ops.js: \(line)")
            ops.append(String(entry.output.1))
        }
        return ops
    }

    @Test func theClientsOpsAreTheTablesInItsOrder() throws {
        let client = try Self.clientOps()
        for name in OpTable.names where !client.contains(name) {
            Issue.record("js-client/lib/ops.js's OPS has no line for \(name)")
        }
        #expect(client == OpTable.names)
    }

    /// `RequestResults` has one member an op, so `request()` is typed for every op.
    @Test func requestResultsHasEveryOp() throws {
        let url = OpTableTests.root.appendingPathComponent("js-client/index.d.ts")
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "export interface RequestResults {" })
        var names: [String] = []
        for line in lines[(start + 1)...] {
            if line == "}" { break }
            if let member = line.firstMatch(of: #/^  ([A-Za-z]+): /#) { names.append(String(member.output.1)) }
        }
        #expect(Set(names) == Set(OpTable.names))
        #expect(names.count == OpTable.names.count)
    }
}
