import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Splits the bytes of a connection into newline-terminated lines, without copying them.
///
/// Each complete line is handed to the caller as a pointer into the read buffer, without its `\n`. Only the
/// start of a line that a read cut in two is kept (a slice of that read's buffer) and completed with the
/// bytes of the next read, so a line crossing reads is the only one ever copied.
///
/// - Limit: a line longer than `maxFrameBytes` (not counting its `\n`) is reported as ``Frame/tooLarge``
///   once, as soon as it is known to be too long (even before its newline arrives), and its bytes are
///   dropped up to its newline.
/// - Stopping: the caller's closure returns `false` to stop (the connection is pausing); the bytes not yet
///   framed are kept, and ``frameKept(_:)`` goes on from there. ``keep(_:)`` keeps a read without framing it.
struct LineFramer {
    /// What the framer found.
    enum Frame {
        /// A complete line, without its `\n`; valid only during the call. `storage`: for a line completed from
        /// bytes kept from earlier reads, the buffer that holds it and nothing else (the line's bytes are its
        /// readable bytes), which the caller may keep instead of copying the line; `nil` for a line of one read.
        case line(UnsafeRawBufferPointer, storage: ByteBuffer?)
        /// A line longer than the limit, skipped.
        case tooLarge
    }

    /// The longest line accepted, in bytes, without its `\n`.
    let maxFrameBytes: Int
    /// Bytes received and not yet handed out: an incomplete line, or (after a stop) every byte not framed.
    private var kept: ByteBuffer?
    /// Whether `kept` is one incomplete line already looked at (no newline, not over the limit).
    private var keptIsIncompleteLine = false
    /// Inside a line that was too long: dropping bytes up to its newline.
    private var skipping = false

    init(maxFrameBytes: Int) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// The number of bytes kept for later.
    var keptBytes: Int { kept?.readableBytes ?? 0 }

    /// Whether bytes were kept that may hold complete lines (after a stop or ``keep(_:)``).
    var hasUnframedBytes: Bool { kept != nil && !keptIsIncompleteLine }

    /// Frames the kept bytes, then `buffer`, calling `body` for each line until it returns `false`.
    mutating func frame(_ buffer: ByteBuffer, _ body: (Frame) -> Bool) {
        var buffer = buffer
        if var held = kept {
            kept = nil
            if keptIsIncompleteLine {
                keptIsIncompleteLine = false
                guard complete(&held, with: &buffer, body) else {
                    if buffer.readableBytes > 0 { keepUnframed(buffer) }
                    return
                }
            } else {
                held.writeBuffer(&buffer)
                buffer = held
            }
        }
        scan(buffer, body)
    }

    /// Frames the bytes kept by a stop or by ``keep(_:)``.
    mutating func frameKept(_ body: (Frame) -> Bool) {
        guard hasUnframedBytes else { return }
        frame(ByteBuffer(), body)
    }

    /// Keeps `buffer` for later without framing it (the connection is paused).
    mutating func keep(_ buffer: ByteBuffer) {
        guard buffer.readableBytes > 0 else { return }
        keepUnframed(buffer)
    }

    /// Drops the start of a line that will never end (the connection is closing); keeps unframed bytes.
    mutating func dropIncompleteLine() {
        if keptIsIncompleteLine {
            kept = nil
            keptIsIncompleteLine = false
        }
    }

    /// Drops everything kept.
    mutating func reset() {
        kept = nil
        keptIsIncompleteLine = false
        skipping = false
    }

    /// The complete lines of `buffer` that ``frame(_:_:)`` will hand out as they lie in it (not copied), in
    /// order, each without its `\n`; `nil` when framing it copies them (bytes kept from an earlier read come
    /// first). Leaves out a first line that completes one kept from an earlier read or is being skipped, and
    /// lines over the limit. The pointers are valid while `buffer`'s storage is.
    func linesInPlace(of buffer: ByteBuffer) -> [UnsafeRawBufferPointer]? {
        guard kept == nil || keptIsIncompleteLine else { return nil }
        var skipFirst = skipping || keptIsIncompleteLine
        let limit = maxFrameBytes
        return buffer.withUnsafeReadableBytes { bytes in
            var lines: [UnsafeRawBufferPointer] = []
            Self.forEachLine(in: bytes) { line in
                if skipFirst {
                    skipFirst = false
                } else if line.count <= limit {
                    lines.append(line)
                }
                return true
            }
            return lines
        }
    }

