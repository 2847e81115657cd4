import CYoga
import PropStore
import Synchronization

/// A session's layout: a Yoga node per view, its style mirrored from the view's typed props, laid out after each
/// request that changed the tree, as RCTUIManager lays its shadow views out after each batch.
///
/// The tree is derived, never authoritative: an op marks what it changed (``styleChanged(_:)``,
/// ``childrenChanged(_:)``, ``removed(_:)``), and the next ``layOut(emit:)`` brings those nodes back in line with
/// the views as they are then (a rolled-back request's marks re-read the restored values, and change nothing), and
/// runs Yoga from each root. Yoga lays out again only what is dirty, and only nodes it laid out are read back.
///
/// How React Native 0.72 sets its shadow views up (`RCTShadowView.m`, `RCTRootShadowView.m`,
/// `RCTModalHostShadowView.m`, `RCTBaseTextShadowView.m`), and so this tree:
/// - one Yoga config: legacy stretch behaviour on, no web defaults (so `flexShrink` is 0 and `flexDirection`
///   `column` by default), and frames rounded to the pixel grid of the window's scale (the point scale factor) as
///   Yoga's `YGRoundToPixelGrid` rounds them, but only for the nodes read back (``read(_:emit:)``): Yoga's own
///   rounding walks the whole tree on every pass, half of a one-row change's cost on a 1,000-row list;
/// - a root (a view with no parent) has the window's size; so has each child of a presented `Modal`
///   (`RCTModalHostView`), laid out as a root of its own at the window's origin;
/// - a text (`RCTText`) and a text input are leaves measured by a function; the views inside a text
///   (`RCTRawText`, `RCTVirtualText`) have no node (``TextMeasure``);
/// - a scroll view is laid out by Yoga as its `overflow: 'scroll'` says: its content unbounded along its axis.
final class ShadowTree {
    let yoga: YogaLibrary
    private let config: cyoga_config_ref
    private(set) var window: LayoutWindow

    /// A view's node and what was last read of it.
    final class Node {
        let view: ViewProxy
        let ref: cyoga_node_ref
        let kind: Kind
        /// The layout props last applied, by index in View's props.
        var style = LayoutStyle.Values()
        /// Whether the node has the window's size as a root (a style override of its own width and height).
        var isRoot = false
        /// The frame last read, relative to its parent; nil before its first layout.
        var frame: Frame?
        /// The pass that last synced its style, its children: a view marked twice is synced once.
        var styledIn = 0
        var childrenSyncedIn = 0

        init(view: ViewProxy, ref: cyoga_node_ref, kind: Kind) {
            self.view = view
            self.ref = ref
            self.kind = kind
        }
    }

    enum Kind {
        case view
        /// Measured (``TextMeasure``); no children in Yoga.
        case text, textInput
        /// Its children are roots of their own (a presented modal).
        case modal
        /// Inside a text: no node.
        case inText

        init(component: String) {
            switch component {
            case "RCTText": self = .text
            case "RCTRawText", "RCTVirtualText": self = .inText
            case "RCTSinglelineTextInputView", "RCTMultilineTextInputView": self = .textInput
            case "RCTModalHostView": self = .modal
            default: self = .view
            }
        }
    }

    private var nodes: [ObjectIdentifier: Node] = [:]
    /// The roots: views with no parent, and each child of a presented modal.
    private(set) var roots: [ObjectIdentifier: Node] = [:]
    /// The views marked since the last pass, in order, perhaps more than once (``Node/styledIn`` dedupes).
    private var dirtyStyle: [ViewProxy] = []
    private var dirtyChildren: [ViewProxy] = []
    /// The pass being run, counted from 1.
    private var generation = 0
    /// The props a text's measure reads, by component.
    private var textProps: [ObjectIdentifier: TextMeasure.Props] = [:]
    private var removedViews: [ViewProxy] = []

    /// Whether anything was marked since the last layout.
    var isDirty: Bool { !dirtyStyle.isEmpty || !dirtyChildren.isEmpty || !removedViews.isEmpty }

    init(yoga: YogaLibrary, window: LayoutWindow) {
        self.yoga = yoga
        self.window = window
        config = yoga.lock.withLock { _ in
            // YGConfigNew aborts rather than return NULL.
            let config = yoga.api.ConfigNew()!
            // No rounding by Yoga (it would walk the whole tree each pass): ``read(_:emit:)`` rounds what it reads.
            yoga.api.ConfigSetPointScaleFactor(config, 0)
            yoga.api.ConfigSetUseLegacyStretchBehaviour(config, true)
            yoga.api.ConfigSetUseWebDefaults(config, false)
            return config
        }
    }

