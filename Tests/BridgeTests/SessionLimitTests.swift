import BridgeCore
import Synchronization
import Testing

/// How many sessions a daemon keeps (`--max-sessions`), and how long a `client` name may be.
@Suite("Sessions, bounded")
struct SessionLimitTests {
    func engine(maxSessions: Int) -> Engine {
        var configuration = Engine.Configuration()
        configuration.maxSessions = maxSessions
        return Engine(configuration: configuration)
    }

    /// A connection that says hello, then leaves: its session waits to be resumed.
    func helloAndLeave(_ engine: Engine) -> Session {
        let connection = engine.connect()
        _ = connection.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        connection.close()
        return connection.session
    }

    /// At the cap, a hello evicts the session detached longest; its resume is refused with a reason of its own.
    @Test func theLongestDetachedSessionIsEvicted() {
        let engine = engine(maxSessions: 2)
        let oldest = helloAndLeave(engine)
        _ = helloAndLeave(engine)
        let third = engine.connect()
        #expect(field(third.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)[0], "ok") == "true")
        #expect(engine.sessionCount == 2, "the oldest session ended")
        let evicted = engine.connect().handle(line: resumeLine(oldest, ack: 0))[0]
        #expect(field(evicted, "result.resumed") == "false")
        #expect(field(evicted, "result.reason") == #""evicted""#)
    }

    /// A large evicted session is ended where the daemon says (off its event loops), not by the hello that evicted
    /// it; a smaller one at once.
    @Test(arguments: [(3, true), (2, false)])
    func aLargeEvictedSessionIsEndedElsewhere(views: Int, elsewhere: Bool) {
        let handedOver = Mutex<[@Sendable () -> Void]>([])
        var configuration = Engine.Configuration()
        configuration.maxSessions = 1
        configuration.largeSessionViews = 3
        configuration.endLargeSession = { end in handedOver.withLock { $0.append(end) } }
        let engine = Engine(configuration: configuration)
        let detached = engine.connect()
        _ = detached.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        let creates = (1...views).map { #"{"op":"create","tag":\#($0),"component":"View"}"# }
        _ = detached.handle(line: #"{"id":2,"op":"batch","ops":[\#(creates.joined(separator: ","))]}"#)
        detached.close()
        #expect(engine.viewCount == views)

        let next = engine.connect()
        #expect(field(next.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)[0], "ok") == "true")
        #expect(handedOver.withLock { $0.count } == (elsewhere ? 1 : 0))
        // Until its end runs, the evicted session (out of the table: no resume finds it) still counts, views too.
        #expect(engine.sessionCount == (elsewhere ? 2 : 1))
        #expect(engine.viewCount == (elsewhere ? views : 0))
        for end in handedOver.withLock({ $0 }) { end() }
        #expect(engine.sessionCount == 1)
        #expect(engine.viewCount == 0)
    }

    @Test func theNewerDetachedSessionStaysResumable() {
        let engine = engine(maxSessions: 3)
        let oldest = helloAndLeave(engine)
        let newer = helloAndLeave(engine)
        let third = engine.connect()
        _ = third.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        let fourth = engine.connect()
        _ = fourth.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        // `fourth` took `oldest`'s place; `newer` is resumed by a connection whose own session is dropped.
        fourth.close()
        let resumed = engine.connect().handle(line: resumeLine(newer, ack: 0))[0]
        #expect(field(resumed, "result.resumed") == "true")
        let evicted = engine.connect().handle(line: resumeLine(oldest, ack: 0))[0]
        #expect(field(evicted, "result.reason") == #""evicted""#)
    }

    /// When every session is connected, a new hello is refused, and the connection may try again later.
    @Test func aHelloIsRefusedWhenEverySessionIsConnected() {
        let engine = engine(maxSessions: 2)
        let first = engine.connect()
        _ = first.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        let second = engine.connect()
        _ = second.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        let third = engine.connect()
        let refused = third.handle(line: #"{"id":5,"op":"hello","protocol":1}"#)[0]
        #expect(field(refused, "id") == "5")
        #expect(field(refused, "error.code") == #""limit_exceeded""#)
        #expect(field(refused, "error.message").contains("--max-sessions"))
        #expect(field(third.handle(line: #"{"id":6,"op":"ping"}"#)[0], "error.code") == #""hello_required""#)
        first.close()
        #expect(field(third.handle(line: #"{"id":7,"op":"hello","protocol":1}"#)[0], "ok") == "true")
        #expect(
            field(engine.connect().handle(line: resumeLine(first.session, ack: 0))[0], "error.code")
                == #""limit_exceeded""#,
            "a refused resume needs a fresh session, and there is no room for one"
        )
    }

    /// A `client` name is at most 256 bytes: the `sessions` answer stays small.
    @Test(arguments: [(256, true), (257, false), (1 << 20, false)])
    func aClientNameIsBounded(length: Int, accepted: Bool) {
        let client = Client(hello: false)
        let name = String(repeating: "n", count: length)
        let response = client.send(#"{"id":1,"op":"hello","protocol":1,"client":"\#(name)"}"#).response
        if accepted {
            #expect(field(response, "ok") == "true")
        } else {
            #expect(field(response, "error.code") == #""bad_request""#)
            #expect(field(response, "error.message").contains("256"))
            #expect(field(client.send(#"{"id":2,"op":"ping"}"#).response, "error.code") == #""hello_required""#)
        }
    }
}
