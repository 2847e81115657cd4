import BridgeCore
import Observation
import PropStore
import Testing

/// An object prop's struct: a required point, optional insets and label.
struct Marker: PropStruct {
    var position = Point()
    var insets = EdgeInsets()
    var label: String? = nil
    var kind = Kind.pin
    init() {}

    enum Kind: Int32, CaseIterable, Sendable, Int32EnumProp {
        case pin = 0
        case flag = 1
        case star = 7
    }

    static let fields: [Field<Marker>] = [
        .required("position", \.position),
        .optional("insets", \.insets),
        .optional("label", \.label),
        .optional("kind", \.kind),
    ]
}

/// A string enum prop's values.
enum Weather: String, CaseIterable, Sendable, StringEnumProp {
    case sun, rain
}

@Observable
final class EveryTypeProps: ViewProps {
    var count = 0
    var visible = true
    var weather = Weather.sun
    var small: Int32 = 0
    var ratio: Float = 0.5
    var precise = 0.0
    var level = Marker.Kind.pin
    var origin: Point?
    var padding: EdgeInsets?
    var image: ImageSource?
    var width: Dimension = .auto
    var tags: [String] = []
    var grid: [[Int32]]?
    var marker: Marker?
    var markers: [Marker] = []
    var extra: JSONValue = .null
    var tint: Color?
    init() {}
}

/// Every prop type, each bound to a natural Swift type (``PropTypeTests/OverTheEngine/everyKindOfTypeIsAProp``).
enum EveryType: Component {
    static let name = "EveryType"
    static let props: [Prop<EveryTypeProps>] = [
        .prop("count", \.count),
        .prop("visible", \.visible),
        .prop("weather", \.weather),
        .prop("small", \.small),
        .prop("ratio", \.ratio),
        .prop("precise", \.precise),
        .enumeration("level", \.level),
        .prop("origin", \.origin),
        .prop("padding", \.padding),
        .prop("image", \.image),
        .prop("width", \.width),
        .prop("tags", \.tags),
        .prop("grid", \.grid),
        .prop("marker", \.marker),
        .prop("markers", \.markers),
        .prop("extra", \.extra),
        .prop("tint", \.tint),
    ]
    static let events: [EventSpec] = [.bubbling("moved", payload: [PropField("to", .point)])]
    static let commands: [Command<EveryTypeProps>] = [
        Command(
            "place",
            params: [CommandParam("marker", Marker.propType), CommandParam("animated", .bool)],
            emits: ["moved"]
        ) { ctx in
            guard let marker = ctx.arg(0, as: Marker.self) else { return }
            ctx.set(\.marker, marker)
            ctx.emit("moved", ["to": marker.position.propValue])
        }
    ]
    static func render(_ props: EveryTypeProps) -> String {
        "EveryType markers=\(props.markers.count) first=\(props.markers.first?.label ?? "-")"
    }
}

extension PropTypeTests {
    @Suite("every type, over the engine")
    struct OverTheEngine {
        /// EveryType has a prop of every kind of type (in an array's elements or an object's fields counts).
        @Test func everyKindOfTypeIsAProp() {
            var kinds = Set<PropType.Kind>()
            func collect(_ type: PropType) {
                kinds.insert(type.kind)
                if case .array(let element) = type { collect(element) }
                if case .object(let fields) = type { for field in fields { collect(field.type) } }
            }
            for prop in EveryType.props { collect(prop.type) }
            let missing = PropType.Kind.allCases.filter { !kinds.contains($0) }.map(\.rawValue)
            #expect(missing.isEmpty, "EveryType (PropTypeTests+Engine.swift) has no prop of type \(missing)")
        }

