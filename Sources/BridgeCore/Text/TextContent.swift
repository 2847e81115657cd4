import PropStore
import Synchronization

/// A text as React Native's iOS text shadow views build their attributed string (`RCTBaseTextShadowView`): the raw
/// texts under an `RCTText`, each with the attributes of the spans (`RCTVirtualText`) around it, a span's own
/// attributes over its parent's.
struct TextContent: Hashable, Sendable {
    var spans: [TextSpan] = []
    /// `textAlign`: `auto`, `left`, `right`, `center`, `justify`.
    var textAlign = "auto"
    /// `numberOfLines`, 0 for any.
    var numberOfLines = 0
    /// `ellipsizeMode`: `head`, `middle`, `tail`, `clip`.
    var ellipsizeMode = "tail"
    /// A text input: one line at least, even when empty.
    var isInput = false
    /// The window's `fontScale`, applied to the spans that allow font scaling.
    var fontScale = 1.0

    var isEmpty: Bool { spans.allSatisfy { $0.text.isEmpty } }
}

/// A run of text with its attributes.
struct TextSpan: Hashable, Sendable {
    var text: String
    var style: TextStyle
}

/// A span's text attributes; nil where neither it nor a span around it sets one.
struct TextStyle: Hashable, Sendable {
    var fontSize: Double?
    var fontWeight: Int?
    var italic: Bool?
    var fontFamily: String?
    var letterSpacing: Double?
    var lineHeight: Double?
    /// `0xAARRGGBB`.
    var color: UInt32?
    var textDecorationLine: String?
    var allowFontScaling: Bool?

    /// React Native's default `fontSize`.
    static let defaultFontSize = 14.0

    /// This style over `parent`'s.
    func over(_ parent: TextStyle) -> TextStyle {
        TextStyle(
            fontSize: fontSize ?? parent.fontSize,
            fontWeight: fontWeight ?? parent.fontWeight,
            italic: italic ?? parent.italic,
            fontFamily: fontFamily ?? parent.fontFamily,
            letterSpacing: letterSpacing ?? parent.letterSpacing,
            lineHeight: lineHeight ?? parent.lineHeight,
            color: color ?? parent.color,
            textDecorationLine: textDecorationLine ?? parent.textDecorationLine,
            allowFontScaling: allowFontScaling ?? parent.allowFontScaling
        )
    }

    /// `fontWeight` as React Native takes it: `normal`, `bold`, `100`…`900`, or a number.
    static func weight(_ value: PropValue) -> Int? {
        func named(_ text: String) -> Int? {
            switch text {
            case "normal": 400
            case "bold": 700
            default: Int(text).map { min(1000, max(1, $0)) }
            }
        }
        switch value {
        case .string(let text): return named(text)
        case .json(.string(let text)): return named(text)
        case .json(.int(let number)): return Int(min(1000, max(1, number)))
        case .json(.double(let number)) where number.isFinite: return Int(min(1000, max(1, number)))
        case .int(let number): return min(1000, max(1, number))
        case .double(let number) where number.isFinite: return Int(min(1000, max(1, number)))
        default: return nil
        }
    }
}

extension TextContent {
    /// The prop descriptors a text's content reads, found once per component: a class, so that handing it around
    /// retains one object, not its twenty descriptors.
    final class Props: Sendable {
        /// A prop of the text's style, and where it lives: its index in the View props a ``SparseProps`` holds
        /// (``ViewProxy/inheritedProps``) when the component inherits it from View, as text components inherit
        /// `fontSize`, `color`…; then ``TextContent/style(of:_:)`` reads the view's View props once for all of them.
        struct Slot: Sendable {
            let descriptor: ComponentType.PropDescriptor
            let inheritedIndex: Int?

            init?(_ descriptor: ComponentType.PropDescriptor?) {
                guard let descriptor else { return nil }
                self.descriptor = descriptor
                inheritedIndex =
                    descriptor.isInherited ? ReactNativeView.props.firstIndex { $0.name == descriptor.name } : nil
            }
        }

        let fontSize, fontWeight, fontStyle, fontFamily, letterSpacing, lineHeight, color, decoration: Slot?
        let allowFontScaling, textAlign, numberOfLines, ellipsizeMode: ComponentType.PropDescriptor?
        /// A text input's text, else its value; its placeholder.
        let texts: [ComponentType.PropDescriptor]
        let placeholder, placeholderColor: ComponentType.PropDescriptor?
        let rawText: ComponentType.PropDescriptor?
        /// Whether the component is a text input (``ShadowTree/Kind``).
        let isTextInput: Bool

