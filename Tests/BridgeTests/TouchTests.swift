import BridgeCore
import PropStore
import Testing

/// The `touch` op: the daemon as iOS's `RCTTouchHandler`, a finger on a view reported as bubbling touch events.
@Suite("Touch: touchStart … touchCancel from a view")
struct TouchTests {
    /// View 1 > View 2 > SwiftUIButton 3.
    func tree() -> Client { EventsTests().tree() }

    @Test func startAndEndOnANestedViewReachTheRootsSubscription() {
        let client = tree()
        #expect(client.result(#"{"op":"subscribe","tag":1,"event":"touchStart"}"#) == "{}")
        #expect(client.result(#"{"op":"subscribe","tag":1,"event":"touchEnd"}"#) == "{}")
        let start = client.send(
            #"{"id":5,"op":"touch","tag":3,"phase":"start","pageX":10.5,"pageY":20,"locationX":0.5,"locationY":4,"#
                + #""timestamp":1000}"#
        )
        #expect(start.response == #"{"id":5,"ok":true,"result":{}}"#)
        #expect(
            start.events == [
                #"{"event":"touchStart","seq":1,"target":3,"payload":{"touches":[{"identifier":1,"target":3,"#
                    + #""pageX":10.5,"pageY":20,"locationX":0.5,"locationY":4,"timestamp":1000}],"changedIndices":[0]},"#
                    + #""path":[{"tag":1,"phase":"bubble"}]}"#
            ]
        )
        let end = client.send(#"{"op":"touch","tag":3,"phase":"end","identifier":0}"#)
        #expect(
            end.events == [
                #"{"event":"touchEnd","seq":2,"target":3,"payload":{"touches":[{"identifier":0,"target":3,"#
                    + #""pageX":0,"pageY":0,"locationX":0,"locationY":0,"timestamp":0}],"changedIndices":[0]},"#
                    + #""path":[{"tag":1,"phase":"bubble"}]}"#
            ]
        )
    }

    @Test func onlyTheSubscribedNameIsDispatched() {
        let client = tree()
        client.send(#"{"op":"subscribe","tag":1,"event":"touchStart"}"#)
        #expect(client.send(#"{"op":"touch","tag":3,"phase":"move"}"#).events.isEmpty)
        #expect(client.send(#"{"op":"touch","tag":3,"phase":"cancel"}"#).events.isEmpty)
        client.send(#"{"op":"subscribe","tag":2,"event":"touchMove"}"#)
        let move = client.send(#"{"op":"touch","tag":3,"phase":"move","pageY":7.25}"#).events
        #expect(move.count == 1)
        #expect(field(move[0], "event") == #""touchMove""#)
        #expect(field(move[0], "seq") == "1", "no seq was used without a listener")
        #expect(field(move[0], "payload.touches.0.pageY") == "7.25")
    }

    @Test func captureFromTheRootThenBubbleFromTheTarget() {
        let client = tree()
        client.send(#"{"op":"subscribe","tag":1,"event":"touchStart","phase":"capture"}"#)
        client.send(#"{"op":"subscribe","tag":2,"event":"touchStart","phase":"capture"}"#)
        client.send(#"{"op":"subscribe","tag":3,"event":"touchStart"}"#)
        client.send(#"{"op":"subscribe","tag":1,"event":"touchStart"}"#)
        let events = client.send(#"{"op":"touch","tag":3,"phase":"start"}"#).events
        #expect(events.count == 1)
        #expect(
            field(events[0], "path")
                == canonical(
                    #"[{"tag":1,"phase":"capture"},{"tag":2,"phase":"capture"},{"tag":3,"phase":"bubble"},"#
                        + #"{"tag":1,"phase":"bubble"}]"#
                )
        )
    }

    @Test func aTouchInABatchIsDispatchedWithTheBatch() {
        let client = tree()
        let (events, response) = client.send(
            #"{"op":"batch","ops":[{"op":"subscribe","tag":2,"event":"touchCancel"},"#
                + #"{"op":"touch","tag":3,"phase":"cancel","identifier":20}]}"#
        )
        #expect(field(response, "result.results") == "[{},{}]")
        #expect(events.count == 1)
        #expect(field(events[0], "payload.touches.0.identifier") == "20")
    }

    @Test(
        arguments: [
            (#"{"op":"touch","tag":3}"#, "touch: missing 'phase' (\"start\", \"move\", \"end\" or \"cancel\")"),
            (
                #"{"op":"touch","tag":3,"phase":"lift"}"#,
                "touch: 'phase' must be \"start\", \"move\", \"end\" or \"cancel\", got \"lift\""
            ),
            (#"{"op":"touch","tag":3,"phase":1}"#, "touch: 'phase' must be a string, got 1"),
            (
                #"{"op":"touch","tag":3,"phase":"end","identifier":21}"#,
                "touch: 'identifier' must be an integer from 0 to 20, got 21"
            ),
            (
                #"{"op":"touch","tag":3,"phase":"end","identifier":1.5}"#,
                "touch: 'identifier' must be an integer, got 1.5"
            ),
            (#"{"op":"touch","tag":3,"phase":"end","pageX":"1"}"#, "touch: 'pageX' must be a number, got \"1\""),
            (
                #"{"op":"touch","tag":3,"phase":"end","timestamp":true}"#,
                "touch: 'timestamp' must be a number, got true"
            ),
            (#"{"op":"touch","phase":"end"}"#, "touch: missing 'tag' (a positive integer)"),
        ]
    )
    func badRequests(_ line: String, _ message: String) {
        let client = tree()
        client.send(#"{"op":"subscribe","tag":1,"event":"touchEnd"}"#)
        let (events, response) = client.send(line)
        #expect(events.isEmpty)
        #expect(field(response, "error.code") == #""bad_request""#)
        #expect(
            field(response, "error.message")
                == canonical(#""\#(message.replacingOccurrences(of: "\"", with: "\\\""))""#)
        )
    }

    @Test func anUnknownViewIsUnknownTag() {
        let client = tree()
        let response = client.send(#"{"op":"touch","tag":9,"phase":"start"}"#).response
        #expect(field(response, "error.code") == #""unknown_tag""#)
        #expect(field(response, "error.message") == #""touch: no view with tag 9 in this session""#)
    }

    @Test func touchEventsAreBubblingInEveryRegistry() {
        let registry = ComponentRegistry()
        for name in ["touchStart", "touchMove", "touchEnd", "touchCancel"] {
            #expect(registry.events[name]?.bubbles == true, "\(name)")
        }
        #expect(registry.components.isEmpty)
    }
}
