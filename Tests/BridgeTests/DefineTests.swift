import Foundation
import Testing

@testable import BridgeCore

/// `define` and `components`: components added to one running session, typed from a codegen schema or untyped.
@Suite("Define")
struct DefineTests {
    /// react-native-screens' search bar (codegen's output for `SearchBarNativeComponent.ts`, with
    /// react-native-safe-area-context's native module beside it), as a JSON object.
    static let searchBar: String = {
        let bytes = FileManager.default.contents(atPath: SchemaCorpus.path("screens-search-bar.json"))!
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    static func define(schema: String? = nil, untyped: [String]? = nil, id: Int = 1) -> String {
        var line = #"{"id":\#(id),"op":"define""#
        if let schema { line += #","schema":\#(schema)"# }
        if let untyped { line += #","untyped":[\#(untyped.map { "\"\($0)\"" }.joined(separator: ","))]"# }
        return line + "}"
    }

    /// A schema of one component module `M` holding `components` (`"Name":{…}` members).
    static func module(_ components: String) -> String {
        #"{"modules":{"M":{"type":"Component","components":{\#(components)}}}}"#
    }

    @Test func aTypedComponentFromASchema() throws {
        let client = Client()
        let response = client.send(Self.define(schema: Self.searchBar)).response
        #expect(field(response, "result.skipped") == #"["NativeSafeAreaContext"]"#)
        #expect(field(response, "result.unchanged") == "[]")
        let bar = field(response, "result.components.RNSSearchBar")
        #expect(field(response, "result.components.RNSSearchBar.events.changeText.bubbles") == "true")
        #expect(field(response, "result.components.RNSSearchBar.commands.setText.args") == #"["string"]"#)
        #expect(field(response, "result.components.RNSSearchBar.props.placeholder.type") == #""string""#)
        #expect(field(response, "result.components.RNSSearchBar.untyped") == "<missing>")
        // Described exactly as hello describes components.
        let described = String(
            decoding: Engine.describe([client.session.component(named: "RNSSearchBar")!]),
            as: UTF8.self
        )
        #expect(bar == field(described, "RNSSearchBar"))
        #expect(field(client.send(#"{"op":"components"}"#).response, "result.components.RNSSearchBar") == bar)

        #expect(client.result(#"{"op":"create","tag":1,"component":"View"}"#) == #"{"tag":1}"#)
        let create = #"{"op":"create","tag":2,"component":"RNSSearchBar","parent":1,"props":{"placeholder":"Find"}}"#
        #expect(client.result(create) == #"{"tag":2}"#)
        #expect(client.result(#"{"op":"update","tag":2,"props":{"placeholder":3}}"#) == #""invalid_props""#)
        #expect(client.result(#"{"op":"subscribe","tag":1,"event":"changeText","phase":"capture"}"#) == "{}")
        let emitted = client.send(#"{"op":"emit","tag":2,"event":"changeText","payload":{"text":"x"}}"#)
        #expect(emitted.events.count == 1)
        #expect(field(emitted.events[0], "path") == #"[{"phase":"capture","tag":1}]"#)
        #expect(client.result(#"{"op":"command","tag":2,"name":"setText","args":["hi"]}"#) == "{}")
        #expect(field(client.inspect(2), "result.commands") == #"[{"args":["hi"],"name":"setText"}]"#)
        #expect(field(client.inspect(2), "result.render") == #""RNSSearchBar placeholder=\"Find\"""#)
    }

    @Test func anUntypedComponentTakesAnyPropAndAnyEvent() throws {
        let client = Client()
        let response = client.send(Self.define(untyped: ["RNSScreen"])).response
        #expect(field(response, "result.components.RNSScreen.untyped") == "true")
        #expect(field(response, "result.components.RNSScreen.events") == "{}")
        #expect(field(response, "result.components.RNSScreen.props.opacity.type") == #""float""#)
        let create =
            #"{"op":"create","tag":1,"component":"RNSScreen","props":{"opacity":0.5,"z":{"a":[1,null]},"b":"x"}}"#
        #expect(client.result(create) == #"{"tag":1}"#)
        // View's props stay typed; the others are kept as given, listed after View's in name order.
        #expect(client.result(#"{"op":"update","tag":1,"props":{"opacity":"half"}}"#) == #""invalid_props""#)
        let props = try JSONSerialization.jsonObject(with: Data(field(client.inspect(1), "result.props").utf8))
        #expect((props as? [String: Any])?["b"] as? String == "x")
        let inspected = client.inspect(1)
        #expect(inspected.contains(#""hitSlop":null,"b":"x","z":{"a":[1,null]}}"#))
        #expect(field(inspected, "result.render") == #""RNSScreen opacity=0.5 b=<mixed> z=<mixed>""#)
        #expect(
            client.result(#"{"op":"update","tag":1,"props":{"b":null,"z":{"a":[1,null]}}}"#) == #"{"changed":["b"]}"#
        )
        #expect(!client.inspect(1).contains(#""b":"#))

        // Any event: one no component declares is a direct event of the view; a declared one keeps its kind.
        #expect(client.result(#"{"op":"subscribe","tag":1,"event":"appear"}"#) == "{}")
        #expect(client.result(#"{"op":"subscribe","tag":1,"event":"appear","phase":"capture"}"#) == #""bad_request""#)
        let appear = client.send(#"{"op":"emit","tag":1,"event":"appear","payload":{"n":[1,2]}}"#)
        #expect(appear.events.map { field($0, "payload") } == [#"{"n":[1,2]}"#])
        #expect(client.result(#"{"op":"create","tag":2,"component":"RNSScreen","parent":1}"#) == #"{"tag":2}"#)
        #expect(client.send(#"{"op":"emit","tag":2,"event":"appear"}"#).events.isEmpty, "direct: not the parent's")
        #expect(client.result(#"{"op":"subscribe","tag":1,"event":"countChange"}"#) == "{}")
        let bubbled = client.send(#"{"op":"emit","tag":2,"event":"countChange","payload":{"count":"any"}}"#)
        #expect(bubbled.events.map { field($0, "target") } == ["2"], "bubbling, as SwiftUIButton declares it")
        #expect(client.result(#"{"op":"command","tag":1,"name":"dismiss"}"#) == #""unknown_command""#)
        // A typed view still refuses an event no component declares.
        #expect(client.result(#"{"op":"create","tag":3,"component":"View"}"#) == #"{"tag":3}"#)
        #expect(client.result(#"{"op":"subscribe","tag":3,"event":"appear"}"#) == #""unknown_event""#)
    }

    @Test func definingAgainAsDescribedChangesNothing() {
        let client = Client()
        _ = client.send(Self.define(schema: Self.searchBar, untyped: ["RNSScreen"]))
        let again = client.send(Self.define(schema: Self.searchBar, untyped: ["RNSScreen"], id: 2)).response
        #expect(field(again, "result.components") == "{}")
        #expect(field(again, "result.unchanged") == #"["RNSSearchBar","RNSScreen"]"#)
        let components = client.send(#"{"op":"components"}"#).response
        #expect(object(field(components, "result.components")).keys.sorted() == ["RNSScreen", "RNSSearchBar"])
        // One new and one unchanged: the new one is added.
        let mixed = client.send(Self.define(untyped: ["RNSScreen", "RNSOther"], id: 3)).response
        #expect(object(field(mixed, "result.components")).keys.sorted() == ["RNSOther"])
        #expect(field(mixed, "result.unchanged") == #"["RNSScreen"]"#)
    }

    /// Every refusal names the path and the problem, and adds nothing (all or nothing).
    @Test(arguments: [
        (
            Self.define(
                schema: Self.module(#""A":{"props":[{"name":"n","typeAnnotation":{"type":"LongTypeAnnotation"}}]}"#)
            ),
            "invalid_schema",
            "define: schema.modules.M.components.A.props[0].typeAnnotation: unknown type annotation 'LongTypeAnnotation'"
        ),
        (
            Self.define(untyped: ["RNSOk", "View"]),
            "invalid_schema",
            "define: untyped[1]: component 'View' is already registered (a built-in) and described differently; "
                + "only an identical description may be given again"
        ),
        (
            Self.define(schema: #"{"modules":[]}"#),
            "invalid_schema",
            "define: schema.modules: expected an object, got an array"
        ),
        (
            Self.define(
                schema: Self.module(
                    #""A":{"events":[{"name":"onCountChange","bubblingType":"direct","typeAnnotation":{"type":"EventTypeAnnotation"}}]}"#
                ),
                untyped: ["RNSOk"]
            ),
            "invalid_schema",
            "define: schema.modules.M.components.A.events[0].bubblingType: event 'countChange' is direct here but "
                + "SwiftUIButton declares it bubbling"
        ),
        (
            #"{"op":"define"}"#, "bad_request",
            "define: missing 'schema' (a codegen schema) or 'untyped' (names of components without one)"
        ),
        (#"{"op":"define","schema":"RNFoo"}"#, "bad_request", "define: 'schema' must be an object, got \"RNFoo\""),
        (
            #"{"op":"define","untyped":[7]}"#, "bad_request",
            "define: 'untyped' must be an array of component names, got 7 in it"
        ),
        (
            #"{"op":"batch","ops":[{"op":"define","untyped":["RNSOk"]}]}"#, "batch_failed",
            "op 0 (define) of the batch failed, nothing was applied: batch: define cannot be part of a batch"
        ),
    ])
    func refusals(_ line: String, code: String, message: String) {
        let client = Client()
        let response = client.send(line).response
        #expect(field(response, "error.code") == "\"\(code)\"")
        #expect(object(response)["error"].flatMap { ($0 as? [String: Any])?["message"] as? String } == message)
        #expect(client.result(#"{"op":"components"}"#) == #"{"components":{}}"#)
        #expect(client.result(#"{"op":"create","tag":1,"component":"RNSOk"}"#) == #""unknown_component""#)
    }

    /// A name this session defined, described otherwise, is refused while views of it exist (naming them), and
    /// replaces the session's description once none does: in `components` (moved to the end), in `create`, and for
    /// its events, which the old description no longer constrains.
    @Test func aSessionsOwnNameIsDescribedAnewOnlyWithoutViews() {
        let client = Client()
        _ = client.send(Self.define(untyped: ["RNSScreen", "RNSOther"]))
        #expect(client.result(#"{"op":"create","tag":1,"component":"View"}"#) == #"{"tag":1}"#)
        #expect(client.result(#"{"op":"create","tag":4,"component":"RNSScreen","parent":1}"#) == #"{"tag":4}"#)
        #expect(client.result(#"{"op":"create","tag":2,"component":"RNSScreen","parent":1}"#) == #"{"tag":2}"#)
        let typed = Self.module(
            #""RNSScreen":{"props":[{"name":"sheetGrabberVisible","typeAnnotation":{"type":"BooleanTypeAnnotation","default":false}}],"events":[{"name":"onAppear","bubblingType":"direct","typeAnnotation":{"type":"EventTypeAnnotation"}}]}"#
        )
        let refused = client.send(Self.define(schema: typed)).response
        #expect(field(refused, "error.code") == #""invalid_schema""#)
        #expect(
            field(refused, "error.message")
                == #""define: schema.modules.M.components.RNSScreen: component 'RNSScreen' is already registered (defined earlier in this session) and described differently, and the session has 2 views of it (tags 2, 4); it may be described anew only once no view of it exists""#
        )
        #expect(client.result(#"{"op":"delete","tag":4}"#) == #"{"deleted":[4]}"#)
        let one = client.send(Self.define(schema: typed)).response
        #expect(field(one, "error.message").contains("has a view of it (tag 2);"))
        // Built-ins are never described anew, views or not.
        #expect(field(client.send(Self.define(untyped: ["RCTSwitch"])).response, "error.code") == #""invalid_schema""#)

        #expect(client.result(#"{"op":"delete","tag":2}"#) == #"{"deleted":[2]}"#)
        let replaced = client.send(Self.define(schema: typed)).response
        #expect(field(replaced, "result.components.RNSScreen.props.sheetGrabberVisible.type") == #""bool""#)
        #expect(field(replaced, "result.components.RNSScreen.untyped") == "<missing>")
        #expect(field(replaced, "result.unchanged") == "[]")
        let listed = client.send(#"{"op":"components"}"#).response
        #expect(field(listed, "result.components").hasPrefix(#"{"RNSOther":"#), "the replaced one last")
        #expect(field(listed, "result.components.RNSScreen") == field(replaced, "result.components.RNSScreen"))
        #expect(client.send(Self.define(schema: typed)).response.contains(#""unchanged":["RNSScreen"]"#))

        let create = #"{"op":"create","tag":3,"component":"RNSScreen","props":{"sheetGrabberVisible":true}}"#
        #expect(client.result(create) == #"{"tag":3}"#)
        #expect(client.result(#"{"op":"update","tag":3,"props":{"anyProp":1}}"#) == #""invalid_props""#)
        #expect(field(client.inspect(3), "result.render") == #""RNSScreen sheetGrabberVisible=true""#)
        #expect(client.result(#"{"op":"subscribe","tag":3,"event":"appear"}"#) == "{}")
        #expect(client.send(#"{"op":"emit","tag":3,"event":"appear"}"#).events.count == 1)

        // Untyped again, now that a view of the typed one exists: refused, naming it.
        let back = client.send(Self.define(untyped: ["RNSScreen"])).response
        #expect(field(back, "error.message").contains("untyped[0]: component 'RNSScreen'"))
        #expect(field(back, "error.message").contains("(tag 3)"))
        // An event kind that only the replaced description declared does not constrain the new one.
        #expect(client.result(#"{"op":"delete","tag":3}"#) == #"{"deleted":[3]}"#)
        let bubbling = Self.module(
            #""RNSScreen":{"events":[{"name":"onAppear","bubblingType":"bubble","typeAnnotation":{"type":"EventTypeAnnotation"}}]}"#
        )
        #expect(
            field(
                client.send(Self.define(schema: bubbling)).response,
                "result.components.RNSScreen.events.appear.bubbles"
            ) == "true"
        )
    }

    @Test func aSessionDefinesAtMostItsLimit() {
        let client = Client()
        let names = (0..<SessionComponents.limit).map { "RNS\($0)" }
        #expect(field(client.send(Self.define(untyped: Array(names.prefix(10)))).response, "ok") == "true")
        let over = client.send(Self.define(untyped: names + ["RNSOneMore"])).response
        #expect(field(over, "error.code") == #""limit_exceeded""#)
        #expect(
            field(over, "error.message")
                == #""define: the session would have defined 1001 components; it may define at most 1000""#
        )
        #expect(field(client.send(Self.define(untyped: names)).response, "ok") == "true")
    }

    /// Another session, and hello, never see a session's components.
    @Test func sessionsAreIsolated() {
        let engine = Engine()
        let first = Client(engine: engine)
        let second = Client(engine: engine)
        let hello = first.send(#"{"op":"hello","protocol":1}"#).response
        _ = first.send(Self.define(schema: Self.searchBar, untyped: ["RNSScreen"]))
        #expect(first.result(#"{"op":"create","tag":1,"component":"RNSScreen"}"#) == #"{"tag":1}"#)
        #expect(second.result(#"{"op":"create","tag":1,"component":"RNSScreen"}"#) == #""unknown_component""#)
        #expect(second.result(#"{"op":"create","tag":2,"component":"View"}"#) == #"{"tag":2}"#)
        #expect(second.result(#"{"op":"subscribe","tag":2,"event":"searchButtonPress"}"#) == #""unknown_event""#)
        #expect(second.result(#"{"op":"components"}"#) == #"{"components":{}}"#)
        #expect(first.send(#"{"op":"hello","protocol":1}"#).response == hello, "hello's result is unchanged")
        #expect(Client(engine: engine).send(#"{"op":"hello","protocol":1}"#).response.contains("RNSScreen") == false)
    }

    /// A session's components are saved with it and come back on load, also in a resume; a daemon that now
    /// serves one of those names otherwise drops the session.
    @Test func theStateFileKeepsThem() throws {
        let engine = Engine()
        let client = Client(engine: engine)
        _ = client.send(Self.define(schema: Self.searchBar, untyped: ["RNSScreen"]))
        _ = client.send(#"{"op":"create","tag":1,"component":"RNSScreen","props":{"sheet":[1,2]}}"#)
        _ = client.send(#"{"op":"create","tag":2,"component":"RNSSearchBar","parent":1,"props":{"placeholder":"a"}}"#)
        _ = client.send(#"{"op":"subscribe","tag":1,"event":"appear"}"#)
        let before = (client.inspect(1), client.inspect(2), client.send(#"{"op":"components"}"#).response)
        let session = client.session
        client.connection.close()
        let saved = engine.saveState()
        #expect(String(decoding: saved, as: UTF8.self).contains(#""defined":{"RNSSearchBar":"#))

        let restarted = Engine()
        #expect(try restarted.loadState(saved) == 1)
        #expect(restarted.saveState() == saved, "saved again byte for byte")
        let resumed = Client(engine: restarted, hello: false)
        #expect(field(resumed.send(resumeLine(session, ack: 0)).response, "result.resumed") == "true")
        #expect((resumed.inspect(1), resumed.inspect(2), resumed.send(#"{"op":"components"}"#).response) == before)
        #expect(resumed.send(#"{"op":"emit","tag":1,"event":"appear"}"#).events.count == 1)
        #expect(resumed.result(#"{"op":"create","tag":3,"component":"RNSSearchBar"}"#) == #"{"tag":3}"#)

        // A daemon that serves RNSScreen itself, described otherwise, drops the session.
        var schemas = CodegenSchema()
        try schemas.load(Array(Self.module(#""RNSScreen":{}"#).utf8), file: "screen.json")
        let other = Engine(registry: schemas.registry)
        var dropped: [DroppedSession] = []
        #expect(try other.loadState(saved, dropped: &dropped) == 0)
        #expect(dropped == [DroppedSession(session: session.id, component: "RNSScreen", reason: .changed)])
    }
}
