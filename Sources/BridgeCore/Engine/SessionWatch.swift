import PropStore

/// What a session keeps for those who observe it: its observers, the change frames the current request
/// owes them, its client's name and its recent log.
///
/// Observing never changes the session: none of this is part of its protocol state (its `seq`, its events,
/// its acks), of its recording or of its saved state.
struct SessionWatch: ~Copyable {
    /// The id of the session watched, which every change frame names.
    let session: String
    /// Sinks of the connections observing the session.
    var observers: [any ObserverSink] = [] {
        didSet { noteObservers() }
    }
    /// The session's own connection observes it: the change frames of each request go out before its response,
    /// in the same output, rather than through a sink (``OwnSessionObservation``).
    private(set) var observesItself = false
    /// The session's own observation takes the tree's changes alone (`observe` with `tree: true`), written into
    /// ``treeFrames`` rather than ``pending``.
    private(set) var ownTreeOnly = false
    /// Some observer takes every change frame, as ``pending`` holds them: another connection, or the session's own
    /// without `tree`. When none does, ``pending`` stays empty.
    private(set) var takesEveryFrame = false
    /// Some observer takes the `laidOut` frames: every one that takes every frame, and the session's own tree-only
    /// observation unless it said `layout: false`.
    private(set) var takesLayoutFrames = false
    /// The session's own tree-only observation takes the `laidOut` frames.
    private(set) var ownTreeTakesLayout = false
    /// The session's own tree-only observation takes a request's changes as one frame (`grouped`): ``treeFrames``
    /// holds them as the elements of its `tree` array.
    private(set) var ownTreeGrouped = false
    /// The start of a grouped frame, `{"observe":"<session>","tree":[`, written once.
    private lazy var groupedHead: [UInt8] = {
        var head = JSONWriter(capacity: 48)
        head.raw(#"{"observe":"#)
        head.string(session)
        head.raw(#","tree":["#)
        return head.bytes
    }()
    /// Change frames of the request being handled; delivered when it succeeds, dropped when it fails.
    var pending = JSONWriter(capacity: 0)
    /// The same request's frames for a tree-only own observation (``ownTreeOnly``): those that change the tree,
    /// a created view with only its props that are set (grouped: the changes, each an array, comma-separated).
    var treeFrames = JSONWriter(capacity: 0)
    /// The `client` of the session's hello.
    var client: String?
    var recent = RecentLog()

    init(session: String) { self.session = session }

    @inline(__always)
    var isObserved: Bool { !observers.isEmpty }

    /// The observers, which are no longer here (put them back by assigning ``observers``).
    mutating func takeObservers() -> [any ObserverSink] {
        var taken: [any ObserverSink] = []
        swap(&taken, &observers)
        return taken
    }

    /// Writes the frames the session's own observation is owed for the request that just succeeded into `out`.
    mutating func writeOwnFrames(to out: inout [UInt8]) {
        if ownTreeOnly {
            guard !treeFrames.isEmpty else { return }
            if ownTreeGrouped {
                out.append(contentsOf: groupedHead)
                treeFrames.write(to: &out)
                out.append(contentsOf: "]}\n".utf8)
            } else {
                treeFrames.write(to: &out)
            }
            treeFrames.removeAll()
        } else {
            pending.write(to: &out)
        }
    }

    /// Drops the frames of a request that failed.
    mutating func discardPending() {
        pending.removeAll()
        treeFrames.removeAll()
    }

    private mutating func noteObservers() {
        var own: OwnSessionObservation?
        var others = false
        for observer in observers {
            if let observer = observer as? OwnSessionObservation { own = observer } else { others = true }
        }
        observesItself = own != nil
        ownTreeOnly = own?.treeOnly == true
        takesEveryFrame = others || (own != nil && !ownTreeOnly)
        ownTreeTakesLayout = ownTreeOnly && own?.takesLayout != false
        ownTreeGrouped = ownTreeOnly && own?.grouped == true
        takesLayoutFrames = takesEveryFrame || ownTreeTakesLayout
    }
}
