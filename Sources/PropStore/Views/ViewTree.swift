/// The links between a session's views, and their rules, in one place: a view has at most one parent, its
/// children are ordered, no view is its own ancestor. Every change returns how to undo it, which a batch
/// keeps and a failed batch runs, newest first.
///
/// ``ViewProxy`` holds the links (`parent`, `children`); only this type changes them.
public enum ViewTree {
    /// How to put links back as they were before a change.
    public struct Undo {
        let steps: () -> Void
        /// Runs the undo.
        public func callAsFunction() { steps() }
    }

    /// Inserts `view`, a new root, among `parent`'s children at `index` (default: appended).
    public static func insert(_ view: ViewProxy, into parent: ViewProxy, at index: Int? = nil) -> Undo {
        parent.children.insert(view, at: index ?? parent.children.count)
        view.parent = parent
        return Undo {
            parent.children.removeAll { $0 === view }
            view.parent = nil
        }
    }

    /// Why `children` cannot become the children of `parent` (`parent` itself or one of its ancestors is
    /// among them), or `nil`: the view that would become its own ancestor.
    public static func cycle(making children: Set<Int>, childrenOf parent: ViewProxy) -> ViewProxy? {
        var ancestor: ViewProxy? = parent
        while let current = ancestor {
            if children.contains(current.tag) { return current }
            ancestor = current.parent
        }
        return nil
    }

    /// Replaces `parent`'s children with `children`, in that order. A child that had another parent moves;
    /// former children that are not in the list become roots. The caller has checked ``cycle(making:childrenOf:)``.
    public static func setChildren(_ children: [ViewProxy], of parent: ViewProxy) -> Undo {
        var oldChildren: [(ViewProxy, [ViewProxy])] = [(parent, parent.children)]
        var oldParents: [(ViewProxy, ViewProxy?)] = parent.children.map { ($0, $0.parent) }
        for child in children {
            oldParents.append((child, child.parent))
            if let former = child.parent, former !== parent { oldChildren.append((former, former.children)) }
        }
        let kept = Set(children.map(ObjectIdentifier.init))
        for old in parent.children where !kept.contains(ObjectIdentifier(old)) { old.parent = nil }
        for child in children {
            if let former = child.parent, former !== parent { former.children.removeAll { $0 === child } }
            child.parent = parent
        }
        parent.children = children
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
        for (view, _) in links {
            guard byTag.updateValue(view, forKey: view.tag) == nil else { return "tag \(view.tag) appears twice" }
        }
        var parentOf: [Int: Int] = [:]
        for (view, children) in links {
            for child in children {
                guard byTag[child] != nil, child != view.tag, parentOf.updateValue(view.tag, forKey: child) == nil else {
                    return "view \(view.tag) names child \(child), missing or already placed"
                }
            }
        }
        // Every view must reach a root by its parents within as many steps as there are views.
        for (view, _) in links {
            var node: Int? = view.tag
            var steps = 0
            while let current = node {
                node = parentOf[current]
                steps += 1
                if steps > links.count { return "the views form a cycle" }
            }
        }
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
