import BridgeCore
import Testing

@Suite("Framing, hello and protocol errors")
struct ProtocolTests {
    @Test func helloMustComeFirst() {
        let client = Client(hello: false)
        #expect(client.result(#"{"id":1,"op":"ping"}"#) == #""hello_required""#)
        #expect(client.result(#"{"id":2,"op":"hello","protocol":2}"#) == #""unsupported_protocol""#)
        #expect(client.result(#"{"id":3,"op":"hello"}"#) == #""bad_request""#)
        let hello = client.send(#"{"id":4,"op":"hello","protocol":1,"client":"t"}"#).response
        #expect(field(hello, "result.protocol") == "1")
        #expect(field(hello, "result.session") == #""test""#)
        #expect(field(hello, "result.components.SwiftUIButton.props.count") == #"{"default":0,"type":"int"}"#)
        #expect(
            field(hello, "result.components.SwiftUIButton.events.countChange")
                == #"{"bubbles":true,"payload":{"count":{"default":null,"optional":false,"type":"int"}},"registrationNames":{"bubbled":"onCountChange","captured":"onCountChangeCapture"}}"#
        )
        #expect(
            field(hello, "result.components.TextField.events.commit")
                == #"{"bubbles":false,"payload":{"text":{"default":null,"optional":false,"type":"string"}},"registrationName":"onCommit"}"#
        )
        #expect(
            field(hello, "result.components.TextField.commands.type")
                == #"{"args":["string"],"params":[{"name":"text","type":"string"}]}"#
        )
        #expect(
            field(hello, "result.components.TextField.props.clearButtonMode")
                == #"{"default":"whileEditing","type":"enum","values":["never","whileEditing","unlessEditing","always"]}"#
        )
        #expect(field(hello, "result.components.TextField.props.color") == ##"{"default":"#000000ff","type":"color"}"##)
        #expect(client.result(#"{"id":5,"op":"ping"}"#) == "{}")
    }

    @Test(
        "lines that are not JSON objects",
        arguments: [
            ("not json", "bad_json"),
            // Valid JSON that the reader refuses is never bad_json: duplicate keys are a bad request.
            (#"{"op":"ping","op":"ping"}"#, "bad_request"),
            ("{\"op\":\"ping\",\"x\":\"\u{FFFD}\"", "bad_json"),
            ("[1,2]", "bad_request"),
            ("42", "bad_request"),
            (#"{"id":1}"#, "bad_request"),
            (#"{"id":1,"op":7}"#, "bad_request"),
            (#"{"id":[1],"op":"ping"}"#, "bad_request"),
            (#"{"id":1,"op":"fly"}"#, "unknown_op"),
        ]
    )
    func badLines(line: String, code: String) {
        let client = Client()
        let response = client.send(line).response
        #expect(field(response, "ok") == "false")
        #expect(field(response, "error.code") == "\"\(code)\"")
        #expect(client.result(#"{"id":9,"op":"ping"}"#) == "{}", "the session goes on")
    }

    @Test func invalidUTF8IsBadJSON() {
        let client = Client()
        var out: [UInt8] = []
        let bytes: [UInt8] = Array(#"{"op":"ping","x":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        bytes.withUnsafeBytes { _ = client.connection.handle(line: $0, into: &out) }
        let frame = String(decoding: out, as: UTF8.self)
        #expect(field(frame, "error.code") == #""bad_json""#)
        #expect(field(frame, "id") == "null")
    }

    @Test func idIsEchoed() {
        let client = Client()
        #expect(field(client.send(#"{"id":"abc","op":"ping"}"#).response, "id") == #""abc""#)
        #expect(field(client.send(#"{"id":-7,"op":"ping"}"#).response, "id") == "-7")
        #expect(field(client.send(#"{"op":"ping"}"#).response, "id") == "null")
        #expect(field(client.send(#"{"id":"x","op":"nope"}"#).response, "id") == #""x""#)
    }

    @Test func blankLinesAreKeepAlivesAndCRLFIsTolerated() {
        let client = Client()
        #expect(client.connection.handle(line: "").isEmpty)
        #expect(client.connection.handle(line: "\r").isEmpty)
        #expect(client.connection.handle(line: "{\"id\":1,\"op\":\"ping\"}\r") == [#"{"id":1,"ok":true,"result":{}}"#])
    }

    @Test func responsesAreCompactSingleLines() {
        let client = Client()
        let frames = client.connection.handle(line: #"{"id":1,"op":"create","tag":1,"component":"View"}"#)
        #expect(frames == [#"{"id":1,"ok":true,"result":{"tag":1}}"#])
    }

    @Test func statsCountSessionsAndViews() {
        let engine = Engine()
        let a = Client(engine: engine)
        let b = Client(engine: engine)
        a.send(#"{"op":"create","tag":1,"component":"View"}"#)
        b.send(#"{"op":"create","tag":1,"component":"View"}"#)
        b.send(#"{"op":"create","tag":2,"component":"View"}"#)
        let stats = b.send(#"{"op":"stats"}"#).response
        #expect(field(stats, "result.sessions") == "2")
        #expect(field(stats, "result.sessionViews") == "2")
        #expect(field(stats, "result.views") == "3", "this engine's views, whatever other engines of the process hold")
        b.send(#"{"op":"delete","tag":1}"#)
        #expect(field(a.send(#"{"op":"stats"}"#).response, "result.views") == "2")
        a.session.close()
        #expect(field(b.send(#"{"op":"stats"}"#).response, "result.views") == "1")
    }
}
