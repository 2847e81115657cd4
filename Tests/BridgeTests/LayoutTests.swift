import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Layout (`layout`): Yoga built from React Native's own sources by a real daemon, cached, and frames compared
/// with what Yoga's own fixtures give (within 0.01 pt), as `inspect` reports them and as `layout` events carry them.
@Suite("Layout: Yoga from React Native's sources", .serialized)
struct LayoutTests {
    /// React Native 0.72.6's Yoga, from the shared test data.
    static let yogaSources =
        DaemonHarness.packageRoot
        + "/../shared/react-native-0.72.6/node_modules/react-native/ReactCommon/yoga"
    static let haveSources = FileManager.default.fileExists(atPath: yogaSources + "/yoga/Yoga.cpp")
    static let noSources = "needs React Native 0.72.6's ReactCommon/yoga in ../shared (the shared test data)"

    /// The daemon of the build these tests belong to (`swift test --scratch-path X` runs X's), else the harness's.
    static let binary: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [beside, beside.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("bridged").path
            if access(path, X_OK) == 0 { return path }
        }
        return DaemonHarness.binary
    }()

    /// A cache shared by the tests that only need a Yoga (built once for the suite).
    static let sharedCache = "/tmp/bridged-layout-tests-\(getuid())"

    private func start(
        in dir: TemporaryDirectory,
        environment: [String: String]
    ) throws -> (DaemonProcess, SocketClient) {
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess(
            ["--socket", socket],
            executable: Self.binary,
            environment: environment,
            in: dir
        )
        try daemon.waitUntilListening()
        let client = try SocketClient(path: socket)
        try client.hello()
        return (daemon, client)
    }

    private func layoutLine(_ sources: String, window: String = "") -> String {
        #"{"op":"layout","yoga":"\#(sources)""# + (window.isEmpty ? "" : #","window":\#(window)"#) + "}"
    }

    private func result(_ frame: String) -> [String: Any] { object(frame)["result"] as? [String: Any] ?? [:] }

    // MARK: - Building and loading

    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func yogaIsCompiledOnceThenLoadedFromTheCache() throws {
        let dir = TemporaryDirectory()
        let cache = dir.file("cache")
        let first: [String: Any]
        do {
            let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": cache])
            first = result(try client.request(layoutLine(Self.yogaSources)))
            #expect(first["enabled"] as? Bool == true)
            #expect((first["yoga"] as? [String: Any])?["compiled"] as? Bool == true)
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }
        let yoga = try #require(first["yoga"] as? [String: Any])
        let hash = try #require(yoga["hash"] as? String)
        #expect(yoga["library"] as? String == cache + "/yoga/" + hash + "/libyoga.so")
        // The cache folders are the user's alone.
        for folder in [cache + "/yoga", cache + "/yoga/" + hash] {
            var info = stat()
            #expect(stat(folder, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700, "\(folder) is \(String(info.st_mode & 0o777, radix: 8))")
        }
        // A second daemon finds it in the cache, even with no compiler at all.
        let (daemon, client) = try start(
            in: dir,
            environment: ["BRIDGED_CACHE_DIR": cache, "BRIDGED_CXX": "/nonexistent/c++"]
        )
        let second = result(try client.request(layoutLine(Self.yogaSources)))
        #expect((second["yoga"] as? [String: Any])?["compiled"] as? Bool == false)
        #expect((second["yoga"] as? [String: Any])?["hash"] as? String == hash)
        _ = daemon
    }

    /// Turning a session's layout on readies the text system (fontconfig's configuration, Pango, the default font) on
    /// a thread of the daemon's (``Engine/Configuration/prepareAside``), so that the session's first layout pass with a
    /// text does not wait for it: before, no font is mapped in the daemon; after, one is, with no text sent. Polled
    /// with no clock asserted: the readying runs beside the answer.
    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func turningLayoutOnReadiesTheTextSystemAside() throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        func fontsMapped() -> Bool {
            let maps = (try? String(contentsOfFile: "/proc/\(daemon.pid)/maps", encoding: .utf8)) ?? ""
            return maps.split(separator: "\n").contains { line in
                line.hasSuffix(".otf") || line.hasSuffix(".ttf") || line.contains("/fontconfig/")
            }
        }
        _ = try client.request(#"{"op":"create","tag":1,"component":"RCTView"}"#)
        #expect(!fontsMapped(), "no text system while no session has layout on")
        #expect(result(try client.request(layoutLine(Self.yogaSources)))["enabled"] as? Bool == true)
        var mapped = fontsMapped()
        for _ in 0..<1_000 where !mapped {
            usleep(10_000)
            mapped = fontsMapped()
        }
        #expect(mapped, "the text system readied once layout is on, before any text was measured")
    }

    /// The first open of a React Native version builds its Yoga (seconds of the C++ compiler): other connections,
    /// on the builder's event loop too, are answered meanwhile. Counted, with no clock: the compiler here waits for a
    /// file the test makes only after the others were answered (a daemon that built on the loop would answer them
    /// only once the compiler gave up waiting, and it says so with a file of its own).
    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func otherConnectionsAreAnsweredWhileYogaIsBuilt() throws {
        let dir = TemporaryDirectory()
        let compiler = try Self.waitingCompiler(in: dir)
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess(
            ["--socket", socket],
            executable: Self.binary,
            environment: ["BRIDGED_CACHE_DIR": dir.file("cache"), "BRIDGED_CXX": compiler],
            in: dir
        )
        try daemon.waitUntilListening()
        // The connections alternate between the daemon's two event loops: a and b share one.
        let a = try SocketClient(path: socket)
        let c = try SocketClient(path: socket)
        let b = try SocketClient(path: socket)
        for client in [a, c, b] { try client.hello() }
        a.send(#"{"id":"build","op":"layout","yoga":"\#(Self.yogaSources)"}"# + "\n")
        while !FileManager.default.fileExists(atPath: dir.file("started")) { usleep(20_000) }

        #expect(object(try b.request(#"{"id":1,"op":"ping"}"#))["ok"] as? Bool == true)
        #expect(object(try c.request(#"{"id":1,"op":"ping"}"#))["ok"] as? Bool == true)
        #expect(object(try b.request(#"{"id":2,"op":"layout"}"#))["ok"] as? Bool == true)
        #expect(!FairnessTests.hasFrameWaiting(a), "the build was answered before the others")
        #expect(!FileManager.default.fileExists(atPath: dir.file("gave-up")), "the others waited for the build")

        FileManager.default.createFile(atPath: dir.file("release"), contents: nil)
        let built = try #require(a.readLine())
        #expect(object(built)["id"] as? String == "build")
        #expect(errorCode(built) == "layout_unavailable", "\(built)")
        #expect(built.contains("builds nothing"), "\(built)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("gave-up")))
        _ = daemon
    }

    /// A session building one React Native version's Yoga holds up no session that loads another: the builds are
    /// locked by the sources' hash. Counted, with no clock, as above: the compiler waits for the test's file when it
    /// builds the other version (React Native's sources with one more header), and builds the real one at once.
    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func aBuildHoldsUpNoSessionLoadingAnotherVersion() throws {
        let dir = TemporaryDirectory()
        let other = dir.file("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.yogaSources + "/yoga", toPath: other + "/yoga")
        try "// another version\n".write(toFile: other + "/yoga/Another.h", atomically: true, encoding: .utf8)
        let candidates: [String] = ["/opt/swift/usr/bin/clang++", "/usr/bin/clang++", "/usr/bin/g++", "/usr/bin/c++"]
        let real = candidates.first { access($0, X_OK) == 0 }
        let compiler = try Self.waitingCompiler(in: dir, passingThroughAllBut: (other, try #require(real)))
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess(
            ["--socket", socket],
            executable: Self.binary,
            environment: ["BRIDGED_CACHE_DIR": Self.sharedCache, "BRIDGED_CXX": compiler],
            in: dir
        )
        try daemon.waitUntilListening()
        let a = try SocketClient(path: socket)
        let b = try SocketClient(path: socket)
        for client in [a, b] { try client.hello() }
        a.send(#"{"id":"build","op":"layout","yoga":"\#(other)"}"# + "\n")
        while !FileManager.default.fileExists(atPath: dir.file("started")) { usleep(20_000) }

        let loaded = result(try b.request(layoutLine(Self.yogaSources)))
        #expect(loaded["enabled"] as? Bool == true, "\(loaded)")
        #expect(!FairnessTests.hasFrameWaiting(a), "the build was answered before the other version's load")
        #expect(!FileManager.default.fileExists(atPath: dir.file("gave-up")), "the load waited for the build")

        FileManager.default.createFile(atPath: dir.file("release"), contents: nil)
        let built = try #require(a.readLine())
        #expect(errorCode(built) == "layout_unavailable", "\(built)")
        _ = daemon
    }

    /// A session's layout is saved with it in the state file: resumed after a restart, its layout is on with the
    /// same Yoga and window, its views have the frames they had (with no `layout` event for them), touches find
    /// them, and a change lays out again.
    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func aSessionsLayoutSurvivesARestart() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        func startDaemon() throws -> DaemonProcess {
            let daemon = try DaemonProcess(
                ["--socket", socket],
                executable: Self.binary,
                environment: ["BRIDGED_CACHE_DIR": Self.sharedCache],
                in: dir
            )
            try daemon.waitUntilListening()
            return daemon
        }
        let window = #"{"width":200,"height":300,"scale":2,"fontScale":1.5,"insets":{"top":10,"left":4}}"#
        let first = try startDaemon()
        let client = try SocketClient(path: socket)
        let session = try client.hello()
        let on = result(try client.request(layoutLine(Self.yogaSources, window: window)))
        #expect(on["enabled"] as? Bool == true)
        let batch =
            #"{"op":"batch","ops":[{"op":"create","tag":1,"component":"RCTView","props":{}},"#
            + #"{"op":"create","tag":2,"component":"RCTView","props":{"marginTop":40,"marginLeft":30,"width":50,"#
            + #""height":20},"parent":1}]}"#
        #expect(errorCode(try client.request(batch)) == nil)
        #expect(errorCode(try client.request(#"{"op":"subscribe","tag":2,"event":"layout"}"#)) == nil)
        let before = result(try client.request(#"{"op":"inspect","tag":2}"#))
        #expect(before["layout"] as? [String: Int] == ["x": 30, "y": 40, "width": 50, "height": 20])
        let layoutBefore = result(try client.request(#"{"op":"layout"}"#))
        client.close()
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)

        let second = try startDaemon()
        defer { second.signal(SIGTERM) }
        let again = try SocketClient(path: socket)
        let resumed = object(try again.request(resumeLine(session, ack: 0)))["result"] as? [String: Any]
        #expect(resumed?["resumed"] as? Bool == true)
        let layoutAfter = result(try again.request(#"{"op":"layout"}"#))
        #expect(layoutAfter["enabled"] as? Bool == true)
        #expect(layoutAfter["window"] as? NSDictionary == layoutBefore["window"] as? NSDictionary)
        #expect(
            (layoutAfter["yoga"] as? [String: Any])?["hash"] as? String
                == (layoutBefore["yoga"] as? [String: Any])?["hash"] as? String
        )
        let after = result(try again.request(#"{"op":"inspect","tag":2}"#))
        #expect(after["layout"] as? [String: Int] == ["x": 30, "y": 40, "width": 50, "height": 20])
        let hit = result(try again.request(#"{"op":"layout","at":{"x":35,"y":45}}"#))["hit"] as? [String: Any]
        #expect(hit?["tag"] as? Int == 2)
        #expect(object(try again.request(#"{"op":"screenshot","scale":1}"#))["ok"] as? Bool == true)
        // A change: laid out again, and the layout event comes for the frame that changed, and only for it.
        let moved = try again.request(#"{"id":"moved","op":"update","tag":2,"props":{"marginLeft":60}}"#)
        #expect(object(moved)["event"] as? String == "layout", "\(moved)")
        #expect(
            (object(moved)["payload"] as? [String: Any])?["layout"] as? [String: Int] == [
                "x": 60, "y": 40, "width": 50, "height": 20,
            ]
        )
        #expect(object(try #require(again.readLine()))["id"] as? String == "moved")
    }

    @Test func withNoCompilerLayoutStaysOffAndTheErrorNamesIt() throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(
            in: dir,
            environment: ["BRIDGED_CACHE_DIR": dir.file("cache"), "BRIDGED_CXX": "/nonexistent/c++"]
        )
        let query = result(try client.request(#"{"op":"layout"}"#))
        #expect(query["enabled"] as? Bool == false)
        #expect(query["compiler"] is NSNull)
        #expect((query["reason"] as? String)?.contains("/nonexistent/c++") == true)
        if Self.haveSources {
            let refused = try client.request(layoutLine(Self.yogaSources))
            #expect(errorCode(refused) == "layout_unavailable")
            let message = (object(refused)["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("no C++ compiler"), "\(message)")
        }
        // Everything else works as without layout: no frame, and the layout event is not served.
        _ = try client.request(#"{"op":"create","tag":1,"component":"RCTView","props":{"width":10}}"#)
        let inspected = result(try client.request(#"{"op":"inspect","tag":1}"#))
        #expect(inspected["layout"] == nil)
        #expect(errorCode(try client.request(#"{"op":"subscribe","tag":1,"event":"layout"}"#)) == "unknown_event")
        _ = daemon
    }

    @Test func withNoSourcesTheErrorNamesThePath() throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": dir.file("cache")])
        let refused = try client.request(layoutLine(dir.file("no/such/ReactCommon/yoga")))
        #expect(errorCode(refused) == "layout_unavailable")
        let message = (object(refused)["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("no Yoga sources at " + dir.file("no/such/ReactCommon/yoga")), "\(message)")
        // A window alone, with layout off, says how to turn it on.
        let windowOnly = try client.request(#"{"op":"layout","window":{"width":100}}"#)
        #expect(errorCode(windowOnly) == "bad_request")
        _ = daemon
    }

    // MARK: - Frames

    /// A view of a fixture: its tag, component, props and children.
    struct Fixture: CustomStringConvertible {
        let name: String
        /// `(tag, component, props JSON, children)`, the first a child of the root (tag 1).
        let views: [(Int, String, String, [Int])]
        /// Expected frames relative to the parent: tag → (x, y, width, height).
        let frames: [Int: (Double, Double, Double, Double)]
        var description: String { name }
    }

    static let fixtures: [Fixture] = [
        Fixture(
            name: "a safe-area view pads by the window's insets (47 top, 34 bottom by default), not its style",
            views: [
                (2, "RCTSafeAreaView", #"{"flex":1,"padding":5}"#, [3]),
                (3, "RCTView", #"{"height":10}"#, []),
            ],
            frames: [2: (0, 0, 390, 844), 3: (0, 47, 390, 10)]
        ),
        Fixture(
            name: "flex row",
            views: [
                (2, "RCTView", #"{"flexDirection":"row","width":300,"height":100}"#, [3, 4, 5]),
                (3, "RCTView", #"{"width":50}"#, []), (4, "RCTView", #"{"flex":1}"#, []),
                (5, "RCTView", #"{"width":100}"#, []),
            ],
            frames: [2: (0, 0, 300, 100), 3: (0, 0, 50, 100), 4: (50, 0, 150, 100), 5: (200, 0, 100, 100)]
        ),
        Fixture(
            name: "flex column, grow and shrink 0 by default",
            views: [
                (2, "RCTView", #"{"height":200,"width":100}"#, [3, 4]),
                (3, "RCTView", #"{"height":150}"#, []), (4, "RCTView", #"{"height":150}"#, []),
            ],
            frames: [3: (0, 0, 100, 150), 4: (0, 150, 100, 150)]
        ),
        Fixture(
            name: "padding and margin",
            views: [
                (2, "RCTView", #"{"width":200,"height":200,"padding":10,"paddingLeft":20}"#, [3]),
                (3, "RCTView", #"{"margin":5,"marginHorizontal":7,"height":50}"#, []),
            ],
            frames: [3: (27, 15, 156, 50)]
        ),
        Fixture(
            name: "percentages",
            views: [
                (2, "RCTView", #"{"width":200,"height":100,"alignItems":"flex-start"}"#, [3]),
                (3, "RCTView", #"{"width":"50%","height":"25%","marginLeft":"10%"}"#, []),
            ],
            frames: [3: (20, 0, 100, 25)]
        ),
        Fixture(
            name: "absolute position",
            views: [
                (2, "RCTView", #"{"width":200,"height":200}"#, [3]),
                (3, "RCTView", #"{"position":"absolute","right":10,"bottom":20,"width":30,"height":40}"#, []),
            ],
            frames: [3: (160, 140, 30, 40)]
        ),
        Fixture(
            name: "wrap",
            views: [
                (2, "RCTView", #"{"flexDirection":"row","flexWrap":"wrap","width":100}"#, [3, 4, 5]),
                (3, "RCTView", #"{"width":40,"height":10}"#, []), (4, "RCTView", #"{"width":40,"height":10}"#, []),
                (5, "RCTView", #"{"width":40,"height":10}"#, []),
            ],
            frames: [2: (0, 0, 100, 20), 3: (0, 0, 40, 10), 4: (40, 0, 40, 10), 5: (0, 10, 40, 10)]
        ),
        Fixture(
            name: "aspectRatio",
            views: [
                (2, "RCTView", #"{"width":200,"height":200,"alignItems":"flex-start"}"#, [3]),
                (3, "RCTView", #"{"width":50,"aspectRatio":2}"#, []),
            ],
            frames: [3: (0, 0, 50, 25)]
        ),
        Fixture(
            name: "justify and align center, gap",
            views: [
                (2, "RCTView", #"{"width":100,"height":100,"justifyContent":"center","alignItems":"center"}"#, [3]),
                (3, "RCTView", #"{"flexDirection":"row","columnGap":10,"width":50}"#, [4, 5]),
                (4, "RCTView", #"{"width":10,"height":20}"#, []), (5, "RCTView", #"{"width":10,"height":20}"#, []),
            ],
            frames: [3: (25, 40, 50, 20), 4: (0, 0, 10, 20), 5: (20, 0, 10, 20)]
        ),
        Fixture(
            name: "display none",
            views: [
                (2, "RCTView", #"{"flexDirection":"row","width":100,"height":10}"#, [3, 4]),
                (3, "RCTView", #"{"width":40,"display":"none"}"#, []), (4, "RCTView", #"{"width":40}"#, []),
            ],
            frames: [3: (0, 0, 0, 0), 4: (0, 0, 40, 10)]
        ),
        Fixture(
            name: "a scroll view's content is unbounded along its axis",
            views: [
                (2, "RCTScrollView", #"{"width":100,"height":100,"overflow":"scroll"}"#, [3]),
                (3, "RCTScrollContentView", "{}", [4, 5, 6]),
                (4, "RCTView", #"{"height":50}"#, []), (5, "RCTView", #"{"height":50}"#, []),
                (6, "RCTView", #"{"height":50}"#, []),
            ],
            frames: [2: (0, 0, 100, 100), 3: (0, 0, 100, 150), 6: (0, 100, 100, 50)]
        ),
        Fixture(
            name: "a presented modal's content gets the window",
            views: [
                (2, "RCTView", #"{"width":100,"height":100}"#, [3]),
                (3, "RCTModalHostView", #"{"position":"absolute"}"#, [4]),
                (4, "RCTView", #"{"flex":1}"#, [5]), (5, "RCTView", #"{"height":"50%"}"#, []),
            ],
            frames: [4: (0, 0, 390, 844), 5: (0, 0, 390, 422)]
        ),
    ]

    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)), arguments: fixtures)
    func framesAreYogas(_ fixture: Fixture) throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        let window = #"{"width":390,"height":844,"scale":3}"#
        #expect(result(try client.request(layoutLine(Self.yogaSources, window: window)))["enabled"] as? Bool == true)
        var ops = [#"{"op":"create","tag":1,"component":"RCTView"}"#]
        for (tag, component, props, _) in fixture.views {
            ops.append(#"{"op":"create","tag":\#(tag),"component":"\#(component)","props":\#(props)}"#)
        }
        ops.append(#"{"op":"setChildren","tag":1,"children":[\#(fixture.views[0].0)]}"#)
        for (tag, _, _, children) in fixture.views where !children.isEmpty {
            ops.append(
                #"{"op":"setChildren","tag":\#(tag),"children":[\#(children.map(String.init).joined(separator: ","))]}"#
            )
        }
        let answer = try client.request(#"{"op":"batch","ops":["# + ops.joined(separator: ",") + "]}")
        #expect(object(answer)["ok"] as? Bool == true, "\(answer)")
        for (tag, expected) in fixture.frames.sorted(by: { $0.key < $1.key }) {
            let layout = try #require(
                result(try client.request(#"{"op":"inspect","tag":\#(tag)}"#))["layout"] as? [String: Any]
            )
            let got = ["x", "y", "width", "height"].map { (layout[$0] as? NSNumber)?.doubleValue ?? .nan }
            let want = [expected.0, expected.1, expected.2, expected.3]
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 0.01 }, "view \(tag): \(got), expected \(want)")
        }
        _ = daemon
    }

    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func aLayoutEventComesWhenAndOnlyWhenTheFrameChanges() throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        _ = try client.request(layoutLine(Self.yogaSources))
        let batch =
            #"{"op":"batch","ops":[{"op":"create","tag":1,"component":"RCTView"},"#
            + #"{"op":"create","tag":2,"component":"RCTView","props":{"flexDirection":"row","height":10},"parent":1},"#
            + #"{"op":"create","tag":3,"component":"RCTView","props":{"width":20},"parent":2},"#
            + #"{"op":"create","tag":4,"component":"RCTView","props":{"width":30},"parent":2},"#
            + #"{"op":"subscribe","tag":3,"event":"layout"},{"op":"subscribe","tag":4,"event":"layout"}]}"#
        client.send(#"{"id":1,"# + String(batch.dropFirst()) + "\n")
        // Both children are laid out for the first time: an event each, then the answer.
        let first = [client.readLine(), client.readLine(), client.readLine()].compactMap { $0 }
        #expect(first.count == 3)
        #expect(first.prefix(2).map { object($0)["event"] as? String } == ["layout", "layout"])
        let frame = ((object(first[1])["payload"] as? [String: Any])?["layout"] as? [String: Any]) ?? [:]
        #expect(object(first[1])["target"] as? Int == 4)
        #expect((frame["x"] as? NSNumber)?.doubleValue == 20 && (frame["width"] as? NSNumber)?.doubleValue == 30)
        // A change that moves view 4 but not view 3: one event, for 4.
        client.send(#"{"id":2,"op":"update","tag":3,"props":{"marginRight":5}}"# + "\n")
        let moved = [client.readLine(), client.readLine()].compactMap { $0 }
        #expect(object(moved[0])["target"] as? Int == 4)
        #expect(object(moved[1])["id"] as? Int == 2)
        // A change that moves nothing: no event.
        let none = try client.request(#"{"id":3,"op":"update","tag":3,"props":{"opacity":0.5}}"#)
        #expect(object(none)["id"] as? Int == 3)
        _ = daemon
    }

    // MARK: - Deferred passes

    /// The lines a request gets (frames and events) up to its answer, whose `id` is `id`.
    private func linesUntilAnswer(_ client: SocketClient, _ line: String, id: Int) throws -> [[String: Any]] {
        client.send(line + "\n")
        var lines: [[String: Any]] = []
        while let next = client.readLine() {
            let frame = object(next)
            lines.append(frame)
            if frame["id"] as? Int == id { return lines }
        }
        throw HarnessError("no answer to \(line)")
    }

    private func frameOf(_ tag: Int, _ client: SocketClient) throws -> [String: Int]? {
        result(try client.request(#"{"op":"inspect","tag":\#(tag)}"#))["layout"] as? [String: Int]
    }

    /// A session whose own observation leaves the `laidOut` frames out (`observe` with `tree: true, layout: false`, the
    /// jest preset's) gets none, and the frames it reads are those of the tree as each request left it: a pass no one
    /// could see waits for the first read of a frame.
    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func anObservationWithoutLaidOutFramesGetsNoneAndReadsTheFramesOfTheTreeAsItIs() throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        _ = try client.request(layoutLine(Self.yogaSources))
        let own =
            try #require(
                (object(try client.request(#"{"op":"sessions"}"#))["result"] as? [String: Any])?["sessions"]
                    as? [[String: Any]]
            ).first?["session"] as? String
        let id = try #require(own)
        #expect(
            errorCode(try client.request(#"{"op":"observe","session":"\#(id)","tree":true,"layout":false}"#)) == nil
        )
        let create =
            #"{"id":10,"op":"batch","ops":[{"op":"create","tag":1,"component":"RCTView"},"#
            + #"{"op":"create","tag":2,"component":"RCTView","props":{"flexDirection":"row","height":10},"parent":1},"#
            + #"{"op":"create","tag":3,"component":"RCTView","props":{"width":20},"parent":2},"#
            + #"{"op":"create","tag":4,"component":"RCTView","props":{"width":30},"parent":2}]}"#
        let created = try linesUntilAnswer(client, create, id: 10)
        #expect(created.contains { $0["change"] as? String == "created" })
        #expect(!created.contains { $0["change"] as? String == "laidOut" }, "\(created)")
        // Three changes in a row, none read: the frames read then are the last one's.
        for (n, width) in [40, 50, 60].enumerated() {
            let lines = try linesUntilAnswer(
                client,
                #"{"id":\#(20 + n),"op":"update","tag":3,"props":{"width":\#(width)}}"#,
                id: 20 + n
            )
            #expect(!lines.contains { $0["change"] as? String == "laidOut" })
        }
        #expect(try frameOf(4, client) == ["x": 60, "y": 0, "width": 30, "height": 10])
        #expect(try frameOf(3, client) == ["x": 0, "y": 0, "width": 60, "height": 10])
        // A touch's hit-test reads the frames too.
        let hit = result(try client.request(#"{"op":"layout","at":{"x":65,"y":5}}"#))["hit"] as? [String: Any]
        #expect(hit?["tag"] as? Int == 4)
        // The default observation takes the laidOut frames again, after each request that moved a view.
        #expect(errorCode(try client.request(#"{"op":"observe","session":"\#(id)","tree":true}"#)) == nil)
        let moved = try linesUntilAnswer(client, #"{"id":30,"op":"update","tag":3,"props":{"width":70}}"#, id: 30)
        let laidOut = moved.first { $0["change"] as? String == "laidOut" }
        let frames = try #require(laidOut?["frames"] as? [[String: Any]], "\(moved)")
        #expect(frames.compactMap { $0["tag"] as? Int }.sorted() == [3, 4])
        // `layout: false` is the own session's tree-only observation's.
        #expect(errorCode(try client.request(#"{"op":"observe","session":"\#(id)","layout":false}"#)) == "bad_request")
        _ = daemon
    }

    /// The first `layout` listener of a session that deferred its passes sees what changes from then on, as in a
    /// session that laid out after each request: no event for a frame that moved before it listened.
    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func theFirstLayoutListenerOfADeferringSessionSeesOnlyWhatChangesFromThenOn() throws {
        let dir = TemporaryDirectory()
        let (daemon, first) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        let second = try SocketClient(path: dir.file("bridged.sock"))
        try second.hello()
        let create =
            #"{"op":"batch","ops":[{"op":"create","tag":1,"component":"RCTView"},"#
            + #"{"op":"create","tag":2,"component":"RCTView","props":{"flexDirection":"row","height":10},"parent":1},"#
            + #"{"op":"create","tag":3,"component":"RCTView","props":{"width":20},"parent":2},"#
            + #"{"op":"create","tag":4,"component":"RCTView","props":{"width":30},"parent":2}]}"#
        for client in [first, second] {
            _ = try client.request(layoutLine(Self.yogaSources))
            #expect(errorCode(try client.request(create)) == nil)
            // View 4 moves after its last pass, before anything listens.
            #expect(errorCode(try client.request(#"{"op":"update","tag":3,"props":{"width":25}}"#)) == nil)
        }
        func events(_ lines: [[String: Any]]) -> [Int] {
            lines.filter { $0["event"] != nil }.compactMap { $0["target"] as? Int }
        }
        // A subscription alone moves nothing: no event. Then each change that moves view 4 brings one.
        #expect(
            events(try linesUntilAnswer(first, #"{"id":1,"op":"subscribe","tag":4,"event":"layout"}"#, id: 1)) == []
        )
        #expect(
            events(try linesUntilAnswer(first, #"{"id":2,"op":"update","tag":3,"props":{"width":15}}"#, id: 2)) == [4]
        )
        #expect(
            events(try linesUntilAnswer(first, #"{"id":3,"op":"update","tag":3,"props":{"opacity":0.5}}"#, id: 3)) == []
        )
        // A batch that subscribes after a change that moves nothing: no event (the deferred pass ran before it) ...
        let quiet =
            #"{"id":4,"op":"batch","ops":[{"op":"update","tag":3,"props":{"opacity":0.5}},"#
            + #"{"op":"subscribe","tag":4,"event":"layout"}]}"#
        #expect(events(try linesUntilAnswer(second, quiet, id: 4)) == [])
        // ... and one that moves it as it subscribes: an event.
        let moving =
            #"{"id":5,"op":"batch","ops":[{"op":"update","tag":3,"props":{"width":5}},"#
            + #"{"op":"subscribe","tag":3,"event":"layout"}]}"#
        #expect(events(try linesUntilAnswer(second, moving, id: 5)) == [3, 4])
        _ = daemon
    }

    /// An observer that takes every frame (another connection: the DevTools page) joining a session that deferred its
    /// passes reads the frames of the tree as it is, and gets `laidOut` frames from then on.
    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func anObserverJoiningADeferringSessionReadsItsFramesAsTheyAre() throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        _ = try client.request(layoutLine(Self.yogaSources))
        let create =
            #"{"op":"batch","ops":[{"op":"create","tag":1,"component":"RCTView"},"#
            + #"{"op":"create","tag":2,"component":"RCTView","props":{"height":30},"parent":1},"#
            + #"{"op":"create","tag":3,"component":"RCTView","props":{"height":40},"parent":1}]}"#
        #expect(errorCode(try client.request(create)) == nil)
        #expect(errorCode(try client.request(#"{"op":"update","tag":2,"props":{"height":50}}"#)) == nil)
        let sessions = (object(try client.request(#"{"op":"sessions"}"#))["result"] as? [String: Any])?["sessions"]
        let id = try #require((sessions as? [[String: Any]])?.first?["session"] as? String)
        let observer = try SocketClient(path: dir.file("bridged.sock"))
        try observer.hello()
        #expect(errorCode(try observer.request(#"{"op":"observe","session":"\#(id)"}"#)) == nil)
        let hit = result(try observer.request(#"{"op":"layout","session":"\#(id)","at":{"x":5,"y":55}}"#))
        #expect((hit["hit"] as? [String: Any])?["tag"] as? Int == 3, "\(hit)")
        // From now on each request's pass runs with it, and the observer is told.
        #expect(errorCode(try client.request(#"{"op":"update","tag":2,"props":{"height":10}}"#)) == nil)
        var laidOut: [String: Any]?
        while laidOut == nil, let line = observer.readLine() {
            let frame = object(line)
            if frame["change"] as? String == "laidOut" { laidOut = frame }
        }
        let tags = (laidOut?["frames"] as? [[String: Any]])?.compactMap { $0["tag"] as? Int }.sorted()
        #expect(tags == [2, 3])
        _ = daemon
    }

    /// A batch that reads a frame after changing the tree, in a session that deferred its passes, reads the frame the
    /// last request left (what a session laid out after each request reads until the batch commits); the next read
    /// has the batch's change.
    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func aBatchReadingAFrameAfterItsOwnChangeReadsTheLastRequestsFrame() throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        _ = try client.request(layoutLine(Self.yogaSources))
        let create =
            #"{"op":"batch","ops":[{"op":"create","tag":1,"component":"RCTView"},"#
            + #"{"op":"create","tag":2,"component":"RCTView","props":{"height":30},"parent":1}]}"#
        #expect(errorCode(try client.request(create)) == nil)
        let batch = result(
            try client.request(
                #"{"op":"batch","ops":[{"op":"update","tag":2,"props":{"height":50}},{"op":"inspect","tag":2}]}"#
            )
        )
        let read = (batch["results"] as? [[String: Any]])?.last?["layout"] as? [String: Int]
        #expect(read == ["x": 0, "y": 0, "width": 390, "height": 30], "\(batch)")
        #expect(try frameOf(2, client) == ["x": 0, "y": 0, "width": 390, "height": 50])
        _ = daemon
    }

    /// A session that never reads a frame keeps its marks bounded, and reads the right frame when it does.
    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func manyChangesWithNoFrameReadLeaveTheRightFrameToRead() throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        _ = try client.request(layoutLine(Self.yogaSources))
        #expect(
            errorCode(
                try client.request(
                    #"{"op":"batch","ops":[{"op":"create","tag":1,"component":"RCTView"},{"op":"create","tag":2,"component":"RCTView","props":{"height":10},"parent":1}]}"#
                )
            ) == nil
        )
        for n in 0..<3_000 {
            // Views made and deleted, and one changed, past the marks' bound several times over.
            client.send(
                #"{"op":"batch","ops":[{"op":"create","tag":\#(10 + n),"component":"RCTView","parent":1},"#
                    + #"{"op":"update","tag":2,"props":{"height":\#(n % 50)}},{"op":"delete","tag":\#(10 + n)}]}"#
                    + "\n"
            )
        }
        for _ in 0..<3_000 { #expect(client.readLine().map { errorCode($0) == nil } == true) }
        #expect(try frameOf(2, client) == ["x": 0, "y": 0, "width": 390, "height": 2_999 % 50])
        _ = daemon
    }

    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func aDeletedSubtreeLeavesItsParentLaidOutAgain() throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        _ = try client.request(layoutLine(Self.yogaSources))
        let ops =
            #"{"op":"batch","ops":[{"op":"create","tag":1,"component":"RCTView"},"#
            + #"{"op":"create","tag":2,"component":"RCTView","props":{"height":30},"parent":1},"#
            + #"{"op":"create","tag":5,"component":"RCTView","parent":2},"#
            + #"{"op":"create","tag":3,"component":"RCTView","props":{"height":40},"parent":1}]}"#
        _ = try client.request(ops)
        #expect(
            (result(try client.request(#"{"op":"inspect","tag":3}"#))["layout"] as? [String: Any])?["y"] as? Int == 30
        )
        _ = try client.request(#"{"op":"delete","tag":2}"#)
        #expect(
            (result(try client.request(#"{"op":"inspect","tag":3}"#))["layout"] as? [String: Any])?["y"] as? Int == 0
        )
        // A refused batch changes no frame.
        let refused = try client.request(
            #"{"op":"batch","ops":[{"op":"update","tag":3,"props":{"marginTop":9}},{"op":"update","tag":99,"props":{}}]}"#
        )
        #expect(errorCode(refused) == "batch_failed")
        #expect(
            (result(try client.request(#"{"op":"inspect","tag":3}"#))["layout"] as? [String: Any])?["y"] as? Int == 0
        )
        _ = daemon
    }

    // MARK: - Hit-testing

    /// A tree under the root (tag 1, the window's size), a point of the window, and the view a touch there reaches.
    struct HitCase: CustomStringConvertible {
        let name: String
        let views: [(Int, String, String, [Int])]
        let point: (Double, Double)
        let expected: Int?
        var description: String { name }
    }

    static let hitCases: [HitCase] = {
        let box = #"{"width":100,"height":100}"#
        let cover = #"{"position":"absolute","top":0,"left":0,"width":100,"height":100}"#
        return [
            HitCase(
                name: "the deepest view",
                views: [(2, "RCTView", box, [3]), (3, "RCTView", #"{"width":50,"height":50}"#, [])],
                point: (10, 10),
                expected: 3
            ),
            HitCase(
                name: "outside the child, its parent",
                views: [(2, "RCTView", box, [3]), (3, "RCTView", #"{"width":50,"height":50}"#, [])],
                point: (70, 70),
                expected: 2
            ),
            HitCase(
                name: "a later sibling covers an earlier one",
                views: [(2, "RCTView", box, [3, 4]), (3, "RCTView", box, []), (4, "RCTView", cover, [])],
                point: (10, 10),
                expected: 4
            ),
            HitCase(
                name: "zIndex lifts an earlier sibling",
                views: [
                    (2, "RCTView", box, [3, 4]), (3, "RCTView", #"{"width":100,"height":100,"zIndex":2}"#, []),
                    (4, "RCTView", cover, []),
                ],
                point: (10, 10),
                expected: 3
            ),
            HitCase(
                name: "pointerEvents none lets the touch through",
                views: [
                    (2, "RCTView", box, [3, 4]), (3, "RCTView", box, []),
                    (
                        4, "RCTView",
                        #"{"position":"absolute","top":0,"left":0,"width":100,"height":100,"pointerEvents":"none"}"#, []
                    ),
                ],
                point: (10, 10),
                expected: 3
            ),
            HitCase(
                name: "box-none: only its subviews",
                views: [
                    (2, "RCTView", #"{"width":100,"height":100,"pointerEvents":"box-none"}"#, [3]),
                    (3, "RCTView", #"{"width":50,"height":50}"#, []),
                ],
                point: (70, 70),
                expected: 1
            ),
            HitCase(
                name: "box-only: never its subviews",
                views: [
                    (2, "RCTView", #"{"width":100,"height":100,"pointerEvents":"box-only"}"#, [3]),
                    (3, "RCTView", #"{"width":50,"height":50}"#, []),
                ],
                point: (10, 10),
                expected: 2
            ),
            HitCase(
                name: "overflow hidden clips a child out of bounds",
                views: [
                    (2, "RCTView", #"{"width":50,"height":50,"overflow":"hidden"}"#, [3]),
                    (3, "RCTView", #"{"position":"absolute","left":60,"width":30,"height":30}"#, []),
                ],
                point: (70, 10),
                expected: 1
            ),
            HitCase(
                name: "overflow visible does not",
                views: [
                    (2, "RCTView", #"{"width":50,"height":50}"#, [3]),
                    (3, "RCTView", #"{"position":"absolute","left":60,"width":30,"height":30}"#, []),
                ],
                point: (70, 10),
                expected: 3
            ),
            HitCase(
                name: "hitSlop grows the area",
                views: [(2, "RCTView", box, [3]), (3, "RCTView", #"{"width":20,"height":20,"hitSlop":10}"#, [])],
                point: (25, 25),
                expected: 3
            ),
            HitCase(
                name: "display none takes nothing",
                views: [
                    (2, "RCTView", box, [3]),
                    (3, "RCTView", #"{"position":"absolute","width":100,"height":100,"display":"none"}"#, []),
                ],
                point: (10, 10),
                expected: 2
            ),
            HitCase(
                name: "a presented modal covers the screen",
                views: [
                    (2, "RCTView", box, [3]), (3, "RCTModalHostView", #"{"position":"absolute"}"#, [4]),
                    (4, "RCTView", #"{"flex":1}"#, []),
                ],
                point: (10, 10),
                expected: 4
            ),
        ]
    }()

    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)), arguments: hitCases)
    func aTouchReachesTheViewUIKitWouldFind(_ hit: HitCase) throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        _ = try client.request(layoutLine(Self.yogaSources))
        var ops = [#"{"op":"create","tag":1,"component":"RCTView"}"#]
        for (tag, component, props, _) in hit.views {
            ops.append(#"{"op":"create","tag":\#(tag),"component":"\#(component)","props":\#(props)}"#)
        }
        ops.append(#"{"op":"setChildren","tag":1,"children":[\#(hit.views[0].0)]}"#)
        for (tag, _, _, children) in hit.views where !children.isEmpty {
            ops.append(
                #"{"op":"setChildren","tag":\#(tag),"children":[\#(children.map(String.init).joined(separator: ","))]}"#
            )
        }
        let answer = try client.request(#"{"op":"batch","ops":["# + ops.joined(separator: ",") + "]}")
        #expect(object(answer)["ok"] as? Bool == true, "\(answer)")
        let found = result(try client.request(#"{"op":"layout","at":{"x":\#(hit.point.0),"y":\#(hit.point.1)}}"#))
        let tag = (found["hit"] as? [String: Any])?["tag"] as? Int
        #expect(tag == hit.expected, "\(found)")
        _ = daemon
    }

    @Test(.enabled(if: haveSources, Comment(rawValue: noSources)))
    func aViewScrolledOutOfSightIsNotTouchedThere() throws {
        let dir = TemporaryDirectory()
        let (daemon, client) = try start(in: dir, environment: ["BRIDGED_CACHE_DIR": Self.sharedCache])
        _ = try client.request(layoutLine(Self.yogaSources))
        let ops =
            #"{"op":"batch","ops":[{"op":"create","tag":1,"component":"RCTView"},"#
            + #"{"op":"create","tag":2,"component":"RCTScrollView","props":{"width":100,"height":100,"overflow":"scroll"},"parent":1},"#
            + #"{"op":"create","tag":3,"component":"RCTScrollContentView","parent":2},"#
            + #"{"op":"create","tag":4,"component":"RCTView","props":{"height":80},"parent":3},"#
            + #"{"op":"create","tag":5,"component":"RCTView","props":{"height":80},"parent":3}]}"#
        _ = try client.request(ops)
        let before = result(try client.request(#"{"op":"layout","at":{"x":10,"y":10}}"#))
        #expect((before["hit"] as? [String: Any])?["tag"] as? Int == 4)
        _ = try client.request(#"{"op":"command","tag":2,"name":"scrollTo","args":[0,60,false]}"#)
        let after = result(try client.request(#"{"op":"layout","at":{"x":10,"y":30}}"#))
        #expect((after["hit"] as? [String: Any])?["tag"] as? Int == 5, "\(after)")
        let window = result(try client.request(#"{"op":"inspect","tag":5}"#))["layoutInWindow"] as? [String: Any]
        #expect(window?["y"] as? Int == 20)
        _ = daemon
    }

    /// A stand-in C++ compiler for the tests of Yoga's build, in `dir`: it touches `started`, then waits for the test
    /// to create `release` (polling; after 60 s it touches `gave-up`) and builds nothing. With `passingThroughAllBut`,
    /// a build whose arguments do not name that folder runs the real compiler at once instead.
    static func waitingCompiler(
        in dir: TemporaryDirectory,
        passingThroughAllBut other: (folder: String, real: String)? = nil
    ) throws -> String {
        let compiler = dir.file("c++")
        var lines = ["#!/bin/sh"]
        if let other {
            lines += ["case \"$*\" in", "  *'\(other.folder)'*) ;;", "  *) exec '\(other.real)' \"$@\" ;;", "esac"]
        }
        lines += [
            "touch '\(dir.file("started"))'",
            "i=0",
            "while [ ! -e '\(dir.file("release"))' ]; do",
            "  sleep 0.05",
            "  i=$((i+1))",
            "  if [ $i -ge 1200 ]; then touch '\(dir.file("gave-up"))'; break; fi",
            "done",
            "echo \"this test's compiler builds nothing\" >&2",
            "exit 1",
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: compiler, atomically: true, encoding: .utf8)
        #expect(chmod(compiler, 0o755) == 0)
        return compiler
    }
}
