import CYoga
import PropStore

/// React Native's layout style props, as RCTShadowView hands them to Yoga (`RCTShadowView.m`'s setters, with
/// `RCTConvert.m`'s `YGFlexDirection`, `YGJustify`, `YGAlign`… tables): which of View's props
/// (``ReactNativeView/props``, flattened from `style` by React Native's renderer) sets what on a node.
///
/// A view's layout style is the values of these props it holds (``values(of:)``, by prop index); applying it sets
/// each on its Yoga node and resets those it no longer holds, so a node always mirrors its view's props.
enum LayoutStyle {
    /// What a prop sets on a Yoga node.
    enum Key {
        case direction, flexDirection, justifyContent, alignContent, alignItems, alignSelf, position, flexWrap
        case overflow, display, flex, flexGrow, flexShrink, flexBasis, aspectRatio
        case width, height, minWidth, minHeight, maxWidth, maxHeight
        /// `left`, `top`… with Yoga's edge.
        case inset(Int32)
        case margin(Int32)
        case padding(Int32)
        case border(Int32)
        case gap(Int32)
    }

    // Yoga's YGEdge values.
    static let left: Int32 = 0, top: Int32 = 1, right: Int32 = 2, bottom: Int32 = 3, start: Int32 = 4
    static let end: Int32 = 5, horizontal: Int32 = 6, vertical: Int32 = 7, all: Int32 = 8

    /// Each layout prop's key, by its name in View's props.
    static let keysByName: [String: Key] = {
        var keys: [String: Key] = [
            "direction": .direction, "flexDirection": .flexDirection, "justifyContent": .justifyContent,
            "alignContent": .alignContent, "alignItems": .alignItems, "alignSelf": .alignSelf, "position": .position,
            "flexWrap": .flexWrap, "overflow": .overflow, "display": .display, "flex": .flex, "flexGrow": .flexGrow,
            "flexShrink": .flexShrink, "flexBasis": .flexBasis, "aspectRatio": .aspectRatio, "width": .width,
            "height": .height, "minWidth": .minWidth, "minHeight": .minHeight, "maxWidth": .maxWidth,
            "maxHeight": .maxHeight, "left": .inset(left), "top": .inset(top), "right": .inset(right),
            "bottom": .inset(bottom), "start": .inset(start), "end": .inset(end),
            "gap": .gap(2), "rowGap": .gap(1), "columnGap": .gap(0),
        ]
        // RCTShadowView's edges, and the logical names React Native 0.72's style takes for them.
        let edges: [(String, Int32)] = [
            ("", all), ("Horizontal", horizontal), ("Vertical", vertical), ("Start", start), ("End", end),
            ("Left", left), ("Right", right), ("Top", top), ("Bottom", bottom), ("Block", vertical),
            ("BlockStart", top), ("BlockEnd", bottom), ("Inline", horizontal), ("InlineStart", start),
            ("InlineEnd", end),
        ]
        for (suffix, edge) in edges {
            keys["margin" + suffix] = .margin(edge)
            keys["padding" + suffix] = .padding(edge)
        }
        for (name, edge) in [("", all), ("Start", start), ("End", end), ("Left", left), ("Right", right)]
            + [("Top", top), ("Bottom", bottom)]
        {
            keys["border\(name)Width"] = .border(edge)
        }
        return keys
    }()

    /// The key of each of View's props that is one, by the prop's index in ``ReactNativeView/props`` (the index a
    /// ``SparseProps`` stores it by).
    static let keysByIndex: [Key?] = ReactNativeView.props.map { keysByName[$0.name] }

    static let widthIndex = ReactNativeView.props.firstIndex { $0.name == "width" }!
    static let heightIndex = ReactNativeView.props.firstIndex { $0.name == "height" }!
    /// `paddingTop`, `paddingRight`, `paddingBottom`, `paddingLeft`: what a safe-area view's insets set.
    static let safeAreaPaddingIndices = ["paddingTop", "paddingRight", "paddingBottom", "paddingLeft"].map { name in
        ReactNativeView.props.firstIndex { $0.name == name }!
    }

    /// A view's layout props that hold a value, in index order: a handful of entries, found by a scan (no hashing,
    /// one allocation), as a 1,000-row mount makes one for each of its thousands of views.
    struct Values: Equatable {
        struct Entry: Equatable {
            let index: Int
            var value: PropValue
        }

