import PropStore
import Testing

@testable import BridgeCore

/// A batch sent over several lines (`more`, `at`): held until its last part, then all or nothing; its parts run as
/// they come, where no one can see them (``StagedBatch``).
@Suite("Batches in parts")
struct BatchPartsTests {
    /// A `batch` line of `ops` (each op's JSON), a part with `more` and `at` when given.
    static func part(_ ops: [String], more: Bool = false, at: Int? = nil, id: Int = 1) -> String {
        var members = [#""id":\#(id)"#, #""op":"batch""#]
        if more { members.append(#""more":true"#) }
        if let at { members.append(#""at":\#(at)"#) }
        members.append(#""ops":["# + ops.joined(separator: ",") + "]")
        return "{" + members.joined(separator: ",") + "}"
    }

    static func create(_ tag: Int, _ component: String = "View", parent: Int? = nil) -> String {
        let under = parent.map { #","parent":\#($0)"# } ?? ""
        return #"{"op":"create","tag":\#(tag),"component":"\#(component)""# + under + "}"
    }

    static let ping = #"{"op":"ping"}"#

    @Test func partsAreHeldUntilTheLastThenRunAsOneBatch() {
        let client = Client()
        #expect(client.result(Self.part([Self.create(1)], more: true)) == #"{"staged":1}"#)
        #expect(client.result(#"{"op":"inspect","tag":1}"#) == #""unknown_tag""#, "a part changes nothing")
        // Other requests go on meanwhile, and are not part of the batch.
        #expect(client.result(Self.create(5)) == #"{"tag":5}"#)
        let subscribe = #"{"op":"subscribe","tag":1,"event":"countChange"}"#
        let second = Self.part([Self.create(2, "SwiftUIButton", parent: 1), subscribe], more: true, at: 1)
        #expect(client.result(second) == #"{"staged":3}"#)
        let (events, response) = client.send(Self.part([#"{"op":"command","tag":2,"name":"press"}"#], at: 3))
        #expect(field(response, "result.results") == #"[{"tag":1},{"tag":2},{},{}]"#)
        #expect(events.count == 1, "the batch's event, written once it committed")
        #expect(field(events[0], "target") == "2")
        #expect(client.result(#"{"op":"inspect","tag":1}"#) != #""unknown_tag""#)
        #expect(client.connection.stagedBatchBytes == 0)
    }

    /// A part keeps the tree its line was parsed into (the thread's scratch arena, taken with it), or a copy of a
    /// tree parsed elsewhere (here: the scratch arena held by someone else, so the line is parsed outside it); the
    /// parts run alike, after the thread has parsed other requests meanwhile.
    @Test func partsParsedInOrOutOfTheScratchArenaRunAlike() throws {
        let client = Client()
        let padding = String(repeating: "p", count: 100_000)
        let big = #"{"op":"create","tag":1,"component":"View","props":{"testID":"\#(padding)"}}"#
        #expect(client.result(Self.part([big], more: true)) == #"{"staged":1}"#)
        let held = try #require(JanssonMemory.claimScratch())
        #expect(client.result(Self.part([Self.create(2, parent: 1)], more: true, at: 1)) == #"{"staged":2}"#)
        JanssonMemory.releaseScratch()
        _ = held
        for tag in 10...12 { #expect(client.result(Self.create(tag)) == #"{"tag":\#(tag)}"#) }
        #expect(
            client.result(Self.part([Self.create(3, parent: 2)], at: 2))
                == #"{"results":[{"tag":1},{"tag":2},{"tag":3}]}"#
        )
        #expect(field(client.inspect(1), "result.props.testID") == "\"\(padding)\"", "the first part's long string")
        #expect(field(client.inspect(2), "result.children") == "[3]")
    }

    @Test func aFailingOpOfAnyPartUndoesTheWholeBatchAndIsNamedByItsPlaceInIt() {
        let client = Client()
        client.send(Self.create(9))
        let before = client.inspect(9)
        let adopt = #"{"op":"setChildren","tag":9,"children":[1]}"#
        #expect(client.result(Self.part([Self.create(1), adopt], more: true)) == #"{"staged":2}"#)
        #expect(client.session.staged?.isApplied == true)
        let bogus = #"{"op":"update","tag":1,"props":{"bogus":1}}"#
        let response = client.send(Self.part([Self.create(2), bogus], at: 2)).response
        #expect(field(response, "error.code") == #""batch_failed""#)
        #expect(field(response, "error.index") == "3")
        #expect(field(response, "error.error.code") == #""invalid_props""#)
        #expect(client.inspect(9) == before)
        #expect(client.result(#"{"op":"inspect","tag":1}"#) == #""unknown_tag""#)
        #expect(client.connection.stagedBatchBytes == 0, "the parts are dropped with the batch")
    }

    @Test func aMissingOrRefusedPartRefusesTheRestAndAppliesNothing() {
        let client = Client()
        #expect(client.result(Self.part([Self.create(1)], more: true)) == #"{"staged":1}"#)
        // The client's next part was lost (a frame too large): the one after it says where it starts.
        let skipped = client.send(Self.part([Self.create(3)], more: true, at: 2)).response
        #expect(field(skipped, "error.code") == #""bad_request""#)
        #expect(field(skipped, "error.message").contains("hold 1 ops"))
        // The last part finds nothing held: refused too, and nothing was applied.
        #expect(client.result(Self.part([Self.create(4)], at: 3)) == #""bad_request""#)
        for tag in [1, 3, 4] { #expect(client.result(#"{"op":"inspect","tag":\#(tag)}"#) == #""unknown_tag""#) }
        // A part whose op has no shape fails at once, named by its place in the whole batch.
        #expect(client.result(Self.part([Self.ping], more: true)) == #"{"staged":1}"#)
        let malformed = client.send(Self.part([Self.ping, "7"], more: true, at: 1)).response
        #expect(field(malformed, "error.code") == #""batch_failed""#)
        #expect(field(malformed, "error.index") == "2")
        #expect(client.connection.stagedBatchBytes == 0)
        #expect(client.result(#"{"op":"batch","more":"yes","ops":[]}"#) == #""bad_request""#)
        #expect(client.result(Self.part([], more: true, at: -1)) == #""bad_request""#)
    }

    @Test func aNewFirstPartDropsAnUnfinishedOne() {
        let client = Client()
        client.send(Self.part([Self.create(1)], more: true))
        #expect(client.result(Self.part([Self.create(2)], more: true, at: 0)) == #"{"staged":1}"#)
        #expect(client.result(Self.part([], at: 1)) == #"{"results":[{"tag":2}]}"#)
        #expect(client.result(#"{"op":"inspect","tag":1}"#) == #""unknown_tag""#)
        // An empty part that is first and last drops the held parts on purpose and applies nothing.
        client.send(Self.part([Self.create(3)], more: true))
        #expect(client.result(Self.part([], at: 0)) == #"{"results":[]}"#)
        #expect(client.result(Self.part([], at: 1)) == #""bad_request""#, "nothing is held any more")
        #expect(client.result(#"{"op":"inspect","tag":3}"#) == #""unknown_tag""#)
    }

    @Test func thePartsTogetherKeepTheBatchLimits() {
        var configuration = Engine.Configuration()
        configuration.maxOpsPerBatch = 3
        configuration.maxBatchBytes = 300
        let client = Client(engine: Engine(configuration: configuration))
        #expect(client.result(Self.part([Self.ping, Self.ping], more: true)) == #"{"staged":2}"#)
        let over = client.send(Self.part([Self.ping, Self.ping], at: 2)).response
        #expect(field(over, "error.code") == #""limit_exceeded""#)
        #expect(field(over, "error.message").contains("4 ops exceed the limit of 3"))
        #expect(client.connection.stagedBatchBytes == 0)
        let padded = #"{"op":"ping","pad":""# + String(repeating: "x", count: 150) + #""}"#
        #expect(client.result(Self.part([padded], more: true)) == #"{"staged":1}"#)
        let bytes = client.send(Self.part([padded], more: true, at: 1)).response
        #expect(field(bytes, "error.code") == #""limit_exceeded""#)
        #expect(field(bytes, "error.message").contains("--max-batch-bytes"))
    }

    @Test func aClosedConnectionDropsItsParts() {
        let engine = Engine()
        let client = Client(engine: engine)
        client.send(Self.part([Self.create(1)], more: true))
        #expect(client.connection.stagedBatchBytes > 0)
        #expect(client.session.staged?.isApplied == true)
        let resume = resumeLine(client.session, ack: 0)
        client.connection.close()
        let other = Client(engine: engine, hello: false)
        #expect(field(other.send(resume).response, "result.resumed") == "true")
        #expect(other.result(Self.part([], at: 1)) == #""bad_request""#)
        #expect(other.connection.stagedBatchBytes == 0)
        #expect(other.result(#"{"op":"inspect","tag":1}"#) == #""unknown_tag""#, "what it applied ahead is undone")
    }

    /// Whether `session` has a view `tag` in storage, looked at without a request (which would roll back what parts
    /// applied ahead).
    static func stores(_ tag: Int, _ session: Session) -> Bool {
        ViewStorage.proxy(session: session.storageKey, tag: tag) != nil
    }

    @Test func partsRunAsTheyComeAndNoOneSeesThemUntilTheLast() {
        let engine = Engine()
        let client = Client(engine: engine)
        let tools = engine.connect()
        let sink = ObserverFramesTests.CollectingSink()
        tools.makeObserverSink = { _ in sink }
        _ = tools.handle(line: #"{"id":0,"op":"hello","protocol":1}"#)
        _ = tools.handle(line: #"{"id":1,"op":"observe","session":"\#(client.session.id)"}"#)
        _ = sink.take()
        let subscribe = #"{"op":"subscribe","tag":1,"event":"countChange"}"#
        #expect(client.result(Self.part([Self.create(1), subscribe], more: true)) == #"{"staged":2}"#)
        #expect(client.session.staged?.isApplied == true)
        #expect(Self.stores(1, client.session), "applied as it came")
        #expect(sink.take().isEmpty, "observers are owed nothing yet")
        #expect(client.result(Self.ping) == "{}")
        #expect(client.session.staged?.isApplied == true, "a ping reads nothing: the parts stay applied")
        let press = #"{"op":"command","tag":2,"name":"press"}"#
        let second = client.send(Self.part([Self.create(2, "SwiftUIButton", parent: 1), press], more: true, at: 2))
        #expect(field(second.response, "result") == #"{"staged":4}"#)
        #expect(second.events.isEmpty, "the press's event waits for the commit")
        #expect(client.session.seq == 0)
        let (events, response) = client.send(Self.part([#"{"op":"update","tag":2,"props":{"title":"t"}}"#], at: 4))
        #expect(field(response, "result.results") == #"[{"tag":1},{},{"tag":2},{},{"changed":["title"]}]"#)
        #expect(events.count == 1)
        #expect(field(events[0], "seq") == "1")
        #expect(field(events[0], "target") == "2")
        let frames = String(decoding: sink.take(), as: UTF8.self)
        #expect(frames.contains(#""created""#), "the observer got the batch's changes once it committed")
        _ = tools.handle(line: #"{"id":2,"op":"unobserve","session":"\#(client.session.id)"}"#)
        tools.close()
    }

    @Test func anyOtherRequestRollsBackWhatThePartsAppliedAndTheLastPartRunsThemAll() {
        let client = Client()
        client.send(Self.create(9))
        let first = Self.part([#"{"op":"delete","tag":9}"#, Self.create(1)], more: true)
        #expect(client.result(first) == #"{"staged":2}"#)
        #expect(!Self.stores(9, client.session) && Self.stores(1, client.session), "applied ahead")
        #expect(field(client.inspect(9), "ok") == "true", "the request sees the session without the parts")
        #expect(client.result(#"{"op":"inspect","tag":1}"#) == #""unknown_tag""#)
        #expect(client.session.staged?.isApplied == false)
        // The parts after that are held, and the last part runs them all against the session as it is then.
        #expect(client.result(Self.part([Self.create(2, parent: 1)], more: true, at: 2)) == #"{"staged":3}"#)
        #expect(!Self.stores(2, client.session))
        #expect(client.result(Self.part([], at: 3)) == #"{"results":[{"deleted":[9]},{"tag":1},{"tag":2}]}"#)
        #expect(client.result(#"{"op":"inspect","tag":9}"#) == #""unknown_tag""#)
        #expect(field(client.inspect(1), "result.children") == "[2]")
        // A whole batch between the parts is not one of them, and sees none of them.
        client.send(Self.part([Self.create(3)], more: true))
        #expect(client.result(#"{"op":"batch","ops":[{"op":"inspect","tag":3}]}"#) == #""batch_failed""#)
        #expect(client.result(Self.part([], at: 1)) == #"{"results":[{"tag":3}]}"#)
    }

    @Test func aPartWhoseOpFailsAheadIsLeftToTheLastPart() {
        let client = Client()
        #expect(client.result(Self.part([Self.create(1)], more: true)) == #"{"staged":1}"#)
        let adopt = #"{"op":"setChildren","tag":1,"children":[77]}"#
        #expect(client.result(Self.part([adopt], more: true, at: 1)) == #"{"staged":2}"#, "no view 77 yet")
        #expect(client.session.staged?.isApplied == false)
        #expect(!Self.stores(1, client.session), "what the parts applied is rolled back")
        // The ops run at the last part, against the session as it is then: view 77 exists by then.
        client.send(Self.create(77))
        #expect(client.result(Self.part([], at: 2)) == #"{"results":[{"tag":1},{"children":[77]}]}"#)
        #expect(field(client.inspect(1), "result.children") == "[77]")
    }

    @Test func observingTheSessionOrSavingItsStateRollsBackWhatPartsApplied() {
        let engine = Engine()
        let client = Client(engine: engine)
        client.send(Self.part([Self.create(1)], more: true))
        #expect(client.session.staged?.isApplied == true)
        let saved = String(decoding: engine.saveState(), as: UTF8.self)
        #expect(!saved.contains(#""tag":1"#), "the state file holds the session without the parts")
        #expect(client.session.staged?.isApplied == false)
        client.send(Self.part([Self.create(2)], more: true, at: 0))
        #expect(Self.stores(2, client.session))
        let tools = engine.connect()
        tools.makeObserverSink = { _ in ObserverFramesTests.CollectingSink() }
        _ = tools.handle(line: #"{"id":0,"op":"hello","protocol":1}"#)
        let snapshot = tools.handle(line: #"{"id":1,"op":"observe","session":"\#(client.session.id)"}"#).first ?? ""
        #expect(field(snapshot, "result.views") == "[]")
        #expect(!Self.stores(2, client.session))
        #expect(client.result(Self.part([], at: 1)) == #"{"results":[{"tag":2}]}"#)
        tools.close()
    }
}
