import BridgeCore
import PropStore
import Testing

/// `bye`: the client ends its session at once, rather than leaving it to wait out the session TTL.
@Suite("bye")
struct ByeTests {
    /// A session with a view, said hello on a connection of `engine`.
    func withAView(_ engine: Engine) -> Connection {
        let connection = engine.connect()
        _ = connection.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        _ = connection.handle(line: #"{"id":2,"op":"create","tag":1,"component":"SwiftUIButton"}"#)
        return connection
    }

    @Test func byeEndsTheSessionAtOnce() {
        let engine = Engine()
        let connection = withAView(engine)
        let session = connection.session
        #expect(ViewStorage.views(session: session.storageKey).count == 1)
        #expect(engine.sessionCount == 1)

        let frames = connection.handle(line: #"{"id":9,"op":"bye"}"#)
        #expect(frames == [#"{"id":9,"ok":true,"result":{}}"#])
        #expect(connection.hasEnded)
        #expect(ViewStorage.views(session: session.storageKey).isEmpty, "its views are deleted")
        #expect(engine.sessionCount == 0)
        #expect(connection.handle(line: #"{"id":10,"op":"ping"}"#).isEmpty, "nothing after bye is handled")

        connection.close()
        #expect(engine.detachedSessionCount == 0, "not kept for a resume")
        let again = engine.connect().handle(line: resumeLine(session, ack: 0))
        #expect(field(again[0], "result.resumed") == "false")
        #expect(field(again[0], "result.reason") == #""unknown_session""#)
        engine.closeAllSessions()
    }

    @Test func byeIsNotAllowedInABatch() {
        let engine = Engine()
        let connection = withAView(engine)
        let frames = connection.handle(
            line: #"{"id":3,"op":"batch","ops":[{"op":"update","tag":1,"props":{"count":2}},{"op":"bye"}]}"#
        )
        #expect(field(frames[0], "error.code") == #""batch_failed""#)
        #expect(field(frames[0], "error.error.code") == #""bad_request""#)
        #expect(field(frames[0], "error.index") == "1")
        #expect(!connection.hasEnded)
        let inspected = connection.handle(line: #"{"id":4,"op":"inspect","tag":1}"#)
        #expect(field(inspected[0], "result.props.count") == "0", "nothing of the batch was applied")
        connection.close()
        engine.closeAllSessions()
    }

    @Test func byeBeforeHelloIsHelloRequired() {
        let engine = Engine()
        let connection = engine.connect()
        #expect(field(connection.handle(line: #"{"id":1,"op":"bye"}"#)[0], "error.code") == #""hello_required""#)
        #expect(!connection.hasEnded)
        connection.close()
    }
}
