import PropStore
import Synchronization

/// The bridge: the registered components, the limits, and the sessions opened on it.
///
/// Pure: no sockets, clocks, random ids or random tokens; the daemon passes them in. The daemon (or a test, or
/// `bridged replay`) opens a ``Session`` per client and feeds it lines.
public final class Engine: Sendable {
    /// Limits that protect the process; exceeding one is `limit_exceeded`.
    public struct Configuration: Sendable {
        /// The `server` of the hello result.
        public var server: String = "bridged/\(Engine.version)"
        public var maxViewsPerSession: Int = 2_000_000
        public var maxOpsPerBatch: Int = 100_000
        /// The longest request line the daemon reads (`--max-frame-bytes`, the socket's framing, not the engine's):
        /// hello reports it (`maxFrameBytes`), so that a client sends a longer batch in parts.
        public var maxFrameBytes: Int = 1 << 20
        /// The most bytes of lines a batch sent in parts (`more`) may hold before its last part; more is
        /// `limit_exceeded`, and the parts are dropped.
        public var maxBatchBytes: Int = 64 << 20
        /// Whether a batch's parts run as they come, where no one sees them until the last part (``StagedBatch``),
        /// or are held unapplied until then. Either way every answer is the same (the fuzz target checks it).
        public var appliesBatchPartsAhead = true
        /// Unacked event frames kept per session for a resume; past that the oldest go (`overflow`).
        public var eventBuffer: Int = 10_000
        /// Bytes of unacked event frames kept per session for a resume; past that the oldest go (`overflow`).
        public var eventBufferBytes: Int = 16 << 20
        /// The most bytes one request may write (its event frames and its response); more is `limit_exceeded`,
        /// with nothing applied.
        public var maxRequestOutputBytes: Int = 32 << 20
        /// The most sessions the engine keeps (connected, or detached and waiting for a resume). At the cap a
        /// hello evicts the session detached longest, or is `limit_exceeded` when every session is connected.
        public var maxSessions: Int = 10_000
        /// How long a session outlives its connection, waiting to be resumed, in nanoseconds (0: not at all).
        public var sessionTTL: UInt64 = 60_000_000_000
        /// How many ids of expired sessions are remembered, to answer `expired` rather than `unknown_session`.
        public var expiredMemory: Int = 10_000
        /// Nesting depth, array length and `mixed` size limits of prop values, payloads and arguments.
        public var propLimits = PropLimits.standard
        /// Where a session a hello evicts is ended when it has ``largeSessionViews`` views or more (freeing them
        /// takes about a microsecond each): the daemon passes a thread of its own, so that the hello is answered
        /// at once; `nil`: on the caller's thread.
        public var endLargeSession: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
        /// From how many views an evicted session is ended by ``endLargeSession``.
        public var largeSessionViews: Int = 1_000
        /// Where the text system is readied when a session first turns its layout on (``TextLayout/prepare()``:
        /// fontconfig, Pango, the default font, 5–9 ms), so that its first layout pass with a text finds it done:
        /// the daemon passes a thread of its own; `nil`: the first text measured readies it.
        public var prepareAside: (@Sendable (@escaping @Sendable () -> Void) -> Void)?

        public init() {}
    }

    public static let version = "0.1.0"
    public static let protocolVersion = 1

    public let registry: ComponentRegistry
    public let configuration: Configuration
    /// The hello result's `components`, encoded once.
    let componentsJSON: [UInt8]
    /// The descriptions of the components that ``ComponentRegistry/builtin`` does not have as they are (those of
    /// codegen schemas, your own), or `nil` when there are none: what recordings carry so that they replay with
    /// no flag (``SessionRecord/meta(_:components:)``).
    public let describedComponentsJSON: [UInt8]?
    /// What `define` made for fresh sessions, by schema (``DefineCache``).
    let defineCache = DefineCache()
    private let openSessions = Atomic<Int>(0)
    private let liveViews = Atomic<Int>(0)
    private let interrupted = Atomic<Bool>(false)
    /// Whether a session turned its layout on, the text system then readied aside (``prepareTextAside()``).
    private let textPrepared = Atomic<Bool>(false)
    /// The sessions by id. **Lock order: the table, then a gate.** The table's lock may be held while a
    /// session's ``Session/gate`` is taken only where that gate cannot be held by a long request (`detach` reads
    /// whether the session said hello, for the connection that drives it, which is not in a request then), never
    /// the other way round: code that holds a gate never takes the table's lock (a request is handled under its
    /// session's gate, and ``Connection`` resumes, observes and forgets a `bye`d session only after releasing it;
    /// `claim`, `observe` and `saveState` copy what they need out of the table before taking gates; `sessions`
    /// takes none). So a session busy with a long request holds up no other session's `hello`. Two gates are
    /// never held at once.
    let table = Mutex(SessionTable())
    /// The engine's clock, in nanoseconds: only session expiry reads it.
    let now: @Sendable () -> UInt64
    /// Makes the id of the n-th session of ``connect()``.
    let sessionID: @Sendable (Int) -> String
    /// Makes the resume token of the n-th session of ``connect()``.
    let sessionToken: @Sendable (Int) -> String

