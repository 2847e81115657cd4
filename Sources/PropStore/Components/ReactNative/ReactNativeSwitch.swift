import Observation

/// Props of `RCTSwitch`.
@Observable
public final class SwitchProps: PassThroughProps {
    public var value = false
    public var disabled = false
    public var passThrough: [String: PropValue] = [:]
    public init() {}
}

/// `RCTSwitch`: React Native's `Switch` on iOS (`SwitchNativeComponent.js`). RN command `setValue(value)` sets
/// the value without an event; native input `toggle()` flips it, unless disabled, and emits a bubbling `change`
/// `{value}`.
public enum ReactNativeSwitch: Component, ViewConfigTable {
    public static let name = "RCTSwitch"

    /// `SwitchNativeComponent.js`'s `NativeProps`, less `onChange`.
    public static let props: [Prop<SwitchProps>] =
        [.prop("disabled", \.disabled), .prop("value", \.value)]
        + Prop.passThrough(
            color("tintColor", "onTintColor", "thumbTintColor", "thumbColor", "trackColorForFalse", "trackColorForTrue")
        )

    public static let events: [EventSpec] = [.bubbling("change", payload: [PropField("value", .bool)])]

    public static let commands: [Command<SwitchProps>] = [
        Command("setValue", params: [CommandParam("value", .bool)]) { ctx in ctx.set(\.value, ctx.bool(0)) },
        Command("toggle", emits: ["change"]) { ctx in
            guard !ctx.props.disabled else { return }
            ctx.set(\.value, !ctx.props.value)
            ctx.emit("change", ["value": .bool(ctx.props.value)])
        },
    ]

    /// `Switch on` or `Switch off`, then ` disabled`.
    public static func render(_ props: SwitchProps) -> String {
        "Switch " + (props.value ? "on" : "off") + (props.disabled ? " disabled" : "")
    }
}
