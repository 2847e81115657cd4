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
struct BatchUndo {
    typealias Step = () -> Void

    private enum Entry {
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
        if depth == 0 { forget() }
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
        steps.removeAll(keepingCapacity: true)
        touched.removeAll(keepingCapacity: true)
    }
}
