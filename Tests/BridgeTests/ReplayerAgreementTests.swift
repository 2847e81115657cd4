import BridgeCore
import Foundation
import Testing

/// The Swift replayer treats records as the Node replayer (js-client/lib/replay.js) does: the cases here are
/// among those js-client/test/replayers-agree.test.js runs through both, with the real `bridged replay`.
@Suite("The replayers agree")
struct ReplayerAgreementTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func corpus(_ file: String) throws -> String { try ReplayTests.text(file) }

    /// A `bye` ends the connection: what follows goes on a new one, with or without the record that says so.
    @Test func whatFollowsAByeGoesOnANewConnection() throws {
        let missing = try Self.corpus("bye-without-connection-record.jsonl")
        #expect(!missing.contains(#""connection":"closed""#))
        #expect(Replayer().replay(missing).difference == nil)
        let withoutRecords = try Self.corpus("bye.jsonl")
            .replacingOccurrences(of: #"{"dir":"meta","connection":"closed"}"# + "\n", with: "")
        #expect(Replayer().replay(withoutRecords).difference == nil)
        let changed = missing.replacingOccurrences(of: "no view with tag 1", with: "no view with tag 2")
        #expect(changed != missing)
        #expect(Replayer().replay(changed).difference?.line == 13)
    }

    /// Format 2 leaves out of hello what a recording lacks of `token`, `limits` and the built-ins added since, and
    /// compares everything else; an older format compares the members the recording has.
    @Test func formatsAndHelloFields() throws {
        #expect(Replayer().replay(try Self.corpus("hello-handshake.jsonl")).difference == nil)
        let older = try Self.corpus("older-format.jsonl")
        #expect(Replayer().replay(older).difference == nil)
        let saidFormat2 = older.replacingOccurrences(of: #"{"dir":"meta","#, with: #"{"dir":"meta","format":2,"#)
        #expect(Replayer().replay(saidFormat2).difference?.line == 9, "inspect lacks the command log")
    }

    /// Numbers are compared as numbers: a recording written by the Node client says `1` where the daemon said `1.0`.
    @Test func numbersAreComparedAsNumbers() throws {
        let original = try Self.corpus("hello-handshake.jsonl")
        let asInteger = original.replacingOccurrences(of: #""default":1.0}"#, with: #""default":1}"#)
        let other = original.replacingOccurrences(of: #""default":1.0}"#, with: #""default":1.5}"#)
        #expect(asInteger != original)
        #expect(Replayer().replay(asInteger).difference == nil)
        #expect(Replayer().replay(other).difference != nil)
    }

    /// Only the first record can be the meta record; blank lines hold no record; a line that is not an object
    /// with a `dir` is not a record, and one of another `dir` is ignored.
    @Test func records() throws {
        let limits = try Self.corpus("limits.jsonl").split(separator: "\n").map(String.init)
        let metaLast = (limits.dropFirst() + [limits[0]]).joined(separator: "\n")
        #expect(Replayer().replay(metaLast).difference != nil, "replayed with the default limits")
        let batch = try Self.corpus("batch.jsonl")
        #expect(Replayer().replay(" \t\r\n" + batch.replacingOccurrences(of: "\n", with: "\n \t\r\n")).passed)
        let emit = try Self.corpus("emit.jsonl")
        let lines = emit.split(separator: "\n").count
        #expect(Replayer().replay(emit + "[1]\n").difference?.line == lines + 1)
        #expect(Replayer().replay(emit + #"{"frame":{}}"# + "\n").difference?.line == lines + 1)
        #expect(Replayer().replay(emit + #"{"dir":"note","text":"ignored"}"# + "\n").passed)
    }

    /// Every line is read before anything is replayed, and the k-th frame written is compared with the k-th `out`
    /// record wherever it sits among the `in` records.
    @Test func recordsAreReadFirstAndOutputsInOrder() throws {
        let lines = try Self.corpus("resume-token.jsonl").split(separator: "\n").map(String.init)
        let isOut = { (line: String) in line.hasPrefix(#"{"dir":"out""#) }
        let outsFirst = [lines[0]] + lines.filter(isOut) + lines.dropFirst().filter { !isOut($0) }
        #expect(Replayer().replay(outsFirst.joined(separator: "\n")).passed)
        let outsLast = lines.filter { !isOut($0) } + lines.filter(isOut)
        #expect(Replayer().replay(outsLast.joined(separator: "\n")).passed)

        let emit = try Self.corpus("emit.jsonl")
        let changed = emit.replacingOccurrences(of: #""ok":true"#, with: #""ok":false"#)
        #expect(changed != emit)
        let difference = Replayer().replay(changed + "not json\n").difference
        #expect(difference?.line == emit.split(separator: "\n").count + 1)
        #expect(difference?.expected == "a record")
    }

    /// The limits a recording carries are one list, ``SessionLimit/all``: what the meta record and hello say, and
    /// what protocol.md says (the Node replayer's `LIMITS` is generated from it: js-client/test/generated.test.js).
    @Test func theLimitsAreOneList() throws {
        let names = SessionLimit.all.map(\.name)
        let configuration = Engine.Configuration()
        let meta = String(decoding: SessionRecord.meta(configuration), as: UTF8.self)
        let expected = SessionLimit.all.map { #""\#($0.name)":\#(configuration[keyPath: $0.keyPath])"# }
        #expect(meta.contains(#""limits":{"# + expected.joined(separator: ",") + "}"), "SessionRecord.meta")

        let engine = Engine()
        defer { engine.closeAllSessions() }
        let hello = try #require(engine.connect().handle(line: #"{"id":1,"op":"hello","protocol":1}"#).first)
        #expect(
            hello.contains(#""limits":{"# + expected.joined(separator: ",") + "}"),
            "hello's limits (Ops/Hello.swift)"
        )

        let protocolText = try String(contentsOf: Self.root.appendingPathComponent("protocol.md"), encoding: .utf8)
        let helloSection = try #require(protocolText.range(of: "### hello")).upperBound
        let section = protocolText[helloSection...]
        let example = try #require(section.firstMatch(of: /"limits":\{([^}]*)\}/)).1
        #expect(
            example.matches(of: /"(\w+)":/).map { String($0.1) } == names,
            "protocol.md's hello example's limits name SessionLimit.all's, in order"
        )
        let table = protocolText[try #require(protocolText.range(of: "### Limits and flags")).upperBound...]
        let recorded = table.split(separator: "\n").filter { $0.hasPrefix("| `--") && $0.contains("*recorded*") }
            .map { String($0.dropFirst(3).prefix { $0 != " " && $0 != "`" }) }
        #expect(
            recorded.sorted() == SessionLimit.all.map(\.flag).sorted(),
            "protocol.md's Limits and flags marks *recorded* the flags of SessionLimit.all, and no other"
        )
    }
}