        fileprivate(set) var entries: [Entry] = []

        var isEmpty: Bool { entries.isEmpty }

        /// The value at `index`, nil when the view holds none; setting nil removes it.
        subscript(index: Int) -> PropValue? {
            get {
                for entry in entries where entry.index == index { return entry.value }
                return nil
            }
            set {
                var position = 0
                while position < entries.count && entries[position].index < index { position += 1 }
                if position < entries.count && entries[position].index == index {
                    if let newValue { entries[position].value = newValue } else { entries.remove(at: position) }
                } else if let newValue {
                    entries.insert(Entry(index: index, value: newValue), at: position)
                }
            }
        }

        /// Appends an entry, keeping index order (an insertion sort: the entries come from a dictionary).
        fileprivate mutating func insert(_ index: Int, _ value: PropValue) {
            entries.append(Entry(index: index, value: value))
            var position = entries.count - 1
            while position > 0 && entries[position - 1].index > index {
                entries.swapAt(position - 1, position)
                position -= 1
            }
        }
    }

    /// The layout props `view` holds (those different from their defaults), by index.
    static func values(of view: ViewProxy) -> Values {
        let sparse: SparseProps?
        if view.type === ReactNativeView.type {
            // The type's props object is a SparseProps (ReactNativeView's makeProps).
            sparse = unsafeDowncast(view.props, to: SparseProps.self)
        } else if view.type.name == ReactNativeView.name {
            sparse = view.props as? SparseProps
        } else {
            sparse = view.inheritedProps
        }
        guard let sparse else { return Values() }
        // Read once: each read of an @Observable property goes through its registrar.
        let held = sparse.values
        var values = Values()
        values.entries.reserveCapacity(held.count)
        for (index, value) in held where keysByIndex[index] != nil { values.insert(index, value) }
        return values
    }

    /// Sets `value` (nil: the default) of the prop at `index` on `node`.
    static func apply(_ index: Int, _ value: PropValue?, to node: cyoga_node_ref, _ api: cyoga_api) {
        guard let key = keysByIndex[index] else { return }
        let text: String? = if case .string(let string)? = value { string } else { nil }
        switch key {
        case .direction:
            api.NodeStyleSetDirection(node, enumValue(text, directions, 0))
        case .flexDirection:
            api.NodeStyleSetFlexDirection(node, enumValue(text, flexDirections, 0))
        case .justifyContent: api.NodeStyleSetJustifyContent(node, enumValue(text, justifications, 0))
        case .alignContent: api.NodeStyleSetAlignContent(node, align(text, default: 1))
        case .alignItems: api.NodeStyleSetAlignItems(node, align(text, default: 4))
        case .alignSelf: api.NodeStyleSetAlignSelf(node, align(text, default: 0))
        case .position: api.NodeStyleSetPositionType(node, enumValue(text, positions, 1))
        case .flexWrap: api.NodeStyleSetFlexWrap(node, enumValue(text, wraps, 0))
        case .overflow: api.NodeStyleSetOverflow(node, enumValue(text, overflows, 0))
        case .display: api.NodeStyleSetDisplay(node, enumValue(text, displays, 0))
        case .flex: api.NodeStyleSetFlex(node, number(value))
        case .flexGrow: api.NodeStyleSetFlexGrow(node, number(value))
        case .flexShrink: api.NodeStyleSetFlexShrink(node, number(value))
        case .aspectRatio: api.NodeStyleSetAspectRatio(node, number(value))
        case .flexBasis:
            dimension(
                value,
                node,
                api.NodeStyleSetFlexBasis,
                api.NodeStyleSetFlexBasisPercent,
                auto: api.NodeStyleSetFlexBasisAuto
            )
        case .width:
            dimension(value, node, api.NodeStyleSetWidth, api.NodeStyleSetWidthPercent, auto: api.NodeStyleSetWidthAuto)
        case .height:
            dimension(
                value,
                node,
                api.NodeStyleSetHeight,
                api.NodeStyleSetHeightPercent,
                auto: api.NodeStyleSetHeightAuto
            )
        case .minWidth: dimension(value, node, api.NodeStyleSetMinWidth, api.NodeStyleSetMinWidthPercent)
        case .minHeight: dimension(value, node, api.NodeStyleSetMinHeight, api.NodeStyleSetMinHeightPercent)
        case .maxWidth: dimension(value, node, api.NodeStyleSetMaxWidth, api.NodeStyleSetMaxWidthPercent)
        case .maxHeight: dimension(value, node, api.NodeStyleSetMaxHeight, api.NodeStyleSetMaxHeightPercent)
        case .inset(let edge):
            switch dimensionValue(value) {
            case .percent(let p): api.NodeStyleSetPositionPercent(node, edge, p)
            case .points(let p): api.NodeStyleSetPosition(node, edge, p)
            case .auto, .undefined: api.NodeStyleSetPosition(node, edge, .nan)
            }
        case .margin(let edge):
            switch dimensionValue(value) {
            case .percent(let p): api.NodeStyleSetMarginPercent(node, edge, p)
            case .points(let p): api.NodeStyleSetMargin(node, edge, p)
            case .auto: api.NodeStyleSetMarginAuto(node, edge)
            case .undefined: api.NodeStyleSetMargin(node, edge, .nan)
            }
        case .padding(let edge):
            switch dimensionValue(value) {
            case .percent(let p): api.NodeStyleSetPaddingPercent(node, edge, p)
            case .points(let p): api.NodeStyleSetPadding(node, edge, p)
            case .auto, .undefined: api.NodeStyleSetPadding(node, edge, .nan)
            }
        case .border(let edge): api.NodeStyleSetBorder(node, edge, number(value))
        case .gap(let gutter):
            if case .points(let p) = dimensionValue(value) {
                api.NodeStyleSetGap(node, gutter, p)
            } else {
                api.NodeStyleSetGap(node, gutter, .nan)
            }
        }
    }

