import Observation

/// Props of `RCTSinglelineTextInputView` and `RCTMultilineTextInputView`, plus their native editing state.
///
/// `text` is the native text: typing changes it, and React Native setting the prop replaces it.
@Observable
public final class TextInputProps: PassThroughProps {
    public var text = ""
    public var placeholder = ""
    public var editable = true
    /// The most UTF-16 code units the text may have (`NSString.length`, as iOS counts); `nil`: no limit.
    public var maxLength: Int?
    public var mostRecentEventCount = 0
    public var secureTextEntry = false
    public var blurOnSubmit: Bool?
    public var submitBehavior: SubmitBehavior?
    /// Native state: whether the input is the first responder.
    public var focused = false
    /// Native state: how many changes the native side made to the text (`_nativeEventCount`).
    public var eventCount = 0
    public var passThrough: [String: PropValue] = [:]
    public init() {}
}

/// What the return key does (React Native's `submitBehavior`, which it derives from `blurOnSubmit` too).
public enum SubmitBehavior: String, CaseIterable, Sendable, StringEnumProp {
    case submit, blurAndSubmit, newline
}

/// React Native's `TextInput` on iOS: the single-line (`UITextField`) and multi-line (`UITextView`) views, with
/// one implementation (``ReactNativeSinglelineTextInput``, ``ReactNativeMultilineTextInput``).
///
/// RN commands: `focus`, `blur`, `setTextAndSelection` (`TextInputNativeCommands.js`). Native input (the daemon
/// as the keyboard): `type(text)`, `clear()`, `submit()`. Typing follows `RCTBaseTextInputView`: the key press
/// is reported first (`keyPress`, bubbling, and `keyPressSync`, direct), then, when the text changed,
/// `eventCount` goes up and `change` and `selectionChange` follow. With `maxLength`, an edit that would pass it
/// is refused when it is one character, and cut to the whole characters that fit when it is more (as pasting).
enum TextInputBehaviour: ViewConfigTable {
    /// `RCTTextInputViewConfig.js`'s `validAttributes`, less the event handlers (events below) and the props
    /// declared with behaviour.
    static let props: [Prop<TextInputProps>] =
        [
            .prop("text", \.text),
            .prop("placeholder", \.placeholder),
            .prop("editable", \.editable),
            .prop("maxLength", \.maxLength),
            .prop("mostRecentEventCount", \.mostRecentEventCount),
            .prop("secureTextEntry", \.secureTextEntry),
            .prop("blurOnSubmit", \.blurOnSubmit),
            .prop("submitBehavior", \.submitBehavior),
        ]
        + Prop.passThrough(
            number("fontSize")
                + string("fontWeight")
                + [field("fontVariant", .mixed), field("textShadowOffset", .mixed)]
                + bool("allowFontScaling")
                + [
                    oneOf("fontStyle", ["normal", "italic"]),
                    oneOf("textTransform", ["none", "capitalize", "uppercase", "lowercase"]),
                    oneOf("textAlign", ["auto", "left", "right", "center", "justify"]),
                ]
                + string("fontFamily") + number("lineHeight") + bool("isHighlighted")
                + [
                    oneOf("writingDirection", ["auto", "ltr", "rtl"]),
                    oneOf("textDecorationLine", ["none", "underline", "line-through", "underline line-through"]),
                ]
                + number("textShadowRadius", "letterSpacing")
                + [oneOf("textDecorationStyle", ["solid", "double", "dotted", "dashed"])]
                + color("textDecorationColor", "color") + number("maxFontSizeMultiplier") + color("textShadowColor")
                + string("inputAccessoryViewID") + bool("caretHidden", "enablesReturnKeyAutomatically")
                + color("placeholderTextColor")
                + [
                    oneOf("clearButtonMode", ["never", "while-editing", "unless-editing", "always"]),
                    // iOS's and the cross-platform names (`number-pad`, `url`…): React Native passes them on.
                    field("keyboardType", .string),
                    // `{start, end?}`.
                    field("selection", .mixed),
                    field("returnKeyType", .string),
                ]
                + bool("scrollEnabled") + color("selectionColor")
                + bool("contextMenuHidden", "autoCorrect", "multiline")
                + [
                    field("textContentType", .string),
                    oneOf("autoCapitalize", ["none", "sentences", "words", "characters"]),
                    oneOf("keyboardAppearance", ["default", "light", "dark"]),
                ]
                + string("passwordRules")
                + bool("spellCheck", "selectTextOnFocus", "clearTextOnFocus", "showSoftInputOnFocus", "autoFocus")
                + [oneOf("lineBreakStrategyIOS", ["none", "standard", "hangul-word", "push-out"])]
        )

