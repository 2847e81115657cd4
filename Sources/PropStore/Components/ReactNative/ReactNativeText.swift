import Observation

/// Props of `RCTText` and `RCTVirtualText`: React Native's `Text` props that its native side keeps (its style
/// attributes, `color`, `fontSize`…, are View's, which every component inherits).
@Observable
public final class TextProps: ViewProps {
    public var numberOfLines: Int32 = 0
    public var ellipsizeMode = EllipsizeMode.tail
    public var selectable = false
    public var allowFontScaling = true
    public var adjustsFontSizeToFit = false
    public var minimumFontScale: Float = 0
    public var isHighlighted = false
    public var isPressable = false
    public var disabled = false
    public var selectionColor: Color? = nil
    public var maxFontSizeMultiplier = 0.0
    public var dynamicTypeRamp = DynamicTypeRamp.body
    public var textBreakStrategy = TextBreakStrategy.highQuality
    public var dataDetectorType = DataDetectorType.none
    public var android_hyphenationFrequency = HyphenationFrequency.none
    public var lineBreakStrategyIOS = LineBreakStrategy.none
    public init() {}
}

/// `dynamicTypeRamp`: the iOS text style a `Text` scales with.
public enum DynamicTypeRamp: String, CaseIterable, Sendable, StringEnumProp {
    case caption2, caption1, footnote, subheadline, callout, body, headline, title3, title2, title1, largeTitle
}

/// `textBreakStrategy` (Android's, accepted on every platform as React Native sends it).
public enum TextBreakStrategy: String, CaseIterable, Sendable, StringEnumProp {
    case simple, highQuality, balanced
}

/// `dataDetectorType`: what a selectable `Text` links.
public enum DataDetectorType: String, CaseIterable, Sendable, StringEnumProp {
    case phoneNumber, link, email, none, all
}

/// `android_hyphenationFrequency`.
public enum HyphenationFrequency: String, CaseIterable, Sendable, StringEnumProp {
    case none, normal, full
}

/// `lineBreakStrategyIOS`.
public enum LineBreakStrategy: String, CaseIterable, Sendable, StringEnumProp {
    case none, standard
    case hangulWord = "hangul-word"
    case pushOut = "push-out"
}

/// Where a `Text` cut to `numberOfLines` is truncated.
public enum EllipsizeMode: String, CaseIterable, Sendable, StringEnumProp {
    case head, middle, tail, clip
}

private let textProps: [Prop<TextProps>] = [
    .prop("numberOfLines", \.numberOfLines),
    .enumeration("ellipsizeMode", \.ellipsizeMode),
    .prop("selectable", \.selectable),
    .prop("allowFontScaling", \.allowFontScaling),
    .prop("adjustsFontSizeToFit", \.adjustsFontSizeToFit),
    .prop("minimumFontScale", \.minimumFontScale),
    // The rest of React Native 0.72's TextNativeComponent.js validAttributes for RCTText (RCTVirtualText's are a
    // subset: isHighlighted, isPressable, maxFontSizeMultiplier).
    .prop("isHighlighted", \.isHighlighted),
    .prop("isPressable", \.isPressable),
    .prop("disabled", \.disabled),
    .prop("selectionColor", \.selectionColor),
    .prop("maxFontSizeMultiplier", \.maxFontSizeMultiplier),
    .enumeration("dynamicTypeRamp", \.dynamicTypeRamp),
    .enumeration("textBreakStrategy", \.textBreakStrategy),
    .enumeration("dataDetectorType", \.dataDetectorType),
    .enumeration("android_hyphenationFrequency", \.android_hyphenationFrequency),
    .enumeration("lineBreakStrategyIOS", \.lineBreakStrategyIOS),
]

/// `RCTText`: React Native's `Text`. Its headless render is its text content, the raw texts of its subtree in
/// order (`<Text>Pressed {count} times</Text>` renders `Pressed 3 times`).
public enum ReactNativeText: Component {
    public static let name = "RCTText"
    public static let props = textProps
    public static let rendersTextContent = true
    public static func render(_ props: TextProps) -> String { "" }
}

/// `RCTVirtualText`: a `Text` inside a `Text`, part of its parent's content; its render is its own content.
public enum ReactNativeVirtualText: Component {
    public static let name = "RCTVirtualText"
    public static let props = textProps
    public static let rendersTextContent = true
    public static func render(_ props: TextProps) -> String { "" }
}

/// Props of `RCTRawText`: one string of a `Text`'s content.
@Observable
public final class RawTextProps: ViewProps {
    public var text = ""
    public init() {}
}

/// `RCTRawText`: a string inside a `Text` (React Native creates one for each); its render is the string.
public enum ReactNativeRawText: Component {
    public static let name = "RCTRawText"
    public static let props: [Prop<RawTextProps>] = [.prop("text", \.text)]
    public static func render(_ props: RawTextProps) -> String { props.text }
}

/// The text content of a view: its raw texts, those of its nested texts, in tree order.
enum TextContent {
    @Sendable
    static func render(_ view: ViewProxy) -> String {
        var text = ""
        var stack = Array(view.children.reversed())
        while let child = stack.popLast() {
            if child.type.name == ReactNativeRawText.name, let prop = child.type.props.first {
                if case .string(let string) = child.value(of: prop) { text += string }
            } else if child.type.contentRender != nil {
                stack.append(contentsOf: child.children.reversed())
            }
        }
        return text
    }
}
