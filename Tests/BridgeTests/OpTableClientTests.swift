import Foundation
import Testing

@testable import BridgeCore

/// The op table against the Node client's lists: `js-client/lib/ops.js`'s `OPS` (one line an op, which every
/// other op list of the client derives from) and `index.d.ts`'s `RequestResults`.
@Suite("Op table: the client")
struct OpTableClientTests {
    /// The lines of `file` (from the repository's root) after the line `first`, up to the line `last`.
    static func block(of file: String, after first: String, upTo last: String) throws -> ArraySlice<Substring> {
        let text = try String(contentsOf: OpTableTests.root.appendingPathComponent(file), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == first }, "\(file) has no line \(first)")
        return lines[(start + 1)...].prefix { $0 != last }
    }

    /// `OPS`'s entries in order: each line `  name: { safeToRepeat: …, sessionFree: … },`.
    static func clientOps() throws -> [String] {
        try block(of: "js-client/lib/ops.js", after: "export const OPS = Object.freeze({", upTo: "});").map { line in
            let entry = try #require(line.wholeMatch(of: #/  ([A-Za-z]+): \{ (.*) \},/#), "ops.js: \(line)")
            return String(entry.output.1)
        }
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
        let block = try Self.block(of: "js-client/index.d.ts", after: "export interface RequestResults {", upTo: "}")
        let names = block.compactMap { $0.firstMatch(of: #/^  ([A-Za-z]+): /#).map { String($0.output.1) } }
        for name in OpTable.names where !names.contains(name) {
            Issue.record("js-client/index.d.ts's RequestResults has no member for \(name)")
        }
        #expect(Set(names) == Set(OpTable.names))
        #expect(names.count == OpTable.names.count)
    }
}
