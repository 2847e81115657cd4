import BridgeCore
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The file the daemon saves its sessions to on a clean stop and loads them from on start.
///
/// Written atomically: a temporary file beside it, `fsync`, `rename`, then `fsync` of the directory, so a
/// crash leaves either the old file or the new one, never half of one. Loaded once and then removed: if the
/// daemon later dies without a clean stop (`kill -9`), the next start finds no state and clients are told
/// `unknown_session` rather than resuming sessions that went on without them.
struct StateFile: Sendable {
    let path: String

    /// The default: beside the socket, `bridged.state`.
    static func beside(socket: String) -> StateFile {
        StateFile(path: directory(of: socket) + "/bridged.state")
    }

    /// Loads the saved sessions into `engine` and removes the file. A corrupt or foreign file is moved aside
    /// (`<path>.corrupt-<unix time>`) with a log line; it never stops the daemon.
    func load(into engine: Engine, logger: Logger) {
        guard let bytes = readFileBytes(path) else { return }
        do {
            let count = try engine.loadState(bytes)
            logger.info("loaded sessions from the state file", metadata: ["sessions": "\(count)", "path": "\(path)"])
            unlink(path)
        } catch {
            let aside = path + ".corrupt-\(time(nil))"
            rename(path, aside)
            logger.error(
                "the state file could not be loaded; moved aside, starting without sessions",
                metadata: ["path": "\(path)", "movedTo": "\(aside)", "error": "\(error)"]
            )
        }
    }

    /// Saves every session of `engine`. Returns false (after logging why) if the file could not be written.
    @discardableResult
    func save(from engine: Engine, logger: Logger) -> Bool {
        let bytes = engine.saveState()
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return failed("cannot create \(temporary)", logger) }
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
