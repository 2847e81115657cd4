import BridgeCore
import Foundation
import PropStore
import Testing

/// A built-in component's places besides its own file: each list that names the built-ins agrees with
/// ``ComponentRegistry/builtin``, and a failure names the place to edit. (`builtins.d.ts` is checked by
/// js-client/test/builtins.test.js.)
@Suite("Built-in components: every list names them")
struct BuiltinComponentListsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let builtins = ComponentRegistry.builtin.components.map(\.name)

    /// Every component a file of Sources/PropStore/Components declares (`public static let name = "…"`) is
    /// registered.
    @Test func everyComponentFileIsRegistered() throws {
        let folder = Self.root.appendingPathComponent("Sources/PropStore/Components")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var declared: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /public static let name = "(\w+)"/) {
                declared.append(String(match.1))
                #expect(
                    Self.builtins.contains(String(match.1)),
                    "\(file) declares \(match.1): register it in ComponentRegistry.builtin (ComponentRegistry.swift)"
                )
            }
        }
        #expect(declared.count == Self.builtins.count, "\(declared.sorted()) against \(Self.builtins.sorted())")
    }

    /// protocol.md's "Built-in components" table has one row per built-in, in registration order, with no blank
    /// line inside it (which would end the table where it renders).
    @Test func protocolDocumentsEveryBuiltin() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("protocol.md"), encoding: .utf8)
        let section = try #require(text.range(of: "## Built-in components\n\n"), "protocol.md has no such section")
        let rows = text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { $0.hasPrefix("|") }.dropFirst(2)
        let listed = rows.flatMap { row in
            row.split(separator: "|")[0].split(separator: ",").map {
                $0.trimmingCharacters(in: .init(charactersIn: " `"))
            }
        }
        for name in Self.builtins where !listed.contains(name) {
            Issue.record(
                "protocol.md's Built-in components table has no row for \(name) (or a blank line ends it early)"
            )
        }
        #expect(
            listed == Self.builtins,
            "protocol.md's Built-in components table, in ComponentRegistry.builtin's order"
        )
    }

    /// A built-in that a recorded hello lacks (one added since recordings began) is named in the replayers'
    /// rules, so that the recording still replays; and every name there is a built-in.
    @Test func theReplayersKnowTheBuiltinsAddedSince() throws {
        let added = ReplayRules.shared.componentsAddedToBuiltins
        for name in added {
            #expect(
                Self.builtins.contains(name),
                "replay-rules.json's componentsAddedToBuiltins names \(name), no built-in"
            )
        }
        var hellos = 0
        /// The built-ins some recorded hello lacks and the rules do not name, with the recordings.
        var missing: [String: Set<String>] = [:]
        for file in ReplayTests.files {
            for line in try ReplayTests.text(file).split(separator: "\n") where line.contains(#""components":{"#) {
                guard let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    record["dir"] as? String == "out", let frame = record["frame"] as? [String: Any],
                    let result = frame["result"] as? [String: Any], result["protocol"] != nil,
                    let components = result["components"] as? [String: Any]
                else { continue }
                hellos += 1
                for name in Self.builtins where components[name] == nil && !added.contains(name) {
                    missing[name, default: []].insert(file)
                }
            }
        }
        for (name, files) in missing.sorted(by: { $0.key < $1.key }) {
            let place =
                "componentsAddedToBuiltins in js-client/lib/replay-rules.json (then node js-client/scripts/generate.js)"
            Issue.record(
                "the hellos of \(files.sorted().joined(separator: ", ")) lack the built-in \(name): add it to \(place)"
            )
        }
        #expect(hellos > 10)
    }
}
