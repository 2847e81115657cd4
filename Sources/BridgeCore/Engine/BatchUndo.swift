import PropStore

/// How to undo what a batch has changed so far, so that a batch whose op fails leaves nothing applied.
///
/// A batch calls ``begin()``; inside it, each change records how to undo itself (``record(_:)``) and notes the
/// view whose state it changes, before it does (``note(_:)``). ``commit()`` makes the changes final;
/// ``rollBack()`` runs the steps newest first, then leaves every noted view that had nothing to render before
/// the batch with nothing to render again, without counting a render.
///
/// Outside a batch nothing is recorded: callers test ``isActive`` first, so that a single op allocates no
/// closure. A batch begun inside another joins it: its changes are final when the outermost one commits, and
/// a rollback undoes them all. A step must not use the ``BatchUndo`` that runs it.
///
/// A prop's change, the step a batch of updates records for every prop it changes, is kept as data (the view,
/// the prop, the old value) rather than a closure, so that recording it allocates nothing.
///
/// A large batch's steps, once it commits, are not freed there but kept aside (``Retired``): freeing them (a step
/// per op, each holding its view) is a few hundred microseconds for a React Native screen's mount, which its client
/// would wait for. The daemon takes them after the request and frees them once the answer is on its way
/// (``takeRetired()``); else the next batch's commit or rollback frees them, so at most one batch's steps wait.
struct BatchUndo {
    typealias Step = () -> Void

    fileprivate enum Entry {
        /// Set `prop` of `view` back to `old`.
        case prop(ViewProxy, ComponentType.PropDescriptor, old: PropValue)
        /// Take a command out of `view`'s command log again.
        case unlog(ViewProxy, CommandLogEntry)
        case step(Step)

        func undo() {
            switch self {
            case .prop(let view, let prop, let old): view.setValue(old, of: prop)
            case .unlog(let view, let entry): view.unlogCommand(entry)
            case .step(let step): step()
            }
        }
    }

    /// How to undo each change, oldest first.
    private var steps: [Entry] = []
    /// The views noted, each with whether it needed a render when noted; a view may be noted more than once.
    private var touched: [(view: ViewProxy, neededRender: Bool)] = []
    /// How many batches are open.
    private var depth = 0
    /// The steps of the last large batch that committed, not freed yet.
    private var retired: Retired?

    /// A batch this many steps long or longer has its steps retired at its commit rather than freed.
    static let retiringSteps = 256

    /// A committed batch's undo steps, which free what they hold (views among them) when this is released: taken
    /// out of its session under the session's gate, then only released.
    struct Retired {
        fileprivate var steps: [Entry]
        fileprivate var touched: [(view: ViewProxy, neededRender: Bool)]

        /// How many undo steps it holds.
        var count: Int { steps.count }
    }

    /// How many steps of a committed batch wait to be freed (tests).
    var retiredCount: Int { retired?.count ?? 0 }

    /// Takes the steps of the last large committed batch, for the caller to free once the request is answered.
    mutating func takeRetired() -> Retired? {
        defer { retired = nil }
        return retired
    }

    /// Whether a batch is open, so that changes are to be recorded.
    @inline(__always)
    var isActive: Bool { depth > 0 }

    /// How many undo steps are recorded.
    var count: Int { steps.count }

    /// Opens a batch (or one inside the open one).
    mutating func begin() { depth += 1 }

    /// Notes that `view`'s state is about to change, so that a rollback can restore its render state.
    @inline(__always)
    mutating func note(_ view: ViewProxy) {
        if isActive { touched.append((view, view.needsRender)) }
    }

    /// Notes a view whose state has already changed, with whether it needed a render before.
    mutating func note(_ view: ViewProxy, neededRender: Bool) {
        if isActive { touched.append((view, neededRender)) }
    }

    /// Records how to undo a change. Only inside a batch.
    @inline(__always)
    mutating func record(_ step: @escaping Step) {
        precondition(isActive, "an undo step recorded outside a batch")
        steps.append(.step(step))
    }

    /// Records that `prop` of `view` was `old` before the batch changed it. Only inside a batch.
    @inline(__always)
    mutating func record(prop: ComponentType.PropDescriptor, of view: ViewProxy, old: PropValue) {
        precondition(isActive, "an undo step recorded outside a batch")
        steps.append(.prop(view, prop, old: old))
    }

    /// Records that a command was logged in `view`'s command log. Only inside a batch.
    @inline(__always)
    mutating func record(logged entry: CommandLogEntry, of view: ViewProxy) {
        precondition(isActive, "an undo step recorded outside a batch")
        steps.append(.unlog(view, entry))
    }

    /// Records the undo steps of several changes, oldest first. Only inside a batch.
    mutating func record(contentsOf more: [Step]) {
        precondition(isActive, "undo steps recorded outside a batch")
        steps.append(contentsOf: more.map(Entry.step))
    }

    /// Closes the innermost batch; when it is the outermost, its changes are final and forgotten here.
    mutating func commit() {
        precondition(isActive, "a commit without a batch")
        depth -= 1
        if depth == 0 { retire() }
    }

    /// Undoes every change of the open batches, newest first, and closes them all. Nothing renders: a view
    /// that had nothing to render when first noted, and is still mounted, is marked rendered again.
    mutating func rollBack() {
        for step in steps.reversed() { step.undo() }
        var seen = Set<ObjectIdentifier>()
        for (view, neededRender) in touched where seen.insert(ObjectIdentifier(view)).inserted {
            if !neededRender && view.isMounted { view.renderIfNeeded(counting: false) }
        }
        forget()
        depth = 0
    }

    private mutating func forget() {
        retired = nil
        steps.removeAll(keepingCapacity: true)
        touched.removeAll(keepingCapacity: true)
    }

    /// A commit's forget: a large batch's steps are retired (replacing, so freeing, those retired before).
    private mutating func retire() {
        guard steps.count >= Self.retiringSteps else {
            forget()
            return
        }
        retired = Retired(steps: steps, touched: touched)
        steps = []
        touched = []
    }
}
