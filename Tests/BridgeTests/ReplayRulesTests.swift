import BridgeCore
import Foundation
import Testing

/// Both replayers normalise by one data file, js-client/lib/replay-rules.json: the Node replayer reads it, the
/// Swift one holds its text, generated (``ReplayRules/json``, ReplayRules+JSON.swift).
@Suite("Replay rules: one data file")
struct ReplayRulesTests {
    @Test func theSwiftCopyIsTheFile() throws {
        let file = BuiltinComponentListsTests.root.appendingPathComponent("js-client/lib/replay-rules.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(
            ReplayRules.json + "\n" == text,
            """
            Sources/BridgeCore/Replay/ReplayRules+JSON.swift differs from js-client/lib/replay-rules.json: regenerate \
            it with node js-client/scripts/generate.js --bin .build/debug/bridged
            """
        )
    }

    /// ``ReplayRules`` reads every list of the file, as Foundation's JSON reader reads it.
    @Test func everyListIsRead() throws {
        let file = BuiltinComponentListsTests.root.appendingPathComponent("js-client/lib/replay-rules.json")
        var lists = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let growing = try #require(lists.removeValue(forKey: "listsThatGrow") as? [[String: String]])
        let rules = ReplayRules.shared
        let read = [
            "helloVaries": rules.helloVaries, "integersVary": rules.integersVary,
            "fieldsAddedToHello": rules.fieldsAddedToHello,
            "componentsAddedToBuiltins": rules.componentsAddedToBuiltins,
        ]
        #expect(read == lists as? [String: [String]], "a list of replay-rules.json that ReplayRules does not read")
        #expect(read.values.allSatisfy { !$0.isEmpty })
        #expect(
            growing.map { ReplayRules.ListThatGrows(code: $0["code"] ?? "", after: $0["after"] ?? "") }
                == rules.listsThatGrow
        )
        #expect(!rules.listsThatGrow.isEmpty)
    }

    /// A growing list needs no edit of a recording: a recording whose hello lacks a session limit, and whose
    /// `unknown_component` message lists fewer components than the daemon registers, still replays (by
    /// `fieldsAddedToHello`'s `limits.*` and `listsThatGrow`); one whose list differs otherwise does not.
    @Test func aLimitOrAComponentAddedSinceARecordingIsNoDifference() throws {
        let directory = BuiltinComponentListsTests.root.appendingPathComponent("Tests/BridgeTests/Sessions")
        let text = try String(contentsOf: directory.appendingPathComponent("tree-and-delete.jsonl"), encoding: .utf8)
        // The last limit the recording has (one added after it was made is absent anyway).
        let limit = try #require(SessionLimit.all.last { text.contains(#","\#($0.name)":"#) })
        let limitMember = try #require(text.firstRange(of: #","\#(limit.name)":"#))
        let valueEnd = try #require(text[limitMember.upperBound...].firstIndex { !$0.isNumber })
        // The hello result's limits, and the meta record's, without the last limit.
        let withoutLimit = text.replacingOccurrences(
            of: String(text[limitMember.lowerBound..<valueEnd]),
            with: ""
        )
        #expect(withoutLimit != text)
        let registered = "registered: View, SwiftUIButton, TextField, Slider, RCTView"
        let fewerComponents = withoutLimit.replacingOccurrences(of: registered, with: "registered: View, TextField")
        #expect(fewerComponents != withoutLimit, "tree-and-delete.jsonl has an unknown_component message")
        let outcome = Replayer().replay(fewerComponents)
        #expect(outcome.passed, "\(outcome.difference?.description ?? "")")
        let otherComponents = withoutLimit.replacingOccurrences(of: registered, with: "registered: TextField, View")
        #expect(!Replayer().replay(otherComponents).passed, "the components out of order")
    }
}
