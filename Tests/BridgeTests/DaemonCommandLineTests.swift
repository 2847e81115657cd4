import BridgeCore
import Foundation
import Testing

/// The real binary's commands share their flags (`--components`, the limits) as option groups: each command
/// still lists every flag it accepts in its help, and `record` applies the limits a recording carries.
@Suite("Daemon: command line")
struct DaemonCommandLineTests {
    static let commands: [(arguments: [String], flags: [String])] = [
        (["record", "--help"], SessionLimit.all.map(\.flag) + ["--components"]),
        (["replay", "--help"], ["--components"]),
    ]

    /// protocol.md's "Limits and flags" table: each row's flag and its default (the first backticked word).
    static func documentedFlags() throws -> [(flag: String, defaultValue: String?)] {
        let text = try String(contentsOf: OpTableTests.root.appendingPathComponent("protocol.md"), encoding: .utf8)
        let section = try #require(text.range(of: "### Limits and flags\n"), "protocol.md has no Limits and flags")
        let table = text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("| flag |") }.dropFirst(2).prefix { $0.hasPrefix("|") }
        return table.map { row in
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let flag = String(cells[0].dropFirst().prefix { $0 != " " && $0 != "`" })
            let defaultValue = cells[1].firstMatch(of: /^`([^`]*)`/).map { String($0.1) }
            return (flag, defaultValue)
        }
    }

    /// `serve --help` lists the flags protocol.md's "Limits and flags" table documents, each with the default
    /// protocol.md gives: a new flag fails here until protocol.md has its row.
    @Test func protocolDocumentsEveryServeFlag() throws {
        let dir = TemporaryDirectory()
        let help = try DaemonProcess(["serve", "--help"], in: dir)
        #expect(help.waitForExit() == 0)
        let options = help.stdout.components(separatedBy: "\n  --").dropFirst().map { "--" + $0 }
        let flags = options.map { String($0.prefix { $0 != " " && $0 != "\n" }) }.filter { $0 != "--version" }
        let documented = try Self.documentedFlags()
        for flag in flags where !documented.contains(where: { $0.flag == flag }) {
            Issue.record("protocol.md's Limits and flags table has no row for \(flag), which serve --help lists")
        }
        for row in documented where !flags.contains(row.flag) {
            Issue.record("protocol.md's Limits and flags table documents \(row.flag), which serve --help lacks")
        }
        for (option, flag) in zip(options, flags) {
            let text = option.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard let given = text.firstMatch(of: /default: ([^;)]+)\)/)?.1,
                let row = documented.first(where: { $0.flag == flag }), let written = row.defaultValue
            else { continue }
            if let number = Double(given) {
                #expect(Double(written) == number, "protocol.md says \(flag)'s default is \(written); it is \(given)")
            } else {
                #expect(written == given, "protocol.md says \(flag)'s default is \(written); it is \(given)")
            }
        }
    }

    @Test("every flag in the help", arguments: commands)
    func helpListsEveryFlag(arguments: [String], flags: [String]) throws {
        let dir = TemporaryDirectory()
        let help = try DaemonProcess(arguments, in: dir)
        #expect(help.waitForExit() == 0)
        let options = help.stdout.split(separator: "\n").filter { $0.hasPrefix("  --") }.map {
            String($0.dropFirst(2).prefix { $0 != " " })
        }
        #expect(
            options == flags + ["--version"],
            """
            \(arguments): a flag of record is a recorded limit, an entry of SessionLimit.all \
            (Sources/BridgeCore/Replay/SessionLimit.swift), or --components
            """
        )
    }

    /// A limit flag of `record` reaches the engine and the recording's meta line, so that it replays under it.
    @Test func recordAppliesItsLimits() throws {
        let dir = TemporaryDirectory()
        let input = dir.file("input.txt")
        let lines = [
            #"{"id":1,"op":"hello","protocol":1}"#,
            #"{"id":2,"op":"create","tag":1,"component":"View","props":{}}"#,
            #"{"id":3,"op":"create","tag":2,"component":"View","props":{}}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        // --max-views 1, every other limit its minimum + 1000: the meta line carries each, in SessionLimit.all's order.
        let values = SessionLimit.all.map { $0.flag == "--max-views" ? 1 : $0.minimum + 1000 }
        let flags = zip(SessionLimit.all, values).flatMap { [$0.flag, "\($1)"] }
        let record = try DaemonProcess(["record", input] + flags, in: dir)
        #expect(record.waitForExit() == 0)
        let recorded = record.stdout.split(separator: "\n").map(String.init)
        let limits = zip(SessionLimit.all, values).map { #""\#($0.name)":\#($1)"# }.joined(separator: ",")
        #expect(recorded.first?.contains(#""limits":{\#(limits)}"#) == true)
        #expect(recorded.contains { $0.contains(#""id":3"#) && $0.contains("limit_exceeded") })
        let refused = try DaemonProcess(["record", input, "--max-views", "0"], in: dir)
        #expect(refused.waitForExit() == 64)
        #expect(refused.stderr.contains("--max-views must be positive"))
    }

    /// Every limit of ``SessionLimit/all`` is a flag of `record` that reaches the meta record and hello's `limits`,
    /// and its flag refuses a value below its minimum: a limit added to the list fails here until
    /// Sources/BridgeServer/RecordedLimits.swift has its option.
    @Test(arguments: SessionLimit.all.map(\.name))
    func recordAppliesEveryLimit(name: String) throws {
        let limit = try #require(SessionLimit.all.first { $0.name == name })
        let dir = TemporaryDirectory()
        let input = dir.file("input.txt")
        try (#"{"id":1,"op":"hello","protocol":1}"# + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let value = limit.minimum + 5
        let record = try DaemonProcess(["record", input, limit.flag, "\(value)"], in: dir)
        #expect(record.waitForExit() == 0, "RecordedLimits.swift has no option \(limit.flag): \(record.stderr)")
        let lines = record.stdout.split(separator: "\n").map(String.init)
        let expected = #""\#(limit.name)":\#(value)"#
        #expect(lines.first?.contains(expected) == true, "RecordedLimits.apply leaves \(limit.flag) out of the meta")
        let hello = lines.first { $0.hasPrefix(#"{"dir":"out""#) }
        #expect(hello?.contains(expected) == true, "hello's limits lack \(limit.name)")
        let refused = try DaemonProcess(["record", input, "\(limit.flag)=\(limit.minimum - 1)"], in: dir)
        #expect(refused.waitForExit() == 64, "RecordedLimits.validate takes \(limit.flag) \(limit.minimum - 1)")
        #expect(refused.stderr.contains(limit.belowMinimum))
    }
}
