import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the real `bridged` binary on a temporary socket and talks to it over plain POSIX sockets.
///
/// The binary is `<package>/.build/debug/bridged` (`make test` builds it before `swift test`), or `$BRIDGED_BIN`.
/// Waits have generous timeouts that only keep a broken daemon from hanging the suite; no test asserts on time.
enum DaemonHarness {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `$BRIDGED_BIN` when set (a build in another scratch folder), as for js-client's tests.
    static let binary = ProcessInfo.processInfo.environment["BRIDGED_BIN"] ?? packageRoot + "/.build/debug/bridged"

    /// The safety-net timeout for anything that waits on the daemon.
    static let patience: Double = 30

    static var isRoot: Bool { getuid() == 0 }

    static func which(_ tool: String) -> String? {
        for dir in ["/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/local/bin"] {
            let path = dir + "/" + tool
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    /// Polls `condition` every 10 ms until it holds or `patience` runs out.
    @discardableResult
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(patience)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}

/// Runs `executable ARGUMENTS` to its end; returns its exit status and its standard output.
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A fresh directory under /tmp, removed when released.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/bridged-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A running `bridged` (or a command that runs it) with stdout and stderr captured to files.
final class DaemonProcess {
    let process = Process()
    let stdoutPath: String
    let stderrPath: String

    /// Starts `bridged ARGUMENTS` (or `executable ARGUMENTS`) without waiting for it to listen.
    init(
        _ arguments: [String],
        executable: String = DaemonHarness.binary,
        environment extra: [String: String] = [:],
        in directory: TemporaryDirectory
    ) throws {
        let name = UUID().uuidString.prefix(8)
        stdoutPath = directory.file("daemon-\(name).out")
        stderrPath = directory.file("daemon-\(name).err")
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        var environment = ProcessInfo.processInfo.environment
        for key in ["BRIDGED_SOCKET", "XDG_RUNTIME_DIR", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "NOTIFY_SOCKET"]
        {
            environment[key] = nil
        }
        environment.merge(extra) { $1 }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        try process.run()
    }

    /// Starts `bridged --socket SOCKET ARGUMENTS` and waits until it listens.
    static func start(
        socket: String,
        _ arguments: [String] = [],
        in directory: TemporaryDirectory
    ) throws
        -> DaemonProcess
    {
        let daemon = try DaemonProcess(["--socket", socket] + arguments, in: directory)
        try daemon.waitUntilListening()
        return daemon
    }

    var pid: Int32 { process.processIdentifier }
    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits for the `bridged listening on PATH` line; returns PATH.
    @discardableResult
    func waitUntilListening() throws -> String {
        var path: String?
        DaemonHarness.eventually {
            if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("bridged listening on ") }) {
                path = String(line.dropFirst("bridged listening on ".count))
                return true
            }
            return !process.isRunning
        }
        guard let path else {
            throw HarnessError("the daemon did not start listening; stderr: \(stderr)")
        }
        return path
    }

    func signal(_ signal: Int32) { kill(pid, signal) }

    /// Waits for the process to exit; its exit status, or `nil` if it had to be killed.
    func waitForExit() -> Int32? {
        if DaemonHarness.eventually({ !process.isRunning }) {
            process.waitUntilExit()
            return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        }
        kill(pid, SIGKILL)
        process.waitUntilExit()
        return nil
    }

    /// How many descriptors the daemon has open.
    func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    deinit {
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// A client on a Unix socket: writes text, reads newline-delimited frames.
final class SocketClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    /// Whether the daemon closed the connection (a read saw its end), as opposed to the safety timeout passing.
    private(set) var sawEnd = false
    private var start = 0

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw HarnessError("connect \(path): \(reason)")
        }
    }

    private var isOpen = true

    /// Closes the connection (also done when the client is released).
    func close() {
        if isOpen { Glibc.close(fd) }
        isOpen = false
    }

    deinit { close() }

    /// Writes all of `text` (blocking).
    func send(_ text: String) {
        send(bytes: Array(text.utf8))
    }

    func send(bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Sends a request line and returns the next frame.
    func request(_ line: String) throws -> String {
        send(line + "\n")
        guard let frame = readLine() else { throw HarnessError("no answer to \(line)") }
        return frame
    }

    /// The next frame without its newline; `nil` at end of stream (or after the safety timeout).
    func readLine() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                if start > 1 << 16 {
                    buffer.removeFirst(start)
                    start = 0
                }
                return line
            }
            guard fill() else { return nil }
        }
    }

    /// Every frame until the daemon closes the connection.
    func readUntilClosed() -> [String] {
        var frames: [String] = []
        while let frame = readLine() { frames.append(frame) }
        return frames
    }

    /// Reads more bytes; `false` at end of stream, on error, or after the safety timeout.
    private func fill() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(DaemonHarness.patience * 1000)) == 1 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else {
            if n == 0 { sawEnd = true }
            return false
        }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Closes the writing side only (the client's end of stream).
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }
}

/// A frame parsed as a JSON object.
func object(_ frame: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(frame.utf8))) as? [String: Any] ?? [:]
}

/// The error code of a failed response frame.
func errorCode(_ frame: String) -> String? {
    (object(frame)["error"] as? [String: Any])?["code"] as? String
}

let helloLine = #"{"id":"hello","op":"hello","protocol":1}"#

/// What a hello told its client: the session's id and the token that a resume of it must present.
struct Greeting {
    var id: String
    var token: String
}

/// A hello that resumes `session` (presenting its token) from the cursor `ack`.
func resumeLine(_ session: Greeting, ack: Int) -> String {
    #"{"id":"r","op":"hello","protocol":1,"resume":"#
        + #"{"session":"\#(session.id)","token":"\#(session.token)","ack":\#(ack)}}"#
}

extension SocketClient {
    /// Says hello and returns the session's id and token; a failed hello fails the test.
    @discardableResult
    func hello() throws -> Greeting {
        let result = object(try request(helloLine))["result"] as? [String: Any]
        return Greeting(
            id: try #require(result?["session"] as? String, "hello failed"),
            token: try #require(result?["token"] as? String, "hello gave no token")
        )
    }
}
