import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The state file the daemon writes on a clean stop, seen from the folder it is written in.
@Suite("Daemon: the state file")
struct DaemonStateFileTests {
    /// The state file holds resume tokens. A link planted under the temporary name a daemon would once have
    /// used (`<state>.tmp-<pid>`), and a file left under it, change nothing: the link's target is not written,
    /// and the state is saved, mode 0600.
    @Test func aPlantedLinkIsNeverWrittenThrough() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let state = dir.file("bridged.sock.state")
        let victim = dir.file("victim")
        try "precious".write(toFile: victim, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        #expect(symlink(victim, state + ".tmp-\(daemon.pid)") == 0)
        try "stale".write(toFile: state + ".tmp-0", atomically: true, encoding: .utf8)
        let client = try SocketClient(path: socket)
        let session = try client.hello()
        client.close()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)

        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious", "the link's target is unchanged")
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains(session.token), "the state is saved")
        var info = stat()
        #expect(lstat(state, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o777 == 0o600)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        #expect(Set(left) == ["bridged.sock.state.tmp-\(daemon.pid)", "bridged.sock.state.tmp-0"], "no temporary left")
    }

    /// CPU time the process has used, in clock ticks (utime + stime of `/proc/<pid>/stat`).
    static func cpuTicks(_ pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// SIGTERM while a long batch runs: the shutdown keeps its deadline (`--shutdown-timeout`, here 0). The batch
    /// is stopped and undone, never answered, and the session is saved as it was before it, so its client resumes.
    ///
    /// The batch moves a chain of `depth` views under the bottom of another chain of `depth` and back, `pairs`
    /// times: each move's cycle check is linear in the shorter of the two, so the batch is long. The daemon is known
    /// to be in it once it has spent half a second of CPU since the batch was sent, with no answer.
    @Test func aLongRequestDoesNotHoldUpTheShutdown() throws {
        let (depth, pairs) = (20_000, 3_000)
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let state = dir.file("bridged.sock.state")
        let daemon = try DaemonProcess.start(socket: socket, ["--shutdown-timeout", "0"], in: dir)
        let client = try SocketClient(path: socket)
        let session = try client.hello()
        for first in [1, depth + 1] {
            for start in stride(from: first, to: first + depth, by: 5_000) {
                let ops = (start..<min(start + 5_000, first + depth)).map { tag in
                    tag == first
                        ? #"{"op":"create","tag":\#(tag),"component":"View"}"#
                        : #"{"op":"create","tag":\#(tag),"component":"View","parent":\#(tag - 1)}"#
                }
                let built = try client.request(#"{"id":"b","op":"batch","ops":[\#(ops.joined(separator: ","))]}"#)
                #expect(object(built)["ok"] as? Bool == true, "\(built.prefix(300))")
            }
        }
        let bottom = depth
        var ops = [#"{"op":"create","tag":\#(3 * depth),"component":"View"}"#]
        for _ in 0..<pairs {
            ops.append(#"{"op":"setChildren","tag":\#(bottom),"children":[\#(depth + 1)]}"#)
            ops.append(#"{"op":"setChildren","tag":\#(bottom),"children":[]}"#)
        }
        let before = Self.cpuTicks(daemon.pid)
        client.send(#"{"id":"long","op":"batch","ops":[\#(ops.joined(separator: ","))]}"# + "\n")
        #expect(DaemonHarness.eventually { Self.cpuTicks(daemon.pid) - before >= 50 }, "the daemon is in the batch")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(client.readUntilClosed().isEmpty, "the stopped batch is not answered")

        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains(session.token), "the session is saved")
        #expect(saved.contains(#""tag":\#(2 * depth),"#), "with the views it had")
        #expect(!saved.contains(#""tag":\#(3 * depth),"#), "as it was before the batch")
    }

    /// A session's defined components (`define`) are saved on a clean stop and come back with it: resumed after a
    /// restart, it creates views of them and lists them in `components`; a fresh session has none.
    @Test func aSessionsDefinedComponentsSurviveARestart() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let first = try DaemonProcess.start(socket: socket, in: dir)
        let client = try SocketClient(path: socket)
        let session = try client.hello()
        let define = DefineTests.define(schema: DefineTests.searchBar, untyped: ["RNSScreen"])
        #expect(errorCode(try client.request(define)) == nil)
        #expect(
            errorCode(try client.request(#"{"id":2,"op":"create","tag":1,"component":"RNSScreen","props":{"a":1}}"#))
                == nil
        )
        let components = try client.request(#"{"id":3,"op":"components"}"#)
        client.close()
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)

        let second = try DaemonProcess.start(socket: socket, in: dir)
        defer { second.signal(SIGTERM) }
        let again = try SocketClient(path: socket)
        #expect(
            object(try again.request(resumeLine(session, ack: 0)))["result"].flatMap {
                ($0 as? [String: Any])?["resumed"] as? Bool
            } == true
        )
        #expect(try again.request(#"{"id":3,"op":"components"}"#) == components)
        #expect(try again.request(#"{"id":4,"op":"inspect","tag":1}"#).contains(#""a":1}"#))
        #expect(
            errorCode(try again.request(#"{"id":5,"op":"create","tag":2,"component":"RNSSearchBar","parent":1}"#))
                == nil
        )
        let fresh = try SocketClient(path: socket)
        try fresh.hello()
        #expect(
            errorCode(try fresh.request(#"{"id":6,"op":"create","tag":1,"component":"RNSScreen"}"#))
                == "unknown_component"
        )
    }

}
