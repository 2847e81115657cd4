import Foundation
import Testing

@testable import BridgeCore

/// A flag whose value changes a session's answers must be a recorded limit (``SessionLimit/all``), so that the
/// recording replays under it: a session recorded (`--record`) by a daemon with every `serve` flag set, tightly
/// enough that each limit bites, replays with a plain `bridged replay`; where it does not, each flag is tried
/// alone and the test names the flags whose recordings do not replay.
@Suite("Daemon: every flag's recording replays", .serialized)
struct DaemonFlagsReplayTests {
    /// Each `serve` flag's arguments for the test (a value that differs from its default, small enough that a limit
    /// is reached by ``lines``), or why it is left out. A flag `serve --help` lists and this table lacks fails.
    static func arguments(_ dir: TemporaryDirectory) -> [String: [String]?] {
        [
            "--socket": nil,  // always given
            "--record": nil,  // always given
            "--exit-with-parent": nil,  // reads standard input, which the harness closes: the daemon would stop
            "--log-level": ["--log-level", "debug"],
            "--shutdown-timeout": ["--shutdown-timeout", "7"],
            "--session-ttl": ["--session-ttl", "30"],
            "--state-file": ["--state-file", dir.file("state.json")],
            "--parse-threads": ["--parse-threads", "1"],
            "--components": [
                "--components", OpTableTests.root.appendingPathComponent("Tests/Schemas/bare-components.json").path,
            ],
            "--max-frame-bytes": ["--max-frame-bytes", "2048"],
            "--observer-buffer": ["--observer-buffer", "3"],
            "--event-buffer-bytes": ["--event-buffer-bytes", "300"],
            "--max-sessions": ["--max-sessions", "2"],
            "--max-request-output-bytes": ["--max-request-output-bytes", "300"],
            "--max-batch-bytes": ["--max-batch-bytes", "200"],
            "--max-views": ["--max-views", "3"],
            "--max-batch-ops": ["--max-batch-ops", "3"],
            "--event-buffer": ["--event-buffer", "2"],
        ]
    }

    /// The session: each limit of the table above is reached by one of these requests.
    static let lines = [
        #"{"id":1,"op":"hello","protocol":1}"#,
        #"{"id":2,"op":"create","tag":1,"component":"View"}"#,
        #"{"id":3,"op":"create","tag":2,"component":"SwiftUIButton","parent":1,"props":{"title":"\#(String(repeating: "x", count: 200))"}}"#,
        #"{"id":4,"op":"subscribe","tag":2,"event":"countChange"}"#,
        #"{"id":5,"op":"command","tag":2,"name":"press"}"#,
        #"{"id":6,"op":"command","tag":2,"name":"press"}"#,
        #"{"id":7,"op":"command","tag":2,"name":"press"}"#,
        #"{"id":8,"op":"ack","seq":1}"#,
        #"{"id":9,"op":"inspect","tag":2}"#,
        #"{"id":10,"op":"batch","more":true,"at":0,"ops":[{"op":"create","tag":3,"component":"View","props":{"testID":"\#(String(repeating: "y", count: 150))"}}]}"#,
        #"{"id":11,"op":"batch","at":1,"ops":[{"op":"update","tag":3,"props":{}}]}"#,
        #"{"id":12,"op":"batch","ops":[{"op":"ping"},{"op":"ping"},{"op":"ping"},{"op":"ping"}]}"#,
        #"{"id":13,"op":"create","tag":4,"component":"View"}"#,
        #"{"id":14,"op":"create","tag":5,"component":"View"}"#,
        #"{"id":15,"op":"stats"}"#,
        #"{"id":16,"op":"bye"}"#,
    ]

    /// The flags `serve --help` lists.
    static func serveFlags() throws -> [String] {
        let dir = TemporaryDirectory()
        let help = try DaemonProcess(["serve", "--help"], in: dir)
        #expect(help.waitForExit() == 0)
        return help.stdout.split(separator: "\n").filter { $0.hasPrefix("  --") }
            .map { String($0.dropFirst(2).prefix { $0 != " " }) }.filter { $0 != "--version" }
    }

    /// Records ``lines`` with a daemon given `flags`; whether `bridged replay` (no flags) replays the recording, and
    /// what it printed.
    static func recordAndReplay(_ flags: [String]) throws -> (passed: Bool, output: String) {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let records = dir.file("records")
        let daemon = try DaemonProcess.start(socket: socket, ["--record", records] + flags, in: dir)
        let client = try SocketClient(path: socket)
        client.send(lines.joined(separator: "\n") + "\n")
        _ = client.readUntilClosed()
        client.close()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(flags): \(daemon.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: records).filter { $0.hasSuffix(".jsonl") }
        let recording = try #require(files.first, "\(flags): no recording")
        let replay = try DaemonProcess(["replay", records + "/" + recording], in: dir)
        let status = replay.waitForExit()
        return (status == 0 && replay.stdout.contains("1 passed, 0 failed"), replay.stdout + replay.stderr)
    }

    @Test func everyFlagsRecordingReplays() throws {
        let dir = TemporaryDirectory()
        let table = Self.arguments(dir)
        var all: [String] = []
        for flag in try Self.serveFlags() {
            guard let entry = table[flag] else {
                Issue.record(
                    """
                    \(flag) has no value in DaemonFlagsReplayTests.arguments \
                    (Tests/BridgeTests/DaemonFlagsReplayTests.swift): give it one that reaches its limit in the session
                    """
                )
                continue
            }
            all += entry ?? []
        }
        let together = try Self.recordAndReplay(all)
        if together.passed { return }
        // Which flag: each alone.
        var named: [String] = []
        for (flag, entry) in table.sorted(by: { $0.key < $1.key }) {
            guard let entry, !(try Self.recordAndReplay(entry)).passed else { continue }
            named.append(flag)
        }
        Issue.record(
            """
            a session recorded with \(named.isEmpty ? "every flag set" : named.joined(separator: ", ")) does not \
            replay: a flag whose value changes a session's answers must be a recorded limit (an entry of \
            SessionLimit.all, Sources/BridgeCore/Replay/SessionLimit.swift, and its option in RecordedLimits). \
            The replay of all: \(together.output)
            """
        )
    }
}
