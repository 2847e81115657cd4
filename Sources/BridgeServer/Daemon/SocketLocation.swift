#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon listens, and the checks that make that place safe to listen in.
///
/// The path is `--socket`, else `$BRIDGED_SOCKET`, else `$XDG_RUNTIME_DIR/bridged/bridged.sock`, else
/// `/tmp/bridged-<uid>/bridged.sock`. Its directory must belong to the daemon's user or root and must not
/// be writable by group or others unless it has the sticky bit (`/tmp` is fine, a `0777` folder is not).
struct SocketLocation: Sendable {
    /// The longest path `sockaddr_un.sun_path` holds, without its terminating NUL.
    static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    let path: String

    /// The path of the lock file beside the socket.
    var lockPath: String { path + ".lock" }

    /// The directory that holds the socket.
    var directory: String {
        BridgeServer.directory(of: path)
    }

    /// Resolves the socket path from the option and the environment, and checks its length.
    static func resolve(
        option: String?,
        environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
    )
        throws(DaemonError) -> SocketLocation
    {
        let path: String
        if let option, !option.isEmpty {
            path = option
        } else if let fromEnvironment = environment("BRIDGED_SOCKET"), !fromEnvironment.isEmpty {
            path = fromEnvironment
        } else if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            path = runtime + "/bridged/bridged.sock"
        } else {
            path = "/tmp/bridged-\(getuid())/bridged.sock"
        }
        let bytes = path.utf8.count
        if bytes > maxPathBytes {
            throw DaemonError(
                .socketPath,
                "socket path is too long (\(bytes) bytes; a Unix socket path holds at most \(maxPathBytes)): \(path)"
            )
        }
        if path.hasSuffix("/") {
            throw DaemonError(.socketPath, "socket path names a directory, not a socket: \(path)")
        }
        return SocketLocation(path: path)
    }

    /// Creates the socket's directory (`0700`, with any missing parents), or checks the existing one.
    func prepareDirectory() throws(DaemonError) {
        let uid = getuid()
        var info = stat()
        if stat(directory, &info) != 0 {
            guard errno == ENOENT else {
                throw DaemonError(.unsafeDirectory, "cannot inspect socket directory \(directory): \(errnoText())")
            }
            try createDirectories(directory)
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw DaemonError(.unsafeDirectory, "\(directory) is not a directory")
        }
        if info.st_uid != uid && info.st_uid != 0 {
            throw DaemonError(
                .unsafeDirectory,
                "refusing socket directory \(directory): it belongs to uid \(info.st_uid), not to uid \(uid) or root"
            )
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 && mode & S_ISVTX == 0 {
            throw DaemonError(
                .unsafeDirectory,
                "refusing socket directory \(directory): mode \(octal(mode)) lets other users replace the socket "
                    + "(make it 0700, or use a directory with the sticky bit such as /tmp)"
            )
        }
    }

    /// Removes a socket file left by a daemon that died; call it only while holding the lock.
    ///
    /// - Returns: whether a stale socket was removed.
    func removeStaleSocket() throws(DaemonError) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw DaemonError(.socketPath, "\(path) exists and is not a socket; refusing to replace it")
        }
        guard unlink(path) == 0 else {
            throw DaemonError(.socketPath, "cannot remove the stale socket \(path): \(errnoText())")
        }
        return true
    }

    /// Creates the missing folders of `dir`, `0700`. A folder is created only in a parent that no other user can
    /// write, or that is sticky (as `/tmp`): in a parent others can write, another user could rename our new
    /// folder away and put theirs (or a link) in its place; in a sticky one they cannot touch ours, and a folder
    /// they made there first is refused for not being ours (as Watchman does for its state folder).
    private func createDirectories(_ dir: String) throws(DaemonError) {
        let uid = getuid()
        var prefix = dir.hasPrefix("/") ? "" : "."
        var parent = dir.hasPrefix("/") ? "/" : "."
        for component in dir.split(separator: "/") {
            prefix += "/" + component
            var info = stat()
            if lstat(prefix, &info) == 0 {
                parent = prefix
                continue
            }
            guard errno == ENOENT else {
                throw DaemonError(.unsafeDirectory, "cannot inspect \(prefix): \(errnoText())")
            }
            let parentMode = try Self.checkParent(parent, of: prefix, uid: uid)
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw DaemonError(.unsafeDirectory, "cannot create socket directory \(prefix): \(errnoText())")
            }
            // Made by us, or by someone else just before us: either way it must be our own folder, not a link.
            guard lstat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid else {
                throw DaemonError(
                    .unsafeDirectory,
                    "refusing socket directory \(prefix): another user made it first in \(parent) "
                        + "(mode \(octal(parentMode)))"
                )
            }
            // mkdir honours the umask; the mode must be exactly 0700 whatever the umask.
            chmod(prefix, 0o700)
            parent = prefix
        }
    }

    /// Checks that a folder may be created in `parent`: it is ours or root's, and no one else may write to it
    /// unless it is sticky. Returns its mode.
    private static func checkParent(_ parent: String, of folder: String, uid: uid_t) throws(DaemonError) -> mode_t {
        var info = stat()
        guard stat(parent, &info) == 0 else {
            throw DaemonError(.unsafeDirectory, "cannot inspect \(parent): \(errnoText())")
        }
        let mode = info.st_mode & 0o7777
        if info.st_uid != uid && info.st_uid != 0 {
            throw DaemonError(
                .unsafeDirectory,
                "refusing to create \(folder): its parent belongs to uid \(info.st_uid), not to uid \(uid) or root, "
                    + "who could replace it"
            )
        }
        if mode & 0o022 != 0 && mode & S_ISVTX == 0 {
            throw DaemonError(
                .unsafeDirectory,
                "refusing to create \(folder): its parent's mode \(octal(mode)) lets other users replace it "
                    + "(make the parent 0755 or 0700, or give it the sticky bit as /tmp has)"
            )
        }
        return mode
    }
}

/// The text of the current `errno`.
func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