    // MARK: Internals

    /// Ends the incomplete line `held` with the bytes of `buffer` up to its first newline and hands it out.
    ///
    /// - Returns: whether to go on framing `buffer` (`false`: `buffer` had no newline, or `body` stopped).
    private mutating func complete(
        _ held: inout ByteBuffer,
        with buffer: inout ByteBuffer,
        _ body: (Frame) -> Bool
    ) -> Bool {
        guard let newline = buffer.firstNewline() else {
            held.writeBuffer(&buffer)
            keepIncompleteLine(held, body)
            return false
        }
        let goOn: Bool
        if held.readableBytes + newline > maxFrameBytes {
            goOn = body(.tooLarge)
        } else {
            held.writeImmutableBuffer(buffer.getSlice(at: buffer.readerIndex, length: newline)!)
            goOn = held.withUnsafeReadableBytes { body(.line($0, storage: held)) }
        }
        buffer.moveReaderIndex(forwardBy: newline + 1)
        return goOn
    }

    /// Hands out every complete line of `buffer`; keeps the incomplete last one, or what follows a stop.
    private mutating func scan(_ buffer: ByteBuffer, _ body: (Frame) -> Bool) {
        var stopped = false
        let limit = maxFrameBytes
        var skipping = self.skipping
        let consumed = buffer.withUnsafeReadableBytes { bytes in
            Self.forEachLine(in: bytes) { line in
                let goOn: Bool
                if skipping {
                    skipping = false
                    goOn = true
                } else if line.count > limit {
                    goOn = body(.tooLarge)
                } else {
                    goOn = body(.line(line, storage: nil))
                }
                stopped = !goOn
                return goOn
            }
        }
        self.skipping = skipping
        var rest = buffer
        rest.moveReaderIndex(forwardBy: consumed)
        guard rest.readableBytes > 0 else { return }
        if stopped {
            keepUnframed(rest)
        } else if !skipping {
            keepIncompleteLine(rest, body)
        }
        // Skipping: the rest belongs to the line being dropped.
    }

    /// Calls `body` with each complete line of `bytes` (without its `\n`), in order, until it returns `false`;
    /// returns where the bytes not yet handed out start (after the last newline reached).
    @discardableResult
    private static func forEachLine(
        in bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) -> Bool
    ) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var start = 0
        while start < bytes.count, let found = memchr(base + start, 0x0A, bytes.count - start) {
            let end = base.distance(to: UnsafeRawPointer(found))
            let goOn = body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end + 1
            if !goOn { break }
        }
        return start
    }

    /// Keeps the start of a line, unless it is already too long: then reports it and skips the rest of it.
    private mutating func keepIncompleteLine(_ line: ByteBuffer, _ body: (Frame) -> Bool) {
        if line.readableBytes > maxFrameBytes {
            skipping = true
            _ = body(.tooLarge)
        } else {
            kept = line
            keptIsIncompleteLine = true
        }
    }

    /// Keeps bytes that may hold complete lines, after those already kept.
    private mutating func keepUnframed(_ buffer: ByteBuffer) {
        if kept == nil {
            kept = buffer
        } else {
            var buffer = buffer
            kept!.writeBuffer(&buffer)
        }
        keptIsIncompleteLine = false
    }
}

extension ByteBuffer {
    /// The offset from the reader index of the first `\n`, if any.
    @inline(__always)
    fileprivate func firstNewline() -> Int? {
        withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress, let found = memchr(base, 0x0A, bytes.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }
}