        func client() throws -> Client {
            var registry = ComponentRegistry.builtin
            try registry.register(EveryType.self)
            let client = Client(engine: Engine(registry: registry))
            client.send(#"{"op":"create","tag":1,"component":"EveryType"}"#)
            return client
        }

        func prop(_ client: Client, _ name: String) -> String { field(client.inspect(1), "result.props.\(name)") }

        @Test func defaultsAndPropsWithoutDefaultsAreNull() throws {
            let client = try client()
            #expect(prop(client, "small") == "0")
            #expect(prop(client, "ratio") == "0.5")
            #expect(prop(client, "level") == "0")
            #expect(prop(client, "width") == #""auto""#)
            client.send(#"{"op":"update","tag":1,"props":{"width":5}}"#)
            #expect(client.result(#"{"op":"update","tag":1,"props":{"width":"auto"}}"#) == #"{"changed":["width"]}"#)
            for name in ["origin", "padding", "image", "grid", "marker", "tint", "extra"] {
                #expect(prop(client, name) == "null", "\(name)")
            }
            #expect(prop(client, "tags") == "[]")
        }

        @Test(
            "accepted values are reported as converted",
            arguments: [
                ("small", "2147483647", "2147483647"),
                ("small", "-2147483648", "-2147483648"),
                ("small", "5.0", "5"),
                ("ratio", "0.1", "0.1"),
                ("ratio", "1e38", "1e+38"),
                ("ratio", "3", "3.0"),
                ("precise", "0.1", "0.1"),
                ("level", "7", "7"),
                ("origin", #"{"x":1,"y":-2.5}"#, #"{"x":1.0,"y":-2.5}"#),
                ("padding", #"{"top":4}"#, #"{"bottom":0.0,"left":0.0,"right":0.0,"top":4.0}"#),
                ("image", #""https://x/a.png""#, #"{"uri":"https://x/a.png"}"#),
                (
                    "image", #"{"uri":"a.png","scale":2,"headers":{"Auth":"t"},"cache":"reload"}"#,
                    #"{"cache":"reload","headers":{"Auth":"t"},"scale":2.0,"uri":"a.png"}"#
                ),
                ("width", "12.5", "12.5"),
                ("width", #""50%""#, #""50%""#),
                ("tags", #"["a","b"]"#, #"["a","b"]"#),
                ("grid", "[[1,2],[],[3]]", "[[1,2],[],[3]]"),
                (
                    "marker", #"{"position":{"x":1,"y":2}}"#,
                    #"{"insets":{"bottom":0.0,"left":0.0,"right":0.0,"top":0.0},"kind":0,"label":null,"position":{"x":1.0,"y":2.0}}"#
                ),
                ("extra", #"{"b":[1,{"c":null}],"a":"x"}"#, #"{"a":"x","b":[1,{"c":null}]}"#),
                ("tint", ##""#F00""##, ##""#ff0000ff""##),
            ]
        )
        func accepted(name: String, value: String, reported: String) throws {
            let client = try client()
            #expect(
                client.result(#"{"op":"update","tag":1,"props":{"\#(name)":\#(value)}}"#)
                    == #"{"changed":["\#(name)"]}"#
            )
            #expect(prop(client, name) == canonical(reported))
            // On the wire the value is the shortest text that reads back as it (not jansson's 17 digits).
            if name == "ratio" || name == "precise" { #expect(client.inspect(1).contains(#""\#(name)":\#(reported)"#)) }
        }

        @Test func mixedKeepsMemberOrder() throws {
            let client = try client()
            client.send(#"{"op":"update","tag":1,"props":{"extra":{"z":1,"a":2,"m":[3]}}}"#)
            // Not canonicalised: the raw text keeps the order the client wrote.
            #expect(client.inspect(1).contains(#""extra":{"z":1,"a":2,"m":[3]}"#))
        }

        @Test(
            "refused values name the place inside the value",
            arguments: [
                ("small", "2147483648", ["small"]),
                ("small", "1.5", ["small"]),
                ("ratio", "1e39", ["ratio"]),
                ("ratio", #""1""#, ["ratio"]),
                ("level", "2", ["level"]),
                ("origin", #"{"x":1}"#, ["origin.y"]),
                ("origin", #"{"x":1,"y":2,"z":3}"#, ["origin.z"]),
                ("padding", #"{"top":"4","middle":1}"#, ["padding.top", "padding.middle"]),
                ("image", #"{"width":3}"#, ["image.uri"]),
                ("image", #"{"uri":"a","size":3}"#, ["image.size"]),
                ("width", #""50""#, ["width"]),
                ("tags", #"["a",1,"b",false]"#, ["tags[1]", "tags[3]"]),
                ("grid", "[[1],[2,\"x\"],3]", ["grid[1][1]", "grid[2]"]),
                ("marker", #"{"label":"a"}"#, ["marker.position"]),
                ("marker", #"{"position":{"x":1,"y":2},"color":"red"}"#, ["marker.color"]),
                (
                    "markers", #"[{"position":{"x":1,"y":2}},{"position":{"x":"a","y":2},"kind":3}]"#,
                    ["markers[1].position.x", "markers[1].kind"]
                ),
            ]
        )
        func refused(name: String, value: String, paths: [String]) throws {
            let client = try client()
            let before = client.inspect(1)
            let response = client.send(#"{"id":7,"op":"update","tag":1,"props":{"\#(name)":\#(value)}}"#).response
            #expect(field(response, "id") == "7")
            #expect(field(response, "error.code") == #""invalid_props""#)
            let details = try #require(object(response)["error"] as? [String: Any])["details"] as? [[String: Any]]
            #expect(details?.compactMap { $0["path"] as? String } == paths)
            #expect(details?.allSatisfy { $0["prop"] as? String == name } == true)
            #expect(client.inspect(1) == before, "nothing applied")
        }

        @Test func nullResetsToTheDefaultOrToNull() throws {
            let client = try client()
            client.send(#"{"op":"update","tag":1,"props":{"small":3,"origin":{"x":1,"y":1},"tags":["a"]}}"#)
            #expect(
                client.result(#"{"op":"update","tag":1,"props":{"small":null,"origin":null,"tags":null}}"#)
                    == #"{"changed":["small","origin","tags"]}"#
            )
            #expect(prop(client, "small") == "0")
            #expect(prop(client, "origin") == "null")
            #expect(prop(client, "tags") == "[]")
        }

        /// iOS reads text ending in `%` as a percentage (`RCTConvert`'s `YGValue:`, `NSScanner`'s `scanFloat:`); one
        /// whose number it cannot read (`${a / 0}%` before a layout, `"%"`) is `YGValueUndefined`, no error: unset.
        @Test(arguments: [#""-Infinity%""#, #""NaN%""#, #""Infinity%""#, #""%""#, #""abc%""#])
        func aPercentageWithNoNumberIOSReadsResetsToTheDefault(value: String) throws {
            let client = try client()
            client.send(#"{"op":"update","tag":1,"props":{"width":"40%"}}"#)
            #expect(
                client.result(#"{"op":"update","tag":1,"props":{"width":\#(value)}}"#) == #"{"changed":["width"]}"#
            )
            #expect(prop(client, "width") == #""auto""#)
        }

        @Test func equalAfterConversionChangesNothingAndRendersNothing() throws {
            let client = try client()
            client.send(
                ##"{"op":"update","tag":1,"props":{"ratio":0.1,"tint":"#F00","markers":[{"position":{"x":1,"y":2}}]}}"##
            )
            let renders = field(client.inspect(1), "result.renders")
            #expect(
                client.result(
                    ##"{"op":"update","tag":1,"props":{"ratio":0.10000000149011612,"tint":"#ff0000","markers":[{"position":{"x":1.0,"y":2},"kind":0}]}}"##
                ) == #"{"changed":[]}"#
            )
            #expect(field(client.inspect(1), "result.renders") == renders)
        }

        @Test func aChangeInsideAnArrayRendersAViewThatReadIt() throws {
            let client = try client()
            client.send(#"{"op":"update","tag":1,"props":{"markers":[{"position":{"x":1,"y":2},"label":"a"}]}}"#)
            #expect(field(client.inspect(1), "result.render") == #""EveryType markers=1 first=a""#)
            let renders = Int(field(client.inspect(1), "result.renders"))!
            client.send(#"{"op":"update","tag":1,"props":{"markers":[{"position":{"x":1,"y":2},"label":"b"}]}}"#)
            #expect(field(client.inspect(1), "result.render") == #""EveryType markers=1 first=b""#)
            #expect(Int(field(client.inspect(1), "result.renders")) == renders + 1)
            // A prop the render does not read changes nothing visible and renders nothing.
            client.send(#"{"op":"update","tag":1,"props":{"small":9}}"#)
            #expect(Int(field(client.inspect(1), "result.renders")) == renders + 1)
        }

        @Test func everyBadElementIsListedUpToTheCap() throws {
            let client = try client()
            let bad = "[" + (0..<50).map(String.init).joined(separator: ",") + "]"
            let response = client.send(#"{"op":"update","tag":1,"props":{"tags":\#(bad)}}"#).response
            let details = try #require((object(response)["error"] as? [String: Any])?["details"] as? [[String: Any]])
            #expect(details.count == PropLimits.standard.maxIssues + 1)
            #expect(details[0]["path"] as? String == "tags[0]")
            #expect(details.last?["more"] as? Int == 50 - PropLimits.standard.maxIssues)
        }

        @Test func limitsRefuseTheProp() throws {
            let client = try client()
            let long =
                "[" + Array(repeating: "\"a\"", count: PropLimits.standard.maxArrayElements + 1).joined(separator: ",")
                + "]"
            #expect(client.result(#"{"op":"update","tag":1,"props":{"tags":\#(long)}}"#) == #""invalid_props""#)
            let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
            let response = client.send(#"{"op":"update","tag":1,"props":{"extra":\#(deep)}}"#).response
            #expect(field(response, "error.code") == #""invalid_props""#)
            #expect(field(response, "error.details.0.message").contains("deeper than"))
            // Deeper than jansson reads at all: limit_exceeded with the request's id, never bad_json.
            let deeper = String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000)
            let refused = client.send(#"{"id":"deep","op":"update","tag":1,"props":{"extra":\#(deeper)}}"#).response
            #expect(field(refused, "id") == #""deep""#)
            #expect(field(refused, "error.code") == #""limit_exceeded""#)
            #expect(client.result(#"{"op":"ping"}"#) == "{}")
        }

        @Test func validJSONTheReaderRefusesKeepsItsID() throws {
            let client = try client()
            let big = client.send(#"{"id":3,"op":"update","tag":1,"props":{"small":9223372036854775808}}"#).response
            #expect(field(big, "id") == "3")
            #expect(field(big, "error.code") == #""invalid_props""#)
            #expect(field(big, "error.details.0.path") == #""small""#)
            let tag = client.send(#"{"id":4,"op":"update","tag":18446744073709551616,"props":{}}"#).response
            #expect(field(tag, "id") == "4")
            #expect(field(tag, "error.code") == #""bad_request""#)
            let nul = client.send(#"{"id":5,"op":"update","tag":1,"props":{"a\u0000b":1}}"#).response
            #expect(field(nul, "id") == "5")
            #expect(field(nul, "error.code") == #""bad_request""#)
            #expect(field(client.send(#"{"id":6,"op":"ping""#).response, "error.code") == #""bad_json""#)
        }

        @Test func commandArgumentsAndPayloadsAreTypedWithPaths() throws {
            let client = try client()
            client.send(#"{"op":"subscribe","tag":1,"event":"moved"}"#)
            let bad = client.send(#"{"op":"command","tag":1,"name":"place","args":[{"position":{"x":"a"}},1]}"#)
                .response
            #expect(field(bad, "error.code") == #""invalid_args""#)
            let details = try #require((object(bad)["error"] as? [String: Any])?["details"] as? [[String: Any]])
            #expect(
                details.compactMap { $0["path"] as? String } == ["marker.position.x", "marker.position.y", "animated"]
            )
            #expect(details.compactMap { $0["arg"] as? Int } == [0, 0, 1])
            #expect(field(client.inspect(1), "result.commands") == "[]", "a refused command is not logged")
            let placed = client.send(
                #"{"op":"command","tag":1,"name":"place","args":[{"position":{"x":3,"y":4}},true]}"#
            )
            #expect(placed.events.count == 1)
            #expect(field(placed.events[0], "payload") == #"{"to":{"x":3.0,"y":4.0}}"#)
            #expect(
                field(client.inspect(1), "result.commands")
                    == canonical(
                        #"[{"name":"place","args":[{"position":{"x":3.0,"y":4.0},"insets":{"top":0.0,"left":0.0,"bottom":0.0,"right":0.0},"label":null,"kind":0},true]}]"#
                    )
            )
            let emitted = client.send(#"{"op":"emit","tag":1,"event":"moved","payload":{"to":{"x":1}}}"#).response
            #expect(field(emitted, "error.code") == #""invalid_payload""#)
            #expect(field(emitted, "error.details.0.path") == #""to.y""#)
        }

        @Test func everyTypeSurvivesTheStateFile() throws {
            var registry = ComponentRegistry.builtin
            try registry.register(EveryType.self)
            let engine = Engine(registry: registry)
            let connection = engine.connect()
            _ = connection.handle(line: #"{"op":"hello","protocol":1}"#)
            _ = connection.handle(
                line:
                    ##"{"op":"create","tag":1,"component":"EveryType","props":{"small":-7,"ratio":0.1,"level":7,"origin":{"x":1,"y":2},"padding":{"left":3},"image":{"uri":"a.png","headers":{"X":"y"}},"width":"50%","tags":["a"],"grid":[[1],[2,3]],"marker":{"position":{"x":0,"y":1},"label":"m"},"markers":[{"position":{"x":5,"y":5}}],"extra":{"z":[1,null,"s"],"a":true},"tint":"#123"}}"##
            )
            _ = connection.handle(
                line: #"{"op":"command","tag":1,"name":"place","args":[{"position":{"x":3,"y":4}},false]}"#
            )
            let before = connection.handle(line: #"{"op":"inspect","tag":1}"#)[0]
            connection.close()
            let saved = engine.saveState()
            let restarted = Engine(registry: registry)
            #expect(try restarted.loadState(saved) == 1)
            #expect(restarted.saveState() == saved)
            let resumed = restarted.connect()
            let session = try #require(object(before).isEmpty ? nil : connection.session)
            _ = resumed.handle(line: resumeLine(session, ack: 0))
            #expect(resumed.handle(line: #"{"op":"inspect","tag":1}"#)[0] == before)
        }

        @Test func theHelloDescribesWholeTypes() throws {
            let client = try client()
            let hello = client.send(#"{"op":"hello","protocol":1}"#).response
            let props = "result.components.EveryType.props"
            #expect(field(hello, "\(props).small") == #"{"default":0,"type":"int32"}"#)
            #expect(field(hello, "\(props).level") == #"{"default":0,"type":"int32Enum","values":[0,1,7]}"#)
            #expect(
                field(hello, "\(props).grid")
                    == #"{"default":null,"elements":{"elements":{"type":"int32"},"type":"array"},"type":"array"}"#
            )
            #expect(
                field(hello, "\(props).marker.fields.position")
                    == #"{"default":{"x":0.0,"y":0.0},"optional":false,"type":"point"}"#
            )
            #expect(
                field(hello, "\(props).marker.fields.label") == #"{"default":null,"optional":true,"type":"string"}"#
            )
            #expect(field(hello, "\(props).marker.fields.kind.values") == "[0,1,7]")
            #expect(field(hello, "\(props).extra") == #"{"default":null,"type":"mixed"}"#)
            #expect(
                field(hello, "result.components.EveryType.commands.place.params.1")
                    == #"{"name":"animated","type":"bool"}"#
            )
        }
    }
}