    private static let textAndCount = [PropField("text", .string), PropField("eventCount", .int)]
    private static let keyAndCount = [PropField("key", .string), PropField("eventCount", .int)]

    /// `RCTTextInputViewConfig.js`'s `bubblingEventTypes`, then its `directEventTypes` (the payloads of those this
    /// view does not emit, `contentSizeChange` and `textInput`, as `RCTBaseTextInputView` sends them).
    static let events: [EventSpec] = [
        .bubbling("blur", payload: textAndCount),
        .bubbling("change", payload: textAndCount),
        .bubbling("contentSizeChange", payload: [PropField("contentSize", ReactNativeScrollView.size)]),
        .bubbling("endEditing", payload: [PropField("text", .string)]),
        .bubbling("focus", payload: textAndCount),
        .bubbling("keyPress", payload: keyAndCount),
        .bubbling("submitEditing", payload: textAndCount),
        // `topTouchCancel`, `topTouchEnd`, `topTouchMove`: every registry has them (``TouchEvents``).
        .direct(
            "textInput",
            payload: [
                PropField("text", .string), PropField("previousText", .string),
                PropField("range", .object([PropField("start", .int), PropField("end", .int)])),
                PropField("eventCount", .int),
            ]
        ),
        .direct("keyPressSync", payload: keyAndCount),
        .direct("scroll", payload: ReactNativeScrollView.scrollEvent),
        .direct(
            "selectionChange",
            payload: [
                PropField("selection", .object([PropField("start", .int), PropField("end", .int)]))
            ]
        ),
        .direct("changeSync", payload: textAndCount),
    ]

    /// A text field is the first responder while it is focused; `blur` gives that up (when another field takes it).
    static let focus = Focus<TextInputProps>(isFocused: { $0.focused }, resign: "blur")

