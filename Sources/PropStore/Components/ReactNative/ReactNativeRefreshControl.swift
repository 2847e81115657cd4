import Observation

/// Props of `RCTRefreshControl`.
@Observable
public final class RefreshControlProps: PassThroughProps {
    public var refreshing = false
    public var passThrough: [String: PropValue] = [:]
    public init() {}
}

/// `RCTRefreshControl`: React Native's `RefreshControl` on iOS (`PullToRefreshViewNativeComponent.js`). RN
/// command `setNativeRefreshing(refreshing)`; native input `pullToRefresh()`: the user pulls, refreshing turns
/// on natively and `refresh` is emitted (not while already refreshing).
public enum ReactNativeRefreshControl: Component, ViewConfigTable {
    public static let name = "RCTRefreshControl"

    public static let props: [Prop<RefreshControlProps>] =
        Prop.passThrough(
            color("tintColor", "titleColor") + string("title")
                + [field("progressViewOffset", .float, .float(0))]
        ) + [.prop("refreshing", \.refreshing)]

    public static let events: [EventSpec] = [.direct("refresh", payload: [])]

    public static let commands: [Command<RefreshControlProps>] = [
        Command("setNativeRefreshing", params: [CommandParam("refreshing", .bool)]) { ctx in
            ctx.set(\.refreshing, ctx.bool(0))
        },
        Command("pullToRefresh", emits: ["refresh"]) { ctx in
            guard !ctx.props.refreshing else { return }
            ctx.set(\.refreshing, true)
            ctx.emit("refresh")
        },
    ]

    /// `RefreshControl refreshing` or `RefreshControl`.
    public static func render(_ props: RefreshControlProps) -> String {
        props.refreshing ? "RefreshControl refreshing" : "RefreshControl"
    }
}
