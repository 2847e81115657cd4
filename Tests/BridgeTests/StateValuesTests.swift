import BridgeCore
import Testing

/// A state file's values are checked, not trusted: values no daemon could have saved make the file corrupt
/// (refused whole, so the daemon moves it aside), and counters at their most fail the request that would
/// pass them, never trap or wrap.
@Suite("State file values and counters at their most")
struct StateValuesTests {
    static let button =
        #"{"tag":1,"component":"SwiftUIButton","props":{"count":0},"children":[],"listeners":{"countChange":["bubble"]},"#
        + #""renders":1,"stale":false}"#

    /// An event frame of `seq`, as a state file keeps it (a JSON string).
    static func event(_ seq: Int) -> String {
        #""{\"event\":\"countChange\",\"seq\":\#(seq),\"target\":1,\"payload\":{\"count\":1},"#
            + #"\"path\":[{\"tag\":1,\"phase\":\"bubble\"}]}""#
    }

    static func session(
        id: String = "s1",
        token: String = "t",
        seq: String = "2",
        acked: String = "1",
        dropped: String = "0",
        view: String = button,
        events: [Int] = [2]
    ) -> String {
        #"{"id":"\#(id)","token":"\#(token)","seq":\#(seq),"acked":\#(acked),"droppedThrough":\#(dropped),"#
            + #""views":[\#(view)],"events":[\#(events.map(event).joined(separator: ","))]}"#
    }

    static func file(_ sessions: String...) -> [UInt8] {
        Array(
            (#"{"format":"bridged-state","version":2,"socket":null,"sessions":["#
                + sessions.joined(separator: ",") + "]}").utf8
        )
    }

    /// The engine with `state` loaded, and a connection that resumed session `s1` from `ack`.
    static func resumed(_ state: [UInt8], ack: Int = 1) throws -> (Engine, Connection) {
        let engine = Engine()
        #expect(try engine.loadState(state) == 1)
        let connection = engine.connect()
        let hello = connection.handle(
            line: #"{"id":1,"op":"hello","protocol":1,"resume":{"session":"s1","token":"t","ack":\#(ack)}}"#
        )
        #expect(field(hello.first ?? "", "result.resumed") == "true", "\(hello)")
        return (engine, connection)
    }

    @Test func aValidFileLoads() throws {
        let (engine, connection) = try Self.resumed(Self.file(Self.session()))
        #expect(field(connection.handle(line: #"{"op":"stats"}"#)[0], "result.seq") == "2")
        engine.closeAllSessions()
    }

    @Test(
        arguments: [
            ("a seq below 0", session(seq: "-1", acked: "0", events: [])),
            ("an ack beyond the seq", session(seq: "2", acked: "3", events: [])),
            ("a droppedThrough beyond the seq", session(seq: "2", dropped: "3")),
            ("a negative ack", session(acked: "-1")),
            ("an empty token", session(token: "")),
            ("an empty id", session(id: "")),
            ("an event beyond the seq", session(seq: "2", events: [2, 3])),
            ("an event already acked", session(seq: "2", acked: "2", events: [2])),
            ("events out of order", session(seq: "3", acked: "0", events: [3, 2])),
            (
                "a negative render count",
                session(view: button.replacingOccurrences(of: #""renders":1"#, with: #""renders":-1"#))
            ),
        ]
    )
    func valuesNoDaemonSavesAreRefused(what: String, session: String) {
        let engine = Engine()
        #expect(throws: StateError.self, "\(what)") { try engine.loadState(Self.file(session)) }
        #expect(engine.detachedSessionCount == 0)
    }

    @Test func twoSessionsOfOneIdAreRefused() {
        let engine = Engine()
        let error = #expect(throws: StateError.self) {
            try engine.loadState(Self.file(Self.session(token: "first"), Self.session(token: "second")))
        }
        #expect(error?.message.contains("'s1'") == true, "\(error?.message ?? "")")
        #expect(engine.detachedSessionCount == 0)
    }

    /// A session whose seq is at `Int.max` can emit no more events: a press fails with `limit_exceeded` and
    /// changes nothing; requests without events go on.
    @Test func anEventPastTheMostSeqFails() throws {
        let max = String(Int.max)
        let (engine, connection) = try Self.resumed(
            Self.file(Self.session(seq: max, acked: max, events: [])),
            ack: Int.max
        )
        let pressed = connection.handle(line: #"{"op":"command","tag":1,"name":"press"}"#)
        #expect(pressed.count == 1, "no event: \(pressed)")
        #expect(field(pressed[0], "error.code") == #""limit_exceeded""#, "\(pressed)")
        let emitted = connection.handle(line: #"{"op":"emit","tag":1,"event":"countChange","payload":{"count":1}}"#)
        #expect(field(emitted.last ?? "", "error.code") == #""limit_exceeded""#, "\(emitted)")
        #expect(field(connection.handle(line: #"{"op":"stats"}"#)[0], "result.seq") == max)
        #expect(field(connection.handle(line: #"{"op":"inspect","tag":1}"#)[0], "result.commands") == "[]")
        engine.closeAllSessions()
    }

    /// A view that has rendered `Int.max` times renders no more: inspecting it while it needs a render fails
    /// with `limit_exceeded`; while it does not, inspect answers as ever.
    @Test(arguments: [false, true])
    func aRenderPastTheMostCountFails(stale: Bool) throws {
        let view = Self.button.replacingOccurrences(
            of: #""renders":1,"stale":false"#,
            with: #""renders":\#(Int.max),"stale":\#(stale)"#
        )
        let (engine, connection) = try Self.resumed(Self.file(Self.session(view: view)))
        let inspected = connection.handle(line: #"{"op":"inspect","tag":1}"#)[0]
        if stale {
            #expect(field(inspected, "error.code") == #""limit_exceeded""#, "\(inspected)")
        } else {
            #expect(field(inspected, "result.renders") == String(Int.max), "\(inspected)")
        }
        engine.closeAllSessions()
    }

    /// `press` at `count` `Int.max` would emit `Int.max + 1`, which is no int: the command fails with
    /// `invalid_payload`, emits nothing and logs nothing.
    @Test(arguments: [false, true])
    func aPressPastTheMostCountFails(inBatch: Bool) {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"SwiftUIButton","props":{"count":\#(Int.max)}}"#)
        client.send(#"{"op":"subscribe","tag":1,"event":"countChange"}"#)
        let press = #"{"op":"command","tag":1,"name":"press"}"#
        let (events, response) = client.send(inBatch ? #"{"op":"batch","ops":[\#(press)]}"# : press)
        #expect(events.isEmpty, "\(events)")
        let error = inBatch ? field(response, "error.error.code") : field(response, "error.code")
        #expect(error == #""invalid_payload""#, "\(response)")
        #expect(response.contains("outside the int range"), "\(response)")
        let inspected = client.inspect(1)
        #expect(field(inspected, "result.props.count") == String(Int.max))
        #expect(field(inspected, "result.commands") == "[]")
        #expect(field(client.send(#"{"op":"stats"}"#).response, "result.seq") == "0")
    }
}