    static func commands(multiline: Bool) -> [Command<TextInputProps>] {
        [
            Command("focus", emits: ["focus"]) { ctx in
                guard ctx.props.editable, !ctx.props.focused else { return }
                ctx.set(\.focused, true)
                ctx.emit("focus", textAndCount(ctx.props))
            },
            Command("blur", emits: ["endEditing", "blur"]) { ctx in blur(ctx) },
            Command(
                "setTextAndSelection",
                params: [
                    CommandParam("mostRecentEventCount", .int), CommandParam("value", .mixed),
                    CommandParam("start", .int), CommandParam("end", .int),
                ]
            ) { ctx in
                // iOS ignores a call made before JavaScript saw the native side's latest change.
                guard ctx.int(0) >= ctx.props.eventCount, case .json(.string(let value)) = ctx.args[1] else { return }
                ctx.set(\.text, value)
            },
            Command(
                "type",
                params: [CommandParam("text", .string)],
                emits: ["keyPress", "keyPressSync", "change", "selectionChange"]
            ) {
                ctx in type(ctx.string(0), ctx)
            },
            Command("clear", emits: ["change", "selectionChange"]) { ctx in
                guard ctx.props.editable, !ctx.props.text.isEmpty else { return }
                changed(to: "", ctx)
            },
            Command("paste", params: [CommandParam("text", .string)], emits: ["selectionChange", "change"]) {
                ctx in paste(ctx.string(0), ctx)
            },
            Command("deleteBackward", emits: ["keyPress", "keyPressSync", "change", "selectionChange"]) { ctx in
                deleteBackward(all: false, ctx)
            },
            Command("deleteAll", emits: ["selectionChange", "keyPress", "keyPressSync", "change"]) { ctx in
                deleteBackward(all: true, ctx)
            },
            Command(
                "submit",
                emits: ["submitEditing", "endEditing", "blur", "keyPress", "keyPressSync", "change", "selectionChange"]
            ) { ctx in
                // `enablesReturnKeyAutomatically`: iOS disables the return key while the text is empty, so it does
                // nothing, neither a submit nor a new line.
                if ctx.props.text.isEmpty && ctx.props.passThrough["enablesReturnKeyAutomatically"] == .bool(true) {
                    return
                }
                let behaviour = ctx.props.submitBehavior
                // `newline` (multi-line only; React Native makes it `blurAndSubmit` for one line): return types a
                // new line, and nothing is submitted.
                if multiline && behaviour == .newline { return type("\n", ctx) }
                ctx.emit("submitEditing", textAndCount(ctx.props))
                let blurs =
                    switch behaviour {
                    case .blurAndSubmit?, .newline?: true
                    case .submit?: false
                    case nil: ctx.props.blurOnSubmit ?? !multiline
                    }
                if blurs { blur(ctx) }
            },
        ]
    }

    private static func textAndCount(_ props: TextInputProps) -> EventPayload {
        ["text": .string(props.text), "eventCount": .int(props.eventCount)]
    }

    private static func blur(_ ctx: CommandContext<TextInputProps>) {
        guard ctx.props.focused else { return }
        ctx.set(\.focused, false)
        ctx.emit("endEditing", ["text": .string(ctx.props.text)])
        ctx.emit("blur", textAndCount(ctx.props))
    }

    /// The keyboard inserts `typed` at the end of the text.
    private static func type(_ typed: String, _ ctx: CommandContext<TextInputProps>) {
        let props = ctx.props
        guard props.editable else { return }
        let key = typed == "\n" ? "Enter" : typed
        pressed(key, ctx)
        var inserted = typed
        if let maxLength = props.maxLength {
            let room = max(maxLength - props.text.utf16.count, 0)
            if inserted.utf16.count > room {
                // One character that does not fit is refused; more (a paste) are cut to the whole characters that fit.
                guard inserted.count > 1 else { return }
                inserted = fitting(inserted, in: room)
            }
        }
        guard !inserted.isEmpty else { return }
        changed(to: props.text + inserted, ctx)
    }

    /// Select all, then paste `pasted` over it: `selectionChange` over the text (none when empty), then the text
    /// replaced as one change, with no key reported (React Native's `RCTBaseTextInputView` sends `keyPress` only for
    /// text that was not pasted). With `maxLength`, the paste is cut to the whole characters that fit.
    private static func paste(_ pasted: String, _ ctx: CommandContext<TextInputProps>) {
        let props = ctx.props
        guard props.editable else { return }
        selectAll(ctx)
        let text = props.maxLength.map { fitting(pasted, in: $0) } ?? pasted
        guard text != props.text else { return }
        changed(to: text, ctx)
    }

    /// The delete key at the caret (the end of the text), as `UIKeyInput.deleteBackward` and React Native's
    /// `RCTBaseTextInputView` report it: `keyPress` `Backspace` (also on an empty text), then, when there was text, its
    /// last character (a grapheme, as iOS deletes a composed character sequence) gone, as a change. `all`: the whole
    /// text selected first (`selectionChange` over it), so that the key deletes all of it.
    private static func deleteBackward(all: Bool, _ ctx: CommandContext<TextInputProps>) {
        let props = ctx.props
        guard props.editable else { return }
        if all { selectAll(ctx) }
        pressed("Backspace", ctx)
        guard !props.text.isEmpty else { return }
        changed(to: all ? "" : String(props.text.dropLast()), ctx)
    }

