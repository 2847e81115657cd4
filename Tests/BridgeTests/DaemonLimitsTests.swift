import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The daemon under pressure: out of descriptors, at its session cap, and the folders it creates for its socket.
@Suite("Daemon: limits and socket folders", .serialized)
struct DaemonLimitsTests {
    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// The missing folders of `--socket` are never created under a parent that others can write (it could swap
    /// them), unless it is sticky and the folder is ours, as in `/tmp`.
    @Test(arguments: [0o777, 0o770, 0o1777])
    func createsMissingFoldersOnlyUnderASafeParent(permissions: Int) throws {
        let dir = TemporaryDirectory()
        let parent = dir.file("shared")
        mkdir(parent, 0o700)
        chmod(parent, mode_t(permissions))
        let socket = parent + "/sub/deeper/bridged.sock"
        let daemon = try DaemonProcess(["--socket", socket], in: dir)
        if permissions & 0o1000 != 0 {
            try daemon.waitUntilListening()
            #expect(mode(parent + "/sub") == 0o700)
            #expect(mode(parent + "/sub/deeper") == 0o700)
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0)
        } else {
            #expect(daemon.waitForExit() == 1)
            #expect(daemon.stderr.contains("refusing to create \(parent)/sub"), "\(daemon.stderr)")
            #expect(daemon.stderr.contains(String(permissions, radix: 8)))
            #expect(mode(parent + "/sub") == nil, "nothing created")
        }
    }

    @Test(.enabled(if: DaemonHarness.isRoot, "needs root to give a folder to another user"))
    func createsNoFolderInAnotherUsersFolder() throws {
        let dir = TemporaryDirectory()
        let theirs = dir.file("theirs")
        mkdir(theirs, 0o755)
        chown(theirs, 65534, 65534)
        let daemon = try DaemonProcess(["--socket", theirs + "/sub/bridged.sock"], in: dir)
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.stderr.contains("refusing to create \(theirs)/sub"), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("uid 65534"))
        #expect(mode(theirs + "/sub") == nil)
    }

    /// In a sticky folder, a folder of the socket's path that another user made first is not ours: refused.
    @Test(.enabled(if: DaemonHarness.isRoot, "needs root to give a folder to another user"))
    func refusesAnIntermediateFolderOfAnotherUserInAStickyParent() throws {
        let dir = TemporaryDirectory()
        let sticky = dir.file("sticky")
        mkdir(sticky, 0o700)
        chmod(sticky, 0o1777)
        mkdir(sticky + "/sub", 0o777)
        chmod(sticky + "/sub", 0o777)
        chown(sticky + "/sub", 65534, 65534)
        let daemon = try DaemonProcess(["--socket", sticky + "/sub/deeper/bridged.sock"], in: dir)
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.stderr.contains("refusing"), "\(daemon.stderr)")
        #expect(mode(sticky + "/sub/deeper") == nil)
    }

    /// Out of descriptors, the daemon logs once and backs off accepting (no busy loop), and serves again once
    /// descriptors are free.
    @Test func outOfDescriptorsItLogsOnceAndBacksOff() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("b.sock")
        let daemon = try DaemonProcess(
            ["-c", #"ulimit -n 32 && exec "$0" --socket "$1" --parse-threads 0"#, DaemonHarness.binary, socket],
            executable: "/bin/sh",
            in: dir
        )
        try daemon.waitUntilListening()
        // More connections than descriptors: the kernel queues the rest, which the daemon cannot accept.
        var clients: [SocketClient] = []
        for _ in 0..<48 { clients.append(try SocketClient(path: socket)) }
        let logged = DaemonHarness.eventually { daemon.stderr.contains("cannot accept") }
        #expect(logged, "the daemon says it cannot accept: \(daemon.stderr)")
        // Let it retry a few times while still out of descriptors: still one line, and no busy loop (a spinning
        // daemon used a second of CPU in this window on a loaded machine; one that waits uses none).
        let cpuBefore = try cpuTicks(daemon.pid)
        usleep(2_500_000)
        let cpuUsed = try cpuTicks(daemon.pid) - cpuBefore
        #expect(cpuUsed < sysconf(Int32(_SC_CLK_TCK)) / 2, "\(cpuUsed) ticks of CPU while it cannot accept")
        #expect(daemon.stderr.components(separatedBy: "cannot accept").count - 1 == 1, "\(daemon.stderr)")
        for client in clients { client.close() }
        clients.removeAll()
        let fresh = try SocketClient(path: socket)
        try fresh.hello()
        #expect(daemon.stderr.contains("accepting connections again"), "\(daemon.stderr)")
        #expect(daemon.stderr.components(separatedBy: "cannot accept").count - 1 == 1, "\(daemon.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    /// The CPU time a process has used, user and system, in clock ticks (`/proc/<pid>/stat`).
    private func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
        return try #require(Int(fields[11])) + #require(Int(fields[12]))
    }

    /// `--max-sessions`: at the cap, a hello evicts the session that waited longest for a resume.
    @Test func atTheSessionCapTheLongestDetachedIsEvicted() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("b.sock")
        let daemon = try DaemonProcess.start(socket: socket, ["--max-sessions", "3"], in: dir)
        let monitor = try SocketClient(path: socket)
        try monitor.hello()
        /// Waits until the daemon has seen the session's connection end.
        func waitDetached(_ session: Greeting) throws {
            let detached = DaemonHarness.eventually {
                let sessions =
                    (object((try? monitor.request(#"{"id":"s","op":"sessions"}"#)) ?? "")["result"]
                    as? [String: Any])?["sessions"] as? [[String: Any]]
                return sessions?.contains {
                    $0["session"] as? String == session.id && $0["connected"] as? Bool == false
                }
                    == true
            }
            try #require(detached)
        }
        let first = try SocketClient(path: socket)
        let oldest = try first.hello()
        first.close()
        try waitDetached(oldest)
        let second = try SocketClient(path: socket)
        let newer = try second.hello()
        second.close()
        try waitDetached(newer)
        let third = try SocketClient(path: socket)
        try third.hello()
        let late = try SocketClient(path: socket)
        let refused = object(try late.request(resumeLine(oldest, ack: 0)))["result"] as? [String: Any]
        #expect(refused?["resumed"] as? Bool == false)
        #expect(refused?["reason"] as? String == "evicted")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }
}
