/// A component whose views take the window's focus, as a text field is iOS's first responder: one view of a
/// session holds it at a time. When a command gives a view the focus, the view that held it runs its `resign`
/// command first, in the same request, as UIKit ends one field's editing before the next one's begins.
///
/// ```swift
/// extension MyField: FocusableComponent {
///     static let focus = Focus<MyFieldProps>(isFocused: { $0.focused }, resign: "blur")
/// }
/// ```
///
/// (A protocol of its own rather than a requirement of ``Component``: a component compiled before it existed
/// keeps working.)
public protocol FocusableComponent: Component {
    static var focus: Focus<Props> { get }
}

extension FocusableComponent {
    /// ``focus`` over erased props objects.
    static var focusDescriptor: ComponentType.FocusDescriptor {
        let focus = self.focus
        return ComponentType.FocusDescriptor(
            isFocused: { focus.isFocused(unsafeDowncast($0, to: Props.self)) },
            resign: focus.resign
        )
    }
}

/// How a view holds the focus: `isFocused` reads it from the view's props; `resign` names the command (with no
/// parameters) that gives it up.
public struct Focus<Props: AnyObject>: Sendable {
    public let isFocused: @Sendable (Props) -> Bool
    public let resign: String

    public init(isFocused: @escaping @Sendable (Props) -> Bool, resign: String) {
        self.isFocused = isFocused
        self.resign = resign
    }
}

extension ComponentType {
    /// A component's ``Focus``, over its erased props objects.
    public struct FocusDescriptor: Sendable {
        let isFocused: @Sendable (AnyObject) -> Bool
        /// The command that gives the focus up.
        public let resign: String

        public init(isFocused: @escaping @Sendable (AnyObject) -> Bool, resign: String) {
            self.isFocused = isFocused
            self.resign = resign
        }
    }

    /// Whether `view` (of this component) holds the focus; false for a component that never does.
    public func isFocused(_ view: ViewProxy) -> Bool {
        focus?.isFocused(view.props) ?? false
    }
}
