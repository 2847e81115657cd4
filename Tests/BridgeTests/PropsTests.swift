import BridgeCore
import Testing

@Suite("Typed props, atomic updates, null reset and renders")
struct PropsTests {
    @Test func createUpdateInspect() {
        let client = Client()
        #expect(
            client.result(#"{"op":"create","tag":5,"component":"SwiftUIButton","props":{"title":"Tap","count":2}}"#)
                == #"{"tag":5}"#
        )
        #expect(
            client.result(#"{"op":"update","tag":5,"props":{"count":3,"title":"Tap"}}"#) == #"{"changed":["count"]}"#
        )
        let inspect = client.inspect(5)
        #expect(
            field(inspect, "result")
                == canonical(
                    #"{"tag":5,"component":"SwiftUIButton","props":{"count":3,"title":"Tap","disabled":false},"#
                        + #""parent":null,"children":[],"render":"Button \"Tap\" count=3","renders":1,"commands":[]}"#
                )
        )
    }

    @Test func nullResetsToDefault() {
        let client = Client()
        client.send(##"{"op":"create","tag":1,"component":"TextField","props":{"fontSize":30,"color":"#f00"}}"##)
        #expect(
            client.result(#"{"op":"update","tag":1,"props":{"fontSize":null,"color":null}}"#)
                == #"{"changed":["fontSize","color"]}"#
        )
        #expect(field(client.inspect(1), "result.props.fontSize") == "17.0")
        #expect(field(client.inspect(1), "result.props.color") == ##""#000000ff""##)
    }

    @Test func invalidUpdateIsAtomicAndListsEveryBadProp() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"SwiftUIButton","props":{"count":1}}"#)
        let response = client.send(
            #"{"id":2,"op":"update","tag":1,"props":{"title":"ok","count":"abc","colour":1,"disabled":1}}"#
        ).response
        #expect(field(response, "error.code") == #""invalid_props""#)
        #expect(
            field(response, "error.details.0")
                == canonical(
                    #"{"prop":"count","path":"count","expected":"int","got":"abc","message":"JSON value 'abc' of type string cannot be converted to int"}"#
                )
        )
        #expect(field(response, "error.details.1.prop") == #""colour""#)
        #expect(field(response, "error.details.1.message") == #""SwiftUIButton has no prop 'colour'""#)
        #expect(field(response, "error.details.2.prop") == #""disabled""#)
        #expect(field(response, "error.details.3") == "<missing>")
        #expect(
            field(client.inspect(1), "result.props") == #"{"count":1,"disabled":false,"title":""}"#,
            "nothing applied"
        )
        #expect(field(client.inspect(1), "result.renders") == "1")
    }

    @Test func invalidCreateCreatesNothing() {
        let client = Client()
        #expect(
            client.result(#"{"op":"create","tag":1,"component":"Slider","props":{"value":"x"}}"#) == #""invalid_props""#
        )
        #expect(client.result(#"{"op":"inspect","tag":1}"#) == #""unknown_tag""#)
        #expect(client.result(#"{"op":"create","tag":1,"component":"Slider","props":{"value":0.5}}"#) == #"{"tag":1}"#)
    }

    @Test func stringsAreByteExact() {
        let client = Client()
        let title = #"nul\u0000 astral😀 \uD83D\uDE00 quote\" back\\ tab\t ctl\u001f é"#
        client.send(#"{"op":"create","tag":1,"component":"SwiftUIButton","props":{"title":"\#(title)"}}"#)
        let frame = client.inspect(1)
        #expect(frame.contains(#""title":"nul\u0000 astral😀 😀 quote\" back\\ tab\t ctl\u001f é""#))
    }

    @Test func intEdgesOverTheWire() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"SwiftUIButton"}"#)
        #expect(
            client.result(#"{"op":"update","tag":1,"props":{"count":9223372036854775807}}"#)
                == #"{"changed":["count"]}"#
        )
        #expect(field(client.inspect(1), "result.props.count") == "9223372036854775807")
        #expect(
            client.result(#"{"op":"update","tag":1,"props":{"count":-9223372036854775808}}"#)
                == #"{"changed":["count"]}"#
        )
        #expect(client.result(#"{"op":"update","tag":1,"props":{"count":5.0}}"#) == #"{"changed":["count"]}"#)
        #expect(field(client.inspect(1), "result.props.count") == "5")
        // Valid JSON beyond the 64-bit range: read as a real, refused by the prop it is in (never bad_json).
        #expect(client.result(#"{"op":"update","tag":1,"props":{"count":9223372036854775808}}"#) == #""invalid_props""#)
        #expect(client.result(#"{"op":"update","tag":1,"props":{"count":1.5}}"#) == #""invalid_props""#)
        #expect(client.result(#"{"op":"update","tag":1,"props":{"count":true}}"#) == #""invalid_props""#)
    }

    @Test func colorsAndEnums() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"TextField"}"#)
        #expect(client.result(#"{"op":"update","tag":1,"props":{"color":4278255360}}"#) == #"{"changed":["color"]}"#)
        #expect(field(client.inspect(1), "result.props.color") == ##""#00ff00ff""##)
        #expect(client.result(##"{"op":"update","tag":1,"props":{"color":"#00FF00"}}"##) == ##"{"changed":[]}"##)
        #expect(
            client.result(#"{"op":"update","tag":1,"props":{"clearButtonMode":"always"}}"#)
                == #"{"changed":["clearButtonMode"]}"#
        )
        #expect(
            client.result(#"{"op":"update","tag":1,"props":{"clearButtonMode":"sometimes"}}"#) == #""invalid_props""#
        )
    }

    @Test func rendersCountOnlyObservedChanges() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"SwiftUIButton"}"#)
        #expect(field(client.inspect(1), "result.renders") == "1")
        client.send(#"{"op":"update","tag":1,"props":{"count":1,"title":"A"}}"#)
        #expect(field(client.inspect(1), "result.renders") == "2", "two props, one render")
        client.send(#"{"op":"update","tag":1,"props":{"count":1,"title":"A"}}"#)
        #expect(field(client.inspect(1), "result.renders") == "2", "no change, no render")
        #expect(field(client.inspect(1), "result.renders") == "2", "looking does not render")
        client.send(#"{"op":"update","tag":1,"props":{"count":2}}"#)
        client.send(#"{"op":"update","tag":1,"props":{"count":3}}"#)
        #expect(field(client.inspect(1), "result.renders") == "3", "changes coalesce until the next render")
        #expect(field(client.inspect(1), "result.render") == #""Button \"A\" count=3""#)
        client.send(
            #"{"op":"batch","ops":[{"op":"update","tag":1,"props":{"count":4}},{"op":"update","tag":1,"props":{"count":5}}]}"#
        )
        #expect(field(client.inspect(1), "result.renders") == "4")
        client.send(#"{"op":"update","tag":1,"props":{"count":6}}"#)
        client.send(#"{"op":"update","tag":1,"props":{"count":5}}"#)
        #expect(field(client.inspect(1), "result.renders") == "5", "changed and changed back still invalidates")
    }

    @Test func failedBatchLeavesRenderStateAlone() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"SwiftUIButton"}"#)
        client.send(#"{"op":"create","tag":2,"component":"SwiftUIButton"}"#)
        #expect(field(client.inspect(1), "result.renders") == "1")
        client.send(#"{"op":"update","tag":2,"props":{"count":1}}"#)
        client.send(
            #"{"op":"batch","ops":[{"op":"update","tag":1,"props":{"count":9}},{"op":"update","tag":2,"props":{"count":9}},{"op":"update","tag":3,"props":{}}]}"#
        )
        #expect(field(client.inspect(1), "result.renders") == "1", "clean before, clean after the rollback")
        #expect(field(client.inspect(2), "result.renders") == "1", "2 never rendered: its first render now")
        #expect(field(client.inspect(2), "result.render") == #""Button \"\" count=1""#)
    }

    @Test func propsNotReadByRenderDoNotRender() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"Slider"}"#)
        #expect(field(client.inspect(1), "result.renders") == "1")
        client.send(#"{"op":"update","tag":1,"props":{"step":0.5}}"#)
        #expect(field(client.inspect(1), "result.renders") == "1", "Slider's render does not read step")
        client.send(#"{"op":"update","tag":1,"props":{"value":0.5}}"#)
        #expect(field(client.inspect(1), "result.renders") == "2")
    }

    @Test func unknownComponentAndTags() {
        let client = Client()
        #expect(client.result(#"{"op":"create","tag":1,"component":"Nope"}"#) == #""unknown_component""#)
        #expect(client.result(#"{"op":"create","tag":0,"component":"View"}"#) == #""bad_request""#)
        #expect(client.result(#"{"op":"create","tag":"1","component":"View"}"#) == #""bad_request""#)
        #expect(client.result(#"{"op":"update","tag":1,"props":{}}"#) == #""unknown_tag""#)
        #expect(client.result(#"{"op":"create","tag":1,"component":"View"}"#) == #"{"tag":1}"#)
        #expect(client.result(#"{"op":"create","tag":1,"component":"View"}"#) == #""tag_in_use""#)
        #expect(client.result(#"{"op":"update","tag":1}"#) == #""bad_request""#)
    }

    @Test func limitExceeded() {
        var configuration = Engine.Configuration()
        configuration.maxViewsPerSession = 2
        configuration.maxOpsPerBatch = 3
        let client = Client(engine: Engine(configuration: configuration))
        client.send(#"{"op":"create","tag":1,"component":"View"}"#)
        client.send(#"{"op":"create","tag":2,"component":"View"}"#)
        #expect(client.result(#"{"op":"create","tag":3,"component":"View"}"#) == #""limit_exceeded""#)
        #expect(
            client.result(#"{"op":"batch","ops":[{"op":"ping"},{"op":"ping"},{"op":"ping"},{"op":"ping"}]}"#)
                == #""limit_exceeded""#
        )
        client.send(#"{"op":"delete","tag":2}"#)
        #expect(client.result(#"{"op":"create","tag":3,"component":"View"}"#) == #"{"tag":3}"#)
    }
}
