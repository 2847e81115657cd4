import Foundation
import Testing

@testable import BridgeCore

/// The op table against everything else that lists the ops: protocol.md, the recorded corpus, the bench's
/// peer, and the batch rule as a client sees it.
@Suite("Op table")
struct OpTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The names in protocol.md's "Operations" table: its rows `| `name` | … |`, in order.
    static func protocolOps() throws -> [String] { try protocolRows().map(\.name) }

    /// protocol.md's "Operations" table: each row's op and its last column, whether a batch may hold it.
    static func protocolRows() throws -> [(name: String, inBatch: String)] {
        let text = try String(contentsOf: root.appendingPathComponent("protocol.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex { $0 == "## Operations" })
        let header = try #require(lines[heading...].firstIndex { $0.hasPrefix("| op |") })
        var rows: [(name: String, inBatch: String)] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("| `") else { break }
            let name = line.dropFirst(3).prefix { $0 != "`" }
            let last = line.split(separator: "|").last?.trimmingCharacters(in: .whitespaces) ?? ""
            rows.append((String(name), last))
        }
        return rows
    }

    @Test func protocolListsTheTablesOpsInItsOrder() throws {
        let documented = try Self.protocolOps()
        for name in OpTable.names where !documented.contains(name) {
            Issue.record("protocol.md's Operations table has no row for \(name)")
        }
        #expect(documented == OpTable.names, "protocol.md's Operations table, in OpTable.ops's order")
    }

    /// protocol.md's "in a `batch`" column says of each op what its entry's batch rule does.
    @Test func protocolSaysWhichOpsABatchMayHold() throws {
        let rows = try Self.protocolRows()
        for entry in OpTable.entries {
            // Paired by name: a row missing or out of place is protocolListsTheTablesOpsInItsOrder's to report.
            guard let row = rows.first(where: { $0.name == entry.name.description }) else { continue }
            let inBatch = entry.batch.refusal == nil ? "yes" : "no"
            #expect(
                row.inBatch == inBatch,
                "protocol.md's Operations table says \(row.name) in a batch: \(row.inBatch)"
            )
        }
    }

    /// protocol.md's "request fields" column names each op's fields as its spec has them, `?` on the optional ones:
    /// a field added to the spec and not to the table (or the other way round) fails, naming both places.
    @Test func protocolNamesEachOpsFields() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("protocol.md"), encoding: .utf8)
        let section = text[try #require(text.range(of: "## Operations")).upperBound...]
        for (name, spec) in OpTable.specs {
            let row = try #require(
                section.split(separator: "\n").first { $0.hasPrefix("| `\(name)` |") },
                "protocol.md's Operations table has no row for \(name)"
            )
            // The second column: up to the next pipe that is not escaped (`"bubble"\|"capture"`).
            let rest = Array(row.dropFirst("| `\(name)` |".count))
            var end = 0
            while end < rest.count, rest[end] != "|" || (end > 0 && rest[end - 1] == "\\") { end += 1 }
            let column = String(rest[..<end])
            let documented = column.matches(of: #/`([A-Za-z]+\??)/#).map { String($0.output.1) }
            let fields = try #require(try JSONDocument(parsing: spec.fields.description).root.keys)
            #expect(
                documented.sorted() == fields.sorted(),
                """
                protocol.md's Operations table says \(name) takes \(documented); its spec (Sources/BridgeCore/Ops/) \
                says \(fields)
                """
            )
        }
    }

    /// The ops the connection answers (``ObserverOp``, the table's `reachesOtherSessions`) are those a recorder
    /// leaves out: an engine handling each op says `.observer`, which a recorder drops, for theirs alone. Besides
    /// them, a `screenshot` or a `layout` with `at` that names another `session` (the DevTools page's picture) is
    /// answered by the connection and left out; the same ops naming none are kept.
    @Test func theOpsAboutOtherSessionsAreNotRecorded() throws {
        let recorded = try recordedOps(OpTable.names.map { #"{"id":0,"op":"\#($0)","session":"s0"}"# })
        let namingASession: Set = ["screenshot"]
        let expected = OpTable.entries.filter { !$0.reachesOtherSessions }.map { $0.name.description }.filter {
            !namingASession.contains($0)
        }
        #expect(recorded == expected)
        #expect(expected.count < OpTable.names.count)
        let aboutAnother = try recordedOps([
            #"{"id":0,"op":"screenshot","session":"s0"}"#, #"{"id":0,"op":"layout","session":"s0","at":{"x":1,"y":1}}"#,
            #"{"id":0,"op":"screenshot"}"#, #"{"id":0,"op":"layout","at":{"x":1,"y":1}}"#,
        ])
        #expect(aboutAnother == ["screenshot", "layout"])
    }

    /// The `op` of each of `requests` (sent after a hello) that a recorder keeps.
    func recordedOps(_ requests: [String]) throws -> [String] {
        let engine = Engine()
        defer { engine.closeAllSessions() }
        let connection = engine.connect()
        var ops: [String] = []
        for line in [#"{"id":0,"op":"hello","protocol":1}"#] + requests {
            var out: [UInt8] = []
            let bytes = Array(line.utf8)
            let kind = bytes.withUnsafeBytes { connection.handle(line: $0, into: &out) }
            if kind != .observer { ops.append(String(line.split(separator: "\"op\":\"")[1].prefix { $0 != "\"" })) }
        }
        return Array(ops.dropFirst())
    }

    /// The `unknown_op` message lists the table (so a new op is listed with no other change; the replayers take a
    /// recorded message that lists fewer ops as equal, replay-rules.json's `listsThatGrow`).
    @Test func unknownOpListsTheTable() {
        let client = Client()
        let response = client.send(#"{"id":1,"op":"nope"}"#).response
        #expect(
            field(response, "error.message")
                == #""unknown op 'nope'; expected one of \#(OpTable.names.joined(separator: ", "))""#
        )
    }

    /// A recorded `unknown_op` message is equal to a live one that lists more ops, in the same order, and only then
    /// (replay-rules.json's `listsThatGrow`).
    @Test func aRecordedUnknownOpMessageMayListFewerOps() {
        let live = "unknown op 'x'; expected one of hello, create, update, bye"
        let rules = ReplayRules.shared
        #expect(
            rules.grewSince(
                code: "unknown_op",
                recorded: "unknown op 'x'; expected one of hello, update, bye",
                live: live
            )
        )
        #expect(
            !rules.grewSince(
                code: "bad_request",
                recorded: "unknown op 'x'; expected one of hello, update, bye",
                live: live
            )
        )
        #expect(!rules.grewSince(code: "unknown_op", recorded: live, live: live))
        #expect(
            !rules.grewSince(code: "unknown_op", recorded: "unknown op 'x'; expected one of update, hello", live: live)
        )
        #expect(
            !rules.grewSince(code: "unknown_op", recorded: "unknown op 'x'; expected one of hello, launch", live: live)
        )
        #expect(!rules.grewSince(code: "unknown_op", recorded: "unknown op 'y'; expected one of hello", live: live))
        #expect(!rules.grewSince(code: "unknown_op", recorded: "bad request", live: "bad requests"))
    }

    /// The lookup finds every op by its bytes, and nothing that only looks like one.
    @Test func lookupFindsEveryNameAndNoNearMiss() {
        for (index, name) in OpTable.names.enumerated() {
            var found: Int?
            var bytes = Array(name.utf8)
            bytes.withUnsafeBytes { found = OpTable.table.index(of: $0) }
            #expect(found == index, "\(name)")
            for nearMiss in [name.dropLast() + "", name + "s", name.capitalized, "x" + name.dropFirst()] {
                bytes = Array(nearMiss.utf8)
                bytes.withUnsafeBytes { found = OpTable.table.index(of: $0) }
                #expect(found == nil || OpTable.names[found!] == nearMiss, "\(nearMiss)")
            }
        }
        var found: Int? = 0
        [UInt8]().withUnsafeBytes { found = OpTable.table.index(of: $0) }
        #expect(found == nil)
    }

    /// Every op a session records occurs in the corpus (those about other sessions are never recorded).
    @Test func corpusSendsEveryRecordedOp() throws {
        let directory = Self.root.appendingPathComponent("Tests/BridgeTests/Sessions")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".jsonl")
        }
        let all = try files.map {
            try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
        for entry in OpTable.entries where !entry.reachesOtherSessions {
            // A Bool, not the expression: a failed #expect would print the whole corpus.
            let sent = all.contains(#""op":"\#(entry.name)""#)
            #expect(
                sent,
                "no recorded session sends \(entry.name): record one into Tests/BridgeTests/Sessions (bridged record)"
            )
        }
    }

    /// The bench's peer answers only ops the table has.
    @Test func benchPeerAnswersOnlyTableOps() throws {
        let peer = try String(contentsOf: Self.root.appendingPathComponent("bench/peer/peer.mjs"), encoding: .utf8)
        let cases = peer.split(separator: "case '").dropFirst().map { String($0.prefix { $0 != "'" }) }
        #expect(!cases.isEmpty)
        for name in cases { #expect(OpTable.names.contains(name), "the peer answers '\(name)', not an op") }
    }

    static let unbatchable = OpTable.entries.filter { $0.batch.refusal != nil }.map { $0.name.description }

    /// `name`'s sample request (its ``OpSpec``), for a session called `session`.
    static func sample(_ name: String, session: String = "test") throws -> String {
        let spec = try #require(OpTable.specs.first { $0.name == name }?.spec)
        return spec.sample.description.replacingOccurrences(of: #""<session>""#, with: #""\#(session)""#)
    }

    /// A client whose session is set up as every sample expects (``OpTable/sampleSetup``).
    static func sampleClient() -> Client {
        let client = Client(hello: false)
        for line in OpTable.sampleSetup { client.send(line) }
        return client
    }

    /// A batch holding an op the table refuses there (its sample request) fails with that op's message, and
    /// changes nothing.
    @Test(arguments: unbatchable)
    func batchRefusesOp(_ name: String) throws {
        let client = Self.sampleClient()
        let ops = #"[{"op":"create","tag":50,"component":"View"},\#(try Self.sample(name))]"#
        let response = client.send(#"{"id":1,"op":"batch","ops":\#(ops)}"#).response
        let entry = try #require(OpTable.entries.first { $0.name.description == name })
        let refusal = try #require(entry.batch.refusal)
        #expect(field(response, "error.code") == #""batch_failed""#)
        #expect(field(response, "error.index") == "1")
        #expect(field(response, "error.error.message") == #""\#(refusal)""#)
        #expect(field(client.inspect(50), "error.code") == #""unknown_tag""#)
        let row = try #require(try Self.protocolRows().first { $0.name == name })
        #expect(row.inBatch == "no", "protocol.md says a batch may hold \(name)")
    }

    /// Each op's sample is answered (after ``OpTable/sampleSetup``), and leaving out a field its spec says is
    /// required is refused, naming the field: the spec's fields are those the op reads.
    @Test(arguments: OpTable.names)
    func theSpecsFieldsAreTheOpsOwn(_ name: String) throws {
        let spec = try #require(OpTable.specs.first { $0.name == name }?.spec)
        if spec.needsLayout { return }  // answered with layout on: js-client/test/op-results.test.js
        let sample = try Self.sample(name)
        let answered = Self.sampleClient().send(#"{"id":1,"#.appending(sample.dropFirst())).response
        // An op about other sessions needs a connection that takes change frames: op-results.test.js sends it.
        let reachesOtherSessions = OpTable.entries.first { $0.name.description == name }?.reachesOtherSessions == true
        #expect(
            reachesOtherSessions || field(answered, "ok") == "true",
            "\(name)'s sample (its spec, Sources/BridgeCore/Ops/) is not answered: \(field(answered, "error"))"
        )
        let fields = try #require(try JSONDocument(parsing: spec.fields.description).root.keys)
        let document = try JSONDocument(parsing: sample)
        for member in fields where !member.hasSuffix("?") {
            #expect(document.root[member] != nil, "\(name)'s sample lacks its required field '\(member)'")
            let without = document.deepCopy()
            without.root.removeMember(member)
            let response = Self.sampleClient().send(without.root.compactText).response
            #expect(
                response.contains("'\(member)'") && field(response, "ok") == "false",
                "\(name) without '\(member)' (required by its spec) is not refused naming it"
            )
        }
    }
}