    /// - Parameters:
    ///   - clock: nanoseconds from any fixed origin; the daemon passes a monotonic clock. Only the expiry of
    ///     detached sessions reads it, so results never depend on it.
    ///   - sessionID: the id of the n-th session; the daemon makes ids unique across its restarts.
    ///   - sessionToken: the resume token of the n-th session, which a `hello` with `resume` must present. The
    ///     default, ``countingToken(_:)``, is predictable (for tests and replay); a server passes 128 random bits.
    public init(
        registry: ComponentRegistry = .builtin,
        configuration: Configuration = .init(),
        clock: @escaping @Sendable () -> UInt64 = { 0 },
        sessionID: @escaping @Sendable (Int) -> String = { "s\($0)" },
        sessionToken: @escaping @Sendable (Int) -> String = Engine.countingToken
    ) {
        self.registry = registry
        self.configuration = configuration
        self.componentsJSON = Engine.describe(registry.components)
        self.describedComponentsJSON = Engine.describeNonBuiltin(registry)
        self.now = clock
        self.sessionID = sessionID
        self.sessionToken = sessionToken
    }

    /// The default resume token of the n-th session: `n` as 32 hex digits. Predictable: not for a server.
    @Sendable public static func countingToken(_ n: Int) -> String {
        let hex = String(UInt(bitPattern: n), radix: 16)
        return String(repeating: "0", count: max(0, 32 - hex.count)) + hex
    }

    /// Opens a session outside the session table (tests); ``connect()`` is what a server uses. `id` and
    /// `token` are what hello reports (`token` defaults to ``countingToken(_:)`` of 0).
    public func makeSession(id: String, token: String? = nil) -> Session {
        openSessions.add(1, ordering: .relaxed)
        return Session(engine: self, id: id, token: token ?? Engine.countingToken(0))
    }

    /// Stops handling requests for good, so that a stopping daemon saves its state by its deadline: a batch in
    /// progress is undone at its next op and never answered, and no line is handled after. A single op in
    /// progress (each is linear in what it touches) ends first. Every session's state is then as of its last
    /// answered request, ready for ``saveState(socket:)``.
    public func interruptRequests() { interrupted.store(true, ordering: .releasing) }

    /// ``TextLayout/prepare()`` on ``Configuration/prepareAside``, the first time a session of this engine turns its
    /// layout on; nothing without it. A text measured meanwhile waits for it on Pango's lock and finds it done.
    func prepareTextAside() {
        guard let aside = configuration.prepareAside, !textPrepared.exchange(true, ordering: .relaxed) else { return }
        aside { TextLayout.prepare() }
    }

    /// Whether ``interruptRequests()`` was called.
    @inline(__always)
    var isInterrupted: Bool { interrupted.load(ordering: .acquiring) }

    /// Sessions opened and not yet closed.
    public var sessionCount: Int { openSessions.load(ordering: .relaxed) }

    func sessionClosed() { openSessions.subtract(1, ordering: .relaxed) }

    /// Live views of this engine's sessions. (``ViewStorage`` is static, shared by every engine of the process;
    /// this counts only this engine's.)
    public var viewCount: Int { liveViews.load(ordering: .relaxed) }

    func viewsChanged(by delta: Int) { liveViews.add(delta, ordering: .relaxed) }

    /// The `components` of the hello result: every component with the whole type of each prop, its events
    /// with their payload types and registration names, its commands with their parameters; `"untyped":true`
    /// for a component without a spec (one a session defined as untyped).
    static func describe<S: Sequence<ComponentType>>(_ components: S) -> [UInt8] {
        var w = JSONWriter()
        w.object(components, key: \.name) { w, component in
            w.raw(#"{"props":"#)
            w.object(component.props, key: \.name) { w, prop in
                w.raw("{")
                w.typeDescription(prop.type)
                w.raw(#","default":"#)
                w.propValue(prop.defaultValue)
                if !prop.isOptional { w.raw(#","optional":false"#) }
                w.raw("}")
            }
            w.raw(#","events":"#)
            w.object(component.events, key: \.name) { w, event in
                if event.bubbles {
                    w.raw(#"{"bubbles":true,"registrationNames":{"bubbled":"#)
                    w.string(event.registrationName)
                    w.raw(#","captured":"#)
                    w.string(event.captureRegistrationName)
                    w.raw("}")
                } else {
                    w.raw(#"{"bubbles":false,"registrationName":"#)
                    w.string(event.registrationName)
                }
                w.raw(#","payload":"#)
                if let payload = event.payload { w.fieldDescriptions(payload) } else { w.null() }
                w.raw("}")
            }
            w.raw(#","commands":"#)
            w.object(component.commands, key: \.name) { w, command in
                w.raw(#"{"args":"#)
                w.stringArray(command.params.map(\.type.name))
                w.raw(#","params":"#)
                w.array(command.params) { w, param in
                    w.raw(#"{"name":"#)
                    w.string(param.name)
                    w.raw(",")
                    w.typeDescription(param.type)
                    w.raw("}")
                }
                w.raw("}")
            }
            if component.isUntyped { w.raw(#","untyped":true"#) }
            w.raw("}")
        }
        return w.bytes
    }
}
