import Observation

/// Props of `Slider`.
@Observable
public final class SliderProps: ViewProps {
    public var value = 0.0
    public var minimumValue = 0.0
    public var maximumValue = 1.0
    public var step = 0.0
    public var disabled = false
    public init() {}
}

/// `Slider`: the UISlider coordinator. `slide` clamps into range, snaps to `step`, sets `value` and emits
/// a bubbling `valueChange`.
public enum Slider: Component {
    public static let name = "Slider"

    public static let props: [Prop<SliderProps>] = [
        .prop("value", \.value),
        .prop("minimumValue", \.minimumValue),
        .prop("maximumValue", \.maximumValue),
        .prop("step", \.step),
        .prop("disabled", \.disabled),
    ]

    public static let events: [EventSpec] = [.bubbling("valueChange", payload: [PropField("value", .double)])]

    public static let commands: [Command<SliderProps>] = [
        Command("slide", params: [CommandParam("value", .double)], emits: ["valueChange"]) { ctx in
            let p = ctx.props
            guard !p.disabled else { return }
            let low = min(p.minimumValue, p.maximumValue)
            let high = max(p.minimumValue, p.maximumValue)
            var value = min(max(ctx.double(0), low), high)
            if p.step > 0 {
                value = min(low + ((value - low) / p.step).rounded() * p.step, high)
            }
            ctx.set(\.value, value)
            ctx.emit("valueChange", ["value": .double(value)])
        }
    ]

    public static func render(_ props: SliderProps) -> String {
        "Slider \(props.value) in \(props.minimumValue)...\(props.maximumValue)" + (props.disabled ? " disabled" : "")
    }
}
