import BridgeCore
import PropStore
import Testing

@Suite("View tree: children, delete, cycles, batches, sessions")
struct TreeTests {
    @Test func setChildrenReparentsAndOrders() {
        let client = Client()
        for tag in 1...4 { client.send(#"{"op":"create","tag":\#(tag),"component":"View"}"#) }
        #expect(client.result(#"{"op":"setChildren","tag":1,"children":[3,2]}"#) == #"{"children":[3,2]}"#)
        #expect(client.result(#"{"op":"setChildren","tag":4,"children":[2]}"#) == #"{"children":[2]}"#)
        #expect(field(client.inspect(1), "result.children") == "[3]")
        #expect(field(client.inspect(2), "result.parent") == "4")
        #expect(client.result(#"{"op":"setChildren","tag":1,"children":[]}"#) == #"{"children":[]}"#)
        #expect(field(client.inspect(3), "result.parent") == "null", "dropped children become roots")
        #expect(client.result(#"{"op":"setChildren","tag":1,"children":[2,2]}"#) == #""bad_request""#)
        #expect(client.result(#"{"op":"setChildren","tag":1,"children":[9]}"#) == #""unknown_tag""#)
        #expect(client.result(#"{"op":"create","tag":5,"component":"View","parent":4,"index":0}"#) == #"{"tag":5}"#)
        #expect(field(client.inspect(4), "result.children") == "[5,2]")
        #expect(client.result(#"{"op":"create","tag":6,"component":"View","parent":4,"index":3}"#) == #""bad_request""#)
    }

    @Test func aRepeatedChildIsRefusedInAShortListAndInALongOne() {
        // Up to SetChildren.fewChildren the repeat is looked for in place, past it through a set.
        let client = Client()
        for tag in 1...30 { client.send(#"{"op":"create","tag":\#(tag),"component":"View"}"#) }
        #expect(client.result(#"{"op":"setChildren","tag":1,"children":[2,3,4,3]}"#) == #""bad_request""#)
        let long = Array(2...25).map(String.init).joined(separator: ",")
        #expect(client.result(#"{"op":"setChildren","tag":1,"children":[\#(long),7]}"#) == #""bad_request""#)
        #expect(field(client.inspect(1), "result.children") == "[]", "nothing changed")
        #expect(client.result(#"{"op":"setChildren","tag":1,"children":[\#(long)]}"#) == #"{"children":[\#(long)]}"#)
    }

    @Test func cyclesAreRefused() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"View"}"#)
        client.send(#"{"op":"create","tag":2,"component":"View","parent":1}"#)
        client.send(#"{"op":"create","tag":3,"component":"View","parent":2}"#)
        #expect(client.result(#"{"op":"setChildren","tag":3,"children":[1]}"#) == #""cycle""#)
        #expect(client.result(#"{"op":"setChildren","tag":2,"children":[2]}"#) == #""cycle""#)
        #expect(field(client.inspect(1), "result.children") == "[2]", "nothing changed")
    }

    @Test func deleteRemovesTheSubtreeAndItsEvents() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"View"}"#)
        client.send(#"{"op":"create","tag":2,"component":"View","parent":1}"#)
        client.send(#"{"op":"create","tag":3,"component":"SwiftUIButton","parent":2}"#)
        client.send(#"{"op":"create","tag":4,"component":"SwiftUIButton","parent":1}"#)
        client.send(#"{"op":"subscribe","tag":1,"event":"countChange"}"#)
        #expect(client.result(#"{"op":"delete","tag":2}"#) == #"{"deleted":[2,3]}"#)
        #expect(client.result(#"{"op":"command","tag":3,"name":"press"}"#) == #""unknown_tag""#)
        #expect(field(client.inspect(1), "result.children") == "[4]")
        #expect(ViewStorage.count(session: client.session.storageKey) == 2, "storage entries are gone")
        #expect(client.result(#"{"op":"create","tag":3,"component":"View"}"#) == #"{"tag":3}"#, "tags may be reused")
        #expect(client.send(#"{"op":"command","tag":4,"name":"press"}"#).events.count == 1)
    }

    @Test func batchCommitsInOrderWithEventsBeforeTheResponse() {
        let client = Client()
        let (events, response) = client.send(
            #"{"id":1,"op":"batch","ops":[{"op":"create","tag":1,"component":"View"},"#
                + #"{"op":"create","tag":2,"component":"SwiftUIButton","parent":1,"props":{"count":1}},"#
                + #"{"op":"subscribe","tag":1,"event":"countChange"},{"op":"command","tag":2,"name":"press"},"#
                + #"{"op":"update","tag":2,"props":{"count":2}}]}"#
        )
        #expect(field(response, "result.results") == #"[{"tag":1},{"tag":2},{},{},{"changed":["count"]}]"#)
        #expect(events.count == 1)
        #expect(field(events[0], "payload.count") == "2")
    }

    @Test func failedBatchChangesNothingAndEmitsNothing() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"View"}"#)
        client.send(#"{"op":"create","tag":2,"component":"TextField","parent":1,"props":{"text":"a"}}"#)
        client.send(#"{"op":"create","tag":3,"component":"View"}"#)
        client.send(#"{"op":"subscribe","tag":1,"event":"change"}"#)
        let before = (1...3).map { client.inspect($0) }
        let (events, response) = client.send(
            #"{"id":7,"op":"batch","ops":[{"op":"update","tag":2,"props":{"text":"b"}},"#
                + #"{"op":"command","tag":2,"name":"type","args":["c"]},{"op":"setChildren","tag":3,"children":[2]},"#
                + #"{"op":"delete","tag":1},{"op":"create","tag":1,"component":"Slider"},"#
                + #"{"op":"subscribe","tag":3,"event":"change"},{"op":"create","tag":9,"component":"View"},"#
                + #"{"op":"update","tag":3,"props":{"bogus":1}}]}"#
        )
        #expect(events.isEmpty)
        #expect(field(response, "error.code") == #""batch_failed""#)
        #expect(field(response, "error.index") == "7")
        #expect(field(response, "error.error.code") == #""invalid_props""#)
        #expect(field(response, "id") == "7")
        #expect((1...3).map { client.inspect($0) } == before, "every view is as it was, renders included")
        #expect(client.result(#"{"op":"inspect","tag":9}"#) == #""unknown_tag""#)
        let typed = client.send(#"{"op":"command","tag":2,"name":"type","args":["z"]}"#).events
        #expect(field(typed[0], "seq") == "1")
        #expect(field(typed[0], "payload.text") == #""az""#)
        #expect(field(typed[0], "path") == #"[{"phase":"bubble","tag":1}]"#)
    }

    @Test func nestedBatchAndHelloAreRefused() {
        let client = Client()
        #expect(client.result(#"{"op":"batch","ops":[{"op":"batch","ops":[]}]}"#) == #""batch_failed""#)
        #expect(client.result(#"{"op":"batch","ops":[{"op":"hello","protocol":1}]}"#) == #""batch_failed""#)
        #expect(client.result(#"{"op":"batch","ops":[1]}"#) == #""batch_failed""#)
        #expect(client.result(#"{"op":"batch"}"#) == #""bad_request""#)
        #expect(client.result(#"{"op":"batch","ops":[]}"#) == #"{"results":[]}"#)
    }

    @Test func sessionsAreIsolated() {
        let engine = Engine()
        let a = Client(engine: engine)
        let b = Client(engine: engine)
        a.send(#"{"op":"create","tag":1,"component":"SwiftUIButton","props":{"title":"A"}}"#)
        b.send(#"{"op":"create","tag":1,"component":"SwiftUIButton","props":{"title":"B"}}"#)
        a.send(#"{"op":"subscribe","tag":1,"event":"countChange"}"#)
        #expect(b.send(#"{"op":"command","tag":1,"name":"press"}"#).events.isEmpty)
        #expect(field(a.inspect(1), "result.props.title") == #""A""#)
        #expect(field(b.inspect(1), "result.props.title") == #""B""#)
        b.session.close()
        #expect(field(a.inspect(1), "result.props.title") == #""A""#)
        #expect(ViewStorage.count(session: b.session.storageKey) == 0)
    }
}
