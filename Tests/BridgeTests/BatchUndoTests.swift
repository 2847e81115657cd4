import PropStore
import Testing

@testable import BridgeCore

/// A batch's undo on its own: what a rollback restores and in which order, what a commit forgets, empty and
/// nested batches, and the render state of the views a batch changed.
@Suite("BatchUndo")
struct BatchUndoTests {
    let type = ComponentType(SwiftUIButton.self)
    var count: ComponentType.PropDescriptor { type.prop(named: "count")! }

    /// Sets `count` inside the batch the way an op does: notes the view, changes it, records the undo.
    func set(_ view: ViewProxy, count value: Int, in undo: inout BatchUndo) {
        let prop = count
        let old = view.value(of: prop)
        undo.note(view)
        view.setValue(.int(value), of: prop)
        undo.record { view.setValue(old, of: prop) }
    }

    /// A rendered view: nothing to render until a prop changes.
    func renderedView(_ tag: Int = 1) -> ViewProxy {
        let view = ViewProxy(tag: tag, type: type)
        view.renderIfNeeded()
        return view
    }

    @Test func rollBackRunsTheStepsNewestFirst() {
        var undo = BatchUndo()
        var ran: [Int] = []
        undo.begin()
        for step in 1...3 { undo.record { ran.append(step) } }
        undo.rollBack()
        #expect(ran == [3, 2, 1])
        #expect(!undo.isActive)
        #expect(undo.count == 0)
    }

    @Test func rollBackRestoresTheValueBeforeTheBatch() {
        let view = renderedView()
        var undo = BatchUndo()
        undo.begin()
        set(view, count: 2, in: &undo)
        set(view, count: 3, in: &undo)
        #expect(view.value(of: count) == .int(3))
        undo.rollBack()
        // Oldest first would leave the value the first change made (2).
        #expect(view.value(of: count) == .int(0))
    }

    @Test func aViewCleanBeforeTheBatchIsCleanAfterItsRollBackWithoutARender() {
        let view = renderedView()
        var undo = BatchUndo()
        undo.begin()
        set(view, count: 5, in: &undo)
        // Noted again once it needs a render: what counts is how it was when first noted.
        set(view, count: 6, in: &undo)
        #expect(view.needsRender)
        undo.rollBack()
        #expect(!view.needsRender)
        #expect(view.renders == 1, "the render after a rollback is not counted")
        #expect(view.render == #"Button "" count=0"#)
    }

    @Test func aViewThatNeededARenderBeforeStillNeedsOne() {
        let view = ViewProxy(tag: 1, type: type)
        var undo = BatchUndo()
        undo.begin()
        set(view, count: 5, in: &undo)
        undo.rollBack()
        #expect(view.needsRender)
        #expect(view.renders == 0)
        #expect(view.value(of: count) == .int(0))
    }

    @Test func anUnmountedViewIsNotRendered() {
        let view = renderedView()
        var undo = BatchUndo()
        undo.begin()
        set(view, count: 5, in: &undo)
        view.isMounted = false
        undo.rollBack()
        #expect(view.needsRender)
        #expect(view.render == #"Button "" count=0"#, "as it last rendered")
    }

    @Test func aViewNotedWithItsStateBeforeAChange() {
        let view = renderedView()
        var undo = BatchUndo()
        undo.begin()
        // As a command does: it has changed the view already, and says whether it needed a render before.
        view.setValue(.int(9), of: count)
        undo.note(view, neededRender: false)
        let prop = count
        undo.record(contentsOf: [{ view.setValue(.int(0), of: prop) }])
        undo.rollBack()
        #expect(!view.needsRender)
        #expect(view.value(of: count) == .int(0))
    }

    @Test func commitKeepsTheChangesAndForgetsTheSteps() {
        let view = renderedView()
        var undo = BatchUndo()
        undo.begin()
        set(view, count: 4, in: &undo)
        #expect(undo.count == 1)
        undo.commit()
        #expect(!undo.isActive)
        #expect(undo.count == 0)
        // A failure after the commit (a later request) has nothing of this batch to undo.
        undo.rollBack()
        #expect(view.value(of: count) == .int(4))
        #expect(view.needsRender, "a committed change is rendered when looked at")
    }

