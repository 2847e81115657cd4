#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file as UTF-8 text, or `nil` if it cannot be read.
func readFile(_ path: String) -> String? {
    readFileBytes(path).map { String(decoding: $0, as: UTF8.self) }
}

/// Reads a whole file, or `nil` if it cannot be opened.
func readFileBytes(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = read(descriptor, &chunk, chunk.count)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
}

/// The directory part of a path: `/a/b` for `/a/b/c`, `/` for `/c`, `.` for `c`.
func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let directory = String(path[..<slash])
    return directory.isEmpty ? "/" : directory
}

/// Writes all of `bytes` to `descriptor` (retrying short writes and EINTR); false if a write failed.
@discardableResult
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
        var written = 0
        while written < raw.count {
            let n = write(descriptor, raw.baseAddress! + written, raw.count - written)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            written += n
        }
        return true
    }
}

/// Writes one line to stderr.
func printError(_ message: String) {
    writeAll(STDERR_FILENO, Array((message + "\n").utf8))
}
