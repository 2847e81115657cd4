import Observation

/// Whether a view and its subviews can be the target of touches (React Native's `pointerEvents`).
public enum PointerEvents: String, CaseIterable, Sendable, StringEnumProp {
    case auto
    case none
    case boxNone = "box-none"
    case boxOnly = "box-only"
}

/// Props of `View`, a plain container: the subset of React Native's view props that bridged keeps, which
/// codegen components with `ReactNativeCoreViewProps` get too.
@Observable
public final class ContainerProps: ViewProps {
    public var testID = ""
    public var nativeID = ""
    public var accessible = false
    public var accessibilityLabel = ""
    public var accessibilityHint = ""
    public var accessibilityRole = ""
    public var pointerEvents = PointerEvents.auto
    public var opacity: Float = 1
    public var backgroundColor: Color?
    public var hitSlop: EdgeInsets?
    public init() {}
}

/// `View`: a plain container that other views are arranged in and that can listen for bubbling events.
public enum ViewComponent: Component {
    public static let name = "View"
    public static let props: [Prop<ContainerProps>] = [
        .prop("testID", \.testID),
        .prop("nativeID", \.nativeID),
        .prop("accessible", \.accessible),
        .prop("accessibilityLabel", \.accessibilityLabel),
        .prop("accessibilityHint", \.accessibilityHint),
        .prop("accessibilityRole", \.accessibilityRole),
        .enumeration("pointerEvents", \.pointerEvents),
        .prop("opacity", \.opacity),
        .prop("backgroundColor", \.backgroundColor),
        .prop("hitSlop", \.hitSlop),
    ]

    public static func render(_ props: ContainerProps) -> String {
        props.testID.isEmpty ? "View" : "View #\(props.testID)"
    }
}
