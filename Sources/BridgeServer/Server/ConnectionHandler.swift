import BridgeCore
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// One connection: frames newline-delimited lines out of the socket's bytes (``LineFramer``), feeds them to the
/// engine's ``Connection`` (attached to a session, which a `hello` with `resume` may change), and writes the
/// frames it answers.
///
/// The connection is driven here, on the channel's event loop, so no small request hops threads. Lines are handed
/// to the engine straight from the read buffer; the frames answering every line of one read are written and
/// flushed once, on `channelReadComplete`. Only jansson's parse of a large read's lines may run on another core
/// (``ParseAheadPool``, `--parse-threads`); the engine takes them here, in order. Where the connection is
/// (reading, paused, draining…) is one ``ConnectionStateMachine``; this handler does what its transitions return.
///
/// - Long requests (``LongRequests``: a large line, a `bye` or `delete` of a large session) run off the loop, so
///   that the loop's other connections go on meanwhile; this connection handles nothing more until the request is
///   answered (lines read meanwhile wait, reads are held), so its requests stay in order. A large session whose
///   connection closes, or one holding a batch's parts of as many bytes as a long line, is detached off the loop
///   too (with `--session-ttl 0` that frees its views; parts applied ahead are rolled back).
///
/// - Limits: a line longer than `maxFrameBytes` is answered with `frame_too_large` (`id: null`) and skipped
///   up to its newline; the connection goes on.
/// - Backpressure: while the channel is not writable (its outbound buffer is above the high-water mark), the
///   handler stops handling lines and holds reads; it goes on once the client has read enough.
/// - Quiescing (``ChannelShouldQuiesceEvent``, on SIGTERM): nothing more is read; the lines already read are
///   answered (still under backpressure), the answers flushed, then the connection is closed; after
///   `drainTimeout` it is closed even if the client never reads.
/// - Takeover (``SessionTakenOver``): the `session_taken_over` frame is written after the answers so far, then
///   the connection closes as when quiescing.
/// - Recording (`--record`): every line and the frames answering it go to the session's file.
final class ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What every connection shares.
    /// The longest line is the engine's (``Engine/Configuration/maxFrameBytes``, `--max-frame-bytes`), which hello
    /// reports: one value for what is enforced and what is told.
    struct Configuration: Sendable {
        /// Output written mid-read once this many bytes have accumulated: to check writability, and so that a
        /// client keeping a window of requests in flight gets answers (and sends more) while the rest of the read
        /// is handled. 16 KiB: larger chunks leave a client with a window of 64 or 128 requests in flight waiting
        /// on answers; smaller ones cost more writes than they win (bench/README.md).
        var outputChunkBytes: Int = 16 * 1024
        /// Output written halfway through a read parsed ahead once this many bytes have accumulated.
        var halfReadBytes: Int = 2048
        /// How long a quiescing connection may take to flush before it is closed anyway.
        var drainTimeout: TimeAmount
        /// `--record DIR`, if set.
        var recordDirectory: String?
        /// `--observer-buffer`: how far (bytes of change frames) an observer may fall behind before it is cut off.
        var observerBufferBytes: Int = 4 << 20
        /// `--parse-threads`: large reads parsed on another core while this one handles them.
        var parseAhead = ParseAheadPool(helpers: 0)
        /// Which requests run off the event loop.
        var longRequests = LongRequests()
    }

    private let connection: Connection
    private let configuration: Configuration
    private var logger: Logger
    private var recorder: SessionRecorder?
    private let frameTooLarge: [UInt8]

    /// Where the connection is: reading, paused, draining… (``ConnectionStateMachine``).
    private var state = ConnectionStateMachine()
    /// The lines of the bytes read.
    private var framer: LineFramer
    /// Frames to write, accumulated over one read.
    private var out: [UInt8] = []
    /// The lines of the read being handled, parsed on another core, if it is parsed ahead.
    private var parseAhead: ParseAhead?

    init(connection: Connection, configuration: Configuration, logger: Logger) {
        self.connection = connection
        self.configuration = configuration
        self.logger = logger
        self.logger[metadataKey: "session"] = "\(connection.session.id)"
        let maxFrameBytes = connection.engine.configuration.maxFrameBytes
        self.framer = LineFramer(maxFrameBytes: maxFrameBytes)
        self.frameTooLarge = RequestLine.errorFrame(
            .frameTooLarge,
            "a frame is limited to \(maxFrameBytes) bytes (--max-frame-bytes); this line was skipped"
        )
    }

    // MARK: Lifecycle

    func channelActive(context: ChannelHandlerContext) {
        if let directory = configuration.recordDirectory {
            // The file is created once the session says hello.
            recorder = SessionRecorder(
                directory: directory,
                session: connection.session.id,
                engine: connection.engine,
                logger: logger
            )
        }
        logger.debug("session opened")
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        let running = state.requestRunning
        state.channelInactive()
        // While a request runs off the loop, the connection is closed once it ends (``requestEnded``).
        if !running { closeConnection() }
        // A write that fails while the framer calls back (a client gone before a large answer) closes the channel
        // there and then: the framer is reset once it returns, not inside its own call.
        if framing { framerNeedsReset = true } else { framer.reset() }
        logger.debug("session closed")
        context.fireChannelInactive()
    }

    /// The channel went inactive (and no request runs off the loop): closes the recording and the engine's
    /// connection.
    private func closeConnection() {
        // A taken-over connection no longer owns its session's recording.
        if connection.isTakenOver { recorder?.close() } else { recorder?.closeConnection() }
        recorder = nil
        // The session waits for `--session-ttl` to be resumed by another connection (or ends now, freeing its
        // views), and drops a batch in parts it held: a large one of either is left to another thread.
        let connection = self.connection
        let long = configuration.longRequests
        if long.closeIsLong(sessionViews: connection.sessionViews, stagedBatchBytes: connection.stagedBatchBytes) {
            long.run { connection.close() }
        } else {
            connection.close()
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("connection error, closing", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is SessionTakenOver {
            // Another connection resumed this one's session: tell the client, then close.
            logger.debug("session taken over by another connection")
            guard case .writeTakeoverFrame(let then) = state.takenOver() else { return }
            out.append(contentsOf: Connection.takeoverFrame)
            perform(then, context: context)
        } else if event is ChannelShouldQuiesceEvent {
            logger.debug("quiescing")
            perform(state.quiesce(), context: context)
        } else if case .some(.inputClosed) = event as? ChannelEvent {
            perform(state.inputClosed(), context: context)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    // MARK: Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state.channelRead() {
        case .handleLines: handleLines(context: context, in: unwrapInboundIn(data))
        case .keep: framer.keep(unwrapInboundIn(data))
        case .drop: break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        writeOutput(context: context)
        // The answers are written: what their requests left to free is freed now, while their client reads them.
        // (A request running off the loop owns the connection: its thread does this when it ends.)
        if !state.requestRunning { connection.freeDeferred() }
        endIfSaidBye(context: context)
        context.fireChannelReadComplete()
    }

    /// After `bye` the session is over: answer what was read (lines after the `bye` are dropped), flush, close.
    private func endIfSaidBye(context: ChannelHandlerContext) {
        // (A request running off the loop owns the connection; its end comes back here.)
        if !state.requestRunning && connection.hasEnded { perform(state.quiesce(), context: context) }
    }

    func read(context: ChannelHandlerContext) {
        switch state.readRequested(writable: context.channel.isWritable) {
        case .read: context.read()
        case .hold: break
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        go(on: state.writabilityChanged(writable: context.channel.isWritable), context: context)
        context.fireChannelWritabilityChanged()
    }

    /// Does what a change of writability (or the end of a long request) asks, until nothing is left to do.
    private func go(on first: ConnectionStateMachine.WritabilityAction, context: ChannelHandlerContext) {
        var action = first
        while true {
            switch action {
            case .none:
                return
            case .read:
                context.read()
                action = .none
            case .handleKeptLines:
                handleLines(context: context, in: nil)
                writeOutput(context: context)
                endIfSaidBye(context: context)
                action = state.writabilityChanged(writable: context.channel.isWritable)
            case .drain:
                drain(context: context)
                action = .none
            }
        }
    }

    // MARK: Lines

    /// Whether ``handleLines(context:in:)`` is in the framer's call, and whether the channel went inactive then.
    private var framing = false
    private var framerNeedsReset = false

    /// Handles the complete lines the framer kept, then those of `buffer`, until the connection pauses.
    private func handleLines(context: ChannelHandlerContext, in buffer: ByteBuffer?) {
        framing = true
        defer {
            framing = false
            if framerNeedsReset {
                framerNeedsReset = false
                framer.reset()
            }
        }
        if let buffer {
            let parsed = configuration.parseAhead.withParseAhead(
                of: buffer,
                linesInPlace: { framer.linesInPlace(of: buffer).map(configuration.longRequests.linesToParseAhead) },
                { ahead in
                    parseAhead = ahead
                    framer.frame(buffer) { handle(frame: $0, context: context) }
                    parseAhead = nil
                }
            )
            if let parsed {
                logger.trace(
                    "read parsed ahead",
                    metadata: ["lines": "\(parsed.lines)", "taken": "\(parsed.takenParsed)"]
                )
            }
        } else {
            framer.frameKept { handle(frame: $0, context: context) }
        }
    }

    /// Half the lines of a read parsed ahead are handled, and their answers are worth a write
    /// (``Configuration/halfReadBytes``): they go out now, so that a client keeping a window of requests in flight
    /// sends the next ones while the loop handles the other half (bench/README.md, "History", has the figures).
    private var halfway: Bool {
        guard let parseAhead, out.count >= configuration.halfReadBytes else { return false }
        return parseAhead.handled == parseAhead.count / 2
    }

    /// Handles one frame; returns whether to go on (`false`: the connection paused, or a long request went off
    /// the loop).
    @inline(__always)
    private func handle(frame: LineFramer.Frame, context: ChannelHandlerContext) -> Bool {
        switch frame {
        case .line(let line, let storage):
            if configuration.longRequests.isLong(
                line,
                sessionViews: connection.sessionViews,
                stagedBatchBytes: connection.stagedBatchBytes
            ),
                !connection.hasEnded, !connection.isTakenOver
            {
                // The line's bytes: the framer's buffer that holds it alone (a line longer than a read), or a copy
                // (they belong to the read).
                runOffLoop(line: storage ?? context.channel.allocator.buffer(bytes: line), context: context)
                return false
            }
            handle(line: line)
        case .tooLarge: refuseLongLine()
        }
        guard out.count >= configuration.outputChunkBytes || halfway else { return true }
        writeOutput(context: context)
        return state.chunkWritten(writable: context.channel.isWritable)
    }

    private func refuseLongLine() {
        out.append(contentsOf: frameTooLarge)
        logger.debug("frame too large, skipped")
    }

    @inline(__always)
    private func handle(line: UnsafeRawBufferPointer) {
        guard !connection.hasEnded else { return }
        let start = out.count
        let kind = connection.handle(line: line, parsed: parseAhead?.take(line), into: &out)
        configuration.longRequests.hold?.requestAnswered()
        if recorder != nil {
            out.withUnsafeBytes {
                record(line: line, kind: kind, output: UnsafeRawBufferPointer(rebasing: $0[start...]))
            }
        }
    }

    /// Records `line` and the frames answering it.
    private func record(line: UnsafeRawBufferPointer, kind: RequestLine.Kind, output: UnsafeRawBufferPointer) {
        guard var recorder else { return }
        // A hello with resume may have moved this connection to another session: record into that session's file.
        recorder = recorder.following(connection.session.id)
        self.recorder = recorder
        recorder.record(line: line, kind: kind, output: output, greeted: connection.hasSaidHello)
    }

    // MARK: Long requests

    /// What a request run off the loop wrote.
    private struct Answered: Sendable {
        var kind: RequestLine.Kind
        var frames: ByteBuffer
    }

    /// Hands a long line to another thread (``LongRequests``); the connection handles nothing more until
    /// ``requestEnded(line:answered:context:)``, back on the loop, writes its answer. Neither the line nor the
    /// answer is copied on the loop.
    private func runOffLoop(line: ByteBuffer, context: ChannelHandlerContext) {
        // From here the connection is the request's: a close meanwhile (even one caused by the write below) waits
        // for its end.
        state.requestStarted()
        // The answers so far go first, now.
        writeOutput(context: context)
        let connection = self.connection
        let hold = configuration.longRequests.hold
        let allocator = context.channel.allocator
        let done = context.eventLoop.makePromise(of: Answered.self)
        configuration.longRequests.run {
            hold?.wait()
            var frames: [UInt8] = []
            // (The session before the request: a resume in it may attach the connection to another.)
            let session = connection.session
            let kind = line.withUnsafeReadableBytes { connection.handle(line: $0, into: &frames) }
            done.succeed(Answered(kind: kind, frames: allocator.buffer(bytes: frames)))
            // The answer is on its way to the loop: what the request left to free is freed meanwhile.
            session.freeDeferred()
        }
        done.futureResult.assumeIsolated().whenSuccess { [self] answered in
            requestEnded(line: line, answered: answered, context: context)
        }
    }

    /// Back on the loop: writes the long request's answer, then goes on where the connection is.
    private func requestEnded(line: ByteBuffer, answered: Answered, context: ChannelHandlerContext) {
        // Recorded even when the client went away meanwhile: the session (which a resume may take) changed.
        if recorder != nil {
            line.withUnsafeReadableBytes { line in
                answered.frames.withUnsafeReadableBytes { record(line: line, kind: answered.kind, output: $0) }
            }
        }
        let action = state.requestEnded(writable: context.channel.isWritable)
        if case .closed = state.state {
            // Nobody reads the answer.
            out.removeAll()
            closeConnection()
            return
        }
        recorder?.flush()
        context.write(wrapOutboundOut(answered.frames), promise: nil)
        // Only a takeover's frame can have been added meanwhile: it goes after the answer.
        writeOutput(context: context)
        context.flush()
        if connection.hasEnded {
            // `bye`: answered and flushed; close (the lines read after it are dropped). When the connection was
            // draining already (the client closed its side meanwhile), `action` is that drain, which closes it.
            let close = state.quiesce()
            if close != .none {
                perform(close, context: context)
                return
            }
        }
        go(on: action, context: context)
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

    // MARK: Closing

    private func perform(_ action: ConnectionStateMachine.CloseAction, context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .close:
            context.close(promise: nil)
        case .drain(let deadline):
            if deadline {
                let channel = context.channel
                let timeout = context.eventLoop.scheduleTask(in: configuration.drainTimeout) {
                    channel.close(mode: .all, promise: nil)
                }
                channel.closeFuture.whenComplete { _ in timeout.cancel() }
            }
            drain(context: context)
        }
    }

    /// Closing: answers the lines still waiting, as fast as the client reads them (backpressure still
    /// bounds the memory), then closes once the last answer is flushed.
    private func drain(context: ChannelHandlerContext) {
        while true {
            switch state.drainStep(writable: context.channel.isWritable) {
            case .wait:
                return
            case .handleKeptLines:
                handleLines(context: context, in: nil)
            case .flush:
                framer.dropIncompleteLine()
                writeOutput(context: context)
                let flushed = context.eventLoop.makePromise(of: Void.self)
                context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0)), promise: flushed)
                flushed.futureResult.assumeIsolated().whenComplete { [self] result in
                    lastAnswersFlushed(context: context, success: (try? result.get()) != nil)
                }
                return
            }
        }
    }

    private func lastAnswersFlushed(context: ChannelHandlerContext, success: Bool) {
        switch state.flushed(success: success) {
        case .close:
            context.close(promise: nil)
        case .discardInput:
            // Quiescing: the client may still be sending. End our side, then drop its bytes until it closes
            // (or the drain timeout): closing with unread bytes would reset the connection.
            context.close(mode: .output, promise: nil)
            context.read()
        }
    }
}

/// The user event that tells a connection's handler another connection resumed its session.
struct SessionTakenOver: Sendable {}
