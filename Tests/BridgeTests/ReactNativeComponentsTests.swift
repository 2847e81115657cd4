import BridgeCore
import PropStore
import Testing

/// React Native's core host components (`RCTView`, `RCTText`, `RCTVirtualText`, `RCTRawText`), and View's props
/// on every component, as React Native's renderer sends them.
@Suite("React Native's core components")
struct ReactNativeComponentsTests {
    @Test func rctViewTakesReactNativesViewPropsAndStyleAttributesTyped() {
        let client = Client(engine: Engine(registry: .builtin))
        let created = client.send(
            ##"{"op":"create","tag":1,"component":"RCTView","props":{"testID":"box","flex":1,"width":"50%","height":"auto","##
                + ##""backgroundColor":4294967295,"borderColor":"#0f08","transform":[{"rotate":"45deg"}],"##
                + ##""shadowOffset":{"width":1,"height":2},"pointerEvents":"box-none","accessibilityState":{"checked":true}}}"##
        ).response
        #expect(field(created, "ok") == "true", "\(created)")
        let view = client.inspect(1)
        #expect(field(view, "result.props.backgroundColor") == ##""#ffffffff""##)
        #expect(field(view, "result.props.borderColor") == ##""#00ff0088""##)
        #expect(field(view, "result.props.width") == ##""50%""##)
        #expect(field(view, "result.props.height") == ##""auto""##)
        #expect(field(view, "result.props.shadowOffset") == ##"{"height":2.0,"width":1.0}"##)
        #expect(field(view, "result.props.opacity") == "1.0")
        #expect(field(view, "result.render") == ##""View #box""##)
        // Each prop is typed: a bad one is refused with its path, nothing applied.
        let refused = client.send(
            ##"{"op":"update","tag":1,"props":{"width":"wide","shadowOffset":{"width":"x"},"testID":"other"}}"##
        ).response
        #expect(field(refused, "error.code") == ##""invalid_props""##)
        #expect(field(refused, "error.details.0.path") == ##""width""##)
        #expect(field(refused, "error.details.1.path") == ##""shadowOffset.width""##)
        #expect(field(client.inspect(1), "result.props.testID") == ##""box""##)
        // null resets a prop to its default.
        client.send(##"{"op":"update","tag":1,"props":{"width":null,"opacity":0.5}}"##)
        client.send(##"{"op":"update","tag":1,"props":{"opacity":null}}"##)
        #expect(field(client.inspect(1), "result.props.width") == "null")
        #expect(field(client.inspect(1), "result.props.opacity") == "1.0")
    }

    @Test func everyComponentIsAViewAndListsTheViewPropsItHolds() {
        let client = Client(engine: Engine(registry: .builtin))
        client.send(
            ##"{"op":"create","tag":1,"component":"SwiftUIButton","props":{"title":"T","testID":"b","opacity":0.5}}"##
        )
        #expect(
            field(client.inspect(1), "result.props")
                == ##"{"count":0,"disabled":false,"opacity":0.5,"testID":"b","title":"T"}"##
        )
        // Back to their defaults, they are no longer listed: the button's own props are, always.
        client.send(##"{"op":"update","tag":1,"props":{"testID":null,"opacity":1}}"##)
        #expect(field(client.inspect(1), "result.props") == ##"{"count":0,"disabled":false,"title":"T"}"##)
        // A component's own prop of a View prop's name wins: TextField's `color` is its own.
        client.send(##"{"op":"create","tag":2,"component":"TextField","props":{"color":"#f00","margin":4}}"##)
        #expect(field(client.inspect(2), "result.props.margin") == "4.0")
        #expect(field(client.inspect(2), "result.props.color") == ##""#ff0000ff""##)
        // hello describes a component's own props only.
        let hello = client.send(##"{"op":"hello","protocol":1}"##).response
        #expect(field(hello, "result.components.SwiftUIButton.props.testID") == "<missing>")
        #expect(field(hello, "result.components.RCTView.props.testID") == ##"{"default":null,"type":"string"}"##)
    }

    @Test func aFailedBatchTakesBackInheritedProps() {
        let client = Client(engine: Engine(registry: .builtin))
        client.send(##"{"op":"create","tag":1,"component":"SwiftUIButton"}"##)
        let failed = client.send(
            ##"{"op":"batch","ops":[{"op":"update","tag":1,"props":{"testID":"x"}},{"op":"update","tag":1,"props":{"count":"no"}}]}"##
        ).response
        #expect(field(failed, "error.code") == ##""batch_failed""##)
        #expect(field(client.inspect(1), "result.props") == ##"{"count":0,"disabled":false,"title":""}"##)
    }

    @Test func aTextRendersItsTextContentNestedTextsIncluded() {
        let client = Client(engine: Engine(registry: .builtin))
        client.send(##"{"op":"create","tag":1,"component":"RCTText","props":{"numberOfLines":2,"color":4294901760}}"##)
        client.send(##"{"op":"create","tag":2,"component":"RCTRawText","props":{"text":"Hello "},"parent":1}"##)
        client.send(##"{"op":"create","tag":3,"component":"RCTVirtualText","parent":1}"##)
        client.send(##"{"op":"create","tag":4,"component":"RCTRawText","props":{"text":"bold"},"parent":3}"##)
        client.send(##"{"op":"create","tag":5,"component":"RCTRawText","props":{"text":" world"},"parent":1}"##)
        #expect(field(client.inspect(1), "result.render") == ##""Hello bold world""##)
        #expect(field(client.inspect(1), "result.renders") == "1")
        #expect(field(client.inspect(3), "result.render") == ##""bold""##)
        #expect(field(client.inspect(1), "result.props.color") == ##""#ff0000ff""##)
        // A change below the text re-renders it once; asking again without a change does not.
        client.send(##"{"op":"update","tag":4,"props":{"text":"brave"}}"##)
        #expect(field(client.inspect(1), "result.render") == ##""Hello brave world""##)
        #expect(field(client.inspect(1), "result.renders") == "2")
        client.send(##"{"op":"delete","tag":3}"##)
        #expect(field(client.inspect(1), "result.render") == ##""Hello  world""##)
    }
}

/// `forEachChangedProp` (what a `tree: true` observer is sent of a view) visits exactly the listed props whose value
/// is neither null nor the default, in listed order, though it reads only the values a view holds.
@Suite("A view's changed props")
struct ChangedPropsTests {
    /// The listed props that are neither null nor their default, with their values: what it must equal.
    private func filtered(_ view: ViewProxy) -> [String] {
        view.listedProps.compactMap { prop in
            let value = view.value(of: prop)
            return value == .null || value == prop.defaultValue ? nil : "\(prop.name)=\(value)"
        }
    }

    private func visited(_ view: ViewProxy) -> [String] {
        var found: [String] = []
        view.forEachChangedProp { prop, value in found.append("\(prop.name)=\(value)") }
        return found
    }

    private func set(_ view: ViewProxy, _ values: [String: PropValue]) {
        for (name, value) in values {
            let prop = view.type.prop(named: name)!
            view.setValue(value, of: prop)
        }
    }

    @Test func anRCTViewsHeldPropsInTheirOrder() {
        let view = ViewProxy(tag: 1, type: ReactNativeView.type)
        #expect(visited(view).isEmpty)
        set(
            view,
            ["testID": .string("row"), "opacity": .double(0.5), "flex": .double(1), "pointerEvents": .string("none")]
        )
        // Set, then back to the default: not held, not visited.
        set(view, ["opacity": .double(1)])
        #expect(visited(view) == filtered(view))
        #expect(visited(view).count == 3)
    }

    @Test func aComponentsOwnPropsThenTheViewPropsItInherits() throws {
        let text = try #require(ComponentRegistry.builtin.component(named: "RCTText"))
        let view = ViewProxy(tag: 2, type: text)
        set(
            view,
            ["fontWeight": .string("bold"), "testID": .string("title"), "margin": .double(4), "numberOfLines": .int(2)]
        )
        #expect(visited(view) == filtered(view))
        #expect(visited(view).count == 4)
        let untyped = ComponentType(described: "Icon", props: [], events: [], commands: [], untyped: true)
        let icon = ViewProxy(tag: 3, type: untyped)
        set(icon, ["name": .string("star"), "size": .int(12), "opacity": .double(0.3)])
        #expect(visited(icon) == filtered(icon))
        #expect(visited(icon).count == 3)
    }
}
