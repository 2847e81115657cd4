import PropStore

extension ShadowTree {
    /// What a touch at a point of the window reaches: the view, and the point in its own coordinates.
    struct Hit {
        let view: ViewProxy
        let x: Double
        let y: Double
    }

    /// The view a finger at (`x`, `y`) in the window touches, as UIKit finds it with React Native's `RCTView`
    /// `hitTest:withEvent:` (`RCTView.m`): the windows top-most first (a presented modal's content above the
    /// screen, a later one above an earlier one), in each the deepest view whose frame holds the point, later
    /// siblings and higher `zIndex` first. A view with `display: 'none'`, or an `opacity` under 0.01, takes no
    /// touch, nor do its subviews; `pointerEvents` `none` takes none, `box-none` only through its subviews,
    /// `box-only` only itself; `overflow: 'hidden'` (and every scroll view) clips its subviews' touches to its
    /// bounds; `hitSlop` grows the area a view itself takes; a scroll view's content moves by its offset.
    /// Nil when nothing takes the touch there.
    func hitTest(x: Double, y: Double) -> Hit? {
        let ordered = roots.values.sorted { a, b in
            let aModal = a.view.parent != nil
            let bModal = b.view.parent != nil
            return aModal != bModal ? aModal : a.view.tag > b.view.tag
        }
        for root in ordered {
            guard let frame = root.frame else { continue }
            if let hit = hitTest(root, x: x - frame.x, y: y - frame.y) { return hit }
        }
        return nil
    }

    /// `RCTView`'s hitTest for `node`, the point in its parent's coordinates shifted to its own (`x`, `y`).
    private func hitTest(_ node: Node, x: Double, y: Double) -> Hit? {
        let view = node.view
        guard let frame = node.frame else { return nil }
        let style = HitStyle(view)
        if style.hidden { return nil }
        let slop = style.hitSlop
        let inside =
            x >= -slop.left && y >= -slop.top && x < frame.width + slop.right && y < frame.height + slop.bottom
        var hitSubview: Hit?
        let needsSubviews = style.pointerEvents != "none" && style.pointerEvents != "box-only"
        if needsSubviews && (!style.clips || inside) && node.kind != .text && node.kind != .textInput {
            // A scroll view's content is where its offset puts it.
            let offset = (view.props as? ScrollViewProps)?.contentOffset ?? Point()
            let children = view.children.compactMap { nodeOf($0) }
            let sorted = children.enumerated().sorted { a, b in
                let za = HitStyle.zIndex(a.element.view)
                let zb = HitStyle.zIndex(b.element.view)
                return za != zb ? za < zb : a.offset < b.offset
            }
            for (_, child) in sorted.reversed() {
                guard let childFrame = child.frame else { continue }
                if let hit = hitTest(child, x: x + offset.x - childFrame.x, y: y + offset.y - childFrame.y) {
                    hitSubview = hit
                    break
                }
            }
        }
        let hitSelf = inside ? Hit(view: view, x: x, y: y) : nil
        switch style.pointerEvents {
        case "none": return nil
        case "box-only": return hitSelf
        case "box-none": return hitSubview
        default: return hitSubview ?? hitSelf
        }
    }
}

/// What hit-testing reads of a view's props.
private struct HitStyle {
    var pointerEvents = "auto"
    var clips = false
    var hidden = false
    var hitSlop = (top: 0.0, left: 0.0, bottom: 0.0, right: 0.0)

    init(_ view: ViewProxy) {
        let type = view.type
        if case .string(let events)? = HitStyle.value(view, "pointerEvents") { pointerEvents = events }
        if case .string(let overflow)? = HitStyle.value(view, "overflow") { clips = overflow != "visible" }
        // UIScrollView clips to its bounds.
        if type.name == "RCTScrollView" { clips = true }
        if case .string("none")? = HitStyle.value(view, "display") { hidden = true }
        if case .double(let opacity)? = HitStyle.value(view, "opacity"), opacity < 0.01 { hidden = true }
        switch HitStyle.value(view, "hitSlop") {
        case .json(.int(let n))?: hitSlop = (Double(n), Double(n), Double(n), Double(n))
        case .json(.double(let n))?: hitSlop = (n, n, n, n)
        case .json(.object(let members))?:
            func edge(_ name: String) -> Double {
                switch members.first(where: { $0.name == name })?.value {
                case .int(let n)?: Double(n)
                case .double(let n)?: n
                default: 0
                }
            }
            hitSlop = (edge("top"), edge("left"), edge("bottom"), edge("right"))
        default: break
        }
    }

    static func value(_ view: ViewProxy, _ name: String) -> PropValue? {
        guard let prop = view.type.prop(named: name) else { return nil }
        return view.value(of: prop)
    }

    static func zIndex(_ view: ViewProxy) -> Double {
        switch value(view, "zIndex") {
        case .double(let z)?: z
        case .int(let z)?: Double(z)
        default: 0
        }
    }
}
