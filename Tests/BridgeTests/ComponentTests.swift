import BridgeCore
import Observation
import PropStore
import Testing

/// A component a Swift user adds in one file: props class, schema, events, commands, render.
@Observable
final class GaugeProps: ViewProps {
    var level = 0.5
    var label = "fuel"
    var warning = false
    init() {}
}

enum Gauge: Component {
    static let name = "Gauge"
    static let props: [Prop<GaugeProps>] = [.prop("level", \.level), .prop("label", \.label)]
    static let events: [EventSpec] = [.bubbling("valueChange"), .direct("alarm")]
    static let commands: [Command<GaugeProps>] = [
        Command("drain", args: [.double]) { ctx in
            ctx.set(\.level, max(0, ctx.props.level - ctx.double(0)))
            ctx.emit("valueChange", ["value": .double(ctx.props.level)])
            if ctx.props.level < 0.1 {
                ctx.set(\.warning, true)
                ctx.emit("alarm", ["level": .double(ctx.props.level)])
            }
        }
    ]
    static func render(_ props: GaugeProps) -> String {
        "Gauge \(props.label) \(Int(props.level * 100))%" + (props.warning ? " !" : "")
    }
}

@Suite("Adding a component")
struct ComponentTests {
    func engine() throws -> Engine {
        var registry = ComponentRegistry.builtin
        try registry.register(Gauge.self)
        return Engine(registry: registry)
    }

    @Test func registeredComponentIsDescribedAndWorks() throws {
        let client = Client(engine: try engine(), hello: false)
        let hello = client.send(#"{"op":"hello","protocol":1}"#).response
        #expect(field(hello, "result.components.Gauge.props.level") == #"{"default":0.5,"type":"double"}"#)
        #expect(
            field(hello, "result.components.Gauge.commands.drain")
                == #"{"args":["double"],"params":[{"name":"arg0","type":"double"}]}"#
        )
        client.send(#"{"op":"create","tag":1,"component":"View"}"#)
        client.send(#"{"op":"create","tag":2,"component":"Gauge","parent":1}"#)
        client.send(#"{"op":"subscribe","tag":1,"event":"valueChange"}"#)
        client.send(#"{"op":"subscribe","tag":2,"event":"alarm"}"#)
        let events = client.send(#"{"op":"command","tag":2,"name":"drain","args":[0.5]}"#).events
        #expect(events.count == 2)
        #expect(field(events[0], "path") == #"[{"phase":"bubble","tag":1}]"#)
        #expect(field(events[1], "event") == #""alarm""#)
        #expect(field(client.inspect(2), "result.render") == #""Gauge fuel 0% !""#)
    }

    @Test func conflictingRegistrationsAreRefused() throws {
        var registry = ComponentRegistry.builtin
        #expect(throws: RegistrationError.self) { try registry.register(SwiftUIButton.self) }
        enum BadSlider: Component {
            static let name = "BadSlider"
            static let props: [Prop<SliderProps>] = []
            static let events: [EventSpec] = [.direct("valueChange")]
            static func render(_ props: SliderProps) -> String { "" }
        }
        #expect(throws: RegistrationError.self) { try registry.register(BadSlider.self) }
        // A focus given up by a command the component does not declare.
        enum UnresigningField: FocusableComponent {
            static let name = "UnresigningField"
            static let props: [Prop<TextInputProps>] = []
            static let focus = Focus<TextInputProps>(isFocused: { $0.focused }, resign: "blur")
            static func render(_ props: TextInputProps) -> String { "" }
        }
        #expect(throws: RegistrationError.self) { try registry.register(UnresigningField.self) }
    }

    @Test func storageHoldsEveryLiveViewAndForgetsDeletedOnes() {
        let client = Client()
        for tag in 1...50 { client.send(#"{"op":"create","tag":\#(tag),"component":"SwiftUIButton"}"#) }
        #expect(ViewStorage.count(session: client.session.storageKey) == 50)
        #expect(ViewStorage.proxy(session: client.session.storageKey, tag: 7)?.type.name == "SwiftUIButton")
        for tag in 1...50 { client.send(#"{"op":"delete","tag":\#(tag)}"#) }
        #expect(ViewStorage.count(session: client.session.storageKey) == 0)
    }
}