    @Test func anEmptyBatchCommitsAndRollsBackToNothing() {
        var undo = BatchUndo()
        #expect(!undo.isActive)
        undo.begin()
        #expect(undo.isActive)
        undo.commit()
        #expect(!undo.isActive)
        undo.begin()
        undo.rollBack()
        #expect(!undo.isActive)
        #expect(undo.count == 0)
    }

    @Test func noteOutsideABatchRecordsNothing() {
        let view = renderedView()
        var undo = BatchUndo()
        undo.note(view)
        view.setValue(.int(1), of: count)
        undo.rollBack()
        #expect(view.needsRender, "nothing was noted, so nothing is re-rendered")
        #expect(view.value(of: count) == .int(1))
    }

    @Test func aNestedBatchJoinsTheOuterOne() {
        var undo = BatchUndo()
        var ran: [String] = []
        undo.begin()
        undo.record { ran.append("outer") }
        undo.begin()
        undo.record { ran.append("inner") }
        undo.commit()
        #expect(undo.isActive, "the outer batch is still open")
        #expect(undo.count == 2, "the inner batch's change is final only with the outer one")
        undo.rollBack()
        #expect(ran == ["inner", "outer"])
        #expect(!undo.isActive)
    }

    @Test func nestedCommitsCloseEveryBatch() {
        var undo = BatchUndo()
        var ran: [String] = []
        undo.begin()
        undo.begin()
        undo.record { ran.append("inner") }
        undo.commit()
        undo.commit()
        #expect(!undo.isActive)
        undo.rollBack()
        #expect(ran.isEmpty)
    }

    @Test func aBatchAfterARollBackStartsEmpty() {
        var undo = BatchUndo()
        var ran: [Int] = []
        undo.begin()
        undo.record { ran.append(1) }
        undo.rollBack()
        undo.begin()
        undo.record { ran.append(2) }
        undo.rollBack()
        #expect(ran == [1, 2])
    }

    /// An object only a batch's first step holds.
    final class Held {}

    /// Commits a batch of `steps` steps whose first holds a new object; returns a weak reference to that object.
    func commitBatch(of steps: Int, in undo: inout BatchUndo) -> () -> Held? {
        weak var held: Held?
        do {
            let object = Held()
            held = object
            undo.begin()
            undo.record { _ = object }
            for _ in 1..<steps { undo.record {} }
        }
        undo.commit()
        return { held }
    }

    @Test func aLargeBatchsStepsWaitToBeFreedUntilTaken() {
        var undo = BatchUndo()
        let held = commitBatch(of: BatchUndo.retiringSteps, in: &undo)
        #expect(!undo.isActive)
        #expect(undo.count == 0, "a new batch starts with no steps")
        #expect(undo.retiredCount == BatchUndo.retiringSteps)
        #expect(held() != nil, "the committed batch's steps are not freed at its commit")
        let retired = undo.takeRetired()
        #expect(retired?.count == BatchUndo.retiringSteps)
        #expect(undo.takeRetired() == nil, "taken once")
        _ = consume retired
        #expect(held() == nil, "freed with what was taken")
    }

    @Test func aSmallBatchsStepsAreFreedAtItsCommit() {
        var undo = BatchUndo()
        let held = commitBatch(of: 1, in: &undo)
        #expect(held() == nil)
        #expect(undo.retiredCount == 0)
        #expect(undo.takeRetired() == nil)
    }

    @Test func theNextBatchFreesWhatNoOneTook() {
        var undo = BatchUndo()
        let held = commitBatch(of: BatchUndo.retiringSteps, in: &undo)
        #expect(held() != nil)
        undo.begin()
        undo.record {}
        undo.commit()
        #expect(held() == nil, "at most one batch's steps wait")
        // And a rollback of a batch after a large one frees them too, running only its own steps.
        var ran = 0
        undo.begin()
        undo.record { ran += 1 }
        for _ in 1..<BatchUndo.retiringSteps { undo.record {} }
        undo.commit()
        #expect(undo.retiredCount == BatchUndo.retiringSteps)
        undo.begin()
        undo.rollBack()
        #expect(ran == 0, "a retired step is never run")
        #expect(undo.retiredCount == 0)
    }
}
