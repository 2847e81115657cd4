import BridgeCore
import Logging
import NIOCore
import NIOExtras
import NIOPosix
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's server: accepts connections on a Unix socket and gives each one an engine session.
///
/// A `Service`: it runs until graceful shutdown (SIGTERM, SIGINT), then stops accepting, lets every connection
/// answer what it has read and flush (``ConnectionHandler``), and returns once all connections are closed, or
/// once `drainTimeout` has passed, having stopped the engine's requests (``Engine/interruptRequests()``).
struct BridgeService: Service {
    /// Where to listen.
    enum Listener: Sendable {
        /// Bind a new socket at this path (its directory already prepared, the stale socket removed).
        case path(String)
        /// Serve a socket the service manager bound and passed (socket activation).
        case inherited(Int32)
    }

    var listener: Listener
    var engine: Engine
    var connection: ConnectionHandler.Configuration
    var logger: Logger
    var group: MultiThreadedEventLoopGroup = .singleton
    /// Called once the socket accepts connections, with its path.
    var onListening: @Sendable (String) -> Void
    /// `--exit-with-parent`: counts the open connections, and stops the daemon once its parent ended and none is.
    var life: ParentLife? = nil

    func run() async throws {
        let quiesce = ServerQuiescingHelper(group: group)
        let daemonUID = getuid()
        let engine = self.engine
        let connection = self.connection
        let logger = self.logger
        let life = self.life

        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(quiesce.makeServerChannelHandler(channel: channel))
                    // A failed accept (no descriptor left) pauses accepting for a second, and is logged.
                    try pipeline.addHandler(AcceptBackoff(logger: logger))
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 256 * 1024, high: 1024 * 1024))
            .childChannelOption(.maxMessagesPerRead, value: 8)
            // Reads of up to 256 KiB: a read is what the parse helper shares with the loop (ParseAheadPool), and
            // each one costs a hand-over and a tail where one core waits for the other, so a read should hold many
            // lines even of large batches (bench/README.md). The buffer grows only while reads fill it.
            .childChannelOption(
                .recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: 16 * 1024, maximum: 256 * 1024)
            )
            .childChannelInitializer { channel in
                if let life {
                    life.connectionOpened()
                    channel.closeFuture.whenComplete { _ in life.connectionClosed() }
                }
                // The peer is checked before any handler that reads is added: a refused peer's bytes are never
                // handled.
                return PeerCredentials.of(channel).flatMapThrowing { peer in
                    let pipeline = channel.pipeline.syncOperations
                    guard peer.isAllowed(daemonUID: daemonUID) else {
                        logger.notice("connection refused", metadata: ["peer": "\(peer)"])
                        try pipeline.addHandler(RefusingHandler(peer: peer, daemonUID: daemonUID))
                        return
                    }
                    let bridge = engine.connect()
                    bridge.onTakeover = { [channel] in
                        channel.pipeline.fireUserInboundEventTriggered(SessionTakenOver())
                    }
                    let observerLimit = connection.observerBufferBytes
                    bridge.makeObserverSink = { [channel] session in
                        ObserverQueue(channel: channel, session: session, limit: observerLimit)
                    }
                    try pipeline.addHandler(
                        ConnectionHandler(connection: bridge, configuration: connection, logger: logger)
                    )
                }
            }

        let channel: Channel
        switch listener {
        case .path(let path):
            // The socket is created 0600: no other user may connect between bind and chmod.
            let previousMask = umask(0o177)
            do {
                channel = try await bootstrap.bind(unixDomainSocketPath: path).get()
                umask(previousMask)
            } catch {
                umask(previousMask)
                throw error
            }
            chmod(path, 0o600)
        case .inherited(let descriptor):
            channel = try await bootstrap.withBoundSocket(descriptor).get()
        }

        onListening(channel.localAddress?.pathname ?? "an inherited socket")

        // Detached sessions past `--session-ttl` are ended once a second (a resume checks on its own too), off the
        // event loops: ending a large session frees its views, which would hold up the loop's connections.
        let expiry = group.next().scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
            connection.longRequests.run {
                // Ended sessions free their views; hand the freed pages back so a big session's memory does not
                // stay with the process.
                if engine.expireSessions() > 0 { releaseFreeMemory() }
            }
        }
        defer { expiry.cancel() }

        let stopping = Once()
        let allClosed = group.next().makePromise(of: Void.self)
        let stop: @Sendable () -> Void = {
            guard stopping.first() else { return }
            quiesce.initiateShutdown(promise: allClosed)
        }
        let finished = Finish()
        // The socket closed (by the shutdown, or by an error: then the connections are closed too), and then every
        // connection.
        channel.closeFuture.whenComplete { _ in
            stop()
            allClosed.futureResult.whenComplete { _ in finished.finish() }
        }
        let deadline = connection.drainTimeout
        await withGracefulShutdownHandler {
            await finished.wait()
        } onGracefulShutdown: {
            logger.info("shutting down: no new connections; finishing the open ones")
            stop()
            // The deadline holds even when an event loop is busy with a long request (it then neither closes its
            // connections nor runs its timers): past it, requests stop (a batch in progress is undone) and the
            // service returns, so that the state is saved as of every session's last answered request.
            Task {
                try? await Task.sleep(for: .nanoseconds(deadline.nanoseconds))
                if finished.isFinished { return }
                logger.notice("shutdown timeout: connections still open; stopping their requests")
                engine.interruptRequests()
                finished.finish()
            }
        }
        // The service is over, also when every channel closed before the deadline while a request still ran off the
        // loops (a quiescing connection's channel closes at once; its request goes on): that request is stopped now
        // too, so that the state is saved as of every session's last answered request rather than left out.
        engine.interruptRequests()
    }
}

/// Session ids unique in this daemon and across its restarts: `s<n>-<pid>`.
func sessionName(_ n: Int) -> String { "s\(n)-\(getpid())" }

/// A session's resume token: 128 bits from the system's secure generator (`getrandom(2)` on Linux), as 32 hex
/// digits. Ids are predictable; only the client that said hello knows its session's token.
func randomToken(_ n: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return [generator.next(), generator.next()].map { (word: UInt64) in
        let hex = String(word, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
}

/// Nanoseconds of the monotonic clock: the engine's clock, which only the expiry of detached sessions reads.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Completes once, from any thread: ``wait()`` returns once ``finish()`` was called.
final class Finish: Sendable {
    private let state = Mutex<(done: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    var isFinished: Bool { state.withLock { $0.done } }

    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.done else { return nil }
            state.done = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if !state.done { state.waiter = continuation }
                return state.done
            }
            if done { continuation.resume() }
        }
    }
}

/// True the first time only.
final class Once: Sendable {
    private let done = Atomic<Bool>(false)

    func first() -> Bool { !done.exchange(true, ordering: .relaxed) }
}

extension BridgeService: CustomStringConvertible {
    var description: String {
        switch listener {
        case .path(let path): "BridgeService(\(path))"
        case .inherited(let descriptor): "BridgeService(inherited fd \(descriptor))"
        }
    }
}

/// Gives the pages freed by ended sessions back to the system (glibc's `malloc_trim`, looked up at run time:
/// Swift's Glibc module does not import `malloc.h`).
func releaseFreeMemory() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
}
