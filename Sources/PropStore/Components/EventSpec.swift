/// An event a component emits: bubbling (through the view tree, with capture and bubble phases) or direct,
/// with the type of its payload.
public struct EventSpec: Sendable, Equatable {
    public let name: String
    public let bubbles: Bool
    /// The payload's fields (React Native's event `argument`); empty: the event has no payload; `nil`: not
    /// declared, any fields are sent as given (unchecked, `mixed` in generated types).
    public let payload: [PropField]?

    public init(name: String, bubbles: Bool, payload: [PropField]? = nil) {
        self.name = name
        self.bubbles = bubbles
        self.payload = payload
    }

    /// A bubbling event, e.g. `countChange`, registered as `onCountChange` and `onCountChangeCapture`.
    public static func bubbling(_ name: String, payload: [PropField]? = nil) -> Self {
        Self(name: name, bubbles: true, payload: payload)
    }

    /// A direct event, e.g. `commit`, delivered only to a listener on the emitting view (`onCommit`).
    public static func direct(_ name: String, payload: [PropField]? = nil) -> Self {
        Self(name: name, bubbles: false, payload: payload)
    }

    /// The JSX prop name for the bubble phase (or the only one, for a direct event): `onCountChange`.
    public var registrationName: String {
        "on" + name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The JSX prop name for the capture phase: `onCountChangeCapture`.
    public var captureRegistrationName: String { registrationName + "Capture" }

    /// The payload as an object type, for checking payloads; `nil` when the payload is not declared.
    public var payloadType: PropType? { payload.map(PropType.object) }
}

/// The payload of an event, with its fields in the order they were written.
public struct EventPayload: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public var fields: [(name: String, value: PropValue)]

    public init(dictionaryLiteral elements: (String, PropValue)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public init(fields: [(name: String, value: PropValue)]) { self.fields = fields }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The payload as the event frame carries it (``complete(for:)``), or why it does not fit `event`'s payload
    /// type (``problem(for:)``). One pass when the payload has every declared field in declaration order, as a
    /// command's literal payload usually has.
    public func checked(for event: EventSpec) -> Result<EventPayload, PayloadProblem> {
        guard let declaredFields = event.payload else { return .success(self) }
        if declaredFields.count == fields.count {
            var inOrder = true
            for (declared, field) in zip(declaredFields, fields) {
                guard declared.name == field.name else {
                    inOrder = false
                    break
                }
                if let problem = declared.type.problem(with: field.value) {
                    return .failure(PayloadProblem(description: "\(field.name): \(problem)"))
                }
            }
            if inOrder { return .success(self) }
        }
        if let problem = problem(for: event) { return .failure(PayloadProblem(description: problem)) }
        return .success(complete(for: event))
    }

    /// Why this payload does not fit `event`'s payload type (an undeclared field, a value of the wrong type),
    /// or `nil` when it does.
    public func problem(for event: EventSpec) -> String? {
        guard let declaredFields = event.payload else { return nil }
        for field in fields {
            guard let declared = declaredFields.first(where: { $0.name == field.name }) else {
                return "field '\(field.name)' is not declared in the payload of '\(event.name)'"
            }
            if let problem = declared.type.problem(with: field.value) { return "\(field.name): \(problem)" }
        }
        for declared in declaredFields
        where !declared.isOptional && !fields.contains(where: { $0.name == declared.name }) {
            return "field '\(declared.name)' of the payload of '\(event.name)' is missing"
        }
        return nil
    }

    /// The payload as the event frame carries it: every declared field in declaration order, an absent one
    /// as its default (or `null`).
    public func complete(for event: EventSpec) -> EventPayload {
        guard let declaredFields = event.payload else { return self }
        if declaredFields.count == fields.count && zip(declaredFields, fields).allSatisfy({ $0.name == $1.name }) {
            return self
        }
        return EventPayload(
            fields: declaredFields.map { declared in
                (name: declared.name, value: fields.first { $0.name == declared.name }?.value ?? declared.defaultValue)
            }
        )
    }
}

/// Why a payload does not fit its event's payload type.
public struct PayloadProblem: Error, Sendable, CustomStringConvertible {
    public let description: String
}
