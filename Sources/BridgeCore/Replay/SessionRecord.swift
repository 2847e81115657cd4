import PropStore

/// The recorded-session format: one `{"dir": "in"|"out", "frame": {...}}` per line; an input line that was
/// not a JSON object is kept as `{"dir": "in", "raw": "<the line>"}`.
public enum SessionRecord {
    /// The version of the format, in the meta record. A replay compares every member of a recording of this
    /// format; one of an older format (no `format`) only the members it has, since members were added since.
    public static let format = 2

    /// The first record of a recording: the limits the engine ran with (``SessionLimit/all``), so that a replay
    /// uses the same, and the descriptions of the components that are not built-ins
    /// (``Engine/describedComponentsJSON``), so that a replay rebuilds them: a recording made with `--components`
    /// replays with no flag.
    public static func meta(_ configuration: Engine.Configuration, components: [UInt8]? = nil) -> [UInt8] {
        var w = JSONWriter()
        w.raw(#"{"dir":"meta","format":"#)
        w.int(format)
        w.raw(#","server":"#)
        w.string(configuration.server)
        w.raw(#","limits":"#)
        SessionLimit.write(configuration, into: &w)
        if let components {
            w.raw(#","components":"#)
            w.raw(components)
        }
        w.raw("}\n")
        return w.bytes
    }

    /// The record of a connection ending: the lines after it come on a new connection (a resume).
    public static let connectionClosed: [UInt8] = Array(#"{"dir":"meta","connection":"closed"}"#.utf8) + [0x0A]

    /// The record of one input line, with the frame's bytes as they arrived; `nil` for a keep-alive.
    public static func input(line: UnsafeRawBufferPointer, kind: RequestLine.Kind) -> [UInt8]? {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
        var w = JSONWriter(capacity: line.count + 32)
        switch kind {
        case .keepAlive, .observer:
            return nil
        case .object:
            w.raw(#"{"dir":"in","frame":"#)
            w.raw(line)
        case .notObject:
            w.raw(#"{"dir":"in","raw":"#)
            w.string(String(decoding: line, as: UTF8.self))
        }
        w.raw("}\n")
        return w.bytes
    }

    /// The records of output frames (each ending in `\n`), in order.
    private static let ownChangeFramePrefix = Array(#"{"observe":"#.utf8)

    public static func output(frames: UnsafeRawBufferPointer) -> [UInt8] {
        var w = JSONWriter(capacity: frames.count + 32)
        for frame in frames.split(separator: UInt8(ascii: "\n")) {
            // A session's change frames to its own connection belong to its observation, which is never recorded.
            if frame.starts(with: ownChangeFramePrefix) { continue }
            w.raw(#"{"dir":"out","frame":"#)
            w.raw(UnsafeRawBufferPointer(rebasing: frame))
            w.raw("}\n")
        }
        return w.bytes
    }
}
