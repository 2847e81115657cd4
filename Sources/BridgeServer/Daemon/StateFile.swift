import BridgeCore
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The file the daemon saves its sessions to on a clean stop and loads them from on start.
///
/// Written atomically: a temporary file beside it (mode 0600, a name nobody can guess, created new), `fsync`,
/// `rename`, then `fsync` of the directory, so a crash leaves either the old file or the new one, never half of
/// one. Loaded once and then removed: if the daemon later dies without a clean stop (`kill -9`), the next start
/// finds no state and clients are told `unknown_session` rather than resuming sessions that went on without them.
///
/// The file names the socket whose daemon saved it: a daemon loads only its own socket's file, so two daemons
/// never share sessions even when they are given one file.
struct StateFile: Sendable {
    let path: String
    /// The socket this daemon serves, written into the file and checked when loading it.
    let socket: String?

    /// How long (seconds) the save waits for a session whose request goes on after the shutdown's deadline.
    static let busyPatience: Double = 5

    /// The default for a socket: `<socket>.state` beside it (`dir/a.sock` → `dir/a.sock.state`).
    static func beside(socket: String) -> StateFile {
        StateFile(path: socket + ".state", socket: socket)
    }

    /// Loads the saved sessions into `engine` and removes the file. A corrupt file, a file of another format or
    /// version, or one that another socket's daemon saved is moved aside (`<path>.corrupt-<unix time>`, or
    /// `<path>.other-socket-<unix time>`) with a log line; it never stops the daemon.
    func load(into engine: Engine, logger: Logger) {
        guard let bytes = readFileBytes(path) else { return }
        do {
            var dropped: [DroppedSession] = []
            let count = try engine.loadState(bytes, socket: socket, dropped: &dropped)
            for drop in dropped {
                let why =
                    drop.reason == .missing ? "which this daemon lacks" : "which this daemon describes differently"
                logger.notice(
                    "dropped saved session \(drop.session): it has a view of component '\(drop.component)', \(why)",
                    metadata: ["session": "\(drop.session)", "component": "\(drop.component)"]
                )
            }
            logger.info("loaded sessions from the state file", metadata: ["sessions": "\(count)", "path": "\(path)"])
            unlink(path)
        } catch {
            let otherSocket = error.code == .otherSocket
            let aside = path + (otherSocket ? ".other-socket-" : ".corrupt-") + "\(time(nil))"
            rename(path, aside)
            logger.error(
                otherSocket
                    ? "the state file belongs to another socket's daemon; moved aside, starting without sessions"
                    : "the state file could not be loaded; moved aside, starting without sessions",
                metadata: ["path": "\(path)", "movedTo": "\(aside)", "error": "\(error)"]
            )
        }
    }

    /// Saves every session of `engine`. Returns false (after logging why) if the file could not be written.
    @discardableResult
    func save(from engine: Engine, logger: Logger) -> Bool {
        // A session still busy with one request (the service stopped the engine's requests at its deadline: a
        // batch stops at its next op, a single op is linear in what it touches) is waited for up to
        // `busyPatience`, then left out with a log line, so that the others are saved before the service manager
        // gives up on the daemon (systemd's TimeoutStopSec).
        var waited: Double = 0
        var leftOut: [String] = []
        let bytes = engine.saveState(
            socket: socket,
            keepWaiting: {
                guard waited < StateFile.busyPatience else { return false }
                usleep(10_000)
                waited += 0.01
                return true
            },
            leftOut: &leftOut
        )
        for session in leftOut {
            logger.error(
                "session \(session) was busy with a request past the shutdown's deadline; it is not saved",
                metadata: ["session": "\(session)"]
            )
        }
        // The file holds resume tokens. Its temporary is a new file of mode 0600 under a name nobody can guess
        // (mkstemp: O_CREAT|O_EXCL, so never through a link, and another name when one is taken): a link or a
        // file planted beside the state file is never written through, and never stops the save.
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard descriptor >= 0 else { return failed("cannot create a temporary file beside \(path)", logger) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let ok = writeAll(descriptor, bytes) && fsync(descriptor) == 0
        close(descriptor)
        guard ok, rename(temporary, path) == 0 else {
            unlink(temporary)
            return failed("cannot write \(path)", logger)
        }
        let directoryDescriptor = open(directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        logger.info("saved sessions to the state file", metadata: ["path": "\(path)", "bytes": "\(bytes.count)"])
        return true
    }

    private func failed(_ message: String, _ logger: Logger) -> Bool {
        logger.error("\(message): \(String(cString: strerror(errno)))")
        return false
    }
}
