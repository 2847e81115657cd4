import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The daemon as a local service: where its socket is, who may use it, one instance, a clean stop.
@Suite("Daemon: socket, instance and service life", .serialized)
struct DaemonServiceTests {
    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode
    }

    private func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    @Test func createsThePrivateDirectoryAndSocket() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("run/nested/bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        #expect(daemon.stdout == "bridged listening on \(socket)\n")
        #expect(mode(dir.file("run/nested")).map { $0 & 0o7777 } == 0o700)
        #expect(mode(dir.file("run")).map { $0 & 0o7777 } == 0o700)
        #expect(mode(socket).map { $0 & S_IFMT } == S_IFSOCK)
        #expect(mode(socket).map { $0 & 0o7777 } == 0o600)
        #expect(mode(socket + ".lock").map { $0 & 0o7777 } == 0o600)
        #expect((try? String(contentsOfFile: socket + ".lock", encoding: .utf8)) == "\(daemon.pid)\n")
        let client = try SocketClient(path: socket)
        #expect(object(try client.request(#"{"id":1,"op":"ping"}"#))["ok"] as? Bool == false)  // hello first
        try client.hello()
    }

    /// `--socket`, else `$BRIDGED_SOCKET`, else `$XDG_RUNTIME_DIR/bridged/bridged.sock`.
    @Test(arguments: ["option", "BRIDGED_SOCKET", "XDG_RUNTIME_DIR"])
    func findsTheSocketPath(rule: String) throws {
        let dir = TemporaryDirectory()
        var arguments: [String] = []
        var environment = ["XDG_RUNTIME_DIR": dir.file("xdg")]
        mkdir(dir.file("xdg"), 0o700)
        let expected: String
        switch rule {
        case "option":
            expected = dir.file("from-option.sock")
            arguments = ["--socket", expected]
            environment["BRIDGED_SOCKET"] = dir.file("from-env.sock")
        case "BRIDGED_SOCKET":
            expected = dir.file("from-env.sock")
            environment["BRIDGED_SOCKET"] = expected
        default:
            expected = dir.file("xdg/bridged/bridged.sock")
        }
        let daemon = try DaemonProcess(arguments, environment: environment, in: dir)
        #expect(try daemon.waitUntilListening() == expected)
        #expect(mode(expected).map { $0 & S_IFMT } == S_IFSOCK)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(!exists(expected))
    }

    /// `bridged socket-path` prints the path `bridged` would listen on, by the same rules: the one a daemon
    /// started the same way then reports.
    @Test(arguments: ["option", "BRIDGED_SOCKET", "XDG_RUNTIME_DIR", "none"])
    func socketPathPrintsWhereTheDaemonListens(rule: String) throws {
        let dir = TemporaryDirectory()
        var arguments: [String] = []
        var environment: [String: String] = [:]
        let expected: String
        switch rule {
        case "option":
            expected = dir.file("from-option.sock")
            arguments = ["--socket", expected]
            environment = ["BRIDGED_SOCKET": dir.file("from-env.sock"), "XDG_RUNTIME_DIR": dir.path]
        case "BRIDGED_SOCKET":
            expected = dir.file("from-env.sock")
            environment = ["BRIDGED_SOCKET": expected, "XDG_RUNTIME_DIR": dir.path]
        case "XDG_RUNTIME_DIR":
            expected = dir.file("bridged/bridged.sock")
            environment = ["XDG_RUNTIME_DIR": dir.path]
        default:
            expected = "/tmp/bridged-\(getuid())/bridged.sock"
        }
        let printed = try DaemonProcess(["socket-path"] + arguments, environment: environment, in: dir)
        #expect(printed.waitForExit() == 0)
        #expect(printed.stdout == expected + "\n")
        guard rule != "none" else { return }  // a test must not serve the user's own socket
        let daemon = try DaemonProcess(arguments, environment: environment, in: dir)
        #expect(try daemon.waitUntilListening() == expected)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func socketPathRefusesWhatServeRefuses() throws {
        let dir = TemporaryDirectory()
        let printed = try DaemonProcess(["socket-path", "--socket", dir.path + "/"], in: dir)
        #expect(printed.waitForExit() == 1)
        #expect(printed.stdout.isEmpty)
        #expect(printed.stderr.contains("socket path names a directory"))
    }

    /// `bridged --help` (the real binary) shows the options of the default command, `serve`: the README runs
    /// `bridged --record DIR`.
    @Test(arguments: ["--help", "-h", "help"])
    func helpShowsTheDefaultCommandsOptions(flag: String) throws {
        let dir = TemporaryDirectory()
        let help = try DaemonProcess([flag], in: dir)
        #expect(help.waitForExit() == 0)
        for option in ["--socket <path>", "--record <dir>", "--state-file <path>", "--max-views", "--session-ttl"] {
            #expect(help.stdout.contains("\n  " + option), "\(flag) does not show \(option)")
        }
        #expect(help.stdout.contains("SUBCOMMANDS:"))
        #expect(help.stdout.contains("socket-path"))
    }

    /// Help texts are laid out by ArgumentParser alone: no line ends in spaces, and no description (from column
    /// 27) has a run of spaces in it, as `record --help` had.
    @Test(arguments: [
        ["--help"], ["serve", "--help"], ["record", "--help"], ["replay", "--help"], ["socket-path", "-h"],
    ])
    func helpHasNoStrayRunsOfSpaces(arguments: [String]) throws {
        let dir = TemporaryDirectory()
        let help = try DaemonProcess(arguments, in: dir)
        #expect(help.waitForExit() == 0)
        #expect(help.stdout.contains("OVERVIEW:"))
        for line in help.stdout.split(separator: "\n") {
            #expect(!line.hasSuffix(" "), "\(arguments): '\(line)'")
            let description = line.dropFirst(26).drop { $0 == " " }
            #expect(!description.contains("  "), "\(arguments): '\(line)'")
        }
    }

    /// `make install` (with this build's binary, into a scratch home): the binary, the docs and the user units
    /// where the README says; the units, as shipped and as installed, pass `systemd-analyze --user verify` (which
    /// checks, among others, that ExecStart names an executable) and name documentation that was installed.
    @Test(
        .enabled(
            if: DaemonHarness.which("systemd-analyze") != nil && DaemonHarness.which("make") != nil,
            "systemd-analyze (Debian's systemd) or make is not installed: the units cannot be verified here"
        ),
        arguments: [[], ["PREFIX=opt", "UNITDIR=units"]] as [[String]]
    )
    func installedUnitsVerify(places: [String]) throws {
        let dir = TemporaryDirectory()
        let home = dir.file("home")
        let runtime = dir.file("runtime")
        mkdir(runtime, 0o700)
        let variables = places.map { $0.replacingOccurrences(of: "=", with: "=" + home + "/") }
        // `-o release`: the binary of this build stands in for the release one, which is not built here.
        let arguments = ["-C", DaemonHarness.packageRoot, "-o", "release", "install", "HOME=" + home]
        let make = try DaemonProcess(
            arguments + ["RELEASE_BIN=" + DaemonHarness.binary] + variables,
            executable: DaemonHarness.which("make")!,
            environment: ["MAKEFLAGS": "", "MAKELEVEL": ""],
            in: dir
        )
        #expect(make.waitForExit() == 0, "\(make.stdout)\(make.stderr)")
        let prefix = places.isEmpty ? home + "/.local" : home + "/opt"
        let unitDirectory = places.isEmpty ? home + "/.config/systemd/user" : home + "/units"
        #expect(access(prefix + "/bin/bridged", X_OK) == 0)
        let units = ["bridged.socket", "bridged.service"].map { unitDirectory + "/" + $0 }
        for unit in units {
            let text = try String(contentsOfFile: unit, encoding: .utf8)
            let documentation = text.split(separator: "\n").filter { $0.hasPrefix("Documentation=") }
                .flatMap { $0.dropFirst("Documentation=".count).split(separator: " ") }
            #expect(!documentation.isEmpty, "\(unit) has no Documentation=")
            for url in documentation {
                #expect(url.hasPrefix("file://" + prefix + "/share/doc/bridged/"), "\(unit): \(url)")
                #expect(access(String(url.dropFirst("file://".count)), R_OK) == 0, "\(unit): \(url) is not installed")
            }
            if unit.hasSuffix(".service") {
                #expect(text.contains("\nExecStart=" + prefix + "/bin/bridged "), "not the installed binary")
            }
        }
        // As shipped (%h/.local/...), against the default install in this home; and as installed.
        let shipped = ["bridged.socket", "bridged.service"].map { DaemonHarness.packageRoot + "/contrib/systemd/" + $0 }
        for files in places.isEmpty ? [shipped, units] : [units] {
            let verify = try DaemonProcess(
                ["--user", "verify"] + files,
                executable: DaemonHarness.which("systemd-analyze")!,
                environment: ["HOME": home, "XDG_RUNTIME_DIR": runtime],
                in: dir
            )
            #expect(verify.waitForExit() == 0, "\(files): \(verify.stderr)")
            #expect(verify.stderr.isEmpty && verify.stdout.isEmpty, "\(files): \(verify.stdout)\(verify.stderr)")
        }
    }

    @Test(arguments: [0o777, 0o770, 0o1777])
    func checksTheModeOfAnExistingDirectory(permissions: Int) throws {
        let dir = TemporaryDirectory()
        let shared = dir.file("shared")
        mkdir(shared, 0o700)
        chmod(shared, mode_t(permissions))
        let daemon = try DaemonProcess(["--socket", shared + "/bridged.sock"], in: dir)
        if permissions & 0o1000 != 0 {
            // Writable by all but sticky, like /tmp: others cannot remove or replace our socket.
            try daemon.waitUntilListening()
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0)
        } else {
            #expect(daemon.waitForExit() == 1)
            #expect(daemon.stderr.contains("refusing socket directory \(shared)"))
            #expect(daemon.stderr.contains(String(permissions, radix: 8)))
            #expect(!exists(shared + "/bridged.sock"))
        }
    }

    @Test(.enabled(if: DaemonHarness.isRoot, "needs root to give a directory to another user"))
    func refusesADirectoryOwnedBySomeoneElse() throws {
        let dir = TemporaryDirectory()
        let theirs = dir.file("theirs")
        mkdir(theirs, 0o700)
        chown(theirs, 65534, 65534)
        let daemon = try DaemonProcess(["--socket", theirs + "/bridged.sock"], in: dir)
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.stderr.contains("it belongs to uid 65534"))
    }

    @Test func refusesAPathTooLongForASocket() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file(String(repeating: "d", count: 120) + ".sock")
        let daemon = try DaemonProcess(["--socket", socket], in: dir)
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.stderr.contains("socket path is too long"))
        #expect(daemon.stderr.contains("at most 107"))
    }

    @Test func refusesToReplaceAFileThatIsNotASocket() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("notes.txt")
        _ = FileManager.default.createFile(atPath: path, contents: Data("keep me".utf8))
        let daemon = try DaemonProcess(["--socket", path], in: dir)
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.stderr.contains("is not a socket"))
        #expect((try? String(contentsOfFile: path, encoding: .utf8)) == "keep me")
    }

    @Test func aSecondDaemonOnTheSameSocketIsRefused() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let first = try DaemonProcess.start(socket: socket, in: dir)
        let client = try SocketClient(path: socket)
        try client.hello()

        let second = try DaemonProcess(["--socket", socket], in: dir)
        #expect(second.waitForExit() == 1)
        #expect(second.stderr.contains("another bridged (pid \(first.pid)) is already serving on \(socket)"))
        #expect(second.stdout.isEmpty)

        // The first one keeps serving, the old connection and new ones.
        #expect(object(try client.request(#"{"id":2,"op":"ping"}"#))["ok"] as? Bool == true)
        let another = try SocketClient(path: socket)
        try another.hello()
        #expect(exists(socket))
    }

    @Test func aStaleSocketFromAKilledDaemonIsReplaced() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let killed = try DaemonProcess.start(socket: socket, in: dir)
        killed.signal(SIGKILL)
        _ = killed.waitForExit()
        #expect(mode(socket).map { $0 & S_IFMT } == S_IFSOCK)  // left behind
        #expect(throws: (any Error).self) { try SocketClient(path: socket) }  // and dead

        let next = try DaemonProcess.start(socket: socket, in: dir)
        #expect(next.stderr.contains("removed a stale socket"))
        let client = try SocketClient(path: socket)
        try client.hello()
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func stopsCleanlyOnSignal(signal: Int32) throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        let client = try SocketClient(path: socket)
        try client.hello()
        // Requests already sent are answered before the connection closes.
        client.send(#"{"id":1,"op":"ping"}"# + "\n" + #"{"id":2,"op":"ping"}"# + "\n")
        #expect(client.readLine().map { object($0)["id"] as? Int } == 1)

        daemon.signal(signal)
        // The daemon answers, ends the stream, and waits (up to --shutdown-timeout) for the client to close.
        let rest = client.readUntilClosed()
        #expect(rest.map { object($0)["id"] as? Int } == [2])
        client.close()
        #expect(daemon.waitForExit() == 0)
        #expect(!exists(socket))
        #expect(!exists(socket + ".lock"))
        #expect(daemon.stderr.contains("stopped"))
    }

    /// A client that neither reads nor closes cannot hold the daemon up past --shutdown-timeout.
    @Test func stopsEvenWhenAClientNeverReads() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, ["--shutdown-timeout", "0.5"], in: dir)
        let stubborn = try SocketClient(path: socket)
        stubborn.send(helloLine + "\n")
        let flags = fcntl(stubborn.fd, F_GETFL)
        _ = fcntl(stubborn.fd, F_SETFL, flags | O_NONBLOCK)
        // Enough pings that the answers fill the socket buffers; the rest stays unread in the daemon's.
        let pings = Array(String(repeating: #"{"id":1,"op":"ping"}"# + "\n", count: 20_000).utf8)
        _ = pings.withUnsafeBytes { send(stubborn.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let other = try SocketClient(path: socket)
        try other.hello()

        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(!exists(socket))
        #expect(!exists(socket + ".lock"))
        _ = stubborn
    }

    @Test(.enabled(if: DaemonHarness.which("systemd-socket-activate") != nil, "needs systemd-socket-activate"))
    func servesAnInheritedSocket() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("activated.sock")
        let activator = try DaemonProcess(
            ["-l", socket, DaemonHarness.binary, "--log-level", "debug"],
            executable: DaemonHarness.which("systemd-socket-activate")!,
            in: dir
        )
        #expect(DaemonHarness.eventually { mode(socket).map { $0 & S_IFMT } == S_IFSOCK })
        // The first connection starts the daemon on the socket systemd-socket-activate bound.
        let client = try SocketClient(path: socket)
        try client.hello()
        #expect(try activator.waitUntilListening() == socket)
        try SocketClient(path: socket).hello()

        client.close()
        activator.signal(SIGTERM)
        #expect(activator.waitForExit() == 0)
        #expect(!activator.stderr.contains("lock"))
    }

    /// `Type=notify`: `READY=1` reaches `$NOTIFY_SOCKET` once the socket accepts connections.
    @Test func notifiesTheServiceManagerWhenReady() throws {
        let dir = TemporaryDirectory()
        let notifyPath = dir.file("notify.sock")
        let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(receiver) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(notifyPath.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(receiver, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        let socketPath = dir.file("bridged.sock")
        let daemon = try DaemonProcess(
            ["--socket", socketPath],
            environment: ["NOTIFY_SOCKET": notifyPath],
            in: dir
        )
        var descriptor = pollfd(fd: receiver, events: Int16(POLLIN), revents: 0)
        try #require(poll(&descriptor, 1, Int32(DaemonHarness.patience * 1000)) == 1)
        var message = [UInt8](repeating: 0, count: 512)
        let n = message.withUnsafeMutableBytes { recv(receiver, $0.baseAddress, $0.count, 0) }
        let text = String(decoding: message[0..<max(n, 0)], as: UTF8.self)
        #expect(text.split(separator: "\n").contains("READY=1"))
        // Ready means connectable.
        try SocketClient(path: socketPath).hello()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    /// A peer that is neither the daemon's user nor root gets `permission_denied`. Simulated by running a
    /// client as `nobody` that keeps CAP_DAC_OVERRIDE (so the 0700 directory alone does not stop it).
    @Test(
        .enabled(
            if: DaemonHarness.isRoot && DaemonHarness.which("setpriv") != nil && DaemonHarness.which("socat") != nil,
            "needs root, setpriv and socat"
        )
    )
    func refusesAPeerOfAnotherUser() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: DaemonHarness.which("setpriv")!)
        client.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups",
            "--inh-caps=+dac_override", "--ambient-caps=+dac_override",
            DaemonHarness.which("socat")!, "-t1", "-", "UNIX-CONNECT:\(socket)",
        ]
        let input = Pipe()
        let output = Pipe()
        client.standardInput = input
        client.standardOutput = output
        try client.run()
        input.fileHandleForWriting.write(Data((helloLine + "\n").utf8))
        try? input.fileHandleForWriting.close()
        let frames = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        client.waitUntilExit()

        let lines = frames.split(separator: "\n").map(String.init)
        #expect(lines.count == 1)
        #expect(lines.first.flatMap(errorCode) == "permission_denied")
        #expect(lines.first.map { object($0)["id"] is NSNull } == true)
        #expect(daemon.stderr.contains("connection refused"))
        // Its owner still gets in.
        try SocketClient(path: socket).hello()
    }
}
