import ArgumentParser
import BridgeCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `bridged` / `bridged serve`: the daemon on a Unix socket, in the foreground.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the bridge on a Unix socket (the default).",
        discussion: """
            The socket is --socket, else $BRIDGED_SOCKET, else $XDG_RUNTIME_DIR/bridged/bridged.sock, else \
            /tmp/bridged-<uid>/bridged.sock. Prints 'bridged listening on <path>' once it accepts connections. \
            Started by systemd with LISTEN_FDS (socket activation), it serves the inherited socket instead. \
            SIGTERM or SIGINT stops it cleanly.
            """
    )

    @Option(help: ArgumentHelp("The Unix socket to listen on.", valueName: "path"))
    var socket: String?

    @Option(help: "The longest line (frame) accepted, in bytes; a longer one is answered with frame_too_large.")
    var maxFrameBytes: Int = 1 << 20

    @Option(help: "Log level (trace, debug, info, notice, warning, error, critical); logs go to stderr.")
    var logLevel: Logger.Level = .info

    @Option(help: ArgumentHelp("Record every session to DIR/<session>.jsonl (replayable).", valueName: "dir"))
    var record: String?

    @Option(help: "On SIGTERM, how long (seconds) a client that does not read may hold up the shutdown.")
    var shutdownTimeout: Double = 3

    @Option(help: "How long (seconds) a session outlives its connection, waiting to be resumed; 0: not at all.")
    var sessionTTL: Double = 60

    @OptionGroup var limits: EngineLimits

    @Option(help: "How many bytes of change frames an observer may fall behind before it is cut off.")
    var observerBuffer: Int = 4 << 20

    @Option(
        help: ArgumentHelp(
            "Threads that may parse a large read's lines while its connection handles them "
                + "(0: none; default: the cores less one).",
            valueName: "n"
        )
    )
    var parseThreads: Int = max(0, System.coreCount - 1)

    @OptionGroup var components: ComponentsOption

    @Option(
        help: ArgumentHelp(
            "Where sessions are saved on a clean stop and loaded from on start (default: <socket>.state).",
            valueName: "path"
        )
    )
    var stateFile: String?

    @Flag(
        help: """
            Stop once standard input reaches its end (the process holding the other end of the pipe ended, a crash \
            included) and no connection is open; until then, serve as usual. Sessions are then not saved. \
            connect({spawn: true}) starts the daemon so.
            """
    )
    var exitWithParent = false

    /// Tests only: every long request (run off the event loop) waits until the daemon has answered this many
    /// requests inline (the fairness test counts, with no clock, that others are answered while it is in flight).
    @Option(help: .hidden)
    var testHoldLongRequests: Int?

    func validate() throws {
        guard maxFrameBytes > 0 else { throw ValidationError("--max-frame-bytes must be positive") }
        guard shutdownTimeout >= 0 else { throw ValidationError("--shutdown-timeout must not be negative") }
        guard sessionTTL >= 0 else { throw ValidationError("--session-ttl must not be negative") }
        guard observerBuffer > 0 else { throw ValidationError("--observer-buffer must be positive") }
        guard parseThreads >= 0 else { throw ValidationError("--parse-threads must not be negative") }
        guard !exitWithParent || ParentLife.standardInputIsReadable else {
            throw ValidationError(
                "--exit-with-parent needs standard input to be a pipe from the process that started it (or a terminal)"
            )
        }
    }

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "bridged")
        let registry = try components.registry { logger.notice("\($0)") }

        if let record { try prepareRecordingDirectory(record) }

        let listener: BridgeService.Listener
        var socketFile: SocketLocation?
        var lock: InstanceLock?
        var state: StateFile?
        /// The path of the socket served, when it has one: it names the state file and is recorded in it.
        let socketPath: String?
        if let inherited = try Systemd.takeListeningSocket() {
            // The service manager owns the socket file: it is neither locked nor removed here.
            listener = .inherited(inherited)
            socketPath = Systemd.boundPath(of: inherited)
            state = socketPath.map { StateFile.beside(socket: $0) }
        } else {
            let location = try SocketLocation.resolve(option: socket)
            try location.prepareDirectory()
            lock = try InstanceLock(path: location.lockPath, socketPath: location.path)
            if try location.removeStaleSocket() {
                logger.notice(
                    "removed a stale socket left by a daemon that did not stop cleanly",
                    metadata: [
                        "socket": "\(location.path)"
                    ]
                )
            }
            socketFile = location
            socketPath = location.path
            listener = .path(location.path)
            state = StateFile.beside(socket: location.path)
        }
        if let stateFile, !stateFile.isEmpty { state = StateFile(path: stateFile, socket: socketPath) }
        defer {
            if let socketFile { unlink(socketFile.path) }
            lock?.release()
        }

        var engineConfiguration = limits.configuration
        engineConfiguration.sessionTTL = UInt64(sessionTTL * 1_000_000_000)
        engineConfiguration.maxFrameBytes = maxFrameBytes
        let longRequests = LongRequests(
            hold: testHoldLongRequests.map(LongRequestHold.init(count:)),
            loopSlices: LoopSlices(group: MultiThreadedEventLoopGroup.singleton, logger: logger)
        )
        // A hello that evicts a large detached session (`--max-sessions`) leaves its end to another thread.
        engineConfiguration.endLargeSession = { longRequests.run($0) }
        engineConfiguration.largeSessionViews = longRequests.minimumViews
        engineConfiguration.prepareAside = { work in NIOThreadPool.singleton.submit { _ in work() } }
        let engine = Engine(
            registry: registry,
            configuration: engineConfiguration,
            clock: monotonicNanoseconds,
            sessionID: sessionName,
            sessionToken: randomToken
        )
        // Sessions saved by the last clean stop can be resumed (the file is read once, then removed).
        state?.load(into: engine, logger: logger)
        let shutdown = ShutdownTrigger()
        let life =
            exitWithParent
            ? ParentLife(onStop: {
                logger.notice("the process that started this daemon ended and no connection is open: stopping")
                shutdown.trigger()
            }) : nil
        let server = BridgeService(
            listener: listener,
            engine: engine,
            connection: .init(
                drainTimeout: .milliseconds(Int64(shutdownTimeout * 1000)),
                recordDirectory: record,
                observerBufferBytes: observerBuffer,
                parseAhead: ParseAheadPool(helpers: parseThreads),
                longRequests: longRequests
            ),
            logger: logger,
            onListening: { path in
                // One unbuffered write: whoever waits on stdout (a test, a script) sees the line at once.
                let line = Array("bridged listening on \(path)\n".utf8)
                _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                logger.info("listening", metadata: ["socket": "\(path)", "pid": "\(getpid())"])
                Systemd.notify("READY=1\nSTATUS=listening on \(path)\nMAINPID=\(getpid())")
            },
            life: life
        )
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: server)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                cancellationSignals: [],
                logger: logger
            )
        )
        shutdown.set(group)
        if let life {
            ParentLife.watchStandardInput {
                if life.connections > 0 {
                    logger.notice(
                        "the process that started this daemon ended: stopping once no connection is open",
                        metadata: ["connections": "\(life.connections)"]
                    )
                }
                life.parentEnd()
            }
        }
        try await group.run()
        if life?.stopped == true {
            // Its parent is gone, and so is whoever would resume its sessions: nothing is saved (a file left would
            // hand stale sessions, and their tokens, to the next daemon on this socket).
            logger.info("stopped; sessions not saved (--exit-with-parent)")
            return
        }
        // Every connection is closed: their sessions wait to be resumed by clients of the next daemon.
        state?.save(from: engine, logger: logger)
        Systemd.notify("STOPPING=1")
        logger.info("stopped")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Triggers the graceful shutdown of the service group (as SIGTERM does) from any thread; a trigger before the
/// group is known is delivered once it is.
final class ShutdownTrigger: Sendable {
    private let state = Mutex<(group: ServiceGroup?, triggered: Bool)>((nil, false))

    func set(_ group: ServiceGroup) {
        let triggered = state.withLock { state -> Bool in
            state.group = group
            return state.triggered
        }
        if triggered { Task { await group.triggerGracefulShutdown() } }
    }

    func trigger() {
        let group = state.withLock { state -> ServiceGroup? in
            state.triggered = true
            return state.group
        }
        if let group { Task { await group.triggerGracefulShutdown() } }
    }
}