    deinit {
        yoga.lock.withLock { _ in
            for node in nodes.values { free(node) }
            yoga.api.ConfigFree(config)
        }
    }

    /// Every view of `views` is to be laid out (a session turning layout on): each is marked.
    func adopt(_ views: [ViewProxy]) {
        for view in views {
            styleChanged(view)
            childrenChanged(view)
        }
    }

    /// A new window: the roots take its size.
    func resize(to window: LayoutWindow) {
        // Texts are measured anew for another font scale or pixel grid.
        if window.fontScale != self.window.fontScale || window.scale != self.window.scale {
            for node in nodes.values where node.kind == .text || node.kind == .textInput { styleChanged(node.view) }
        }
        // A safe-area view's padding is the window's insets.
        if window.insets != self.window.insets {
            for node in nodes.values where node.view.type.name == Self.safeAreaView { styleChanged(node.view) }
        }
        self.window = window
        for node in roots.values { applyRootSize(node) }
    }

    private static let safeAreaView = "RCTSafeAreaView"

    /// A view's layout style as its shadow view sets it: its layout props, and for `RCTSafeAreaView` the window's
    /// safe-area insets as its padding, in place of its style's (RCTSafeAreaShadowView's `setSafeAreaInsets`; the
    /// view is taken to cover the window's edges, as a screen's SafeAreaView does).
    private func style(of view: ViewProxy) -> LayoutStyle.Values {
        var style = LayoutStyle.values(of: view)
        guard view.type.name == Self.safeAreaView else { return style }
        let insets = window.insets
        let padding = [insets.top, insets.right, insets.bottom, insets.left]
        for (index, inset) in zip(LayoutStyle.safeAreaPaddingIndices, padding) { style[index] = .double(inset) }
        return style
    }

    // MARK: - What changed

    /// `view` is new or its props changed.
    func styleChanged(_ view: ViewProxy) { dirtyStyle.append(view) }

    /// `view`'s children changed (a mount inserts a parent's children one by one: it is marked once).
    func childrenChanged(_ view: ViewProxy) {
        if dirtyChildren.last !== view { dirtyChildren.append(view) }
    }

    /// `subtree` was deleted (its root's former parent is marked by the caller).
    func removed(_ subtree: [ViewProxy]) { removedViews += subtree }

    // MARK: - Frames

    /// `view`'s frame relative to its parent, as of the last layout; nil when it has no node or was not laid out.
    func frame(of view: ViewProxy) -> Frame? { nodes[ObjectIdentifier(view)]?.frame }

    /// `view`'s node, if it has one.
    func nodeOf(_ view: ViewProxy) -> Node? { nodes[ObjectIdentifier(view)] }

    /// `view`'s frame in the window: its frame offset by its ancestors' and moved by the offsets of the scroll views
    /// it is in, as `measureInWindow` answers (a modal's content starts at the window's origin).
    func frameInWindow(of view: ViewProxy) -> Frame? {
        guard var frame = frame(of: view) else { return nil }
        var current = view
        while let parent = current.parent, Kind(component: parent.type.name) != .modal,
            let parentFrame = self.frame(of: parent)
        {
            frame.x += parentFrame.x
            frame.y += parentFrame.y
            if let offset = (parent.props as? ScrollViewProps)?.contentOffset {
                frame.x -= offset.x
                frame.y -= offset.y
            }
            current = parent
        }
        return frame
    }

    /// Every laid-out view with its frame in the window (``frameInWindow(of:)``), by tag.
    func framesInWindow() -> [(view: ViewProxy, frame: Frame)] {
        var frames: [(view: ViewProxy, frame: Frame)] = []
        frames.reserveCapacity(nodes.count)
        for node in nodes.values where node.view.isMounted {
            if let frame = frameInWindow(of: node.view) { frames.append((node.view, frame)) }
        }
        frames.sort { $0.view.tag < $1.view.tag }
        return frames
    }

    // MARK: - A deferred pass

    /// How many marks a deferred pass lets pile up before it drops the repeated ones and those of deleted views.
    private var marksBound = 1_024

