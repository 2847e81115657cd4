import BridgeCore
import Synchronization
import Testing

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    let nanoseconds = Atomic<UInt64>(0)
    func advance(seconds: UInt64) { nanoseconds.add(seconds * 1_000_000_000, ordering: .relaxed) }
    var read: @Sendable () -> UInt64 { { self.nanoseconds.load(ordering: .relaxed) } }
}

@Suite("Resume, ack and the state file")
struct ResumeTests {
    /// A session with a subscribed button pressed `presses` times: events seq 1...presses.
    func pressed(_ engine: Engine, presses: Int) -> Connection {
        let connection = engine.connect()
        _ = connection.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        _ = connection.handle(line: #"{"op":"create","tag":1,"component":"View"}"#)
        _ = connection.handle(
            line: #"{"op":"create","tag":2,"component":"SwiftUIButton","parent":1,"props":{"count":4}}"#
        )
        _ = connection.handle(line: #"{"op":"subscribe","tag":1,"event":"countChange"}"#)
        for _ in 0..<presses { _ = connection.handle(line: #"{"op":"command","tag":2,"name":"press"}"#) }
        return connection
    }

    @Test func resumeReplaysWhatWasNotAcked() {
        let engine = Engine()
        let first = pressed(engine, presses: 3)
        let id = first.session.id
        #expect(field(first.handle(line: #"{"id":2,"op":"ack","seq":1}"#)[0], "result") == #"{"acked":1,"retained":2}"#)
        first.close()
        let second = engine.connect()
        let frames = second.handle(line: resumeLine(first.session, ack: 1, id: 7))
        #expect(frames.count == 3, "the hello response, then events 2 and 3")
        #expect(field(frames[0], "result.resumed") == "true")
        #expect(field(frames[0], "result.session") == "\"\(id)\"")
        #expect(field(frames[0], "result.seq") == "3")
        #expect(frames[1...].map { field($0, "seq") } == ["2", "3"])
        #expect(field(second.handle(line: #"{"op":"inspect","tag":2}"#)[0], "result.props.count") == "4", "views kept")
        let next = second.handle(line: #"{"op":"command","tag":2,"name":"press"}"#)
        #expect(field(next[0], "seq") == "4", "the sequence goes on")
    }

    /// A session's id can be guessed, its token cannot: a resume that does not present the token hello gave is
    /// refused exactly as one naming an unknown session (a fresh session, `unknown_session`), takes nothing over,
    /// and leaves the session to its client.
    @Test(
        "a resume without the session's token is refused like an unknown session",
        arguments: [
            #","token":"00000000000000000000000000000bad""#,
            "",
            #","token":null"#,
            #","token":"""#,
            #","token":"00000000000000000000000000000002""#,  // the other session's
        ]
    )
    func aResumeMustPresentTheToken(token: String) {
        let engine = Engine()
        let first = pressed(engine, presses: 2)
        let other = engine.connect()
        _ = other.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        let told = Atomic<Int>(0)
        first.onTakeover = { told.add(1, ordering: .relaxed) }
        #expect(field(first.handle(line: #"{"op":"ping"}"#)[0], "ok") == "true")

        let intruder = engine.connect()
        let id = first.session.id
        let frames = intruder.handle(
            line: #"{"id":1,"op":"hello","protocol":1,"resume":{"session":"\#(id)"\#(token),"ack":0}}"#
        )
        #expect(frames.count == 1, "no event of the session is written")
        #expect(field(frames[0], "result.resumed") == "false")
        #expect(field(frames[0], "result.reason") == #""unknown_session""#)
        #expect(field(frames[0], "result.session") != "\"\(id)\"")
        #expect(field(frames[0], "result.token") != "\"\(first.session.token)\"")
        #expect(told.load(ordering: .relaxed) == 0 && !first.isTakenOver, "nothing taken over")
        #expect(field(intruder.handle(line: #"{"op":"inspect","tag":2}"#)[0], "error.code") == #""unknown_tag""#)

        first.close()
        let owner = engine.connect().handle(line: resumeLine(first.session, ack: 0))
        #expect(field(owner[0], "result.resumed") == "true", "the session is still its client's")
        engine.closeAllSessions()
    }

    @Test func helloGivesEachSessionItsToken() {
        let engine = Engine(sessionToken: { "token-\($0)" })
        let first = engine.connect()
        let second = engine.connect()
        let hello = first.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)[0]
        #expect(field(hello, "result.token") == #""token-1""#)
        #expect(field(second.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)[0], "result.token") == #""token-2""#)
        first.close()
        let resumed = engine.connect().handle(line: resumeLine(first.session, ack: 0))
        #expect(field(resumed[0], "result.resumed") == "true")
        #expect(field(resumed[0], "result.token") == #""token-1""#, "a resumed session keeps its token")
        #expect(Engine.countingToken(10) == "0000000000000000000000000000000a")
        engine.closeAllSessions()
    }

    @Test func aTokenThatIsNotAStringIsABadRequest() {
        let engine = Engine()
        let first = pressed(engine, presses: 0)
        first.close()
        let frames = engine.connect().handle(
            line: #"{"id":1,"op":"hello","protocol":1,"resume":{"session":"s1","token":7,"ack":0}}"#
        )
        #expect(field(frames[0], "error.code") == #""bad_request""#)
        #expect(field(frames[0], "error.message").contains("resume.token"))
        engine.closeAllSessions()
    }

    @Test func unknownAndExpiredSessionsStartAfresh() {
        let clock = ManualClock()
        var configuration = Engine.Configuration()
        configuration.sessionTTL = 60_000_000_000
        let engine = Engine(configuration: configuration, clock: clock.read)
        let first = pressed(engine, presses: 1)
        let id = first.session.id
        first.close()
        #expect(engine.detachedSessionCount == 1)
        let unknown = engine.connect().handle(line: #"{"op":"hello","protocol":1,"resume":{"session":"zz","ack":0}}"#)
        #expect(field(unknown[0], "result.resumed") == "false")
        #expect(field(unknown[0], "result.reason") == #""unknown_session""#)
        clock.advance(seconds: 61)
        let late = engine.connect()
        let frames = late.handle(line: resumeLine(first.session, ack: 0))
        let guessed = engine.connect().handle(
            line: #"{"op":"hello","protocol":1,"resume":{"session":"\#(id)","token":"x","ack":0}}"#
        )
        #expect(field(guessed[0], "result.reason") == #""unknown_session""#, "only the token's owner hears 'expired'")
        #expect(frames.count == 1)
        #expect(field(frames[0], "result.reason") == #""expired""#)
        #expect(field(frames[0], "result.session") != "\"\(id)\"")
        #expect(
            field(late.handle(line: #"{"op":"inspect","tag":2}"#)[0], "error.code") == #""unknown_tag""#,
            "a fresh session"
        )
    }

    /// With room for 5 events, 8 presses drop seq 1–3: a cursor at 3 resumes with 4–8, one at 2 would miss 3.
    @Test(
        "a full event buffer: resume from its edge, or overflow",
        arguments: [
            (3, "true", ["4", "5", "6", "7", "8"]),
            (2, "false", []),
        ]
    )
    func overflowIsNeverASilentGap(ack: Int, resumed: String, replayed: [String]) {
        var configuration = Engine.Configuration()
        configuration.eventBuffer = 5
        let engine = Engine(configuration: configuration)
        let first = pressed(engine, presses: 8)
        first.close()
        let frames = engine.connect().handle(line: resumeLine(first.session, ack: ack))
        #expect(field(frames[0], "result.resumed") == resumed)
        #expect(frames[1...].map { field($0, "seq") } == replayed)
        if resumed == "false" { #expect(field(frames[0], "result.reason") == #""overflow""#) }
    }

    /// A cursor older than what the session was already told is a gap too: those events are forgotten.
    @Test func resumingBelowAnEarlierAckIsAGap() {
        let engine = Engine()
        let first = pressed(engine, presses: 4)
        _ = first.handle(line: #"{"op":"ack","seq":3}"#)
        first.close()
        let frames = engine.connect().handle(line: resumeLine(first.session, ack: 1))
        #expect(field(frames[0], "result.resumed") == "false")
        #expect(field(frames[0], "result.reason") == #""overflow""#)
        #expect(frames.count == 1, "no partial replay")
    }

    @Test func resumingALiveSessionTakesItOver() {
        let engine = Engine()
        let first = pressed(engine, presses: 1)
        let told = Atomic<Int>(0)
        first.onTakeover = { told.add(1, ordering: .relaxed) }
        let second = engine.connect()
        let frames = second.handle(line: resumeLine(first.session, ack: 1))
        #expect(field(frames[0], "result.resumed") == "true")
        #expect(told.load(ordering: .relaxed) == 1)
        #expect(first.isTakenOver)
        #expect(first.handle(line: #"{"op":"ping"}"#).isEmpty, "the old connection's lines are ignored")
        first.close()
        #expect(
            field(second.handle(line: #"{"op":"inspect","tag":2}"#)[0], "ok") == "true",
            "closing the old one changes nothing"
        )
        #expect(
            field(String(decoding: Connection.takeoverFrame, as: UTF8.self), "error.code") == #""session_taken_over""#
        )
    }

    @Test func stateRoundTrip() throws {
        let engine = Engine()
        let connection = pressed(engine, presses: 3)
        let session = connection.session
        _ = connection.handle(line: #"{"op":"ack","seq":1}"#)
        _ = connection.handle(
            line:
                ##"{"op":"create","tag":3,"component":"TextField","parent":1,"props":{"text":"a\u0000😀","color":"#123"}}"##
        )
        _ = connection.handle(line: #"{"op":"subscribe","tag":3,"event":"change","phase":"capture"}"#)
        let before = [1, 2, 3].map { connection.handle(line: #"{"op":"inspect","tag":\#($0)}"#)[0] }
        let state = engine.saveState()
        connection.close()

        let restarted = Engine()
        #expect(try restarted.loadState(state) == 1)
        let resumed = restarted.connect()
        let frames = resumed.handle(line: resumeLine(session, ack: 1))
        #expect(field(frames[0], "result.resumed") == "true", "\(frames)")
        #expect(frames[1...].map { field($0, "seq") } == ["2", "3"])
        let after = [1, 2, 3].map { resumed.handle(line: #"{"op":"inspect","tag":\#($0)}"#)[0] }
        #expect(after == before, "views, props, tree and renders survive")
        let typed = resumed.handle(line: #"{"op":"command","tag":3,"name":"type","args":["!"]}"#)
        #expect(field(typed[0], "path") == #"[{"phase":"capture","tag":3}]"#, "subscriptions survive")
        #expect(field(typed[0], "seq") == "4")
    }

    /// Whether each view needs a render is saved too: after a restart, `inspect` reports the same render counts as
    /// it would have without one (a view never inspected, or changed since its last render, renders and counts it
    /// at its next `inspect`; a view rendered since its last change does not).
    @Test func renderStateSurvivesARestart() throws {
        func build(_ engine: Engine) -> Connection {
            let connection = engine.connect()
            _ = connection.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
            for tag in 1...3 {
                _ = connection.handle(line: #"{"op":"create","tag":\#(tag),"component":"SwiftUIButton"}"#)
            }
            _ = connection.handle(line: #"{"op":"inspect","tag":2}"#)
            _ = connection.handle(line: #"{"op":"inspect","tag":3}"#)
            _ = connection.handle(line: #"{"op":"update","tag":3,"props":{"count":7}}"#)
            return connection
        }
        // Tag 1: never inspected. Tag 2: rendered, unchanged since. Tag 3: rendered, then changed.
        let inspects = [1, 2, 3].map { #"{"op":"inspect","tag":\#($0)}"# }
        let unrestarted = build(Engine())
        let expected = inspects.map { unrestarted.handle(line: $0)[0] }
        #expect(expected.map { field($0, "result.renders") } == ["1", "1", "2"])

        let engine = Engine()
        let connection = build(engine)
        let state = engine.saveState()
        let saved = try JSONDocument(parsing: state)
        let views = saved.root["sessions"]?.elements?.first?["views"]?.elements ?? []
        #expect(views.map { $0["stale"]?.compactText } == ["true", "false", "true"])
        // A stale view that rendered before keeps its last render for observers; one never rendered has none.
        #expect(views.map { $0["render"]?.compactText } == [nil, nil, #""Button \"\" count=0""#])
        withExtendedLifetime(saved) {}
        connection.close()

        let restarted = Engine()
        #expect(try restarted.loadState(state) == 1)
        // An observer is shown every view as it last rendered, before anything renders again.
        let tools = restarted.connect()
        tools.makeObserverSink = { _ in DiscardingSink() }
        _ = tools.handle(line: #"{"id":0,"op":"hello","protocol":1}"#)
        let snapshot = tools.handle(line: #"{"id":1,"op":"observe","session":"\#(connection.session.id)"}"#)[0]
        let document = try JSONDocument(parsing: Array(snapshot.utf8))
        let observed = document.root["result"]?["views"]?.elements ?? []
        #expect(observed.map { $0["render"]?.string } == ["", #"Button "" count=0"#, #"Button "" count=0"#])
        #expect(observed.map { $0["stale"]?.compactText } == ["true", "false", "true"])
        withExtendedLifetime(document) {}
        let resumed = restarted.connect()
        let frames = resumed.handle(line: resumeLine(connection.session, ack: 0))
        #expect(field(frames[0], "result.resumed") == "true", "\(frames)")
        #expect(inspects.map { resumed.handle(line: $0)[0] } == expected)
    }

    /// An observer's sink that drops what it is given.
    final class DiscardingSink: ObserverSink, @unchecked Sendable {
        func deliver(_ frames: UnsafeRawBufferPointer, last: Bool) -> Bool { true }
        func close() {}
    }

    /// A state file saved before `stale` existed loads with every view rendered then; a `stale` that is not a
    /// boolean, or a `render` that is not a string, is refused.
    @Test func staleIsOptionalAndChecked() throws {
        let view = #"{"tag":1,"component":"SwiftUIButton","props":{"count":2},"children":[],"listeners":{},"renders":3"#
        func file(_ extra: String) -> [UInt8] {
            Array(
                (#"{"format":"bridged-state","version":2,"socket":null,"sessions":[{"id":"s1","token":"t","seq":0,"#
                    + #""acked":0,"droppedThrough":0,"views":[\#(view)\#(extra)}],"events":[]}]}"#).utf8
            )
        }
        let engine = Engine()
        #expect(try engine.loadState(file("")) == 1)
        let resumed = engine.connect()
        _ = resumed.handle(line: #"{"id":1,"op":"hello","protocol":1,"resume":{"session":"s1","token":"t","ack":0}}"#)
        let inspected = resumed.handle(line: #"{"op":"inspect","tag":1}"#)[0]
        #expect(field(inspected, "result.renders") == "3", "\(inspected)")
        #expect(field(inspected, "result.render") == #""Button \"\" count=2""#)

        let refused = #expect(throws: StateError.self) { try Engine().loadState(file(#","stale":"yes""#)) }
        #expect(refused?.message.contains("'stale'") == true)
        let badRender = #expect(throws: StateError.self) {
            try Engine().loadState(file(#","stale":true,"render":7"#))
        }
        #expect(badRender?.message.contains("'render'") == true)
    }

    /// A state file names the socket whose daemon saved it; another socket's daemon refuses it whole.
    @Test func aStateSavedForOneSocketIsRefusedForAnother() throws {
        let engine = Engine()
        let connection = pressed(engine, presses: 1)
        connection.close()
        let state = engine.saveState(socket: "/run/a.sock")
        #expect(field(String(decoding: state, as: UTF8.self), "socket") == #""/run/a.sock""#)

        let other = Engine()
        let error = #expect(throws: StateError.self) { try other.loadState(state, socket: "/run/b.sock") }
        #expect(error?.code == .otherSocket)
        #expect(error?.message.contains("/run/a.sock") == true)
        #expect(other.detachedSessionCount == 0)
        #expect(throws: StateError.self) { try other.loadState(state) }
        #expect(try other.loadState(state, socket: "/run/a.sock") == 1)
        other.closeAllSessions()
    }

    @Test(
        "corrupt or foreign state files are refused whole",
        arguments: [
            "not json",
            #"{"format":"other","version":2,"socket":null,"sessions":[]}"#,
            #"{"format":"bridged-state","version":3,"socket":null,"sessions":[]}"#,
            #"{"format":"bridged-state","version":2,"sessions":[]}"#,
            #"{"format":"bridged-state","version":2,"socket":null,"sessions":[{"id":"a"}]}"#,
            #"{"format":"bridged-state","version":2,"socket":null,"sessions":[{"id":"a","seq":0,"acked":0,"droppedThrough":0,"events":[],"views":[{"tag":1,"component":"View","props":{},"children":[1],"listeners":{}}]}]}"#,
        ]
    )
    func corruptState(text: String) {
        let engine = Engine()
        #expect(throws: StateError.self) { try engine.loadState(Array(text.utf8)) }
        #expect(engine.detachedSessionCount == 0)
    }

    /// The file is parsed into an arena of its own; a text jansson refuses is still refused with jansson's reason.
    @Test("a state file that is not JSON is refused with jansson's reason")
    func stateNotJSON() {
        let engine = Engine()
        let error = #expect(throws: StateError.self) {
            try engine.loadState(Array(#"{"format":"bridged-state","version":2,"sessions":[{"id":"a"},]}"#.utf8))
        }
        let message = error?.message ?? ""
        #expect(message.hasPrefix("the state file is not JSON: "), "\(message)")
        #expect(message.contains("column"), "jansson's reason says where: \(message)")
        #expect(engine.detachedSessionCount == 0)
    }
}
