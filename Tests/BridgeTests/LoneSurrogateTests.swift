import BridgeCore
import Testing

/// A lone UTF-16 surrogate escape (`"\ud800"`, what `JSON.stringify` writes for half an emoji) is valid JSON
/// that the JSON reader refuses: it is answered with the request's `id` and says what is wrong, never `bad_json`.
@Suite("Lone surrogate escapes")
struct LoneSurrogateTests {
    @Test(arguments: [
        (#"{"id":7,"op":"create","tag":1,"component":"SwiftUIButton","props":{"title":"\ud800"}}"#, "7", #"\ud800"#),
        (#"{"id":"a","op":"ping","x":"ok \uDC00"}"#, #""a""#, #"\uDC00"#),
        (#"{"op":"ping","id":8,"x":["\ud83d\u0041"]}"#, "8", #"\ud83d"#),
        (#"{"id":9,"op":"ping","\ud800":1}"#, "9", #"\ud800"#),
    ])
    func aLoneSurrogateIsABadRequestWithItsID(line: String, id: String, escape: String) {
        let client = Client()
        let response = client.send(line).response
        #expect(field(response, "id") == id)
        #expect(field(response, "error.code") == #""bad_request""#)
        let message = field(response, "error.message")
        #expect(message.contains("surrogate"), "\(message)")
        #expect(message.contains(escape.replacingOccurrences(of: "\\", with: "\\\\")), "names the escape: \(message)")
        // Nothing was created; the session goes on.
        #expect(field(client.send(#"{"op":"inspect","tag":1}"#).response, "error.code") == #""unknown_tag""#)
    }

    @Test func aSurrogatePairIsAString() {
        let client = Client()
        let created = client.send(
            #"{"id":1,"op":"create","tag":1,"component":"SwiftUIButton","props":{"title":"\ud83d\ude00"}}"#
        )
        #expect(field(created.response, "ok") == "true")
        #expect(field(client.inspect(1), "result.props.title") == "\"😀\"")
    }

    @Test func invalidJSONIsStillBadJSON() {
        let client = Client()
        #expect(field(client.send(#"{"id":1,"op":"ping","x":"\ud80"}"#).response, "error.code") == #""bad_json""#)
        #expect(field(client.send(#"{"id":1,"op":"ping","x":"\ud800}"#).response, "error.code") == #""bad_json""#)
    }
}
