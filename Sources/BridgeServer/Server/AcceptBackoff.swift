import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// When the listening socket cannot accept (out of descriptors, most often), stops reading it for a second, and
/// says so once a minute at most, and that it accepts again.
///
/// NIO's `AcceptBackoffHandler` is not enough here: it delays the next `read`, but when a readable event's first
/// `accept` fails NIO never asks for one (the read it had is still pending) and leaves the socket registered, so
/// the event loop spins on it. Turning `autoRead` off takes the socket out of the poll; turning it on again puts it
/// back. A connection refused this way waits in the socket's backlog meanwhile. Freeing descriptors
/// often fails again a moment later (the backlog's clients take them back): such failures within a minute of the
/// last line are not logged again.
final class AcceptBackoff: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Channel
    typealias InboundOut = Channel

    /// How long accepting pauses after a failed accept.
    static let pause = TimeAmount.seconds(1)
    /// How long after a logged failure another one goes unlogged.
    static let quietPeriod = TimeAmount.seconds(60)

    private let logger: Logger
    /// Whether the last accept failed.
    private var failing = false
    /// Whether the failure under way was logged (then its end is too).
    private var logged = false
    /// When a failure was last logged.
    private var lastLogged: NIODeadline?
    /// The resumption of accepting, while paused.
    private var resumption: Scheduled<Void>?

    init(logger: Logger) { self.logger = logger }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if failing {
            failing = false
            if logged { logger.notice("accepting connections again") }
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let failure = error as? IOError else {
            context.fireErrorCaught(error)
            return
        }
        pause(context)
        guard !failing else { return }
        failing = true
        let now = NIODeadline.now()
        if let lastLogged, now - lastLogged < Self.quietPeriod {
            logged = false
            return
        }
        logged = true
        lastLogged = now
        let hint = [EMFILE, ENFILE].contains(failure.errnoCode) ? " (raise the limit: ulimit -n, LimitNOFILE=)" : ""
        let reason = String(cString: strerror(failure.errnoCode))
        logger.error(
            "cannot accept connections: \(reason)\(hint); retrying every second, the clients wait in the backlog",
            metadata: ["errno": "\(failure.errnoCode)"]
        )
    }

    func channelInactive(context: ChannelHandlerContext) {
        resumption?.cancel()
        resumption = nil
        context.fireChannelInactive()
    }

    /// Stops polling the socket, and polls it again after ``pause``.
    private func pause(_ context: ChannelHandlerContext) {
        guard resumption == nil, let options = context.channel.syncOptions else { return }
        try? options.setOption(.autoRead, value: false)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        resumption = context.eventLoop.assumeIsolated().scheduleTask(in: Self.pause) { [self] in
            resumption = nil
            let context = loopBound.value
            guard context.channel.isActive else { return }
            // Turning it on again reads: the socket is polled again.
            try? context.channel.syncOptions?.setOption(.autoRead, value: true)
        }
    }
}
