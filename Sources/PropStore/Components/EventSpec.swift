/// An event a component emits: bubbling (through the view tree, with capture and bubble phases) or direct.
public struct EventSpec: Sendable, Equatable {
    public let name: String
    public let bubbles: Bool

    /// A bubbling event, e.g. `countChange`, registered as `onCountChange` and `onCountChangeCapture`.
    public static func bubbling(_ name: String) -> Self { Self(name: name, bubbles: true) }

    /// A direct event, e.g. `commit`, delivered only to a listener on the emitting view (`onCommit`).
    public static func direct(_ name: String) -> Self { Self(name: name, bubbles: false) }

    /// The JSX prop name for the bubble phase (or the only one, for a direct event): `onCountChange`.
    public var registrationName: String {
        "on" + name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The JSX prop name for the capture phase: `onCountChangeCapture`.
    public var captureRegistrationName: String { registrationName + "Capture" }
}

/// The payload of an event, with its fields in the order they were written.
public struct EventPayload: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public var fields: [(name: String, value: PropValue)]

    public init(dictionaryLiteral elements: (String, PropValue)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