    /// The request's pass is deferred (``Session/layoutIsDeferred``): what it marked waits for the next pass, but
    /// the nodes of deleted views are freed now, and the marks stay bounded (each view once, deleted ones dropped,
    /// once they outgrow twice what was left the last time), so that a session that never reads a frame holds no
    /// more than its live views.
    func deferPass() {
        if !removedViews.isEmpty { yoga.lock.withLock { _ in freeRemoved() } }
        guard dirtyStyle.count + dirtyChildren.count > marksBound else { return }
        func compacted(_ marks: [ViewProxy]) -> [ViewProxy] {
            var seen = Set<ObjectIdentifier>()
            seen.reserveCapacity(marks.count)
            return marks.filter { $0.isMounted && seen.insert(ObjectIdentifier($0)).inserted }
        }
        dirtyStyle = compacted(dirtyStyle)
        dirtyChildren = compacted(dirtyChildren)
        marksBound = max(1_024, 2 * (dirtyStyle.count + dirtyChildren.count))
    }

    /// Frees the nodes of the views deleted since the last pass (a view that came back, its request rolled back,
    /// keeps its node).
    private func freeRemoved() {
        for view in removedViews where !view.isMounted {
            if let node = nodes.removeValue(forKey: ObjectIdentifier(view)) {
                roots[ObjectIdentifier(view)] = nil
                free(node)
            }
        }
        removedViews.removeAll()
    }

    // MARK: - The pass

    /// Brings the marked nodes in line with their views, lays out every root, and calls `emit` for each view
    /// whose frame changed (with its new frame), parents before children.
    func layOut(emit: (ViewProxy, Frame) -> Void) {
        let api = yoga.api
        freeRemoved()
        generation += 1
        var texts: [ObjectIdentifier: Node] = [:]
        // A mount makes a node for most of the views marked: room for them at once, not by doubling.
        if dirtyStyle.count > 64 { nodes.reserveCapacity(nodes.count + dirtyStyle.count) }
        for view in dirtyStyle where view.isMounted {
            let existing = nodes[ObjectIdentifier(view)]
            guard let node = existing ?? makeNode(for: view) else {
                if let text = textRoot(of: view) { texts[ObjectIdentifier(text.view)] = text }
                continue
            }
            // A node made now has its style already; one marked twice is synced once.
            if existing != nil && node.styledIn != generation {
                node.styledIn = generation
                let style = style(of: view)
                if style != node.style {
                    for entry in style.entries where node.style[entry.index] != entry.value {
                        LayoutStyle.apply(entry.index, entry.value, to: node.ref, api)
                    }
                    for entry in node.style.entries where style[entry.index] == nil {
                        LayoutStyle.apply(entry.index, nil, to: node.ref, api)
                    }
                    node.style = style
                    if node.isRoot { applyRootSize(node) }
                }
            }
            if node.kind == .text || node.kind == .textInput { texts[ObjectIdentifier(view)] = node }
            if view.parent == nil { makeRoot(node, true) }
        }
        dirtyStyle.removeAll(keepingCapacity: dirtyStyle.count < 4_096)
        for view in dirtyChildren where view.isMounted {
            guard let node = node(for: view) else {
                if let text = textRoot(of: view) { texts[ObjectIdentifier(text.view)] = text }
                continue
            }
            guard node.childrenSyncedIn != generation else { continue }
            node.childrenSyncedIn = generation
            syncChildren(of: node, texts: &texts)
        }
        dirtyChildren.removeAll(keepingCapacity: dirtyChildren.count < 4_096)
        for text in texts.values {
            let key = ObjectIdentifier(text.view.type)
            let props = textProps[key] ?? TextMeasure.Props(text.view.type)
            textProps[key] = props
            TextMeasure.update(text, props: props, window: window)
            api.NodeMarkDirty(text.ref)
        }
        // Roots that are no longer roots (placed under a view since).
        for (key, node) in roots where !isRoot(node.view) || !node.view.isMounted {
            roots[key] = nil
            if node.view.isMounted { makeRoot(node, false) }
        }
        for node in roots.values {
            api.NodeCalculateLayout(node.ref, .nan, .nan, 1)
            read(node, emit: emit)
        }
    }