    /// The native side changed the text: a new event count, `change`, and the caret at the end.
    private static func changed(to text: String, _ ctx: CommandContext<TextInputProps>) {
        ctx.set(\.text, text)
        ctx.set(\.eventCount, ctx.props.eventCount + 1)
        ctx.emit("change", textAndCount(ctx.props))
        selected(from: text.utf16.count, to: text.utf16.count, ctx)
    }

    /// The keyboard reports `key`: `keyPress` and `keyPressSync`, with the event count JavaScript last saw.
    private static func pressed(_ key: String, _ ctx: CommandContext<TextInputProps>) {
        let payload: EventPayload = ["key": .string(key), "eventCount": .int(ctx.props.eventCount)]
        ctx.emit("keyPress", payload)
        ctx.emit("keyPressSync", payload)
    }

    /// The whole text selected (`selectionChange` over it; none when there is no text, as nothing moves).
    private static func selectAll(_ ctx: CommandContext<TextInputProps>) {
        let length = ctx.props.text.utf16.count
        if length > 0 { selected(from: 0, to: length, ctx) }
    }

    /// `selectionChange` from `start` to `end` (UTF-16 offsets, as `NSRange`).
    private static func selected(from start: Int, to end: Int, _ ctx: CommandContext<TextInputProps>) {
        let selection = [PropMember("start", .int(start)), PropMember("end", .int(end))]
        ctx.emit("selectionChange", ["selection": .object(selection)])
    }

    /// The whole characters of `text`, from its start, that fit in `room` UTF-16 units (`maxLength` counts
    /// `NSString.length`).
    private static func fitting(_ text: String, in room: Int) -> String {
        var kept = ""
        for character in text {
            guard kept.utf16.count + character.utf16.count <= room else { break }
            kept.append(character)
        }
        return kept
    }

    /// `TextInput "ana"`, or `TextInput placeholder="Enter text"` when empty; then ` focused`, ` disabled` (not
    /// editable), ` secure`.
    static func render(_ props: TextInputProps) -> String {
        let shown = props.text.isEmpty ? "placeholder=\"\(props.placeholder)\"" : "\"\(props.text)\""
        return "TextInput \(shown)" + (props.focused ? " focused" : "") + (props.editable ? "" : " disabled")
            + (props.secureTextEntry ? " secure" : "")
    }
}

/// `RCTSinglelineTextInputView`: `TextInput` (`RCTSingelineTextInputNativeComponent.js`); submitting blurs it
/// unless told otherwise.
public enum ReactNativeSinglelineTextInput: Component {
    public static let name = "RCTSinglelineTextInputView"
    public static let props = TextInputBehaviour.props
    public static let events = TextInputBehaviour.events
    public static let commands = TextInputBehaviour.commands(multiline: false)
    public static func render(_ props: TextInputProps) -> String { TextInputBehaviour.render(props) }
}

/// `RCTMultilineTextInputView`: `TextInput multiline` (`RCTMultilineTextInputNativeComponent.js`); submitting
/// keeps the focus unless told otherwise.
public enum ReactNativeMultilineTextInput: Component {
    public static let name = "RCTMultilineTextInputView"
    public static let props = TextInputBehaviour.props
    public static let events = TextInputBehaviour.events
    public static let commands = TextInputBehaviour.commands(multiline: true)
    public static func render(_ props: TextInputProps) -> String { TextInputBehaviour.render(props) }
}

extension ReactNativeSinglelineTextInput: FocusableComponent {
    public static let focus = TextInputBehaviour.focus
}

extension ReactNativeMultilineTextInput: FocusableComponent {
    public static let focus = TextInputBehaviour.focus
}
