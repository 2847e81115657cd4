import BridgeCore
import Observation
import PropStore
import Testing

/// Components whose declarations are wrong are refused at registration, naming the component and the problem.
@Suite("Registration checks")
struct RegistrationCheckTests {
    @Observable
    final class P: ViewProps {
        var count = 0
        var mode = "x"
        init() {}
    }

    enum Typo: Component {
        static let name = "Typo"
        static let props: [Prop<P>] = [.prop("count", \.count)]
        static let events: [EventSpec] = [.bubbling("countChange")]
        static let commands: [Command<P>] = [Command("press", emits: ["countChnage"]) { _ in }]
        static func render(_ props: P) -> String { "" }
    }

    enum Twice: Component {
        static let name = "Twice"
        static let props: [Prop<P>] = [.prop("count", \.count), .prop("count", \.mode)]
        static func render(_ props: P) -> String { "" }
    }

    enum UndeclaredAtRunTime: Component {
        static let name = "UndeclaredAtRunTime"
        static let props: [Prop<P>] = [.prop("count", \.count)]
        static let events: [EventSpec] = [.bubbling("countChange", payload: [PropField("count", .int)])]
        static let commands: [Command<P>] = [
            Command("press") { ctx in
                ctx.set(\.count, 5)
                ctx.emit("countChnage", ["count": .int(1)])
            },
            Command("wrongPayload") { ctx in ctx.emit("countChange", ["count": .string("1")]) },
        ]
        static func render(_ props: P) -> String { "\(props.count)" }
    }

    @Test func anEmittedEventMustBeDeclared() {
        var registry = ComponentRegistry()
        #expect(throws: RegistrationError.self) { try registry.register(Typo.self) }
        do {
            try registry.register(Typo.self)
        } catch {
            #expect(error.message.contains("Typo") && error.message.contains("countChnage"))
        }
    }

    @Test func propNamesAreUnique() {
        var registry = ComponentRegistry()
        #expect(throws: RegistrationError.self) { try registry.register(Twice.self) }
    }

    @Test func aDefaultMustBeOfItsType() {
        var registry = ComponentRegistry()
        let type = ComponentType(
            name: "Bad",
            props: [
                .init(
                    name: "mode",
                    type: .enumeration(["a", "b"]),
                    defaultValue: .string("c"),
                    get: { _ in .null },
                    set: { _, _ in false }
                )
            ],
            events: [],
            commands: [],
            makeProps: { P() },
            render: { _ in "" }
        )
        #expect(throws: RegistrationError.self) { try registry.register(type) }
    }

    @Test func anUndeclaredEmissionFailsTheCommandAndChangesNothing() throws {
        var registry = ComponentRegistry.builtin
        try registry.register(UndeclaredAtRunTime.self)
        let client = Client(engine: Engine(registry: registry))
        client.send(#"{"op":"create","tag":1,"component":"UndeclaredAtRunTime"}"#)
        #expect(client.result(#"{"op":"command","tag":1,"name":"press"}"#) == #""invalid_payload""#)
        #expect(field(client.inspect(1), "result.props.count") == "0")
        #expect(client.result(#"{"op":"command","tag":1,"name":"wrongPayload"}"#) == #""invalid_payload""#)
    }
}

@Suite("Event payloads checked against their type")
struct EventPayloadCheckTests {
    let event = EventSpec.bubbling(
        "change",
        payload: [PropField("value", .int), PropField("label", .string, optional: true, default: .string("none"))]
    )

    func check(_ payload: EventPayload) -> String {
        switch payload.checked(for: event) {
        case .success(let completed):
            "ok " + completed.fields.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        case .failure(let problem):
            "problem " + problem.description
        }
    }

    @Test func everyFieldInOrderIsTheSamePayload() {
        #expect(
            check(["value": .int(1), "label": .string("a")])
                == #"ok value=\#(PropValue.int(1)),label=\#(PropValue.string("a"))"#
        )
    }

    @Test func fieldsOutOfOrderOrMissingComeInDeclarationOrderWithDefaults() {
        #expect(
            check(["label": .string("a"), "value": .int(2)])
                == #"ok value=\#(PropValue.int(2)),label=\#(PropValue.string("a"))"#
        )
        #expect(check(["value": .int(3)]) == #"ok value=\#(PropValue.int(3)),label=\#(PropValue.string("none"))"#)
    }

    @Test func aWrongTypeAnUndeclaredOrAMissingFieldIsAProblem() {
        #expect(check(["value": .string("x"), "label": .string("a")]).hasPrefix("problem value: "))
        #expect(check(["label": .int(1), "value": .int(1)]).hasPrefix("problem label: "))
        #expect(
            check(["value": .int(1), "other": .int(1)])
                == "problem field 'other' is not declared in the payload of 'change'"
        )
        #expect(check(["label": .string("a")]) == "problem field 'value' of the payload of 'change' is missing")
    }

    @Test func anEventWithoutADeclaredPayloadTakesAnyFields() {
        let free = EventSpec.bubbling("free")
        let given: EventPayload = ["x": .bool(true)]
        guard case .success(let payload) = given.checked(for: free) else {
            Issue.record("refused")
            return
        }
        #expect(payload.fields.map(\.name) == ["x"])
    }
}
