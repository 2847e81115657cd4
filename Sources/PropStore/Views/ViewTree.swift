import CYieldPoint
import Synchronization

/// The links between a session's views, and their rules, in one place: a view has at most one parent, its
/// children are ordered, no view is its own ancestor. Every change returns how to undo it, which a batch
/// keeps and a failed batch runs, newest first.
///
/// ``ViewProxy`` holds the links (`parent`, `children`); only this type changes them.
public enum ViewTree {
    /// Counts the steps of the tree's walks and scans (views visited, list entries compared), for a test that
    /// bounds an op's work without a clock: bound with `ViewTree.$steps.withValue(counter) { … }` around ops
    /// handled on the test's own task.
    @TaskLocal public static var steps: StepCounter?

    /// A count of steps (``steps``).
    public final class StepCounter: Sendable {
        private let value = Atomic<Int>(0)
        public init() {}
        /// The steps counted so far.
        public var count: Int { value.load(ordering: .relaxed) }
        func add(_ n: Int) { value.add(n, ordering: .relaxed) }
    }

    /// How to put links back as they were before a change.
    public struct Undo {
        let steps: () -> Void
        /// Runs the undo.
        public func callAsFunction() { steps() }
    }

    /// Inserts `view`, a new root, among `parent`'s children at `index` (default: appended).
    ///
    /// The undo takes it out at the same position: undo steps run newest first, so the children are then as
    /// this insert left them.
    public static func insert(_ view: ViewProxy, into parent: ViewProxy, at index: Int? = nil) -> Undo {
        let position = index ?? parent.children.count
        parent.children.insert(view, at: position)
        view.parent = parent
        return Undo {
            ViewTree.steps?.add(1)
            parent.children.remove(at: position)
            view.parent = nil
        }
    }

    /// Which of `children` cannot become a child of `parent` because it is `parent` itself or one of its
    /// ancestors, or `nil`.
    ///
    /// Two walks run in step, and the first to end answers: up from `parent` through its ancestors, and down
    /// through the subtrees of `children`. So the check costs at most twice the shorter of `parent`'s depth and
    /// the size of the subtrees that move: a view built into a deep chain one child at a time (a leaf each time)
    /// takes a step or two, as does a subtree moved under a root.
    public static func cycle(making children: [ViewProxy], childrenOf parent: ViewProxy) -> ViewProxy? {
        // A root has no ancestors: only itself could loop (a view given its first children before it is placed,
        // as React Native's paper renderer does with every view it mounts).
        if parent.parent == nil {
            ViewTree.steps?.add(children.count)
            return children.first { $0 === parent }
        }
        var moving = Set<ObjectIdentifier>(minimumCapacity: children.count)
        for child in children {
            if child === parent { return child }
            moving.insert(ObjectIdentifier(child))
        }
        var ancestor = parent.parent
        // Below the children: each view with the child whose subtree it is in.
        var below: [(view: ViewProxy, child: ViewProxy)] = []
        for child in children { for grandchild in child.children { below.append((grandchild, child)) } }
        var steps = 0
        defer { ViewTree.steps?.add(steps + children.count) }
        while true {
            cyield_point(1)
            guard let current = ancestor else { return nil }
            steps += 1
            if moving.contains(ObjectIdentifier(current)) { return current }
            ancestor = current.parent
            guard let (view, child) = below.popLast() else { return nil }
            steps += 1
            if view === parent { return child }
            for grandchild in view.children { below.append((grandchild, child)) }
        }
    }

