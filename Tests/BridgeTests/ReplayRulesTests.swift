import BridgeCore
import Foundation
import Testing

/// Both replayers normalise by one data file, js-client/lib/replay-rules.json: the Node replayer reads it, the
/// Swift one holds its text (``ReplayRules/json``).
@Suite("Replay rules: one data file")
struct ReplayRulesTests {
    @Test func theSwiftCopyIsTheFile() throws {
        let file = BuiltinComponentListsTests.root.appendingPathComponent("js-client/lib/replay-rules.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(
            ReplayRules.json + "\n" == text,
            "Sources/BridgeCore/Replay/ReplayRules.swift's json differs from js-client/lib/replay-rules.json: paste the file in"
        )
    }

    @Test func everyListIsRead() {
        let rules = ReplayRules.shared
        #expect(rules.helloVaries == ["session", "server", "token"])
        #expect(rules.integersVary == ["stats"])
        #expect(rules.fieldsAddedToHello == ["token", "limits"])
        #expect(!rules.componentsAddedToBuiltins.isEmpty)
    }
}
