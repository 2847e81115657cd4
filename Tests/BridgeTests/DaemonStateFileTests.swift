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
}