        init(_ type: ComponentType) {
            fontSize = Slot(type.prop(named: "fontSize"))
            fontWeight = Slot(type.prop(named: "fontWeight"))
            fontStyle = Slot(type.prop(named: "fontStyle"))
            fontFamily = Slot(type.prop(named: "fontFamily"))
            letterSpacing = Slot(type.prop(named: "letterSpacing"))
            lineHeight = Slot(type.prop(named: "lineHeight"))
            color = Slot(type.prop(named: "color"))
            decoration = Slot(type.prop(named: "textDecorationLine"))
            allowFontScaling = type.prop(named: "allowFontScaling")
            textAlign = type.prop(named: "textAlign")
            numberOfLines = type.prop(named: "numberOfLines")
            ellipsizeMode = type.prop(named: "ellipsizeMode")
            texts = ["text", "value"].compactMap { type.prop(named: $0) }
            placeholder = type.prop(named: "placeholder")
            placeholderColor = type.prop(named: "placeholderTextColor")
            rawText = type.name == ReactNativeRawText.name ? type.props.first : nil
            isTextInput = ShadowTree.Kind(component: type.name) == .textInput
        }

        /// The props of `type`, from a cache shared by the sessions (a component's descriptors never change).
        static func of(_ type: ComponentType) -> Props {
            let key = ObjectIdentifier(type)
            if let found = cache.withLock({ $0[key] }) { return found }
            let props = Props(type)
            cache.withLock { $0[key] = props }
            return props
        }

        private static let cache = Mutex<[ObjectIdentifier: Props]>([:])
    }

    /// The content of a text (`RCTText`) or a text input `view`, with its subtree's spans. `placeholder`: a text
    /// input with no text shows (and measures) its placeholder.
    init(of view: ViewProxy, fontScale: Double = 1, props given: Props? = nil) {
        self.fontScale = fontScale
        let props = given ?? Props.of(view.type)
        let style = TextContent.style(of: view, props)
        if case .string(let align)? = props.textAlign.map({ view.value(of: $0) }) { textAlign = align }
        switch props.numberOfLines.map({ view.value(of: $0) }) {
        case .int(let lines)?: numberOfLines = max(0, lines)
        case .double(let lines)? where lines.isFinite: numberOfLines = max(0, Int(lines))
        default: break
        }
        if case .string(let mode)? = props.ellipsizeMode.map({ view.value(of: $0) }) { ellipsizeMode = mode }
        if props.isTextInput {
            isInput = true
            numberOfLines = view.type.name == "RCTSinglelineTextInputView" ? 1 : numberOfLines
            for prop in props.texts {
                if case .string(let text) = view.value(of: prop), !text.isEmpty {
                    spans = [TextSpan(text: text, style: style)]
                    return
                }
            }
            if let prop = props.placeholder, case .string(let text) = view.value(of: prop), !text.isEmpty {
                var placeholderStyle = style
                // UITextField's placeholder grey, unless the app gives one.
                placeholderStyle.color = 0xFFC7_C7CD
                if let colorProp = props.placeholderColor, case .color(let color) = view.value(of: colorProp) {
                    placeholderStyle.color = color.argb
                }
                spans = [TextSpan(text: text, style: placeholderStyle)]
            }
            return
        }
        collect(view.children, style)
    }

    private mutating func collect(_ children: [ViewProxy], _ style: TextStyle) {
        // The children of a text are mostly of one component (its raw texts): its props found once for a run of it.
        var last: (type: ComponentType, props: Props)?
        for child in children {
            let props: Props
            if let last, last.type === child.type {
                props = last.props
            } else {
                props = Props.of(child.type)
                last = (child.type, props)
            }
            if let raw = props.rawText {
                if case .string(let text) = child.value(of: raw), !text.isEmpty {
                    spans.append(TextSpan(text: text, style: style))
                }
            } else {
                collect(child.children, TextContent.style(of: child, props).over(style))
            }
        }
    }

    /// The attributes `view` sets itself.
    static func style(of view: ViewProxy, _ props: Props) -> TextStyle {
        var style = TextStyle()
        // The View props the text holds, read once (each read of an @Observable property goes through its registrar,
        // and a descriptor's through a closure): the style attributes a text inherits are found in them by index.
        let inherited = view.inheritedProps?.values
        func value(_ slot: Props.Slot?) -> PropValue? {
            guard let slot else { return nil }
            guard let index = slot.inheritedIndex else { return view.value(of: slot.descriptor) }
            return inherited?[index] ?? slot.descriptor.defaultValue
        }
        func number(_ slot: Props.Slot?) -> Double? {
            switch value(slot) {
            case .double(let n)? where n.isFinite: n
            case .float(let n)? where n.isFinite: Double(n)
            case .int(let n)?: Double(n)
            default: nil
            }
        }
        if let size = number(props.fontSize), size > 0 { style.fontSize = size }
        if let weight = value(props.fontWeight) { style.fontWeight = TextStyle.weight(weight) }
        if case .string(let italic)? = value(props.fontStyle) { style.italic = italic == "italic" }
        if case .string(let family)? = value(props.fontFamily), !family.isEmpty { style.fontFamily = family }
        style.letterSpacing = number(props.letterSpacing)
        if let height = number(props.lineHeight), height > 0 { style.lineHeight = height }
        if case .color(let color)? = value(props.color) { style.color = color.argb }
        if case .string(let line)? = value(props.decoration) { style.textDecorationLine = line }
        if case .bool(let allow)? = props.allowFontScaling.map({ view.value(of: $0) }) {
            style.allowFontScaling = allow
        }
        return style
    }
}
