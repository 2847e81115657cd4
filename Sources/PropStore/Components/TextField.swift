import Observation

/// When the clear button of a `TextField` shows (`UITextField.ViewMode`).
public enum ClearButtonMode: String, CaseIterable, Sendable, StringEnumProp {
    case never, whileEditing, unlessEditing, always
}

/// Props of `TextField`, plus its native editing state.
@Observable
public final class TextFieldProps: ViewProps {
    public var text = ""
    public var placeholder = ""
    public var color = Color.black
    public var clearButtonMode = ClearButtonMode.whileEditing
    public var fontSize = 17.0
    public var disabled = false
    /// Native state, not a prop: whether the field has focus.
    public var editing = false
    public init() {}
}

/// `TextField`: the UITextField wrapper. Typing appends to the native text and emits a bubbling `change`;
/// focus changes and submitting emit direct events.
public enum TextField: Component {
    public static let name = "TextField"

    public static let props: [Prop<TextFieldProps>] = [
        .prop("text", \.text),
        .prop("placeholder", \.placeholder),
        .prop("color", \.color),
        .enumeration("clearButtonMode", \.clearButtonMode),
        .prop("fontSize", \.fontSize),
        .prop("disabled", \.disabled),
    ]

    public static let events: [EventSpec] = [
        .bubbling("change", payload: [PropField("text", .string)]),
        .direct("editingChange", payload: [PropField("editing", .bool)]),
        .direct("commit", payload: [PropField("text", .string)]),
    ]

    public static let commands: [Command<TextFieldProps>] = [
        Command("focus", emits: ["editingChange"]) { ctx in
            guard !ctx.props.disabled, !ctx.props.editing else { return }
            ctx.set(\.editing, true)
            ctx.emit("editingChange", ["editing": .bool(true)])
        },
        Command("blur", emits: ["editingChange"]) { ctx in
            guard ctx.props.editing else { return }
            ctx.set(\.editing, false)
            ctx.emit("editingChange", ["editing": .bool(false)])
        },
        Command("type", params: [CommandParam("text", .string)], emits: ["change"]) { ctx in
            guard !ctx.props.disabled else { return }
            ctx.set(\.text, ctx.props.text + ctx.string(0))
            ctx.emit("change", ["text": .string(ctx.props.text)])
        },
        Command("submit", emits: ["commit"]) { ctx in
            guard !ctx.props.disabled else { return }
            ctx.emit("commit", ["text": .string(ctx.props.text)])
        },
    ]

    public static func render(_ props: TextFieldProps) -> String {
        let shown = props.text.isEmpty ? "placeholder=\"\(props.placeholder)\"" : "\"\(props.text)\""
        return "TextField \(shown) color=\(props.color) size=\(props.fontSize)"
            + (props.editing ? " editing" : "") + (props.disabled ? " disabled" : "")
    }
}
