import PropStore
import Testing

/// The tree's rules on their own: links, moves, cycles and undo, without an engine.
@Suite("ViewTree")
struct ViewTreeTests {
    let type = ComponentType(ViewComponent.self)

    func views(_ count: Int) -> [ViewProxy] { (1...count).map { ViewProxy(tag: $0, type: type) } }

    func shape(_ view: ViewProxy) -> String {
        "\(view.tag)(" + view.children.map(shape).joined(separator: ",") + ")"
    }

    @Test func insertAndUndo() {
        let v = views(3)
        let first = ViewTree.insert(v[1], into: v[0])
        let second = ViewTree.insert(v[2], into: v[0], at: 0)
        #expect(shape(v[0]) == "1(3(),2())")
        #expect(v[2].parent === v[0])
        second()
        first()
        #expect(shape(v[0]) == "1()")
        #expect(v[1].parent == nil && v[2].parent == nil)
    }

    @Test func setChildrenMovesFormerChildrenBecomeRootsAndUndoRestores() {
        let v = views(5)
        _ = ViewTree.setChildren([v[1], v[2]], of: v[0])
        _ = ViewTree.setChildren([v[3]], of: v[1])
        // 4 moves from 2 to 1; 3 stops being a child of 1 and becomes a root.
        let undo = ViewTree.setChildren([v[3], v[1]], of: v[0])
        #expect(shape(v[0]) == "1(4(),2())")
        #expect(v[2].parent == nil)
        #expect(shape(v[1]) == "2()")
        undo()
        #expect(shape(v[0]) == "1(2(4()),3())")
        #expect(v[3].parent === v[1])
    }

    @Test func aViewsFirstChildrenAndTheirUndo() {
        // Nothing placed yet (a mount, as paper sends it): the children become the view's, and the undo leaves
        // every one of them a root again.
        let v = views(4)
        let undo = ViewTree.setChildren([v[2], v[1]], of: v[0])
        #expect(shape(v[0]) == "1(3(),2())")
        #expect(v[1].parent === v[0] && v[2].parent === v[0])
        undo()
        #expect(shape(v[0]) == "1()")
        #expect(v[1].parent == nil && v[2].parent == nil)
        // One of them already placed elsewhere: it moves, and the undo puts it back where it was.
        _ = ViewTree.setChildren([v[3]], of: v[1])
        let move = ViewTree.setChildren([v[2], v[3]], of: v[0])
        #expect(shape(v[0]) == "1(3(),4())" && shape(v[1]) == "2()")
        move()
        #expect(shape(v[0]) == "1()" && shape(v[1]) == "2(4())")
        #expect(v[3].parent === v[1] && v[2].parent == nil)
    }

    @Test func aRootCanOnlyLoopThroughItself() {
        // A view with no parent has no ancestors: only itself among its children makes a cycle.
        let v = views(3)
        _ = ViewTree.setChildren([v[1]], of: v[2])
        #expect(ViewTree.cycle(making: [v[1], v[0]], childrenOf: v[0]) === v[0])
        #expect(ViewTree.cycle(making: [v[2]], childrenOf: v[0]) == nil)
        // Placed under 3, view 1 has an ancestor: 3 among its children would loop.
        _ = ViewTree.setChildren([v[0]], of: v[2])
        #expect(ViewTree.cycle(making: [v[2]], childrenOf: v[0]) === v[2])
    }

    @Test func aViewCannotBecomeItsOwnAncestor() {
        let v = views(3)
        _ = ViewTree.setChildren([v[1]], of: v[0])
        _ = ViewTree.setChildren([v[2]], of: v[1])
        #expect(ViewTree.cycle(making: [v[0]], childrenOf: v[2])?.tag == 1)
        #expect(ViewTree.cycle(making: [v[2]], childrenOf: v[2])?.tag == 3, "a view is not its own child")
        #expect(ViewTree.cycle(making: [v[1]], childrenOf: v[0]) == nil)
        #expect(ViewTree.cycle(making: [v[2], v[1]], childrenOf: v[2])?.tag == 3)
    }

    @Test func detachAndUndoKeepThePosition() {
        let v = views(4)
        _ = ViewTree.setChildren([v[1], v[2], v[3]], of: v[0])
        #expect(ViewTree.subtree(of: v[0]).map(\.tag) == [1, 2, 3, 4])
        let undo = ViewTree.detach(v[2])
        #expect(shape(v[0]) == "1(2(),4())")
        undo()
        #expect(shape(v[0]) == "1(2(),3(),4())")
    }

    @Test func linkingASavedTreeRefusesWhatCannotBeATree() {
        #expect(ViewTree.link([(views(1)[0], [1])]) != nil, "its own child")
        let v = views(3)
        #expect(ViewTree.link([(v[0], [2]), (v[2], [2])]) != nil, "two parents")
        let w = views(2)
        #expect(ViewTree.link([(w[0], [2]), (w[1], [1])]) == "the views form a cycle")
        #expect(w[0].children.isEmpty && w[1].parent == nil, "nothing linked")
        let x = views(3)
        #expect(ViewTree.link([(x[0], [3, 2]), (x[1], []), (x[2], [])]) == nil)
        #expect(shape(x[0]) == "1(3(),2())")
    }
}
