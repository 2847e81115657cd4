import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Says that the listening socket cannot accept (out of descriptors, most often), once a minute at most, and
/// that it accepts again.
///
/// Sits behind NIO's `AcceptBackoffHandler`, which waits a second before the next accept after a failed one:
/// without it the socket stays readable and the event loop retries at once, a core spinning and saying nothing.
/// A connection refused this way waits in the socket's backlog and is accepted when descriptors are free. Freeing
/// them often fails again a moment later (the backlog's clients take them back): such failures within a minute
/// of the last line are not logged again.
final class AcceptFailureLogger: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Channel
    typealias InboundOut = Channel

    /// How long after a logged failure another one goes unlogged.
    static let quietPeriod = TimeAmount.seconds(60)

    private let logger: Logger
    /// Whether the last accept failed.
    private var failing = false
    /// Whether the failure under way was logged (then its end is too).
    private var logged = false
    /// When a failure was last logged.
    private var lastLogged: NIODeadline?

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
}
