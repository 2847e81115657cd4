import BridgeCore
import Testing

@Suite("Events: bubbling, capture, direct, commands")
struct EventsTests {
    /// View 1 > View 2 > SwiftUIButton 3.
    func tree() -> Client {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"View"}"#)
        client.send(#"{"op":"create","tag":2,"component":"View","parent":1}"#)
        client.send(#"{"op":"create","tag":3,"component":"SwiftUIButton","parent":2,"props":{"count":7}}"#)
        return client
    }

    @Test func captureFromRootThenBubbleFromTarget() {
        let client = tree()
        for line in [
            #"{"op":"subscribe","tag":1,"event":"countChange","phase":"capture"}"#,
            #"{"op":"subscribe","tag":1,"event":"countChange"}"#,
            #"{"op":"subscribe","tag":2,"event":"countChange","phase":"capture"}"#,
            #"{"op":"subscribe","tag":3,"event":"countChange"}"#,
        ] { #expect(client.result(line) == "{}") }
        let (events, response) = client.send(#"{"id":9,"op":"command","tag":3,"name":"press"}"#)
        #expect(response == #"{"id":9,"ok":true,"result":{}}"#)
        #expect(events.count == 1)
        #expect(
            canonical(events[0])
                == canonical(
                    #"{"event":"countChange","seq":1,"target":3,"payload":{"count":8},"path":[{"tag":1,"phase":"capture"},"#
                        + #"{"tag":2,"phase":"capture"},{"tag":3,"phase":"bubble"},{"tag":1,"phase":"bubble"}]}"#
                )
        )
        #expect(field(client.inspect(3), "result.props.count") == "7", "count is controlled by the client")
        let second = client.send(#"{"op":"command","tag":3,"name":"press"}"#).events
        #expect(field(second[0], "seq") == "2")
    }

    @Test func noListenerNoFrame() {
        let client = tree()
        let (events, _) = client.send(#"{"op":"command","tag":3,"name":"press"}"#)
        #expect(events.isEmpty)
        client.send(#"{"op":"subscribe","tag":1,"event":"countChange"}"#)
        let later = client.send(#"{"op":"command","tag":3,"name":"press"}"#).events
        #expect(field(later[0], "seq") == "1", "no seq was used without a listener")
        client.send(#"{"op":"unsubscribe","tag":1,"event":"countChange"}"#)
        #expect(client.send(#"{"op":"command","tag":3,"name":"press"}"#).events.isEmpty)
    }

    @Test func disabledButtonEmitsNothing() {
        let client = tree()
        client.send(#"{"op":"subscribe","tag":3,"event":"countChange"}"#)
        client.send(#"{"op":"update","tag":3,"props":{"disabled":true}}"#)
        let (events, response) = client.send(#"{"op":"command","tag":3,"name":"press"}"#)
        #expect(events.isEmpty)
        #expect(field(response, "ok") == "true")
    }

    @Test func directEventsReachOnlyTheirTarget() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"View"}"#)
        client.send(#"{"op":"create","tag":2,"component":"TextField","parent":1}"#)
        #expect(client.result(#"{"op":"subscribe","tag":1,"event":"commit"}"#) == #""unknown_event""#)
        #expect(client.result(#"{"op":"subscribe","tag":2,"event":"commit","phase":"capture"}"#) == #""bad_request""#)
        #expect(client.result(#"{"op":"subscribe","tag":2,"event":"nope"}"#) == #""unknown_event""#)
        #expect(client.result(#"{"op":"subscribe","tag":2,"event":"commit","phase":"sideways"}"#) == #""bad_request""#)
        client.send(#"{"op":"subscribe","tag":2,"event":"editingChange"}"#)
        client.send(#"{"op":"subscribe","tag":2,"event":"commit"}"#)
        client.send(#"{"op":"subscribe","tag":1,"event":"change","phase":"capture"}"#)
        let focus = client.send(#"{"op":"command","tag":2,"name":"focus"}"#).events
        #expect(
            focus == [
                #"{"event":"editingChange","seq":1,"target":2,"payload":{"editing":true},"path":[{"tag":2,"phase":"bubble"}]}"#
            ]
        )
        #expect(client.send(#"{"op":"command","tag":2,"name":"focus"}"#).events.isEmpty, "already focused")
        let typed = client.send(#"{"op":"command","tag":2,"name":"type","args":["hi"]}"#).events
        #expect(
            typed == [
                #"{"event":"change","seq":2,"target":2,"payload":{"text":"hi"},"path":[{"tag":1,"phase":"capture"}]}"#
            ]
        )
        client.send(#"{"op":"command","tag":2,"name":"type","args":[" there"]}"#)
        let submit = client.send(#"{"op":"command","tag":2,"name":"submit"}"#).events
        #expect(field(submit[0], "payload") == #"{"text":"hi there"}"#)
        #expect(field(client.inspect(2), "result.props.text") == #""hi there""#)
        #expect(field(client.inspect(2), "result.render").contains("editing"))
    }

    @Test func commandArguments() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"TextField"}"#)
        client.send(
            #"{"op":"create","tag":2,"component":"Slider","props":{"minimumValue":0,"maximumValue":10,"step":2.5}}"#
        )
        #expect(client.result(#"{"op":"command","tag":1,"name":"type"}"#) == #""invalid_args""#)
        let bad = client.send(#"{"op":"command","tag":1,"name":"type","args":[5]}"#).response
        #expect(field(bad, "error.details.0.arg") == "0")
        #expect(field(bad, "error.details.0.expected") == #""string""#)
        #expect(client.result(#"{"op":"command","tag":1,"name":"fly"}"#) == #""unknown_command""#)
        #expect(client.result(#"{"op":"command","tag":2,"name":"slide","args":["x"]}"#) == #""invalid_args""#)
        client.send(#"{"op":"subscribe","tag":2,"event":"valueChange"}"#)
        let slid = client.send(#"{"op":"command","tag":2,"name":"slide","args":[6.4]}"#).events
        #expect(field(slid[0], "payload") == #"{"value":7.5}"#, "6.4 snaps to the nearest step of 2.5")
        let clamped = client.send(#"{"op":"command","tag":2,"name":"slide","args":[99]}"#).events
        #expect(field(clamped[0], "payload") == #"{"value":10.0}"#)
        #expect(field(client.inspect(2), "result.props.value") == "10.0")
    }
}
