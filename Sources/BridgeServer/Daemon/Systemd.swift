#if canImport(Glibc)
import Glibc
#endif

/// The two pieces of the systemd protocol a `Type=notify`, socket-activated service needs.
enum Systemd {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    static let firstListenDescriptor: Int32 = 3

    /// The listening socket inherited through `LISTEN_FDS`/`LISTEN_PID`, or `nil` when not socket-activated.
    ///
    /// Unsets the variables so that no child process inherits them, and marks the descriptor close-on-exec.
    static func takeListeningSocket() throws(DaemonError) -> Int32? {
        guard let pidText = getenv("LISTEN_PID").map({ String(cString: $0) }),
            let countText = getenv("LISTEN_FDS").map({ String(cString: $0) })
        else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        guard Int32(pidText) == getpid() else { return nil }
        guard let count = Int(countText), count >= 1 else {
            throw DaemonError(.activation, "LISTEN_FDS=\(countText): expected at least one inherited socket")
        }
        let fd = firstListenDescriptor
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
            throw DaemonError(.activation, "descriptor \(fd) passed by the service manager is not a socket")
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// The path a Unix socket descriptor is bound to, if it is one with a path.
    static func boundPath(of fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let path = withUnsafeBytes(of: address.sun_path) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return path.isEmpty ? nil : path
    }

    /// Sends a state change (`READY=1`, `STOPPING=1`, `STATUS=…`) to `$NOTIFY_SOCKET`; does nothing without one.
    static func notify(_ state: String) {
        guard let socketPath = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !socketPath.isEmpty else {
            return
        }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        // An abstract socket is written with a leading '@' and addressed with a leading NUL.
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count)
        let message = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, sockaddrPointer, length) }
            }
        }
    }
}
