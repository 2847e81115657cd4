#if canImport(Glibc)
import Glibc
#endif

/// The lock file beside the socket: held (`flock`) for the daemon's whole life, so that one daemon serves a
/// socket. It holds the pid of the daemon that owns it, for the message a second daemon prints.
final class InstanceLock {
    let path: String
    private var descriptor: Int32 = -1

    /// Takes the lock, or throws `already_running` naming the daemon that holds it.
    init(path: String, socketPath: String) throws(DaemonError) {
        self.path = path
        var fd: Int32 = -1
        while true {
            fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else {
                throw DaemonError(.socketPath, "cannot open the lock file \(path): \(errnoText())")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { break }
            // The daemon we waited for may have removed the file before unlocking it: lock the file on disk.
            var held = stat()
            var onDisk = stat()
            if fstat(fd, &held) == 0 && stat(path, &onDisk) == 0 && held.st_ino == onDisk.st_ino
                && held.st_dev == onDisk.st_dev
            {
                descriptor = fd
                let text = Array("\(getpid())\n".utf8)
                ftruncate(fd, 0)
                _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
                return
            }
            close(fd)
        }
        let reason = errno
        let holder = InstanceLock.readPID(fd)
        close(fd)
        guard reason == EWOULDBLOCK else {
            throw DaemonError(.socketPath, "cannot lock \(path): \(errnoText(reason))")
        }
        let who = holder.map { "pid \($0)" } ?? "pid unknown"
        throw DaemonError(
            .alreadyRunning,
            "another bridged (\(who)) is already serving on \(socketPath) (lock file \(path))"
        )
    }

    /// Removes the lock file and releases the lock.
    func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }

    private static func readPID(_ fd: Int32) -> Int? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        let text = String(decoding: bytes[0..<n], as: UTF8.self)
        return Int(text.split(separator: "\n").first.map(String.init) ?? "")
    }
}
