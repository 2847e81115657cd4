import BridgeCore

#if canImport(Glibc)
import Glibc
#endif

/// Writes one session to `DIR/<session>.jsonl` in the recorded-session format, as its frames cross the socket.
///
/// Records are buffered and written once per read of the socket, on the connection's event loop (a blocking
/// `write(2)` to a local file: `--record` is for debugging and tests, not for the hot path).
final class SessionRecorder {
    let path: String
    /// The session this file records.
    let session: String
    private var descriptor: Int32
    private var pending: [UInt8] = []
    /// Whether anything but the `meta` record was recorded by this connection.
    private(set) var recordedFrames = false

    /// Opens the file for `session` in `directory`: a new file starts with a `meta` record of the engine's
    /// limits, which a replay then uses; the file of a resumed session is appended to, so that the whole
    /// session (with a `connection closed` record where each connection ended) replays as one file.
    init?(directory: String, session: String, engine: Engine) {
        path = directory + "/" + session + ".jsonl"
        self.session = session
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            pending = SessionRecord.meta(engine.configuration, components: engine.describedComponentsJSON)
        } else if errno == EEXIST {
            descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            if descriptor < 0 { return nil }
        } else {
            return nil
        }
    }

    /// Records an input line and the frames the engine wrote for it.
    func record(line: UnsafeRawBufferPointer, kind: Session.LineKind, output: UnsafeRawBufferPointer) {
        // Requests about other sessions cannot be replayed: neither they nor their answers are recorded.
        if kind == .observer { return }
        recordedFrames = true
        if let input = SessionRecord.input(line: line, kind: kind) { pending.append(contentsOf: input) }
        if !output.isEmpty { pending.append(contentsOf: SessionRecord.output(frames: output)) }
    }

    /// Writes what has been recorded so far.
    func flush() {
        guard descriptor >= 0, !pending.isEmpty else { return }
        writeAll(descriptor, pending)
        pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
    }

    /// Records that the connection ended (the session may be resumed by another), then closes the file.
    func closeConnection() {
        pending.append(contentsOf: SessionRecord.connectionClosed)
        close()
    }

    /// Closes the file and removes it: the connection left this session before recording anything in it.
    func discard() {
        pending.removeAll()
        close()
        unlink(path)
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
