/// Why the daemon could not start: printed as one line on stderr, and the process exits non-zero.
struct DaemonError: Error, CustomStringConvertible {
    /// What kind of failure; stable strings, for logs and tests.
    struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        let rawValue: String
        init(rawValue: String) { self.rawValue = rawValue }
        var description: String { rawValue }

        /// The socket path cannot be used (too long, not a socket, not absolute after resolution).
        static let socketPath = Code(rawValue: "socket_path")
        /// The socket's directory is missing and cannot be created, or is unsafe.
        static let unsafeDirectory = Code(rawValue: "unsafe_directory")
        /// Another daemon holds the lock beside the socket.
        static let alreadyRunning = Code(rawValue: "already_running")
        /// The recording directory cannot be used.
        static let recording = Code(rawValue: "recording")
        /// The inherited (socket-activated) descriptor cannot be used.
        static let activation = Code(rawValue: "activation")
        /// A `--components` schema cannot be loaded.
        static let schema = Code(rawValue: "schema")
    }

    var code: Code
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }
}
