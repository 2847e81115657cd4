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

    /// ``ReplayRules`` reads every list of the file, as Foundation's JSON reader reads it.
    @Test func everyListIsRead() throws {
        let file = BuiltinComponentListsTests.root.appendingPathComponent("js-client/lib/replay-rules.json")
        let lists = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: [String]])
        let rules = ReplayRules.shared
        let read = [
            "helloVaries": rules.helloVaries, "integersVary": rules.integersVary,
            "fieldsAddedToHello": rules.fieldsAddedToHello,
            "componentsAddedToBuiltins": rules.componentsAddedToBuiltins,
        ]
        #expect(read == lists, "a list of replay-rules.json that ReplayRules does not read")
        #expect(read.values.allSatisfy { !$0.isEmpty })
    }
}