    /// Reads the frames Yoga computed anew under `root`, rounded to the window's pixel grid, emitting those that
    /// changed.
    ///
    /// The rounding is `YGRoundToPixelGrid`'s (Yoga.cpp), node by node from the unrounded absolute position of its
    /// parent: the origin rounded, the size the difference of the rounded far and near edges (no node is of Yoga's
    /// text type, so nothing is forced up or down). A node Yoga did not lay out again keeps the frame last read.
    private func read(_ root: Node, emit: (ViewProxy, Frame) -> Void) {
        let api = yoga.api
        let scale = window.scale
        let round = ShadowTree.roundToPixelGrid
        var stack = scratchStack
        scratchStack = []
        stack.removeAll(keepingCapacity: true)
        stack.append((root.ref, 0, 0))
        while let (ref, parentLeft, parentTop) = stack.popLast() {
            guard api.NodeGetHasNewLayout(ref) else { continue }
            api.NodeSetHasNewLayout(ref, false)
            guard let context = api.NodeGetContext(ref) else { continue }
            let left = Double(api.NodeLayoutGetLeft(ref))
            let top = Double(api.NodeLayoutGetTop(ref))
            let absoluteLeft = parentLeft + left
            let absoluteTop = parentTop + top
            let width = round(absoluteLeft + Double(api.NodeLayoutGetWidth(ref)), scale) - round(absoluteLeft, scale)
            let height = round(absoluteTop + Double(api.NodeLayoutGetHeight(ref)), scale) - round(absoluteTop, scale)
            let frame = Frame(
                x: Double(round(left, scale)),
                y: Double(round(top, scale)),
                width: Double(width),
                height: Double(height)
            )
            // Unretained: the tree holds every node it laid out (a retain and a release per node, atomic, on every
            // pass otherwise).
            Unmanaged<Node>.fromOpaque(context)._withUnsafeGuaranteedRef { node in
                if node.frame != frame {
                    node.frame = frame
                    emit(node.view, frame)
                }
            }
            var index = api.NodeGetChildCount(ref)
            while index > 0 {
                index -= 1
                if let child = api.NodeGetChild(ref, index) { stack.append((child, absoluteLeft, absoluteTop)) }
            }
        }
        scratchStack = stack
    }

    /// `YGRoundValueToPixelGrid(value, scale, false, false)` (Yoga.cpp), its `fmod` written as `value - floor(value)`
    /// (the same for the values a frame takes): to the nearest pixel, a half up, within Yoga's 0.0001.
    @inline(__always)
    static func roundToPixelGrid(_ value: Double, _ scale: Double) -> Float {
        var scaled = value * scale
        let fraction = scaled - scaled.rounded(.down)
        if abs(fraction) < 0.0001 {
            scaled -= fraction
        } else if abs(fraction - 1) < 0.0001 {
            scaled = scaled - fraction + 1
        } else {
            scaled = scaled - fraction + (fraction > 0.5 || abs(fraction - 0.5) < 0.0001 ? 1 : 0)
        }
        return scaled.isNaN || scale.isNaN ? .nan : Float(scaled / scale)
    }

    /// The walk's stack, kept between passes.
    private var scratchStack: [(cyoga_node_ref, Double, Double)] = []

    // MARK: - Nodes

    /// `view`'s node, made now if it has none; nil for a view inside a text.
    private func node(for view: ViewProxy) -> Node? {
        if let node = nodes[ObjectIdentifier(view)] { return node }
        return makeNode(for: view)
    }

    /// A new node for `view`, which has none; nil for a view inside a text.
    private func makeNode(for view: ViewProxy) -> Node? {
        let kind = self.kind(of: view.type)
        if kind == .inText { return nil }
        if let parent = view.parent {
            let parentKind = self.kind(of: parent.type)
            if parentKind == .text || parentKind == .textInput || parentKind == .inText { return nil }
        }
        guard let ref = yoga.api.NodeNewWithConfig(config) else { return nil }
        let node = Node(view: view, ref: ref, kind: kind)
        node.styledIn = generation
        yoga.api.NodeSetContext(ref, Unmanaged.passUnretained(node).toOpaque())
        if kind == .text || kind == .textInput { TextMeasure.attach(node, api: yoga.api) }
        nodes[ObjectIdentifier(view)] = node
        let style = style(of: view)
        for entry in style.entries { LayoutStyle.apply(entry.index, entry.value, to: ref, yoga.api) }
        node.style = style
        return node
    }

    /// The text (or text input) a view without a node is inside, if any.
    private func textRoot(of view: ViewProxy) -> Node? {
        var current: ViewProxy? = view
        while let candidate = current {
            if let node = nodes[ObjectIdentifier(candidate)], node.kind == .text || node.kind == .textInput {
                return node
            }
            current = candidate.parent
        }
        return nil
    }

    private func isRoot(_ view: ViewProxy) -> Bool {
        guard let parent = view.parent else { return true }
        return kind(of: parent.type) == .modal
    }

    /// The last component whose kind was asked, and its kind: a mount asks of the same few components in turn (a
    /// kind is found by comparing the component's name with five others).
    /// (Held, so that no other component can take its address.)
    private var lastKind: (type: ComponentType, kind: Kind)?

    private func kind(of type: ComponentType) -> Kind {
        if let lastKind, lastKind.type === type { return lastKind.kind }
        let kind = Kind(component: type.name)
        lastKind = (type, kind)
        return kind
    }