    /// Replaces `parent`'s children with `children`, in that order. A child that had another parent moves;
    /// former children that are not in the list become roots. The caller has checked ``cycle(making:childrenOf:)``.
    ///
    /// Linear in the lists it changes: each former parent's children are filtered once, whatever the order and
    /// number of the children that leave it.
    public static func setChildren(_ children: [ViewProxy], of parent: ViewProxy) -> Undo {
        if parent.children.isEmpty && children.allSatisfy({ $0.parent == nil }) {
            // A view's first children, none of them placed yet (a mount): nothing moves, nothing leaves.
            for child in children {
                cyield_point(1)
                child.parent = parent
            }
            parent.children = children
            ViewTree.steps?.add(children.count)
            return Undo {
                for child in children { child.parent = nil }
                parent.children = []
            }
        }
        var oldChildren: [(ViewProxy, [ViewProxy])] = [(parent, parent.children)]
        var oldParents: [(ViewProxy, ViewProxy?)] = parent.children.map { ($0, $0.parent) }
        var moving = Set<ObjectIdentifier>(minimumCapacity: children.count)
        var formers = Set<ObjectIdentifier>()
        for child in children {
            cyield_point(1)
            moving.insert(ObjectIdentifier(child))
            oldParents.append((child, child.parent))
            if let former = child.parent, former !== parent, formers.insert(ObjectIdentifier(former)).inserted {
                oldChildren.append((former, former.children))
            }
        }
        var steps = children.count + parent.children.count
        for old in parent.children where !moving.contains(ObjectIdentifier(old)) { old.parent = nil }
        for (former, list) in oldChildren.dropFirst() {
            steps += list.count
            former.children.removeAll { moving.contains(ObjectIdentifier($0)) }
        }
        for child in children {
            cyield_point(1)
            child.parent = parent
        }
        parent.children = children
        ViewTree.steps?.add(steps)
        return Undo {
            for (view, list) in oldChildren { view.children = list }
            for (view, parent) in oldParents { view.parent = parent }
        }
    }

    /// `root` and every view below it, pre-order (the root first).
    public static func subtree(of root: ViewProxy) -> [ViewProxy] {
        var subtree: [ViewProxy] = []
        var stack = [root]
        while let view = stack.popLast() {
            cyield_point(1)
            subtree.append(view)
            stack.append(contentsOf: view.children.reversed())
        }
        return subtree
    }

    /// Takes `root` (with its subtree, which keeps its own links) out of its parent's children.
    public static func detach(_ root: ViewProxy) -> Undo {
        let parent = root.parent
        let position = parent?.children.firstIndex { $0 === root }
        if let parent, let position { parent.children.remove(at: position) }
        root.parent = nil
        return Undo {
            if let parent, let position {
                parent.children.insert(root, at: position)
                root.parent = parent
            }
        }
    }

    /// Links views loaded from a saved state: `links` gives each view's children by tag. Every child must
    /// exist, have no other parent and not be the view itself, and the views must not form a cycle;
    /// otherwise nothing is linked and the reason is returned.
    public static func link(_ links: [(view: ViewProxy, children: [Int])]) -> String? {
        var byTag: [Int: ViewProxy] = [:]
        var childrenOf: [Int: [Int]] = [:]
        for (view, children) in links {
            guard byTag.updateValue(view, forKey: view.tag) == nil else { return "tag \(view.tag) appears twice" }
            childrenOf[view.tag] = children
        }
        var parentOf: [Int: Int] = [:]
        for (view, children) in links {
            for child in children {
                guard byTag[child] != nil, child != view.tag, parentOf.updateValue(view.tag, forKey: child) == nil
                else {
                    return "view \(view.tag) names child \(child), missing or already placed"
                }
            }
        }
        // Every view must be reached from a root, going down: views on a cycle (or below one) never are.
        var reached = 0
        var stack = links.filter { parentOf[$0.view.tag] == nil }.map(\.children)
        while let children = stack.popLast() {
            reached += 1
            for child in children { stack.append(childrenOf[child]!) }
        }
        ViewTree.steps?.add(reached)
        if reached != links.count { return "the views form a cycle" }
        for (view, children) in links {
            for child in children {
                let childView = byTag[child]!
                childView.parent = view
                view.children.append(childView)
            }
        }
        return nil
    }
}
