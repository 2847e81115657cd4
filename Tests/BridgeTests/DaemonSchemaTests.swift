import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bridged --components`: codegen schema components served over a real socket, and broken schemas refused
/// at start.
@Suite("Daemon: codegen schemas", .serialized)
struct DaemonSchemaTests {
    private func result(_ frame: String) -> [String: Any] { object(frame)["result"] as? [String: Any] ?? [:] }

    private func details(_ frame: String) -> [[String: Any]] {
        (object(frame)["error"] as? [String: Any])?["details"] as? [[String: Any]] ?? []
    }

    @Test func servesSchemaComponents() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("b.sock")
        let daemon = try DaemonProcess.start(
            socket: socket,
            [
                "--components", SchemaCorpus.path("all-annotations.json"),
                "--components", SchemaCorpus.path("modules-and-names.json"),
            ],
            in: dir
        )
        #expect(daemon.stderr.contains("skipped module 'NativeClipboard'"))
        let client = try SocketClient(path: socket)
        let hello = result(try client.request(helloLine))
        let components = try #require(hello["components"] as? [String: Any])
        let gallery = try #require(components["AnnotationGallery"] as? [String: Any])
        let props = try #require(gallery["props"] as? [String: Any])
        #expect((props["count"] as? [String: Any])?["type"] as? String == "int32")
        #expect((props["count"] as? [String: Any])?["optional"] as? Bool == false)
        #expect((props["size"] as? [String: Any])?["values"] as? [String] == ["small", "medium", "large"])
        #expect((props["testID"] as? [String: Any])?["type"] as? String == "string")
        let events = try #require(gallery["events"] as? [String: Any])
        #expect(
            (events["valueChange"] as? [String: Any])?["registrationNames"] as? [String: String]
                == ["bubbled": "onValueChange", "captured": "onValueChangeCapture"]
        )
        #expect((events["loadEnd"] as? [String: Any])?["registrationName"] as? String == "onLoadEnd")
        #expect(components["OddNames"] != nil)

        // create, then update with good values and bad ones (every bad one with its path).
        #expect(
            try client.request(#"{"id":1,"op":"create","tag":1,"component":"View"}"#)
                == #"{"id":1,"ok":true,"result":{"tag":1}}"#
        )
        let create = try client.request(
            ##"{"id":2,"op":"create","tag":2,"parent":1,"component":"AnnotationGallery","props":{"count":3,"tint":"#f00"}}"##
        )
        #expect(create == #"{"id":2,"ok":true,"result":{"tag":2}}"#)
        let update = try client.request(
            #"{"id":3,"op":"update","tag":2,"props":{"size":"large","style":{"border":{"width":2}},"width":"50%","opacity":0.5}}"#
        )
        #expect(result(update)["changed"] as? [String] == ["size", "style", "width", "opacity"])
        let bad = try client.request(
            #"{"id":4,"op":"update","tag":2,"props":{"count":2147483648,"size":"huge","grid":[[{"cell":1}],[{"cel":2}]],"style":{"border":{"color":"blue"}}}}"#
        )
        #expect(errorCode(bad) == "invalid_props")
        #expect(
            details(bad).compactMap { $0["path"] as? String } == [
                "count", "size", "grid[1][0].cel", "grid[1][0].cell", "style.border.color",
            ]
        )
        let inspect = result(try client.request(#"{"id":5,"op":"inspect","tag":2}"#))
        let values = try #require(inspect["props"] as? [String: Any])
        #expect(values["count"] as? Int == 3)
        #expect(values["size"] as? String == "large")
        #expect(values["tint"] as? String == "#ff0000ff")
        #expect(values["width"] as? String == "50%")
        #expect(
            inspect["render"] as? String
                == #"AnnotationGallery opacity=0.5 count=3 size="large" tint=#ff0000ff width=50% style={radius, border, shadow}"#
        )

        // Subscribe by event name: the parent View hears the bubbling event, then emit it as native code would.
        #expect(errorCode(try client.request(#"{"id":6,"op":"subscribe","tag":1,"event":"valueChange"}"#)) == nil)
        client.send(
            #"{"id":7,"op":"emit","tag":2,"event":"valueChange","payload":{"value":0.5,"final":true,"location":{"x":1,"y":2}}}"#
                + "\n"
        )
        let event = object(try #require(client.readLine()))
        #expect(event["event"] as? String == "valueChange")
        #expect(event["target"] as? Int == 2)
        let payload = try #require(event["payload"] as? [String: Any])
        #expect(payload["value"] as? Double == 0.5)
        #expect(payload["step"] is NSNull)
        #expect((payload["location"] as? [String: Any])?["y"] as? Double == 2)
        #expect(try #require(client.readLine()) == #"{"id":7,"ok":true,"result":{}}"#)
        let badEmit = try client.request(
            #"{"id":8,"op":"emit","tag":2,"event":"valueChange","payload":{"value":1,"final":true,"location":{"x":"left","y":0}}}"#
        )
        #expect(errorCode(badEmit) == "invalid_payload")
        #expect(details(badEmit).compactMap { $0["path"] as? String } == ["location.x"])
        // A direct event with no payload is heard only on its own view.
        #expect(errorCode(try client.request(#"{"id":9,"op":"subscribe","tag":2,"event":"loadEnd"}"#)) == nil)
        client.send(#"{"id":10,"op":"emit","tag":2,"event":"loadEnd"}"# + "\n")
        #expect(object(try #require(client.readLine()))["payload"] as? [String: Any] != nil)
        #expect(try #require(client.readLine()) == #"{"id":10,"ok":true,"result":{}}"#)

        // Commands change nothing, are logged in call order, and are checked first.
        #expect(
            try client.request(#"{"id":11,"op":"command","tag":2,"name":"scrollTo","args":[0,100.5,1,"user",true]}"#)
                == #"{"id":11,"ok":true,"result":{}}"#
        )
        #expect(
            try client.request(#"{"id":12,"op":"command","tag":2,"name":"attach","args":[11,[1,2],[{"a":1},null]]}"#)
                == #"{"id":12,"ok":true,"result":{}}"#
        )
        let badArgs = try client.request(#"{"id":13,"op":"command","tag":2,"name":"attach","args":[11,[1,"two"],[]]}"#)
        #expect(errorCode(badArgs) == "invalid_args")
        #expect(details(badArgs).compactMap { $0["path"] as? String } == ["ids[1]"])
        let inspected = try client.request(#"{"id":14,"op":"inspect","tag":2}"#)
        #expect(
            inspected.contains(
                #""commands":[{"name":"scrollTo","args":[0,100.5,1.0,"user",true]},"#
                    + #"{"name":"attach","args":[11,[1,2],[{"a":1},null]]}]"#
            )
        )
        let logged = result(inspected)
        #expect((logged["props"] as? [String: Any])?["count"] as? Int == 3)
    }

    @Test func aBrokenSchemaStopsTheDaemonAtStart() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("b.sock")
        let schema = SchemaCorpus.path("bad/unknown-annotation.json")
        let daemon = try DaemonProcess(["--socket", socket, "--components", schema], in: dir)
        #expect(daemon.waitForExit() == 1)
        #expect(
            daemon.stderr.contains(
                "\(schema): modules.BadModule.components.BadView.props[1].typeAnnotation: "
                    + "unknown type annotation 'LongTypeAnnotation'"
            )
        )
        #expect(access(socket, F_OK) != 0)
    }

    @Test func aFolderLoadsEveryJSONFileInIt() throws {
        let dir = TemporaryDirectory()
        mkdir(dir.file("schemas"), 0o700)
        for name in ["core-view-props.json", "legacy-spellings.json"] {
            try FileManager.default.copyItem(atPath: SchemaCorpus.path(name), toPath: dir.file("schemas/" + name))
        }
        _ = FileManager.default.createFile(atPath: dir.file("schemas/notes.txt"), contents: Data("not a schema".utf8))
        let socket = dir.file("b.sock")
        let daemon = try DaemonProcess.start(socket: socket, ["--components", dir.file("schemas")], in: dir)
        defer { daemon.signal(SIGTERM) }
        let client = try SocketClient(path: socket)
        let components = result(try client.request(helloLine))["components"] as? [String: Any] ?? [:]
        #expect(components["Badge"] != nil && components["PlainBadge"] != nil && components["LegacyPicker"] != nil)
    }

    /// A session with a schema view survives a restart with the same schema; a daemon started without it
    /// drops the session (a log line names it and the component) and answers its resume `components_changed`.
    @Test func aRestartWithoutTheSchemaDropsItsSessions() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("b.sock")
        let schema = ["--components", SchemaCorpus.path("core-view-props.json")]
        let first = try DaemonProcess.start(socket: socket, schema + ["--record", dir.file("rec")], in: dir)
        let client = try SocketClient(path: socket)
        let session = try client.hello()
        #expect(
            errorCode(try client.request(#"{"id":1,"op":"create","tag":1,"component":"Badge","props":{"text":"7"}}"#))
                == nil
        )
        #expect(
            errorCode(try client.request(#"{"id":2,"op":"command","tag":1,"name":"missing"}"#)) == "unknown_command"
        )
        client.close()
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)

        // The recording replays with no flag: its meta record describes Badge.
        let replay = try DaemonProcess(["replay", dir.file("rec/\(session.id).jsonl")], in: dir)
        #expect(replay.waitForExit() == 0)
        #expect(replay.stdout.hasSuffix("1 passed, 0 failed\n"))

        let second = try DaemonProcess.start(socket: socket, in: dir)
        #expect(
            second.stderr.contains(
                "dropped saved session \(session.id): it has a view of component 'Badge', which this daemon lacks"
            )
        )
        let again = try SocketClient(path: socket)
        let refused = result(try again.request(resumeLine(session, ack: 0)))
        #expect(refused["resumed"] as? Bool == false)
        #expect(refused["reason"] as? String == "components_changed")
    }
}
