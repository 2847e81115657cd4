import CYoga
import PropStore
import Synchronization

/// How a text's size is measured for Yoga: by Pango with the text's fonts (``TextLayout``), as
/// `RCTTextShadowView`'s measure function measures with `NSLayoutManager`.
///
/// A text (`RCTText`) or text input is a leaf with Yoga's measure function, as `RCTBaseTextShadowView` and
/// `RCTBaseTextInputShadowView` are. Its content (``TextContent``: the raw texts under it with their spans'
/// attributes) is read when the text changed (``update(_:props:window:)``); the measure lays it out in the width
/// Yoga offers and answers the used size, each side ceiled to the window's pixel grid and at most what was offered
/// (`RCTTextShadowView.m`). A text input measures one line of its text, else its placeholder, at least one line
/// high.
enum TextMeasure {
    /// What the measure function reads of a text: taken from the views when the text changed (``update(_:)``).
    struct Metrics: Sendable {
        var content = TextContent()
        /// The window's scale, whose pixel grid a size is ceiled to.
        var scale = 3.0
    }

    /// The metrics of each measured node, by its address: Yoga's callback has only the node, and the session that
    /// owns it is laying out on this thread while it runs.
    private static let metrics = Mutex<[UInt: Metrics]>([:])

    static func attach(_ node: ShadowTree.Node, api: cyoga_api) {
        var initial = Metrics()
        initial.content.isInput = node.kind == .textInput
        metrics.withLock { $0[UInt(bitPattern: node.ref)] = initial }
        api.NodeSetMeasureFunc(node.ref, measure)
    }

    static func detach(_ node: ShadowTree.Node) {
        guard node.kind == .text || node.kind == .textInput else { return }
        _ = metrics.withLock { $0.removeValue(forKey: UInt(bitPattern: node.ref)) }
    }

    /// The props a text's measure reads, found once per component (``TextContent/Props``).
    struct Props {
        let content: TextContent.Props
        init(_ type: ComponentType) { content = TextContent.Props.of(type) }
    }

    /// Reads `node`'s text and text style from its view and its subtree, for a window of `window`'s scale and
    /// font scale.
    static func update(_ node: ShadowTree.Node, props: Props, window: LayoutWindow? = nil) {
        var measured = Metrics(
            content: TextContent(of: node.view, fontScale: window?.fontScale ?? 1, props: props.content)
        )
        if let scale = window?.scale { measured.scale = scale }
        metrics.withLock { $0[UInt(bitPattern: node.ref)] = measured }
    }

    /// The raw texts under `view`, in tree order (`RCTRawText`'s `text`).
    static func content(of view: ViewProxy) -> String {
        var text = ""
        var stack = Array(view.children.reversed())
        while let child = stack.popLast() {
            if child.type.name == ReactNativeRawText.name {
                // RCTRawText's one prop is its `text`.
                if let prop = child.type.props.first, case .string(let string) = child.value(of: prop) {
                    text += string
                }
            } else {
                stack.append(contentsOf: child.children.reversed())
            }
        }
        return text
    }

    /// The size of a text of `metrics` offered `width` and `height` (NaN, or a mode of undefined: any), as
    /// `RCTTextShadowViewMeasure` answers: the used size, ceiled to the pixel grid, at most what was offered.
    static func size(_ metrics: Metrics, width: Float, widthMode: Int32, height: Float, heightMode: Int32) -> cyoga_size
    {
        // YGMeasureModeUndefined is 0.
        let maxWidth = widthMode == 0 || width.isNaN ? Double.greatestFiniteMagnitude : Double(max(0, width))
        let maxHeight = heightMode == 0 || height.isNaN ? Double.greatestFiniteMagnitude : Double(max(0, height))
        let used = TextLayout.size(metrics.content, width: maxWidth == .greatestFiniteMagnitude ? nil : maxWidth)
        var usedWidth = used.width
        // NSKern follows every character, the last one too (Pango's spacing is between characters); React Native
        // takes a negative one's last kern back out, so only a positive one counts.
        if let spacing = metrics.content.spans.last?.style.letterSpacing, spacing > 0 { usedWidth += spacing }
        let scale = metrics.scale > 0 ? metrics.scale : 1
        func ceilPixel(_ value: Double) -> Double { (value * scale - 0.0001).rounded(.up) / scale }
        let measuredWidth = min(ceilPixel(usedWidth), maxWidth)
        let measuredHeight = min(ceilPixel(used.height), maxHeight)
        // React Native adds an epsilon against Yoga's float rounding.
        return cyoga_size(width: Float(measuredWidth + 0.001), height: Float(measuredHeight + 0.001))
    }

    /// Yoga's measure function for a text node.
    private static let measure: cyoga_measure_func = { node, width, widthMode, height, heightMode in
        let found = TextMeasure.metrics.withLock { $0[UInt(bitPattern: node)] } ?? Metrics()
        return TextMeasure.size(found, width: width, widthMode: widthMode, height: height, heightMode: heightMode)
    }
}
