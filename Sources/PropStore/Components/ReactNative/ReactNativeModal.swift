import Observation

/// Props of `RCTModalHostView`, plus whether it is presented.
@Observable
public final class ModalProps: PassThroughProps {
    public var visible = false
    /// Native state: presented on screen (`present()` until `dismiss()`).
    public var presented = false
    public var passThrough: [String: PropValue] = [:]
    public init() {}
}

/// `RCTModalHostView`: React Native's `Modal` on iOS (`RCTModalHostViewNativeComponent.js`).
///
/// Native input: `present()` (the JavaScript side calls it after the commit that created the modal) sets
/// presented and emits `show`; `requestClose()` (the swipe-down gesture) emits `requestClose`; `dismiss()`
/// clears presented and emits `dismiss`.
public enum ReactNativeModal: Component, ViewConfigTable {
    public static let name = "RCTModalHostView"

    private static let orientations = [
        "portrait", "portrait-upside-down", "landscape", "landscape-left", "landscape-right",
    ]

    public static let props: [Prop<ModalProps>] =
        Prop.passThrough(
            [
                oneOf("animationType", ["none", "slide", "fade"], "none"),
                oneOf("presentationStyle", ["fullScreen", "pageSheet", "formSheet", "overFullScreen"], "fullScreen"),
                field("transparent", .bool, .bool(false)),
                field("statusBarTranslucent", .bool, .bool(false)),
                field("hardwareAccelerated", .bool, .bool(false)),
            ]
        )
        + [.prop("visible", \.visible)]
        + Prop.passThrough(
            [
                field("animated", .bool, .bool(false)),
                field("supportedOrientations", .array(.enumeration(orientations))),
                field("identifier", .int32, .int(0)),
            ]
        )

    public static let events: [EventSpec] = [
        .direct("requestClose", payload: []),
        .direct("show", payload: []),
        .direct("dismiss", payload: []),
        .direct("orientationChange", payload: [PropField("orientation", .enumeration(["portrait", "landscape"]))]),
    ]

    public static let commands: [Command<ModalProps>] = [
        Command("present", emits: ["show"]) { ctx in
            guard !ctx.props.presented else { return }
            ctx.set(\.presented, true)
            ctx.emit("show")
        },
        Command("requestClose", emits: ["requestClose"]) { ctx in ctx.emit("requestClose") },
        Command("dismiss", emits: ["dismiss"]) { ctx in
            guard ctx.props.presented else { return }
            ctx.set(\.presented, false)
            ctx.emit("dismiss")
        },
    ]

    /// `Modal presented` or `Modal`.
    public static func render(_ props: ModalProps) -> String { props.presented ? "Modal presented" : "Modal" }
}
