import BridgeCore
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// One connection: frames newline-delimited lines out of the socket's bytes, feeds them to the engine's
/// ``Connection`` (attached to a session, which a `hello` with `resume` may change), and writes the frames it
/// answers.
///
/// The connection is driven here, on the channel's event loop, so no frame hops threads. Lines are handed to the
/// engine straight from the read buffer; the frames answering every line of one read are written and
/// flushed once, on `channelReadComplete`.
///
/// - Limits: a line longer than `maxFrameBytes` is answered with `frame_too_large` (`id: null`) and skipped
///   up to its newline; the connection goes on.
/// - Backpressure: while the channel is not writable (its outbound buffer is above the high-water mark), the
///   handler stops handling lines and holds reads; it goes on once the client has read enough.
/// - Quiescing (``ChannelShouldQuiesceEvent``, on SIGTERM): nothing more is read; the lines already read are
///   answered (still under backpressure), the answers flushed, then the connection is closed; after
///   `drainTimeout` it is closed even if the client never reads.
final class ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What every connection shares.
    struct Configuration: Sendable {
        var maxFrameBytes: Int
        /// Output written mid-read once this many bytes have accumulated, to check writability.
        var outputChunkBytes: Int = 256 * 1024
        /// How long a quiescing connection may take to flush before it is closed anyway.
        var drainTimeout: TimeAmount
        /// `--record DIR`, if set.
        var recordDirectory: String?
        /// `--observer-buffer`: how far (bytes of change frames) an observer may fall behind before it is cut off.
        var observerBufferBytes: Int = 4 << 20
    }

    private let connection: Connection
    private let configuration: Configuration
    private var logger: Logger
    private var recorder: SessionRecorder?
    private let frameTooLarge: [UInt8]

    /// Frames to write, accumulated over one read.
    private var out: [UInt8] = []
    /// Bytes read and not yet handled: the start of an incomplete line or, while paused, every line not handled.
    private var unhandled: ByteBuffer?
    /// Inside a line that was too long: dropping bytes up to its newline.
    private var skippingLine = false
    /// The client is not reading fast enough: lines wait in `unhandled` until the channel is writable.
    private var paused = false
    /// A read was requested while paused or closing, and not passed on.
    private var readHeld = false
    /// Quiescing or the client closed its side: no more lines are read; the connection closes once flushed.
    private var closing = false
    /// The client has closed its side.
    private var inputClosed = false
    /// Closing, every answer flushed and our side shut down: reading only to drop what the client still sends,
    /// so that it sees a clean end of stream rather than a reset.
    private var discardingInput = false

    init(connection: Connection, configuration: Configuration, logger: Logger) {
        self.connection = connection
        self.configuration = configuration
        self.logger = logger
        self.logger[metadataKey: "session"] = "\(connection.session.id)"
        self.frameTooLarge = Session.errorFrame(
            .frameTooLarge,
            "a frame is limited to \(configuration.maxFrameBytes) bytes (--max-frame-bytes); this line was skipped"
        )
    }

    // MARK: Lifecycle

    func channelActive(context: ChannelHandlerContext) {
        if let directory = configuration.recordDirectory {
            recorder = SessionRecorder(
                directory: directory,
                session: connection.session.id,
                configuration: connection.engine.configuration
            )
            if recorder == nil {
                logger.error(
                    "cannot record the session",
                    metadata: ["directory": "\(directory)", "error": "\(errnoText())"]
                )
            }
        }
        logger.debug("session opened")
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A taken-over connection no longer owns its session's recording.
        if connection.isTakenOver { recorder?.close() } else { recorder?.closeConnection() }
        recorder = nil
        // The session waits for `--session-ttl` to be resumed by another connection.
        connection.close()
        unhandled = nil
        logger.debug("session closed")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("connection error, closing", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is SessionTakenOver {
            // Another connection resumed this one's session: tell the client, then close.
            logger.debug("session taken over by another connection")
            out.append(contentsOf: Connection.takeoverFrame)
            finish(context: context, deadline: configuration.drainTimeout)
        } else if event is ChannelShouldQuiesceEvent {
            logger.debug("quiescing")
            finish(context: context, deadline: configuration.drainTimeout)
        } else if case .some(.inputClosed) = event as? ChannelEvent {
            inputClosed = true
            if discardingInput {
                context.close(promise: nil)
            } else {
                // A line cut short by the client's end is not a frame: it is dropped.
                finish(context: context, deadline: nil)
            }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    // MARK: Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        var buffer = unwrapInboundIn(data)
        if paused {
            keepUnhandled(&buffer)
            return
        }
        if unhandled != nil {
            guard completeUnhandledLine(context: context, with: &buffer) else { return }
        }
        handleLines(context: context, in: &buffer)
        if buffer.readableBytes > 0 { keepUnhandled(&buffer) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        writeOutput(context: context)
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        if discardingInput {
            context.read()
        } else if closing || paused || !context.channel.isWritable {
            readHeld = true
        } else {
            context.read()
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if closing {
            if paused { drain(context: context) }
        } else if context.channel.isWritable {
            if paused {
                paused = false
                if var pending = unhandled {
                    unhandled = nil
                    handleLines(context: context, in: &pending)
                    if pending.readableBytes > 0 { keepUnhandled(&pending) }
                    writeOutput(context: context)
                }
            }
            if !paused && readHeld && context.channel.isWritable {
                readHeld = false
                context.read()
            }
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: Framing

    /// Ends the line held in `unhandled` with the bytes of `buffer` up to its first newline, and handles it.
    ///
    /// - Returns: `false` if `buffer` has no newline (it was all kept, or skipped if the line grew too long).
    private func completeUnhandledLine(context: ChannelHandlerContext, with buffer: inout ByteBuffer) -> Bool {
        guard let newline = buffer.firstNewline() else {
            keepUnhandled(&buffer)
            return false
        }
        var line = unhandled!
        unhandled = nil
        if line.readableBytes + newline > configuration.maxFrameBytes {
            refuseLongLine()
        } else {
            line.writeImmutableBuffer(buffer.getSlice(at: buffer.readerIndex, length: newline)!)
            line.withUnsafeReadableBytes { handle(line: $0) }
        }
        buffer.moveReaderIndex(forwardBy: newline + 1)
        return true
    }

    /// Handles every complete line of `buffer`, leaving an incomplete last line (or, when pausing, the lines
    /// not handled) in it.
    private func handleLines(context: ChannelHandlerContext, in buffer: inout ByteBuffer) {
        let consumed = buffer.withUnsafeReadableBytes { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            var start = 0
            while start < bytes.count {
                guard let found = memchr(base + start, 0x0A, bytes.count - start) else { break }
                let end = base.distance(to: UnsafeRawPointer(found))
                if skippingLine {
                    skippingLine = false
                } else if end - start > configuration.maxFrameBytes {
                    refuseLongLine()
                } else {
                    handle(line: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                }
                start = end + 1
                if out.count >= configuration.outputChunkBytes {
                    writeOutput(context: context)
                    if !context.channel.isWritable {
                        paused = true
                        return start
                    }
                }
            }
            if skippingLine { return bytes.count }
            return start
        }
        buffer.moveReaderIndex(forwardBy: consumed)
    }

    /// Keeps bytes for later: an incomplete line, or (while paused) lines that wait for the client to read.
    private func keepUnhandled(_ buffer: inout ByteBuffer) {
        if unhandled == nil {
            unhandled = buffer
        } else {
            unhandled!.writeBuffer(&buffer)
        }
        // Not paused, `unhandled` is one incomplete line: refuse it as soon as it is too long.
        if !paused, let line = unhandled, line.readableBytes > configuration.maxFrameBytes {
            refuseLongLine()
            unhandled = nil
            skippingLine = true
        }
    }

    private func refuseLongLine() {
        out.append(contentsOf: frameTooLarge)
        logger.debug("frame too large, skipped")
    }

    @inline(__always)
    private func handle(line: UnsafeRawBufferPointer) {
        let start = out.count
        let kind = connection.handle(line: line, into: &out)
        if var recorder {
            if recorder.session != connection.session.id {
                // A hello with resume moved this connection to another session: record into that session's file.
                if let moved = SessionRecorder(
                    directory: configuration.recordDirectory!,
                    session: connection.session.id,
                    configuration: connection.engine.configuration
                ) {
                    if recorder.recordedFrames { recorder.closeConnection() } else { recorder.discard() }
                    recorder = moved
                    self.recorder = moved
                }
            }
            out.withUnsafeBytes {
                recorder.record(line: line, kind: kind, output: UnsafeRawBufferPointer(rebasing: $0[start...]))
            }
        }
    }

    // MARK: Writing

    /// Writes and flushes the frames accumulated so far.
    private func writeOutput(context: ChannelHandlerContext) {
        recorder?.flush()
        guard !out.isEmpty else { return }
        var buffer = context.channel.allocator.buffer(capacity: out.count)
        buffer.writeBytes(out)
        // Keep the array's storage for the next read, unless one huge answer made it big.
        out.removeAll(keepingCapacity: out.capacity <= 4 * configuration.outputChunkBytes)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    /// Stops reading, answers the complete lines already read, flushes, and closes once the client has them,
    /// or after `deadline`.
    private func finish(context: ChannelHandlerContext, deadline: TimeAmount?) {
        guard !closing else { return }
        closing = true
        if let deadline {
            let channel = context.channel
            let timeout = context.eventLoop.scheduleTask(in: deadline) {
                channel.close(mode: .all, promise: nil)
            }
            channel.closeFuture.whenComplete { _ in timeout.cancel() }
        }
        // Not paused, `unhandled` is only the start of a line that will never end.
        if !paused { unhandled = nil }
        drain(context: context)
    }

    /// Closing: answers the lines still waiting, as fast as the client reads them (backpressure still
    /// bounds the memory), then closes once the last answer is flushed.
    private func drain(context: ChannelHandlerContext) {
        if paused {
            guard context.channel.isWritable else { return }  // channelWritabilityChanged calls again
            paused = false
            if var pending = unhandled {
                unhandled = nil
                handleLines(context: context, in: &pending)
                if paused {
                    unhandled = pending
                    return
                }
            }
        }
        unhandled = nil
        writeOutput(context: context)
        let flushed = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0)), promise: flushed)
        flushed.futureResult.assumeIsolated().whenComplete { [self] result in
            guard case .success = result, !inputClosed else {
                context.close(promise: nil)
                return
            }
            // Quiescing: the client may still be sending. End our side, then drop its bytes until it closes
            // (or the drain timeout): closing with unread bytes would reset the connection.
            discardingInput = true
            context.close(mode: .output, promise: nil)
            context.read()
        }
    }
}

/// The user event that tells a connection's handler another connection resumed its session.
struct SessionTakenOver: Sendable {}

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
