import Observation

/// How big an `ActivityIndicator` is.
public enum ActivityIndicatorSize: String, CaseIterable, Sendable, StringEnumProp {
    case small, large
}

/// Props of `RCTActivityIndicatorView`.
@Observable
public final class ActivityIndicatorProps: PassThroughProps {
    /// `true` by default, as `ActivityIndicator.js` sends it (the codegen spec says `false`, but the component
    /// always sets it).
    public var animating = true
    public var hidesWhenStopped = true
    public var size = ActivityIndicatorSize.small
    public var passThrough: [String: PropValue] = [:]
    public init() {}
}

/// `RCTActivityIndicatorView`: React Native's `ActivityIndicator` (`ActivityIndicatorViewNativeComponent.js`).
public enum ReactNativeActivityIndicator: Component, ViewConfigTable {
    public static let name = "RCTActivityIndicatorView"

    public static let props: [Prop<ActivityIndicatorProps>] =
        [
            .prop("hidesWhenStopped", \.hidesWhenStopped),
            .prop("animating", \.animating),
        ]
        + Prop.passThrough(color("color"))
        + [.enumeration("size", \.size)]

    /// `ActivityIndicator animating`, or `ActivityIndicator stopped` (then ` hidden` when it hides when stopped),
    /// then ` large`.
    public static func render(_ props: ActivityIndicatorProps) -> String {
        "ActivityIndicator"
            + (props.animating ? " animating" : " stopped" + (props.hidesWhenStopped ? " hidden" : ""))
            + (props.size == .large ? " large" : "")
    }
}
