import BridgeCore
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Writes one session to `DIR/<session>.jsonl` in the recorded-session format, as its frames cross the socket.
///
/// Records are buffered and written once per read of the socket, on the connection's event loop (a blocking
/// `write(2)` to a local file: `--record` is for debugging and tests, not for the hot path).
///
/// The file is created only once the session has said `hello`: a connection that never does (a health check
/// that connects and closes, a client that is refused) leaves no file. Until then its records wait in memory,
/// at most ``maxBytesBeforeHello``; past that the records of lines before `hello` are dropped (they change
/// nothing a replay could check: every such line is answered `hello_required` or is not a request).
final class SessionRecorder {
    /// The most bytes of records kept for a session that has not said `hello` yet.
    static let maxBytesBeforeHello = 1 << 20

    let path: String
    private let directory: String
    /// The session this file records.
    let session: String
    private let engine: Engine
    private let logger: Logger
    private var descriptor: Int32 = -1
    /// The session has said hello: the file is opened at the next flush.
    private var greeted = false
    /// Opening the file failed (logged once): nothing more is recorded.
    private var failed = false
    private var pending: [UInt8] = []
    /// Whether anything but the `meta` record was recorded by this connection.
    private(set) var recordedFrames = false

    /// Records `session` to a file in `directory`, created once the session has said `hello`: a new file starts
    /// with a `meta` record of the engine's limits and components, which a replay then uses; the file of a
    /// resumed session is appended to, so that the whole session (with a `connection closed` record where each
    /// connection ended) replays as one file.
    init(directory: String, session: String, engine: Engine, logger: Logger) {
        path = directory + "/" + session + ".jsonl"
        self.directory = directory
        self.session = session
        self.engine = engine
        self.logger = logger
    }

    /// The recorder of `session`: this one, or, when a hello with resume moved the connection to another session,
    /// a recorder of that session's file (this one's file is then closed, or removed if it recorded nothing).
    func following(_ session: String) -> SessionRecorder {
        guard session != self.session else { return self }
        let moved = SessionRecorder(directory: directory, session: session, engine: engine, logger: logger)
        if recordedFrames { closeConnection() } else { discard() }
        return moved
    }

    /// Records an input line and the frames the engine wrote for it. `greeted` (read only until it is true)
    /// says whether the session has said `hello` by now.
    func record(
        line: UnsafeRawBufferPointer,
        kind: RequestLine.Kind,
        output: UnsafeRawBufferPointer,
        greeted: @autoclosure () -> Bool
    ) {
        // Requests about other sessions cannot be replayed: neither they nor their answers are recorded.
        if kind == .observer { return }
        if !self.greeted {
            self.greeted = greeted()
            if !self.greeted && pending.count >= SessionRecorder.maxBytesBeforeHello { return }
        }
        recordedFrames = true
        if let input = SessionRecord.input(line: line, kind: kind) { pending.append(contentsOf: input) }
        if !output.isEmpty { pending.append(contentsOf: SessionRecord.output(frames: output)) }
    }

    /// Writes what has been recorded so far, creating the file if the session has said hello.
    func flush() {
        guard !pending.isEmpty, greeted, !failed else { return }
        if descriptor < 0 && !open() { return }
        writeAll(descriptor, pending)
        pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
    }

    /// Opens (creating, with its `meta` record first, or appending to) the session's file.
    private func open() -> Bool {
        descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            pending.insert(
                contentsOf: SessionRecord.meta(engine.configuration, components: engine.describedComponentsJSON),
                at: 0
            )
            return true
        }
        if errno == EEXIST { descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CLOEXEC) }
        guard descriptor >= 0 else {
            logger.error("cannot record the session", metadata: ["path": "\(path)", "error": "\(errnoText())"])
            failed = true
            pending = []
            return false
        }
        return true
    }

    /// Records that the connection ended (the session may be resumed by another), then closes the file.
    func closeConnection() {
        pending.append(contentsOf: SessionRecord.connectionClosed)
        close()
    }

    /// Forgets what was recorded and removes the file: the connection left this session before recording
    /// anything in it.
    func discard() {
        pending.removeAll()
        if descriptor >= 0 { unlink(path) }
        close()
    }

    /// Flushes and closes the file.
    func close() {
        flush()
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}

/// Creates the recording directory (`0700`) if it is missing.
func prepareRecordingDirectory(_ path: String) throws(DaemonError) {
    var info = stat()
    if stat(path, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw DaemonError(.recording, "--record \(path): not a directory")
        }
        guard access(path, W_OK) == 0 else { throw DaemonError(.recording, "--record \(path): not writable") }
        return
    }
    guard mkdir(path, 0o700) == 0 else {
        throw DaemonError(.recording, "--record \(path): cannot create the directory: \(errnoText())")
    }
}
