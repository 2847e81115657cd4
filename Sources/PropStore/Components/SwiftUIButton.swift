import Observation

/// Props of `SwiftUIButton` (the article's `ButtonProps: ObservableObject`).
@Observable
public final class ButtonProps: ViewProps {
    public var count = 0
    public var title = ""
    public var disabled = false
    public init() {}
}

/// `SwiftUIButton`: the article's counter button. `press` asks the client to count up by emitting
/// `countChange` with `count + 1`; the count itself is controlled by the client and changes only when it
/// updates the prop.
public enum SwiftUIButton: Component {
    public static let name = "SwiftUIButton"

    public static let props: [Prop<ButtonProps>] = [
        .prop("count", \.count),
        .prop("title", \.title),
        .prop("disabled", \.disabled),
    ]

    public static let events: [EventSpec] = [.bubbling("countChange", payload: [PropField("count", .int)])]

    public static let commands: [Command<ButtonProps>] = [
        Command("press", emits: ["countChange"]) { ctx in
            guard !ctx.props.disabled else { return }
            let (next, overflow) = ctx.props.count.addingReportingOverflow(1)
            // Past Int.max the count is not an int: the payload does not fit, and the press fails (invalid_payload).
            ctx.emit("countChange", ["count": overflow ? .double(Double(ctx.props.count) + 1) : .int(next)])
        }
    ]

    public static func render(_ props: ButtonProps) -> String {
        "Button \"\(props.title)\" count=\(props.count)" + (props.disabled ? " disabled" : "")
    }
}
