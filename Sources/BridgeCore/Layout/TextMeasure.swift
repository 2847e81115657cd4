import CYoga
import PropStore
import Synchronization

/// How a text's size is measured for Yoga: today a crude, font-free approximation, the seam where real text
/// measurement (Pango, issue 44 item 4) goes.
///
/// A text (`RCTText`) or text input is a leaf with Yoga's measure function, as `RCTBaseTextShadowView` and
/// `RCTBaseTextInputShadowView` are. Until fonts are measured, every character advances `0.5 × fontSize` (plus
/// `letterSpacing`), lines break at the width offered with no regard to words, and a line is `lineHeight` high,
/// else `1.2 × fontSize` (React Native's default `fontSize` is 14). A text input measures one line of its `text`
/// (or placeholder), at least one line high. This is not what a phone measures: frames of texts, and of what
/// their size moves, are approximate; everything else is Yoga's.
enum TextMeasure {
    /// What the measure function reads of a text: taken from the views when the text changed (``update(_:)``).
    struct Metrics: Sendable {
        var characters = 0
        var fontSize = 14.0
        var lineHeight = 0.0
        var letterSpacing = 0.0
        var numberOfLines = 0
        var isInput = false
    }

    /// The metrics of each measured node, by its address: Yoga's callback has only the node, and the session that
    /// owns it is laying out on this thread while it runs.
    private static let metrics = Mutex<[UInt: Metrics]>([:])

    static func attach(_ node: ShadowTree.Node, api: cyoga_api) {
        metrics.withLock { $0[UInt(bitPattern: node.ref)] = Metrics(isInput: node.kind == .textInput) }
        api.NodeSetMeasureFunc(node.ref, measure)
    }

    static func detach(_ node: ShadowTree.Node) {
        guard node.kind == .text || node.kind == .textInput else { return }
        _ = metrics.withLock { $0.removeValue(forKey: UInt(bitPattern: node.ref)) }
    }

    /// The props a text's measure reads, found once per component.
    struct Props {
        let fontSize, lineHeight, letterSpacing, numberOfLines: ComponentType.PropDescriptor?
        /// A text input's text, else its value, else its placeholder.
        let texts: [ComponentType.PropDescriptor]

        init(_ type: ComponentType) {
            fontSize = type.prop(named: "fontSize")
            lineHeight = type.prop(named: "lineHeight")
            letterSpacing = type.prop(named: "letterSpacing")
            numberOfLines = type.prop(named: "numberOfLines")
            texts = ["text", "value", "placeholder"].compactMap { type.prop(named: $0) }
        }
    }

    /// Reads `node`'s text and text style from its view and its subtree (`props`: its component's).
    static func update(_ node: ShadowTree.Node, props: Props) {
        let view = node.view
        var measured = Metrics(isInput: node.kind == .textInput)
        func value(_ prop: ComponentType.PropDescriptor?) -> PropValue? { prop.map { view.value(of: $0) } }
        if case .double(let size)? = value(props.fontSize), size > 0 { measured.fontSize = size }
        if case .double(let height)? = value(props.lineHeight), height > 0 { measured.lineHeight = height }
        if case .double(let spacing)? = value(props.letterSpacing) { measured.letterSpacing = spacing }
        switch value(props.numberOfLines) {
        case .int(let lines)?: measured.numberOfLines = max(0, lines)
        case .double(let lines)?: measured.numberOfLines = max(0, Int(lines))
        default: break
        }
        if node.kind == .textInput {
            for prop in props.texts {
                if case .string(let text) = view.value(of: prop), !text.isEmpty {
                    measured.characters = text.count
                    break
                }
            }
        } else {
            measured.characters = content(of: view).count
        }
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

    /// The size of a text of `metrics` offered `width` (NaN: any).
    static func size(_ metrics: Metrics, width: Float, widthMode: Int32, height: Float, heightMode: Int32) -> cyoga_size
    {
        let lineHeight = metrics.lineHeight > 0 ? metrics.lineHeight : (metrics.fontSize * 1.2).rounded(.up)
        let advance = max(0, metrics.fontSize * 0.5 + metrics.letterSpacing)
        let natural = Double(metrics.characters) * advance
        var lines = metrics.characters == 0 && !metrics.isInput ? 0 : 1
        var measuredWidth = natural
        // YGMeasureModeUndefined is 0.
        if widthMode != 0, !width.isNaN, natural > Double(width), width > 0 {
            measuredWidth = Double(width)
            if !metrics.isInput { lines = Int((natural / Double(width)).rounded(.up)) }
        }
        if metrics.numberOfLines > 0 { lines = min(lines, metrics.numberOfLines) }
        var measuredHeight = Double(lines) * lineHeight
        // YGMeasureModeAtMost is 2.
        if heightMode == 2, !height.isNaN { measuredHeight = min(measuredHeight, Double(height)) }
        if widthMode == 1, !width.isNaN { measuredWidth = Double(width) }
        if heightMode == 1, !height.isNaN { measuredHeight = Double(height) }
        return cyoga_size(width: Float(measuredWidth), height: Float(measuredHeight))
    }

    /// Yoga's measure function for a text node.
    private static let measure: cyoga_measure_func = { node, width, widthMode, height, heightMode in
        let found = TextMeasure.metrics.withLock { $0[UInt(bitPattern: node)] } ?? Metrics()
        return TextMeasure.size(found, width: width, widthMode: widthMode, height: height, heightMode: heightMode)
    }
}
