import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// No client waits on another's request (issue 30, item 6): a long request runs off its event loop, so other
/// connections (on its loop or the other one) are answered while it is in flight, while its own connection's
/// requests stay in order behind it, and no one sees its changes before it commits.
///
/// Counted, with no clock: the daemon runs with `--test-hold-long-requests N`, which holds every long request
/// (off the loop, before it runs) until the daemon has answered N requests inline. A daemon that handled the long
/// request on the loop would never answer the others of its loop meanwhile (the hold's safety timeout then lets
/// it go and the order checked here is wrong). The three connections alternate between the daemon's two loops, so
/// the first and the third share one.
@Suite("Fairness", .serialized)
struct FairnessTests {
    /// A batch of `count` creates from `first`: 20,000 creates are about 1.2 MB, far over the long-request line.
    static func batch(id: String, first: Int, count: Int) -> String {
        let ops = (first..<first + count).map { #"{"op":"create","tag":\#($0),"component":"View","props":{}}"# }
        return #"{"id":"\#(id)","op":"batch","ops":[\#(ops.joined(separator: ","))]}"#
    }

    /// 2,000 views in `client`'s session, made by 20 batches of 100 creates (each short: answered on the loop).
    static func createTwoThousandViews(on client: SocketClient) throws {
        for n in 0..<20 {
            let answer = object(try client.request(batch(id: "b\(n)", first: 1 + n * 100, count: 100)))
            #expect(answer["ok"] as? Bool == true)
        }
    }

    /// The views `sessions` lists for `session`, or `nil` when it is not listed.
    static func views(of session: String, asking client: SocketClient, id: Int) throws -> Int? {
        let result = object(try client.request(#"{"id":\#(id),"op":"sessions"}"#))["result"] as? [String: Any]
        let sessions = result?["sessions"] as? [[String: Any]] ?? []
        return sessions.first { $0["session"] as? String == session }?["views"] as? Int
    }

    /// Whether a frame can be read from `client` now, without waiting.
    static func hasFrameWaiting(_ client: SocketClient) -> Bool {
        var descriptor = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    @Test func anotherSessionIsAnsweredWhileALongBatchIsInFlight() throws {
        let directory = TemporaryDirectory()
        let socket = directory.file("d.sock")
        // Answered inline: 3 hellos, then B's ping, C's ping, B's sessions: the sixth lets the batch go.
        let daemon = try DaemonProcess.start(
            socket: socket,
            ["--test-hold-long-requests", "6", "--max-frame-bytes", "\(16 << 20)"],
            in: directory
        )
        defer { daemon.signal(SIGKILL) }
        let a = try SocketClient(path: socket)
        let c = try SocketClient(path: socket)
        let b = try SocketClient(path: socket)
        let session = try a.hello().id
        try c.hello()
        try b.hello()

        // A's long batch, and a ping right behind it in the same write.
        a.send(Self.batch(id: "batch", first: 1, count: 20_000) + "\n" + #"{"id":"after","op":"ping"}"# + "\n")

        // B, on A's loop, and C, on the other, are answered while A's batch waits.
        #expect(object(try b.request(#"{"id":1,"op":"ping"}"#))["ok"] as? Bool == true)
        #expect(object(try c.request(#"{"id":1,"op":"ping"}"#))["ok"] as? Bool == true)
        #expect(!Self.hasFrameWaiting(a), "A's batch was answered before the others' requests")
        // The batch is invisible until it commits.
        #expect(try Self.views(of: session, asking: b, id: 2) == 0)

        // Then A: the batch's answer, then the ping that followed it, in order.
        let answered = try #require(a.readLine())
        #expect(object(answered)["id"] as? String == "batch")
        #expect(object(answered)["ok"] as? Bool == true, "\(answered.prefix(300))")
        #expect(object(try #require(a.readLine()))["id"] as? String == "after")
        #expect(try Self.views(of: session, asking: b, id: 3) == 20_000)
    }

    /// A connection whose long request waits is taken over (another resumes its session): the request is never
    /// run, and the connection gets `session_taken_over` and nothing else.
    @Test func aTakeoverWhileALongRequestWaits() throws {
        let directory = TemporaryDirectory()
        let socket = directory.file("d.sock")
        // Answered inline: A's hello, then B's hello resuming A's session: the second lets A's batch go.
        let daemon = try DaemonProcess.start(socket: socket, ["--test-hold-long-requests", "2"], in: directory)
        defer { daemon.signal(SIGKILL) }
        let a = try SocketClient(path: socket)
        let session = try a.hello()
        a.send(Self.batch(id: "batch", first: 1, count: 2_000) + "\n")
        let b = try SocketClient(path: socket)
        let resumed = object(try b.request(resumeLine(session, ack: 0)))["result"] as? [String: Any]
        #expect(resumed?["resumed"] as? Bool == true)
        #expect(a.readUntilClosed().map(errorCode) == ["session_taken_over"])
        #expect(try Self.views(of: session.id, asking: b, id: 1) == 0)
    }

    /// A batch that fails is undone off the loop as on it: nothing of it stays, and the connection goes on.
    @Test func aLongBatchThatFailsChangesNothing() throws {
        let directory = TemporaryDirectory()
        let socket = directory.file("d.sock")
        let daemon = try DaemonProcess.start(socket: socket, ["--max-frame-bytes", "\(16 << 20)"], in: directory)
        defer { daemon.signal(SIGKILL) }
        let a = try SocketClient(path: socket)
        let session = try a.hello().id
        // The last create repeats the first one's tag.
        var line = Self.batch(id: "batch", first: 1, count: 5_000)
        line.removeLast(2)
        line += #",{"op":"create","tag":1,"component":"View","props":{}}]}"#
        let answer = try a.request(line)
        #expect(object(answer)["ok"] as? Bool == false)
        #expect(object(try a.request(#"{"id":"after","op":"ping"}"#))["id"] as? String == "after")
        #expect(try Self.views(of: session, asking: a, id: 1) == 0)
    }

    /// A long request is recorded (`--record`) in its place among the session's requests, and the recording
    /// replays byte for byte.
    @Test func aLongRequestIsRecordedInOrder() throws {
        let directory = TemporaryDirectory()
        let socket = directory.file("d.sock")
        let records = directory.file("records")
        let daemon = try DaemonProcess.start(socket: socket, ["--record", records], in: directory)
        let a = try SocketClient(path: socket)
        let lines = [
            helloLine,
            #"{"id":1,"op":"create","tag":100000,"component":"View"}"#,
            Self.batch(id: "batch", first: 1, count: 2_000),
            #"{"id":2,"op":"setChildren","tag":100000,"children":[1,2,3]}"#,
            #"{"id":3,"op":"bye"}"#,
        ]
        a.send(lines.joined(separator: "\n") + "\n")
        let received = a.readUntilClosed()
        #expect(
            received.map { object($0)["id"] as? String ?? "\(object($0)["id"] as? Int ?? -1)" }
                == ["hello", "1", "batch", "2", "3"]
        )
        let session = try #require((object(received[0])["result"] as? [String: Any])?["session"] as? String)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let replay = try run(DaemonHarness.binary, ["replay", records + "/" + session + ".jsonl"])
        #expect(replay.status == 0, "\(replay.output)")
        #expect(replay.output.hasSuffix("1 passed, 0 failed\n"))
    }

    /// The `bye` of a large session (freeing its views) runs off the loop: others are answered meanwhile, and the
    /// session is answered, then closed.
    @Test func theByeOfALargeSessionHoldsNoOneUp() throws {
        let directory = TemporaryDirectory()
        let socket = directory.file("d.sock")
        // Answered inline: 2 hellos, A's 20 batches of 100 creates, B's ping, B's sessions: the 24th lets it go.
        let daemon = try DaemonProcess.start(socket: socket, ["--test-hold-long-requests", "24"], in: directory)
        defer { daemon.signal(SIGKILL) }
        let a = try SocketClient(path: socket)
        let c = try SocketClient(path: socket)
        let b = try SocketClient(path: socket)
        let session = try a.hello().id
        try b.hello()
        try Self.createTwoThousandViews(on: a)
        a.send(#"{"id":"bye","op":"bye"}"# + "\n")
        #expect(object(try b.request(#"{"id":1,"op":"ping"}"#))["ok"] as? Bool == true)
        #expect(!Self.hasFrameWaiting(a), "A's bye was answered before B's request")
        #expect(try Self.views(of: session, asking: b, id: 2) == 2_000)
        try c.hello()
        #expect(a.readUntilClosed().map { object($0)["id"] as? String } == ["bye"])
        #expect(try Self.views(of: session, asking: b, id: 3) == nil)
    }

    /// A client that says `bye` to a large session and closes its side at once (as `socat` does at the end of its
    /// input): the connection is closed once the bye, run off the loop, is answered; it does not stay open.
    @Test func aByeFollowedByTheEndOfInputClosesTheConnection() throws {
        let directory = TemporaryDirectory()
        let socket = directory.file("d.sock")
        // Answered inline: 2 hellos, A's 20 batches, B's ping: the 23rd lets the bye go, after A's end of input.
        let daemon = try DaemonProcess.start(socket: socket, ["--test-hold-long-requests", "23"], in: directory)
        defer { daemon.signal(SIGKILL) }
        let a = try SocketClient(path: socket)
        let b = try SocketClient(path: socket)
        try a.hello()
        try b.hello()
        try Self.createTwoThousandViews(on: a)
        a.send(#"{"id":"bye","op":"bye"}"# + "\n")
        a.shutdownWrite()
        #expect(object(try b.request(#"{"id":1,"op":"ping"}"#))["ok"] as? Bool == true)
        #expect(a.readUntilClosed().map { object($0)["id"] as? String } == ["bye"])
        #expect(a.sawEnd, "the daemon kept the connection open after answering its bye")
    }

    /// A batch in parts runs each part as it comes, off the loop when it is long: another session is answered while
    /// a part waits, and no one sees the parts' views until the last part commits them.
    @Test func aBatchInPartsRunsAheadOffTheLoopUnseen() throws {
        let directory = TemporaryDirectory()
        let socket = directory.file("d.sock")
        // Answered inline: 2 hellos, then B's ping and B's sessions: the fourth lets A's first part go.
        let daemon = try DaemonProcess.start(socket: socket, ["--test-hold-long-requests", "4"], in: directory)
        defer { daemon.signal(SIGKILL) }
        let a = try SocketClient(path: socket)
        let b = try SocketClient(path: socket)
        let session = try a.hello().id
        try b.hello()
        var first = Self.batch(id: "part", first: 1, count: 2_000)
        first.insert(contentsOf: #""more":true,"#, at: first.index(first.startIndex, offsetBy: 1))
        a.send(first + "\n")
        #expect(object(try b.request(#"{"id":1,"op":"ping"}"#))["ok"] as? Bool == true)
        #expect(!Self.hasFrameWaiting(a), "A's part was answered before B's request")
        #expect(try Self.views(of: session, asking: b, id: 2) == 0)
        let staged = try #require(a.readLine())
        #expect((object(staged)["result"] as? [String: Any])?["staged"] as? Int == 2_000, "\(staged.prefix(300))")
        #expect(try Self.views(of: session, asking: b, id: 3) == 0, "the part's views are not the session's yet")
        a.send(#"{"id":"last","op":"batch","at":2000,"ops":[{"op":"create","tag":2001,"component":"View"}]}"# + "\n")
        let last = try #require(a.readLine())
        let results = (object(last)["result"] as? [String: Any])?["results"] as? [Any]
        #expect(results?.count == 2_001, "\(last.prefix(300))")
        #expect(try Self.views(of: session, asking: b, id: 4) == 2_001)
    }
}
