import Observation

/// The observable props object of a view: a class annotated `@Observable` with a no-argument initialiser.
///
/// Its initial property values are the props' defaults.
public protocol ViewProps: AnyObject, Observable, SendableMetatype {
    init()
}

/// A native component, described in one place: its props, events, commands and headless render.
///
/// Adding a component is one file: declare the props class and a type conforming to `Component`,
/// then register it with ``ComponentRegistry/register(_:)``.
public protocol Component: SendableMetatype {
    associatedtype Props: ViewProps
    /// The name clients create it by, e.g. `SwiftUIButton`.
    static var name: String { get }
    static var props: [Prop<Props>] { get }
    static var events: [EventSpec] { get }
    static var commands: [Command<Props>] { get }
    /// A short text of what the view would draw. Only the props read here trigger a re-render.
    static func render(_ props: Props) -> String
    /// Whether the view's render is its text content (the raw texts of its subtree), as React Native's
    /// `Text` draws its nested texts; ``render(_:)`` is not used then. Default: false.
    static var rendersTextContent: Bool { get }
}

extension Component {
    public static var rendersTextContent: Bool { false }
    public static var events: [EventSpec] { [] }
    public static var commands: [Command<Props>] { [] }
}
