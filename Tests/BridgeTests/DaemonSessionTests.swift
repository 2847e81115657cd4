import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The protocol over the socket: framing limits, bad input, many sessions, slow clients, recording.
@Suite("Daemon: sessions over the socket", .serialized)
struct DaemonSessionTests {
    /// The `sessions` count of `stats`, asked on a connection of its own.
    private func openSessions(_ socket: String) -> Int? {
        guard let client = try? SocketClient(path: socket),
            (try? client.request(helloLine)) != nil,
            let frame = try? client.request(#"{"op":"stats"}"#)
        else { return nil }
        return (object(frame)["result"] as? [String: Any])?["sessions"] as? Int
    }

    @Test func anOversizeLineIsAnsweredAndSkipped() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let limit = 64
        let daemon = try DaemonProcess.start(socket: socket, ["--max-frame-bytes", "\(limit)"], in: dir)
        let client = try SocketClient(path: socket)
        try client.hello()

        // Exactly at the limit is fine; one byte over is not.
        let ping = #"{"id":1,"op":"ping"}"#
        let atLimit = ping.dropLast() + String(repeating: " ", count: limit - ping.count) + "}"
        #expect(atLimit.utf8.count == limit)
        #expect(object(try client.request(String(atLimit)))["ok"] as? Bool == true)
        let overLimit = ping.dropLast() + String(repeating: " ", count: limit - ping.count + 1) + "}"
        let refused = try client.request(String(overLimit))
        #expect(errorCode(refused) == "frame_too_large")
        #expect(object(refused)["id"] is NSNull)

        // A long line in many small writes, refused before its end arrives; the lines around it are answered.
        client.send(#"{"id":2,"op":"ping"}"# + "\n" + #"{"id":3,"op":"#)
        for _ in 0..<20 { client.send(String(repeating: "x", count: 50)) }
        client.send("\n" + #"{"id":4,"op":"ping"}"# + "\n")
        let frames = (0..<3).compactMap { _ in client.readLine() }
        #expect(frames.count == 3)
        #expect(object(frames[0])["id"] as? Int == 2)
        #expect(errorCode(frames[1]) == "frame_too_large")
        #expect(object(frames[2])["id"] as? Int == 4)
        _ = daemon
    }

    @Test func aLineOverTheDefaultMegabyteSpansManyReads() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        let client = try SocketClient(path: socket)
        try client.hello()
        let title = String(repeating: "t", count: 3 << 20)
        client.send(#"{"id":5,"op":"create","tag":1,"component":"SwiftUIButton","props":{"title":""# + title + "\"}}\n")
        #expect(errorCode(client.readLine() ?? "") == "frame_too_large")
        // Just under the limit is a frame like any other.
        let fits = String(repeating: "f", count: (1 << 20) - 200)
        let created = try client.request(
            #"{"id":6,"op":"create","tag":1,"component":"SwiftUIButton","props":{"title":""# + fits + "\"}}"
        )
        #expect(object(created)["ok"] as? Bool == true)
        #expect(object(try client.request(#"{"id":7,"op":"ping"}"#))["id"] as? Int == 7)
        _ = daemon
    }

    @Test func badInputIsAnsweredAndTheSessionGoesOn() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        let client = try SocketClient(path: socket)
        client.send(
            [
                helloLine, "this is not json", #"{"id":1,"op":"#, "[1,2,3]", "", "\r", #"{"id":2,"op":"ping"}"# + "\r",
                "\u{FF}\u{FE}", #"{"id":3,"op":"nope"}"#, #"{"id":4,"op":"ping"}"#,
            ].joined(separator: "\n") + "\n"
        )
        let frames = (0..<8).compactMap { _ in client.readLine() }
        #expect(frames.count == 8)
        #expect(object(frames[0])["ok"] as? Bool == true)
        #expect(frames[1...3].map(errorCode) == ["bad_json", "bad_json", "bad_request"])
        #expect(object(frames[4])["id"] as? Int == 2)  // blank lines are keep-alives; \r\n is fine
        #expect(errorCode(frames[5]) == "bad_json")
        #expect(errorCode(frames[6]) == "unknown_op")
        #expect(object(frames[7])["id"] as? Int == 4)
        _ = daemon
    }

    @Test func clientsThatVanishMidFrameLeaveNothingBehind() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        // No session outlives its connection here: once the clients are gone, only the one asking is left.
        let daemon = try DaemonProcess.start(socket: socket, ["--session-ttl", "0"], in: dir)
        let baseline = daemon.openDescriptors()
        for i in 0..<2000 {
            let client = try SocketClient(path: socket)
            switch i % 3 {
            case 0:
                client.send(helloLine + "\n" + #"{"id":2,"op":"create","tag":1,"compo"#)  // cut mid-frame
            case 1:
                client.send(helloLine + "\n" + #"{"id":2,"op":"create","tag":1,"component":"View"}"#)
                client.shutdownWrite()  // end of stream mid-frame: the partial line is dropped
                #expect(client.readUntilClosed().count == 1)
            default:
                break  // open, then gone
            }
        }
        #expect(DaemonHarness.eventually { openSessions(socket) == 1 })
        #expect(DaemonHarness.eventually { daemon.openDescriptors() <= baseline })
        #expect(!daemon.stderr.contains("error"))
    }

    @Test func twoHundredSessionsDoNotSeeEachOther() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        let clients = try (0..<200).map { _ in try SocketClient(path: socket) }
        // Every session uses the same tags with its own props, all sessions open at once.
        for (i, client) in clients.enumerated() {
            client.send(
                [
                    helloLine,
                    #"{"id":1,"op":"create","tag":1,"component":"View"}"#,
                    #"{"id":2,"op":"create","tag":2,"component":"SwiftUIButton","parent":1,"#
                        + #""props":{"title":"client \#(i)","count":\#(i)}}"#,
                    #"{"id":3,"op":"subscribe","tag":1,"event":"countChange"}"#,
                ].joined(separator: "\n") + "\n"
            )
        }
        for client in clients {
            let frames = (0..<4).compactMap { _ in client.readLine() }
            #expect(frames.allSatisfy { object($0)["ok"] as? Bool == true })
        }
        for client in clients {
            client.send(
                #"{"id":4,"op":"command","tag":2,"name":"press"}"# + "\n" + #"{"id":5,"op":"inspect","tag":2}"# + "\n"
            )
        }
        for (i, client) in clients.enumerated() {
            let event = object(client.readLine() ?? "")
            #expect(event["event"] as? String == "countChange")
            #expect(event["seq"] as? Int == 1)
            #expect((event["payload"] as? [String: Any])?["count"] as? Int == i + 1)
            #expect(object(client.readLine() ?? "")["id"] as? Int == 4)
            let inspected = object(client.readLine() ?? "")["result"] as? [String: Any]
            let props = inspected?["props"] as? [String: Any]
            #expect(props?["title"] as? String == "client \(i)")
            #expect(props?["count"] as? Int == i)
        }
        let stats = object(try clients[0].request(#"{"id":6,"op":"stats"}"#))["result"] as? [String: Any]
        #expect(stats?["sessions"] as? Int == 200)
        #expect(stats?["sessionViews"] as? Int == 2)
        _ = daemon
    }

    /// A session outlives its connection: a new connection resumes it (views kept, missed events written
    /// again); resuming a session whose connection is still open takes it over.
    @Test func aSessionIsResumedOnANewConnection() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        let first = try SocketClient(path: socket)
        let session = try first.hello()
        #expect(session.id.hasSuffix("-\(daemon.pid)"))
        first.send(
            [
                #"{"id":1,"op":"create","tag":1,"component":"SwiftUIButton","props":{"count":1}}"#,
                #"{"id":2,"op":"subscribe","tag":1,"event":"countChange"}"#,
                #"{"id":3,"op":"command","tag":1,"name":"press"}"#,
            ].joined(separator: "\n") + "\n"
        )
        let frames = (0..<4).compactMap { _ in first.readLine() }
        #expect(object(frames[2])["seq"] as? Int == 1)
        first.close()  // the event was never acked

        let resume = resumeLine(session, ack: 0)
        let second = try SocketClient(path: socket)
        let resumed = object(try second.request(resume))["result"] as? [String: Any]
        #expect(resumed?["resumed"] as? Bool == true)
        #expect(resumed?["session"] as? String == session.id)
        let replayed = object(second.readLine() ?? "")
        #expect(replayed["event"] as? String == "countChange")
        #expect(replayed["seq"] as? Int == 1)
        let inspected = object(try second.request(#"{"id":4,"op":"inspect","tag":1}"#))["result"] as? [String: Any]
        #expect((inspected?["props"] as? [String: Any])?["count"] as? Int == 1)

        // A third connection takes the session over from the second, which is told and closed.
        let third = try SocketClient(path: socket)
        let taken = object(try third.request(resumeLine(session, ack: 1)))
        #expect((taken["result"] as? [String: Any])?["resumed"] as? Bool == true)
        let rest = second.readUntilClosed()
        #expect(rest.map(errorCode) == ["session_taken_over"])
        #expect(object(try third.request(#"{"id":5,"op":"ping"}"#))["ok"] as? Bool == true)
        _ = daemon
    }

    /// Session ids are predictable (`s<n>-<pid>`), tokens are not: each hello gets 128 random bits, and a resume
    /// without the right one is refused like an unknown session, taking nothing over.
    @Test func aResumeNeedsTheTokenHelloGave() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        let owner = try SocketClient(path: socket)
        let session = try owner.hello()
        let other = try SocketClient(path: socket).hello()
        for token in [session.token, other.token] {
            #expect(token.count == 32 && token.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(token)")
        }
        #expect(session.token != other.token)

        let intruder = try SocketClient(path: socket)
        for guess in [Greeting(id: session.id, token: other.token), Greeting(id: session.id, token: "")] {
            let refused = object(try intruder.request(resumeLine(guess, ack: 0)))["result"] as? [String: Any]
            #expect(refused?["resumed"] as? Bool == false)
            #expect(refused?["reason"] as? String == "unknown_session")
        }
        let bare = #"{"id":"r","op":"hello","protocol":1,"resume":{"session":"\#(session.id)","ack":0}}"#
        let refusedBare = object(try intruder.request(bare))["result"] as? [String: Any]
        #expect(refusedBare?["reason"] as? String == "unknown_session")
        #expect(object(try owner.request(#"{"id":1,"op":"ping"}"#))["ok"] as? Bool == true, "not taken over")

        let taker = try SocketClient(path: socket)
        let resumed = object(try taker.request(resumeLine(session, ack: 0)))["result"] as? [String: Any]
        #expect(resumed?["resumed"] as? Bool == true)
        #expect(resumed?["token"] as? String == session.token)
        #expect(owner.readUntilClosed().map(errorCode) == ["session_taken_over"])
        _ = daemon
    }

    /// `bye` ends the session at once: answered, then the daemon closes the connection (a line sent after it is
    /// not answered); the session is gone (no resume), with its views.
    @Test func byeEndsTheSessionAndClosesTheConnection() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        let client = try SocketClient(path: socket)
        let session = try client.hello()
        let created = try client.request(#"{"id":1,"op":"create","tag":1,"component":"View"}"#)
        #expect(object(created)["ok"] as? Bool == true)
        client.send(#"{"id":2,"op":"bye"}"# + "\n" + #"{"id":3,"op":"ping"}"# + "\n")
        #expect(client.readUntilClosed() == [#"{"id":2,"ok":true,"result":{}}"#], "the answer, then end of stream")

        let other = try SocketClient(path: socket)
        let refused = object(try other.request(resumeLine(session, ack: 0)))["result"] as? [String: Any]
        #expect(refused?["resumed"] as? Bool == false)
        #expect(refused?["reason"] as? String == "unknown_session")
        let stats = object(try other.request(#"{"id":4,"op":"stats"}"#))["result"] as? [String: Any]
        #expect(stats?["sessions"] as? Int == 1, "only this connection's session is open")
        #expect(stats?["views"] as? Int == 0, "the ended session's view is deleted")
        _ = daemon
    }

    /// A clean stop saves the sessions beside the socket; the next daemon lets their clients resume. After a
    /// crash (no clean stop) there is nothing to resume, and the client is told so.
    @Test func sessionsSurviveACleanRestartButNotACrash() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let first = try DaemonProcess.start(socket: socket, in: dir)
        let client = try SocketClient(path: socket)
        let session = try client.hello()
        let created = try client.request(
            #"{"id":1,"op":"create","tag":7,"component":"View","props":{"testID":"kept"}}"#
        )
        #expect(object(created)["ok"] as? Bool == true)
        client.close()
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)
        #expect(access(dir.file("bridged.sock.state"), F_OK) == 0, "the state file is named after the socket")

        let resume = resumeLine(session, ack: 0)
        let second = try DaemonProcess.start(socket: socket, in: dir)
        let again = try SocketClient(path: socket)
        #expect((object(try again.request(resume))["result"] as? [String: Any])?["resumed"] as? Bool == true)
        let inspected = object(try again.request(#"{"id":2,"op":"inspect","tag":7}"#))["result"] as? [String: Any]
        #expect((inspected?["props"] as? [String: Any])?["testID"] as? String == "kept")
        again.close()

        second.signal(SIGKILL)
        _ = second.waitForExit()
        let third = try DaemonProcess.start(socket: socket, in: dir)
        let late = try SocketClient(path: socket)
        let refused = object(try late.request(resume))["result"] as? [String: Any]
        #expect(refused?["resumed"] as? Bool == false)
        #expect(refused?["reason"] as? String == "unknown_session")
        _ = third
    }

    /// Two daemons whose sockets share a directory keep their own state files (`<socket>.state`): a daemon
    /// started on `b.sock` does not take the sessions that the daemon of `a.sock` saved.
    @Test func daemonsOnSocketsInOneDirectoryKeepTheirOwnSessions() throws {
        let dir = TemporaryDirectory()
        let socketA = dir.file("a.sock")
        let socketB = dir.file("b.sock")
        let a = try DaemonProcess.start(socket: socketA, in: dir)
        let client = try SocketClient(path: socketA)
        let session = try client.hello()
        let created = try client.request(#"{"id":1,"op":"create","tag":1,"component":"View"}"#)
        #expect(object(created)["ok"] as? Bool == true)
        client.close()
        a.signal(SIGTERM)
        #expect(a.waitForExit() == 0)
        #expect(access(dir.file("a.sock.state"), F_OK) == 0)

        let b = try DaemonProcess.start(socket: socketB, in: dir)
        let stranger = try SocketClient(path: socketB)
        let refused = object(try stranger.request(resumeLine(session, ack: 0)))["result"] as? [String: Any]
        #expect(refused?["reason"] as? String == "unknown_session", "b.sock's daemon has none of a.sock's sessions")
        stranger.close()
        b.signal(SIGTERM)
        #expect(b.waitForExit() == 0)
        #expect(access(dir.file("b.sock.state"), F_OK) == 0)

        let again = try DaemonProcess.start(socket: socketA, in: dir)
        let back = try SocketClient(path: socketA)
        let resumed = object(try back.request(resumeLine(session, ack: 0)))["result"] as? [String: Any]
        #expect(resumed?["resumed"] as? Bool == true, "a.sock's daemon got its sessions back")
        _ = again
    }

    /// Given one state file (`--state-file`), a daemon refuses the file another socket's daemon saved: a log
    /// line, the file moved aside, no session of the other daemon.
    @Test func aStateFileSavedForAnotherSocketIsRefused() throws {
        let dir = TemporaryDirectory()
        let shared = dir.file("shared.state")
        let a = try DaemonProcess.start(socket: dir.file("a.sock"), ["--state-file", shared], in: dir)
        let client = try SocketClient(path: dir.file("a.sock"))
        let session = try client.hello()
        client.close()
        a.signal(SIGTERM)
        #expect(a.waitForExit() == 0)
        let saved = try String(contentsOfFile: shared, encoding: .utf8)

        let b = try DaemonProcess.start(socket: dir.file("b.sock"), ["--state-file", shared], in: dir)
        #expect(b.stderr.contains("the state file belongs to another socket's daemon"))
        #expect(b.stderr.contains(dir.file("a.sock")))
        #expect(access(shared, F_OK) != 0)
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("shared.state.other-socket-")
        }
        #expect(aside.count == 1)
        #expect(aside.first.map { try? String(contentsOfFile: dir.file($0), encoding: .utf8) } == saved)
        let stranger = try SocketClient(path: dir.file("b.sock"))
        let refused = object(try stranger.request(resumeLine(session, ack: 0)))["result"] as? [String: Any]
        #expect(refused?["reason"] as? String == "unknown_session")
        stranger.close()
        b.signal(SIGTERM)
        #expect(b.waitForExit() == 0)
    }

    /// A state file that is not one (corrupt, foreign, another version) never stops the daemon: it is moved
    /// aside with a log line, the daemon starts without sessions, and a resume is answered unknown_session.
    @Test(
        "a corrupt or foreign state file is moved aside",
        arguments: [
            "{\"format\":\"bridged-state\",\"version\":1,\"sessions\":[{\"id\":",
            "{\"format\":\"someone-else\",\"version\":1,\"sessions\":[]}",
            "{\"format\":\"bridged-state\",\"version\":99,\"sessions\":[]}",
        ]
    )
    func aCorruptStateFileIsMovedAside(contents: String) throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let state = dir.file("custom.state")
        try contents.write(toFile: state, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess.start(socket: socket, ["--state-file", state], in: dir)
        #expect(access(state, F_OK) != 0, "the bad file is no longer where the next start would read it")
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("custom.state.corrupt-")
        }
        #expect(aside.count == 1)
        #expect(try String(contentsOfFile: dir.file(aside[0]), encoding: .utf8) == contents, "kept as it was")
        #expect(daemon.stderr.contains("the state file could not be loaded"))
        let client = try SocketClient(path: socket)
        let refused = object(
            try client.request(#"{"id":1,"op":"hello","protocol":1,"resume":{"session":"s1-1","ack":0}}"#)
        )
        #expect((refused["result"] as? [String: Any])?["reason"] as? String == "unknown_session")
        client.close()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    /// A client that sends and never reads does not hold up other clients or the stop. That its memory stays
    /// bounded (the daemon stops answering, and reading, once its answers back up) is checked in-process,
    /// without timing or a memory reading: `ConnectionHandlerTests.backpressurePausesAndResumes` and
    /// `aReadIsHeldWhileNotWritable`.
    @Test func aClientThatNeverReadsDoesNotHoldUpOthersOrTheStop() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, ["--shutdown-timeout", "1"], in: dir)
        let flooder = try SocketClient(path: socket)
        // Each 27-byte inspect is answered with ~8 KiB, so the answers back up at once.
        let title = String(repeating: "w", count: 8192)
        try flooder.hello()
        let created = try flooder.request(
            #"{"op":"create","tag":1,"component":"SwiftUIButton","props":{"title":""# + title + "\"}}"
        )
        #expect(object(created)["ok"] as? Bool == true)

        let flags = fcntl(flooder.fd, F_GETFL)
        _ = fcntl(flooder.fd, F_SETFL, flags | O_NONBLOCK)
        var sent = 0
        var requests = 0
        var pending: [UInt8] = []
        // Send until the socket takes no more (the daemon's reads are held, or the kernel's buffers are full):
        // no waiting, no clock.
        while sent < 16 << 20 {
            if pending.isEmpty {
                for _ in 0..<1000 {
                    requests += 1
                    pending.append(contentsOf: (#"{"id":\#(requests),"op":"inspect","tag":1}"# + "\n").utf8)
                }
            }
            let n = pending.withUnsafeBytes { send(flooder.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { break }
            sent += n
            pending.removeFirst(n)
        }
        #expect(sent > 0)

        // Another client is served meanwhile.
        let other = try SocketClient(path: socket)
        try other.hello()
        #expect(object(try other.request(#"{"id":1,"op":"ping"}"#))["id"] as? Int == 1)

        // On SIGTERM the flooder, reading at last, gets answers in order, each whole, until the daemon closes
        // (when it has answered what it read, or after --shutdown-timeout).
        daemon.signal(SIGTERM)
        _ = fcntl(flooder.fd, F_SETFL, flags)
        var expected = 1
        var misfits = 0
        while let frame = flooder.readLine() {
            let answer = object(frame)
            if answer["id"] as? Int == expected && answer["ok"] as? Bool == true { expected += 1 } else { misfits += 1 }
        }
        #expect(misfits == 0)
        #expect(expected - 1 <= requests)
        flooder.close()
        #expect(daemon.waitForExit() == 0)
        #expect(access(socket, F_OK) != 0)
    }

    /// `serve` takes the limits `record` takes; hello reports the daemon's limits, so that a client (a replayer)
    /// can check them.
    @Test func serveTakesTheLimitFlagsAndHelloReportsThem() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(
            socket: socket,
            ["--max-views", "2", "--max-batch-ops", "3", "--event-buffer", "50"],
            in: dir
        )
        let client = try SocketClient(path: socket)
        let hello = object(try client.request(helloLine))["result"] as? [String: Any]
        let limits = hello?["limits"] as? [String: Any]
        #expect(limits?["maxViewsPerSession"] as? Int == 2)
        #expect(limits?["maxOpsPerBatch"] as? Int == 3)
        #expect(limits?["eventBuffer"] as? Int == 50)
        for tag in 1...2 {
            let created = try client.request(#"{"id":\#(tag),"op":"create","tag":\#(tag),"component":"View"}"#)
            #expect(object(created)["ok"] as? Bool == true)
        }
        #expect(
            errorCode(try client.request(#"{"id":3,"op":"create","tag":3,"component":"View"}"#)) == "limit_exceeded"
        )
        let ping = #"{"op":"ping"}"#
        let batch = #"{"id":4,"op":"batch","ops":[\#(Array(repeating: ping, count: 4).joined(separator: ","))]}"#
        #expect(errorCode(try client.request(batch)) == "limit_exceeded")
        _ = daemon

        let refused = try DaemonProcess(["--socket", dir.file("other.sock"), "--max-views", "0"], in: dir)
        #expect(refused.waitForExit() == 64)
        #expect(refused.stderr.contains("--max-views must be positive"))
    }

    /// `--record`: connections that never say hello (a health check that connects and closes, a client that
    /// sends something else first) leave no file; the session that says hello has one.
    @Test func noRecordingWithoutHello() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let records = dir.file("records")
        let daemon = try DaemonProcess.start(socket: socket, ["--record", records], in: dir)
        try SocketClient(path: socket).close()
        let early = try SocketClient(path: socket)
        #expect(errorCode(try early.request(#"{"id":1,"op":"ping"}"#)) == "hello_required")
        early.close()
        let greeted = try SocketClient(path: socket)
        let session = try greeted.hello()
        greeted.close()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: records) == [session.id + ".jsonl"])
    }

    @Test func aRecordedSessionReplaysAndATamperedOneFails() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let records = dir.file("records")
        let daemon = try DaemonProcess.start(socket: socket, ["--record", records], in: dir)
        let client = try SocketClient(path: socket)
        let lines = [
            helloLine,
            #"{"id":1,"op":"create","tag":1,"component":"View"}"#,
            #"{"id":2,"op":"create","tag":2,"component":"SwiftUIButton","parent":1,"props":{"title":"Tap","count":3}}"#,
            "",
            #"{"id":3,"op":"subscribe","tag":1,"event":"countChange"}"#,
            "not json at all",
            #"{"id":4,"op":"command","tag":2,"name":"press"}"#,
            #"{"id":5,"op":"update","tag":2,"props":{"count":"four"}}"#,
            #"{"id":6,"op":"inspect","tag":2}"#,
            #"{"id":7,"op":"stats"}"#,
            #"{"id":8,"op":"bye"}"#,
        ]
        client.send(lines.joined(separator: "\n") + "\n")
        let received = client.readUntilClosed()
        #expect(received.count == 11)
        let session = try #require(
            ((object(received[0])["result"] as? [String: Any])?["session"]) as? String
        )
        client.close()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)

        let file = records + "/" + session + ".jsonl"
        let recording = try String(contentsOfFile: file, encoding: .utf8)
        // The out records hold the frames exactly as the client received them.
        let outPrefix = #"{"dir":"out","frame":"#
        let recordedOut = recording.split(separator: "\n").filter { $0.hasPrefix(outPrefix) }
            .map { String($0.dropFirst(outPrefix.count).dropLast()) }
        #expect(recordedOut == received)
        #expect(recording.contains(#"{"dir":"in","raw":"not json at all"}"#))

        let replay = try run(DaemonHarness.binary, ["replay", file])
        #expect(replay.status == 0, "\(replay.output)")
        #expect(replay.output.hasSuffix("1 passed, 0 failed\n"))

        let tampered = dir.file("tampered.jsonl")
        let changed = recording.replacingOccurrences(of: #""payload":{"count":4}"#, with: #""payload":{"count":5}"#)
        #expect(changed != recording)
        try changed.write(toFile: tampered, atomically: true, encoding: .utf8)
        let failed = try run(DaemonHarness.binary, ["replay", tampered])
        #expect(failed.status == 1)
        #expect(failed.output.contains("0 passed, 1 failed"))
    }

    /// A session recorded over two connections (the second resumes it) is one file that replays whole.
    @Test func aRecordedResumeReplaysAsOneFile() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let records = dir.file("records")
        let daemon = try DaemonProcess.start(socket: socket, ["--record", records], in: dir)
        let first = try SocketClient(path: socket)
        let session = try first.hello()
        first.send(
            [
                #"{"id":1,"op":"create","tag":1,"component":"SwiftUIButton","props":{"count":1}}"#,
                #"{"id":2,"op":"subscribe","tag":1,"event":"countChange"}"#,
                #"{"id":3,"op":"command","tag":1,"name":"press"}"#,
                #"{"id":4,"op":"command","tag":1,"name":"press"}"#,
            ].joined(separator: "\n") + "\n"
        )
        #expect((0..<6).compactMap { _ in first.readLine() }.count == 6)
        first.close()
        #expect(
            DaemonHarness.eventually {
                (try? String(contentsOfFile: records + "/" + session.id + ".jsonl", encoding: .utf8))?
                    .contains(#""connection":"closed""#) == true
            }
        )

        let second = try SocketClient(path: socket)
        let resumed = object(try second.request(resumeLine(session, ack: 1)))
        #expect((resumed["result"] as? [String: Any])?["resumed"] as? Bool == true)
        #expect(object(second.readLine() ?? "")["seq"] as? Int == 2)
        #expect(object(try second.request(#"{"id":5,"op":"ack","seq":2}"#))["ok"] as? Bool == true)
        second.close()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)

        let files = try FileManager.default.contentsOfDirectory(atPath: records)
        #expect(files == [session.id + ".jsonl"], "the resuming connection's own fresh session left no file")
        let replay = try run(DaemonHarness.binary, ["replay", records + "/" + session.id + ".jsonl"])
        #expect(replay.status == 0, "\(replay.output)")
        #expect(replay.output.hasSuffix("1 passed, 0 failed\n"))
    }
}