    // Each enum's values in Yoga's order (YGEnums.h): a value's index is its Yoga value.
    private static let directions = ["inherit", "ltr", "rtl"]
    private static let flexDirections = ["column", "column-reverse", "row", "row-reverse"]
    private static let justifications = [
        "flex-start", "center", "flex-end", "space-between", "space-around", "space-evenly",
    ]
    private static let alignments =
        ["auto", "flex-start", "center", "flex-end", "stretch", "baseline", "space-between"]
        + ["space-around"]
    private static let positions = ["static", "relative", "absolute"]
    private static let wraps = ["nowrap", "wrap", "wrap-reverse"]
    private static let overflows = ["visible", "hidden", "scroll"]
    private static let displays = ["flex", "none"]

    /// YGAlign: auto, flex-start, center, flex-end, stretch, baseline, space-between, space-around.
    private static func align(_ text: String?, default defaultValue: Int32) -> Int32 {
        enumValue(text, alignments, defaultValue)
    }

    private static func enumValue(_ text: String?, _ values: [String], _ defaultValue: Int32) -> Int32 {
        guard let text, let index = values.firstIndex(of: text) else { return defaultValue }
        return Int32(index)
    }

    /// A number prop's value; NaN (Yoga's undefined) when unset.
    private static func number(_ value: PropValue?) -> Float {
        switch value {
        case .double(let d)?: Float(d)
        case .float(let f)?: f
        case .int(let i)?: Float(i)
        case .dimension(.points(let d))?: Float(d)
        default: .nan
        }
    }

    private enum YogaValue {
        case points(Float)
        case percent(Float)
        case auto
        case undefined
    }

    private static func dimensionValue(_ value: PropValue?) -> YogaValue {
        switch value {
        case .dimension(.points(let d))?: .points(Float(d))
        case .dimension(.percent(let d))?: .percent(Float(d))
        case .dimension(.auto)?: .auto
        case .double(let d)?: .points(Float(d))
        case .int(let i)?: .points(Float(i))
        case .float(let f)?: .points(f)
        default: .undefined
        }
    }

    private static func dimension(
        _ value: PropValue?,
        _ node: cyoga_node_ref,
        _ points: (cyoga_node_ref, Float) -> Void,
        _ percent: (cyoga_node_ref, Float) -> Void,
        auto: ((cyoga_node_ref) -> Void)? = nil
    ) {
        switch dimensionValue(value) {
        case .points(let p): points(node, p)
        case .percent(let p): percent(node, p)
        case .auto:
            if let auto { auto(node) } else { points(node, .nan) }
        case .undefined:
            if let auto { auto(node) } else { points(node, .nan) }
        }
    }
}
