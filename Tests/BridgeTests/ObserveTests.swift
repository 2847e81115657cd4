import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sessions`, `observe` and `unobserve` over the socket: one connection drives a session, another watches it.
@Suite("Daemon: observing sessions", .serialized)
struct ObserveTests {
    /// The lines that build a small tree, change it and press a button; every one answered `ok`.
    static let driving = [
        #"{"id":1,"op":"create","tag":1,"component":"View","props":{"testID":"root"}}"#,
        #"{"id":2,"op":"create","tag":2,"component":"SwiftUIButton","parent":1,"props":{"title":"Tap"}}"#,
        #"{"id":3,"op":"create","tag":3,"component":"View"}"#,
        #"{"id":4,"op":"subscribe","tag":1,"event":"countChange","phase":"capture"}"#,
        #"{"id":5,"op":"update","tag":2,"props":{"count":3,"title":"Tap"}}"#,
        #"{"id":6,"op":"command","tag":2,"name":"press"}"#,
        #"{"id":7,"op":"inspect","tag":2}"#,
        #"{"id":8,"op":"setChildren","tag":1,"children":[3,2]}"#,
        #"{"id":9,"op":"batch","ops":[{"op":"update","tag":2,"props":{"count":9}},{"op":"delete","tag":77}]}"#,
        #"{"id":10,"op":"delete","tag":3}"#,
    ]

    /// Runs the driving lines on a fresh session and returns every frame the driver got.
    static func drive(_ client: SocketClient) -> [String] {
        client.send(driving.joined(separator: "\n") + "\n")
        // One response per line, plus the one event frame of the press.
        return (0..<(driving.count + 1)).compactMap { _ in client.readLine() }
    }

    /// The next frame pushed for an observation (skipping nothing: the observer sends no other request).
    static func change(_ observer: SocketClient) -> [String: Any] { object(observer.readLine() ?? "") }

    @Test func sessionsListsEverySessionWithItsClientAndCursor() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, ["--session-ttl", "60"], in: dir)
        let app = try SocketClient(path: socket)
        _ = try app.request(#"{"id":1,"op":"hello","protocol":1,"client":"my-app"}"#)
        _ = Self.drive(app)
        let gone = try SocketClient(path: socket)
        let goneID = try gone.hello().id
        gone.close()
        let tools = try SocketClient(path: socket)
        _ = try tools.request(#"{"id":1,"op":"hello","protocol":1,"client":"devtools"}"#)

        var sessions: [[String: Any]] = []
        DaemonHarness.eventually {
            let answer = object((try? tools.request(#"{"id":2,"op":"sessions"}"#)) ?? "")
            sessions = ((answer["result"] as? [String: Any])?["sessions"] as? [[String: Any]]) ?? []
            return sessions.first { $0["session"] as? String == goneID }?["connected"] as? Bool == false
        }
        #expect(sessions.count == 3)
        let app1 = try #require(sessions.first { $0["client"] as? String == "my-app" })
        #expect(app1["connected"] as? Bool == true)
        #expect(app1["views"] as? Int == 2, "3 created, 1 deleted")
        #expect(app1["seq"] as? Int == 1)
        #expect(app1["observers"] as? Int == 0)
        let detached = try #require(sessions.first { $0["session"] as? String == goneID })
        #expect(detached["client"] is NSNull)
        #expect(sessions.contains { $0["client"] as? String == "devtools" })

        // Before hello, like any op; inside a batch, never.
        let fresh = try SocketClient(path: socket)
        #expect(errorCode(try fresh.request(#"{"id":1,"op":"sessions"}"#)) == "hello_required")
        let batched = try tools.request(#"{"id":3,"op":"batch","ops":[{"op":"sessions"}]}"#)
        #expect(errorCode(batched) == "batch_failed")
        #expect(errorCode(try tools.request(#"{"id":4,"op":"observe","session":"s999-1"}"#)) == "unknown_session")
        #expect(errorCode(try tools.request(#"{"id":5,"op":"observe"}"#)) == "bad_request")
        _ = daemon
    }

    @Test func anObserverGetsASnapshotThenEveryChangeAndTheSessionIsUnchanged() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)

        // The same lines without an observer, for comparison.
        let alone = try SocketClient(path: socket)
        try alone.hello()
        let unobserved = Self.drive(alone)

        let app = try SocketClient(path: socket)
        let id = try app.hello().id
        _ = try app.request(#"{"id":0,"op":"create","tag":50,"component":"Slider","props":{"value":0.5}}"#)
        let observer = try SocketClient(path: socket)
        try observer.hello()
        let snapshot = object(try observer.request(#"{"id":"o","op":"observe","session":"\#(id)"}"#))
        let result = try #require(snapshot["result"] as? [String: Any])
        #expect(result["session"] as? String == id)
        #expect(result["connected"] as? Bool == true)
        #expect(result["seq"] as? Int == 0)
        let views = try #require(result["views"] as? [[String: Any]])
        #expect(views.count == 1)
        #expect(views[0]["component"] as? String == "Slider")
        #expect((views[0]["props"] as? [String: Any])?["value"] as? Double == 0.5)
        #expect(views[0]["renders"] as? Int == 0)
        #expect(views[0]["stale"] as? Bool == true)

        let observed = Self.drive(app)
        // Observing changed nothing the driver sees: the same frames as the session nobody watched.
        #expect(observed == unobserved)
        #expect(object(observed[5])["seq"] as? Int == 1, "the event precedes the response of the press")

        // created ×3, subscribed, updated, command, event, render, moved, deleted: the failed batch shows nothing.
        let changes = (0..<10).map { _ in Self.change(observer) }
        #expect(
            changes.map { $0["change"] as? String } == [
                "created", "created", "created", "subscribed", "updated", "command", "event", "render", "moved",
                "deleted",
            ]
        )
        #expect(changes.allSatisfy { $0["observe"] as? String == id })
        let created = try #require(changes[1]["view"] as? [String: Any])
        #expect(created["tag"] as? Int == 2)
        #expect(created["parent"] as? Int == 1)
        #expect(changes[1]["index"] as? Int == 0)
        #expect(changes[3]["phases"] as? [String] == ["capture"])
        #expect(changes[4]["props"] as? [String: Int] == ["count": 3], "only the prop whose value changed")
        #expect(changes[5]["name"] as? String == "press")
        #expect(changes[5]["tag"] as? Int == 2)
        let event = try #require(changes[6]["event"] as? [String: Any])
        #expect(event["seq"] as? Int == 1)
        #expect(event["target"] as? Int == 2)
        #expect((event["path"] as? [[String: Any]])?.first?["phase"] as? String == "capture")
        #expect(changes[7]["render"] as? String == #"Button "Tap" count=3"#)
        #expect(changes[7]["renders"] as? Int == 1)
        #expect(changes[8]["children"] as? [Int] == [3, 2])
        #expect(changes[9]["tags"] as? [Int] == [3])

        // A second observation starts from a snapshot that agrees with inspect, and has the recent log.
        let late = try SocketClient(path: socket)
        try late.hello()
        let second = object(try late.request(#"{"id":1,"op":"observe","session":"\#(id)"}"#))["result"]
        let state = try #require(second as? [String: Any])
        #expect(state["seq"] as? Int == 1)
        let button = try #require((state["views"] as? [[String: Any]])?.first { $0["tag"] as? Int == 2 })
        let inspected = object(try app.request(#"{"id":11,"op":"inspect","tag":2}"#))["result"] as? [String: Any]
        for key in ["component", "parent", "children", "render", "renders"] {
            #expect("\(button[key] ?? "-")" == "\(inspected?[key] ?? "+")", "\(key)")
        }
        #expect(
            NSDictionary(dictionary: button["props"] as? [String: Any] ?? [:])
                == NSDictionary(dictionary: inspected?["props"] as? [String: Any] ?? ["x": 1])
        )
        #expect((state["events"] as? [[String: Any]])?.map { $0["seq"] as? Int } == [1])
        #expect((button["commands"] as? [[String: Any]])?.first?["name"] as? String == "press")
        #expect(
            NSArray(array: button["commands"] as? [Any] ?? [])
                == NSArray(array: inspected?["commands"] as? [Any] ?? [1])
        )
        let root = try #require((state["views"] as? [[String: Any]])?.first { $0["tag"] as? Int == 1 })
        #expect(root["listeners"] as? [String: [String]] == ["countChange": ["capture"]])

        // unobserve stops the frames; the session's end is the last frame of an observation.
        #expect(object(try late.request(#"{"id":2,"op":"unobserve","session":"\#(id)"}"#))["ok"] as? Bool == true)
        _ = try app.request(#"{"id":12,"op":"update","tag":2,"props":{"title":"Go"}}"#)
        #expect(Self.change(observer)["change"] as? String == "updated")
        #expect(object(try late.request(#"{"id":3,"op":"ping"}"#))["id"] as? Int == 3, "nothing pushed before it")
        _ = daemon
    }

    /// A command that changes props (TextField `type`) shows them as `updated`; `emit` shows its event; a
    /// subscription removed shows its phases now.
    @Test func commandsThatChangePropsAndEmittedEventsAreShown() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        let app = try SocketClient(path: socket)
        let id = try app.hello().id
        let observer = try SocketClient(path: socket)
        try observer.hello()
        #expect(object(try observer.request(#"{"op":"observe","session":"\#(id)"}"#))["ok"] as? Bool == true)
        for line in [
            #"{"id":1,"op":"create","tag":1,"component":"TextField","props":{"text":"ab"}}"#,
            #"{"id":2,"op":"subscribe","tag":1,"event":"change"}"#,
            #"{"id":3,"op":"command","tag":1,"name":"type","args":["c"]}"#,
            #"{"id":4,"op":"unsubscribe","tag":1,"event":"change"}"#,
        ] {
            let answer = try app.request(line)
            if object(answer)["event"] != nil { _ = app.readLine() }
        }
        let changes = (0..<6).map { _ in Self.change(observer) }
        #expect(
            changes.map { $0["change"] as? String } == [
                "created", "subscribed", "command", "updated", "event", "subscribed",
            ]
        )
        #expect(changes[2]["args"] as? [String] == ["c"])
        #expect((changes[3]["props"] as? [String: Any])?["text"] as? String == "abc", "every prop, text changed")
        #expect((changes[3]["props"] as? [String: Any])?["placeholder"] as? String == "")
        #expect(((changes[4]["event"] as? [String: Any])?["payload"] as? [String: String]) == ["text": "abc"])
        #expect(changes[5]["phases"] as? [String] == [])
        _ = daemon
    }

    @Test func theEndOfASessionEndsItsObservation() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, ["--session-ttl", "0"], in: dir)
        let app = try SocketClient(path: socket)
        let id = try app.hello().id
        let observer = try SocketClient(path: socket)
        try observer.hello()
        #expect(object(try observer.request(#"{"op":"observe","session":"\#(id)"}"#))["ok"] as? Bool == true)
        app.close()
        let ended = Self.change(observer)
        #expect(ended["change"] as? String == "ended")
        #expect(ended["observe"] as? String == id)
        #expect(errorCode(try observer.request(#"{"op":"observe","session":"\#(id)"}"#)) == "unknown_session")
        _ = daemon
    }

    /// An observer that never reads is cut off once it is `--observer-buffer` behind; the session it watched
    /// answers every request as if nobody watched, and its recording replays.
    @Test func anObserverThatNeverReadsIsCutOffAndSlowsNothing() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let records = dir.file("records")
        let daemon = try DaemonProcess.start(
            socket: socket,
            ["--observer-buffer", "65536", "--record", records, "--event-buffer", "100"],
            in: dir
        )
        let app = try SocketClient(path: socket)
        let id = try app.hello().id
        let setup = [
            #"{"id":1,"op":"create","tag":1,"component":"View"}"#,
            #"{"id":2,"op":"create","tag":2,"component":"SwiftUIButton","parent":1}"#,
            #"{"id":3,"op":"subscribe","tag":1,"event":"countChange"}"#,
        ]
        for line in setup { #expect(object(try app.request(line))["ok"] as? Bool == true) }

        let observer = try SocketClient(path: socket)
        try observer.hello()
        observer.send(#"{"id":"o","op":"observe","session":"\#(id)"}"# + "\n")
        // Not reading: wait until the daemon has the observer before pressing.
        let watching = try SocketClient(path: socket)
        try watching.hello()
        DaemonHarness.eventually {
            let frame = (try? watching.request(#"{"op":"sessions"}"#)) ?? ""
            let list = (object(frame)["result"] as? [String: Any])?["sessions"] as? [[String: Any]]
            return list?.first { $0["session"] as? String == id }?["observers"] as? Int == 1
        }

        // 20,000 presses: far more change frames than the observer's 64 KiB and its socket buffers hold.
        let presses = 20_000
        var lastSeq = 0
        var responses = 0
        for chunk in stride(from: 0, to: presses, by: 500) {
            let lines = (chunk..<(chunk + 500)).map { #"{"id":\#($0),"op":"command","tag":2,"name":"press"}"# }
            app.send(lines.joined(separator: "\n") + "\n")
            var answered = 0
            while answered < 500, let frame = app.readLine() {
                let parsed = object(frame)
                if let seq = parsed["seq"] as? Int {
                    #expect(seq == lastSeq + 1)
                    lastSeq = seq
                } else {
                    #expect(parsed["ok"] as? Bool == true)
                    answered += 1
                }
            }
            responses += answered
        }
        #expect(responses == presses)
        #expect(lastSeq == presses)
        let stats = object(try app.request(#"{"id":"s","op":"stats"}"#))["result"] as? [String: Any]
        #expect(stats?["seq"] as? Int == presses)

        // The session forgot the observer; the observer's last frame says why.
        let list = object(try watching.request(#"{"op":"sessions"}"#))["result"] as? [String: Any]
        let entry = (list?["sessions"] as? [[String: Any]])?.first { $0["session"] as? String == id }
        #expect(entry?["observers"] as? Int == 0)
        var last: [String: Any] = [:]
        var frames = 0
        observer.send(#"{"id":"p","op":"ping"}"# + "\n")
        while let frame = observer.readLine() {
            let parsed = object(frame)
            if parsed["id"] as? String == "p" { break }
            if parsed["observe"] != nil { last = parsed }
            frames += 1
        }
        #expect(last["change"] as? String == "cutoff")
        #expect((last["message"] as? String)?.contains("65536") == true)
        #expect(frames < presses, "cut off long before it got every change")

        // The observed session's recording replays; the observer's own has no observe in it.
        app.close()
        observer.close()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let replay = try run(DaemonHarness.binary, ["replay", records + "/" + id + ".jsonl"])
        #expect(replay.status == 0, "\(replay.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: records)
        for file in files {
            let text = try String(contentsOfFile: records + "/" + file, encoding: .utf8)
            #expect(!text.contains(#""op":"observe""#), "\(file)")
            #expect(!text.contains(#""op":"sessions""#), "\(file)")
        }
    }

    /// A session's defined components change nothing for its observers: no frame for the `define`; the snapshot
    /// and the change frames show an untyped view's undeclared props as any other's.
    @Test func aSessionWithDefinedComponentsIsObserved() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("b.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        defer { daemon.signal(SIGTERM) }
        let app = try SocketClient(path: socket)
        let id = try app.hello().id
        #expect(errorCode(try app.request(#"{"id":1,"op":"define","untyped":["RNSScreen"]}"#)) == nil)
        #expect(
            errorCode(try app.request(#"{"id":2,"op":"create","tag":1,"component":"RNSScreen","props":{"a":1}}"#))
                == nil
        )
        let observer = try SocketClient(path: socket)
        try observer.hello()
        let snapshot = object(try observer.request(#"{"id":"o","op":"observe","session":"\#(id)"}"#))
        let views = try #require((snapshot["result"] as? [String: Any])?["views"] as? [[String: Any]])
        #expect((views.first?["props"] as? [String: Any])?["a"] as? Int == 1)
        #expect(errorCode(try app.request(#"{"id":3,"op":"define","untyped":["RNSOther"]}"#)) == nil)
        #expect(errorCode(try app.request(#"{"id":4,"op":"update","tag":1,"props":{"b":[true]}}"#)) == nil)
        let change = Self.change(observer)
        #expect(change["change"] as? String == "updated")
        #expect(change["props"] as? [String: [Bool]] == ["b": [true]])
    }

    /// A connection observing its own session reads each request's change frames before its answer (none for a
    /// failed one), so its copy of the tree is the daemon's the moment an answer arrives; its recording has none.
    @Test func aSessionObservingItselfReadsEachRequestsChangesBeforeItsAnswer() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, [], in: dir)
        let app = try SocketClient(path: socket)
        let id = try app.hello().id
        let snapshot = object(try app.request(#"{"id":2,"op":"observe","session":"\#(id)"}"#))
        #expect((snapshot["result"] as? [String: Any])?["views"] as? [Any] != nil)
        app.send(#"{"id":3,"op":"create","tag":1,"component":"View","props":{"testID":"root"}}"# + "\n")
        let created = object(app.readLine() ?? "")
        #expect(created["change"] as? String == "created")
        #expect(object(app.readLine() ?? "")["id"] as? Int == 3)
        app.send(#"{"id":4,"op":"update","tag":1,"props":{"testID":"moved"}}"# + "\n")
        let updated = object(app.readLine() ?? "")
        #expect(updated["change"] as? String == "updated")
        #expect(updated["props"] as? [String: String] == ["testID": "moved"])
        #expect(object(app.readLine() ?? "")["id"] as? Int == 4)
        // A refused request changes nothing and shows no change.
        let refused = object(try app.request(#"{"id":5,"op":"update","tag":1,"props":{"testID":7}}"#))
        #expect(refused["ok"] as? Bool == false)
        let unobserved = object(try app.request(#"{"id":6,"op":"unobserve","session":"\#(id)"}"#))
        #expect(unobserved["ok"] as? Bool == true)
        app.send(#"{"id":7,"op":"delete","tag":1}"# + "\n")
        #expect(object(app.readLine() ?? "")["id"] as? Int == 7, "no change frame after unobserve")
        _ = daemon
    }

    /// Sends each line and returns every frame the connection read up to each line's answer (pushed frames too).
    static func frames(_ client: SocketClient, answering lines: [String]) -> [String] {
        var frames: [String] = []
        for line in lines {
            client.send(line + "\n")
            let id = object(line)["id"] as? Int
            while let frame = client.readLine() {
                frames.append(frame)
                if object(frame)["id"] as? Int == id { break }
            }
        }
        return frames
    }

    /// A session observing itself with `tree: true` reads only the frames that change its tree, each created view with
    /// only its props not at their default; another connection observing it gets every frame, byte for byte as before. `tree`
    /// on another session is refused.
    @Test func aTreeOnlyOwnObservationReadsTheTreesChangesCompactlyAndOthersSeeEveryFrame() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, [], in: dir)
        let tools = try SocketClient(path: socket)
        try tools.hello()
        // The same lines on two sessions: the first does not observe itself, the second does, with `tree`.
        var seen: [[String]] = []
        var own: [String] = []
        for treeOnly in [false, true] {
            let app = try SocketClient(path: socket)
            let id = try app.hello().id
            if treeOnly {
                let refused = try tools.request(#"{"id":"t","op":"observe","session":"\#(id)","tree":true}"#)
                #expect(errorCode(refused) == "bad_request")
                #expect(((object(refused)["error"] as? [String: Any])?["message"] as? String ?? "").contains("'tree'"))
                let snapshot = object(try app.request(#"{"id":0,"op":"observe","session":"\#(id)","tree":true}"#))
                #expect(snapshot["ok"] as? Bool == true)
            }
            #expect(object(try tools.request(#"{"op":"observe","session":"\#(id)"}"#))["ok"] as? Bool == true)
            let read = Self.frames(app, answering: Self.driving)
            if treeOnly { own = read.filter { $0.hasPrefix(#"{"observe""#) }.map { $0.replacing(id, with: "S") } }
            var frames: [String] = []
            while let frame = tools.readLine() {
                frames.append(frame.replacing(id, with: "S"))
                if frame.contains(#""change":"deleted","tags":[3]"#) { break }
            }
            seen.append(frames)
            _ = try tools.request(#"{"op":"unobserve","session":"\#(id)"}"#)
        }
        #expect(seen[0] == seen[1], "another observer's frames are the same with the session observing itself")
        #expect(seen[0].contains { $0.contains(#""change":"subscribed""#) })
        #expect(
            own == [
                // Its props but those at their default (null, or the one hello's components give).
                #"{"observe":"S","change":"created","view":{"tag":1,"component":"View","props":{"testID":"root"},"#
                    + #""parent":null,"children":[]}}"#,
                #"{"observe":"S","change":"created","view":{"tag":2,"component":"SwiftUIButton","#
                    + #""props":{"title":"Tap"},"parent":1,"children":[]},"index":0}"#,
                #"{"observe":"S","change":"created","view":{"tag":3,"component":"View","props":{},"#
                    + #""parent":null,"children":[]}}"#,
                #"{"observe":"S","change":"updated","tag":2,"props":{"count":3}}"#,
                #"{"observe":"S","change":"moved","tag":1,"children":[3,2]}"#,
                #"{"observe":"S","change":"deleted","tags":[3]}"#,
            ]
        )
        _ = daemon
    }

    /// A session observing itself with `tree: true, grouped: true` reads each request's tree changes as one frame,
    /// `{"observe":…,"tree":[…]}`, each change an array, in the order the per-change frames come; a batch in parts
    /// gives its whole batch's changes with its last part's answer. `grouped` without `tree`, or on another session,
    /// is refused.
    @Test func aGroupedOwnObservationReadsEachRequestsChangesAsOneFrame() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, [], in: dir)
        let tools = try SocketClient(path: socket)
        try tools.hello()
        let app = try SocketClient(path: socket)
        let id = try app.hello().id
        let refusals = [
            (tools, #"{"id":"t","op":"observe","session":"\#(id)","tree":true,"grouped":true}"#),
            (app, #"{"id":"t","op":"observe","session":"\#(id)","grouped":true}"#),
        ]
        for (client, line) in refusals {
            let refused = try client.request(line)
            #expect(errorCode(refused) == "bad_request", "\(line)")
        }
        let snapshot = object(
            try app.request(#"{"id":0,"op":"observe","session":"\#(id)","tree":true,"grouped":true}"#)
        )
        #expect(snapshot["ok"] as? Bool == true)
        let inParts = [
            #"{"id":11,"op":"batch","more":true,"ops":[{"op":"create","tag":5,"component":"View","parent":1}]}"#,
            #"{"id":12,"op":"batch","at":1,"ops":[{"op":"update","tag":5,"props":{"testID":"five"}},"#
                + #"{"op":"setChildren","tag":1,"children":[5,2]}]}"#,
        ]
        let read = Self.frames(app, answering: Self.driving + inParts)
        let own = read.filter { $0.hasPrefix(#"{"observe""#) }.map { $0.replacing(id, with: "S") }
        #expect(
            own == [
                #"{"observe":"S","tree":[["created",1,"View",{"testID":"root"},null,[]]]}"#,
                #"{"observe":"S","tree":[["created",2,"SwiftUIButton",{"title":"Tap"},1,[],0]]}"#,
                #"{"observe":"S","tree":[["created",3,"View",{},null,[]]]}"#,
                #"{"observe":"S","tree":[["updated",2,{"count":3}]]}"#,
                #"{"observe":"S","tree":[["moved",1,[3,2]]]}"#,
                #"{"observe":"S","tree":[["deleted",[3]]]}"#,
                // The parts' changes, with the last part's answer: one frame for the batch.
                #"{"observe":"S","tree":[["created",5,"View",{},1,[],1],["updated",5,{"testID":"five"}],"#
                    + #"["moved",1,[5,2]]]}"#,
            ]
        )
        // Each frame comes before the answer to the request that made it.
        let staged = try #require(read.firstIndex { object($0)["id"] as? Int == 11 })
        let last = try #require(read.firstIndex { object($0)["id"] as? Int == 12 })
        #expect(read[staged + 1].hasPrefix(#"{"observe""#) && staged + 2 == last)
        _ = daemon
    }
}