    /// Makes `node` a root (the window's size, laid out on its own) or takes that back.
    private func makeRoot(_ node: Node, _ root: Bool) {
        let key = ObjectIdentifier(node.view)
        if root {
            if let owner = yoga.api.NodeGetOwner(node.ref) { yoga.api.NodeRemoveChild(owner, node.ref) }
            roots[key] = node
            guard !node.isRoot else { return }
            node.isRoot = true
            applyRootSize(node)
        } else {
            roots[key] = nil
            guard node.isRoot else { return }
            node.isRoot = false
            LayoutStyle.apply(LayoutStyle.widthIndex, node.style[LayoutStyle.widthIndex], to: node.ref, yoga.api)
            LayoutStyle.apply(LayoutStyle.heightIndex, node.style[LayoutStyle.heightIndex], to: node.ref, yoga.api)
        }
    }

    private func applyRootSize(_ node: Node) {
        yoga.api.NodeStyleSetWidth(node.ref, Float(window.width))
        yoga.api.NodeStyleSetHeight(node.ref, Float(window.height))
    }

    /// Makes `node`'s Yoga children its view's children that have nodes, in order, moving as few as it can.
    private func syncChildren(of node: Node, texts: inout [ObjectIdentifier: Node]) {
        let api = yoga.api
        switch node.kind {
        case .text, .textInput:
            texts[ObjectIdentifier(node.view)] = node
            return
        case .modal:
            for child in node.view.children {
                if let childNode = self.node(for: child) { makeRoot(childNode, true) }
            }
            return
        case .inText: return
        case .view: break
        }
        var wanted: [cyoga_node_ref] = []
        wanted.reserveCapacity(node.view.children.count)
        for child in node.view.children {
            guard let childNode = self.node(for: child) else { continue }
            // A node in `roots` is a root (``makeRoot(_:_:)`` sets both): no lookup for the others.
            if childNode.isRoot { makeRoot(childNode, false) }
            wanted.append(childNode.ref)
        }
        let count = Int(api.NodeGetChildCount(node.ref))
        var current: [cyoga_node_ref] = []
        current.reserveCapacity(count)
        for index in 0..<count { if let child = api.NodeGetChild(node.ref, UInt32(index)) { current.append(child) } }
        if current == wanted { return }
        // Keep the common prefix and suffix; replace the middle.
        var prefix = 0
        while prefix < current.count && prefix < wanted.count && current[prefix] == wanted[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < current.count - prefix && suffix < wanted.count - prefix
            && current[current.count - 1 - suffix] == wanted[wanted.count - 1 - suffix]
        {
            suffix += 1
        }
        for child in current[prefix..<(current.count - suffix)] {
            api.NodeRemoveChild(node.ref, child)
            // A child no longer under any view's node is a root until it is placed again.
            if let context = api.NodeGetContext(child) {
                let childNode = Unmanaged<Node>.fromOpaque(context).takeUnretainedValue()
                if childNode.view.isMounted && childNode.view.parent == nil { makeRoot(childNode, true) }
            }
        }
        var position = UInt32(prefix)
        for child in wanted[prefix..<(wanted.count - suffix)] {
            if let owner = api.NodeGetOwner(child) { api.NodeRemoveChild(owner, child) }
            api.NodeInsertChild(node.ref, child, position)
            position += 1
        }
    }

    private func free(_ node: Node) {
        TextMeasure.detach(node)
        yoga.api.NodeSetContext(node.ref, nil)
        // YGNodeFree takes the node out of its owner without marking the owner dirty; YGNodeRemoveChild does.
        if let owner = yoga.api.NodeGetOwner(node.ref) { yoga.api.NodeRemoveChild(owner, node.ref) }
        yoga.api.NodeFree(node.ref)
    }
}

/// A frame in points: `onLayout`'s `nativeEvent.layout`.
struct Frame: Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
}

/// The window a session lays out in (`layout`'s `window`): its size in points, its scale, its safe-area insets.
struct LayoutWindow: Equatable {
    var width: Double
    var height: Double
    var scale: Double
    var insets: (top: Double, right: Double, bottom: Double, left: Double)
    /// The user's text size (iOS's content size category as React Native's `fontScale`): a text that allows font
    /// scaling is measured and drawn this much larger.
    var fontScale = 1.0

    static func == (a: Self, b: Self) -> Bool {
        a.width == b.width && a.height == b.height && a.scale == b.scale && a.insets == b.insets
            && a.fontScale == b.fontScale
    }
}
