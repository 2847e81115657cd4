import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `define` over a real socket: a session's own component described anew (another version of a package's spec, as
/// a second app brings it) is refused while a view of it exists, naming the view, and replaces the old description
/// once none does; the replacement survives a restart and replays from a recording.
@Suite("Daemon: define anew", .serialized)
struct DaemonDefineTests {
    /// react-native-screens' `RNSScreen` as one version's spec has it (`extraProps` props more in a newer one).
    static func screen(_ extraProps: String = "", id: Int) -> String {
        let props =
            #"{"name":"stackPresentation","optional":true,"typeAnnotation":{"type":"StringEnumTypeAnnotation","default":"push","options":["push","modal"]}}"#
            + extraProps
        let module = DefineTests.module(
            #""RNSScreen":{"extendsProps":[{"type":"ReactNativeBuiltInType","knownTypeName":"ReactNativeCoreViewProps"}],"props":[\#(props)]}"#
        )
        return DefineTests.define(schema: module, id: id)
    }

    /// The prop a newer react-native-screens adds.
    static let newProp =
        #",{"name":"sheetGrabberVisible","optional":true,"typeAnnotation":{"type":"BooleanTypeAnnotation","default":false}}"#

    private func message(_ frame: String) -> String? {
        (object(frame)["error"] as? [String: Any])?["message"] as? String
    }

    private func components(_ frame: String) -> [String: Any] {
        (object(frame)["result"] as? [String: Any])?["components"] as? [String: Any] ?? [:]
    }

    @Test func aDefinedComponentIsDescribedAnewOnceNoViewOfItExists() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess.start(socket: socket, in: dir)
        let client = try SocketClient(path: socket)
        let session = try client.hello()

        #expect(components(try client.request(Self.screen(id: 1))).keys.sorted() == ["RNSScreen"])
        #expect(errorCode(try client.request(#"{"id":2,"op":"create","tag":1,"component":"RCTView"}"#)) == nil)
        let create =
            #"{"id":3,"op":"create","tag":7,"component":"RNSScreen","parent":1,"props":{"stackPresentation":"modal"}}"#
        #expect(errorCode(try client.request(create)) == nil)

        // Another version's spec, while a view of the old one exists: refused, naming the view; nothing changes.
        let refused = try client.request(Self.screen(Self.newProp, id: 4))
        #expect(errorCode(refused) == "invalid_schema")
        #expect(
            message(refused)
                == "define: schema.modules.M.components.RNSScreen: component 'RNSScreen' is already registered (defined "
                + "earlier in this session) and described differently, and the session has a view of it (tag 7); it "
                + "may be described anew only once no view of it exists"
        )
        let old = try client.request(
            #"{"id":5,"op":"create","tag":8,"component":"RNSScreen","props":{"sheetGrabberVisible":true}}"#
        )
        #expect(errorCode(old) == "invalid_props", "the old description still holds")

        // Its view deleted, the new description replaces the old one, and its new prop works.
        #expect(errorCode(try client.request(#"{"id":6,"op":"delete","tag":1}"#)) == nil)
        let replaced = try client.request(Self.screen(Self.newProp, id: 7))
        #expect(errorCode(replaced) == nil)
        let described = try #require(components(replaced)["RNSScreen"] as? [String: Any])
        #expect(
            ((described["props"] as? [String: Any])?["sheetGrabberVisible"] as? [String: Any])?["type"] as? String
                == "bool"
        )
        let created = try client.request(
            #"{"id":8,"op":"create","tag":8,"component":"RNSScreen","props":{"sheetGrabberVisible":true,"stackPresentation":"modal"}}"#
        )
        #expect(errorCode(created) == nil)
        let inspect = try client.request(#"{"id":9,"op":"inspect","tag":8}"#)
        #expect(inspect.contains(#""render":"RNSScreen stackPresentation=\"modal\" sheetGrabberVisible=true""#))
        #expect(
            errorCode(try client.request(#"{"id":10,"op":"update","tag":8,"props":{"sheetGrabberVisible":"yes"}}"#))
                == "invalid_props"
        )
        let listed = try client.request(#"{"id":11,"op":"components"}"#)
        #expect(components(listed).keys.sorted() == ["RNSScreen"])
        #expect(listed.contains(#""sheetGrabberVisible""#))

        // The replacement is what the state file keeps: a restarted daemon brings the session back with it.
        client.close()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let restarted = try DaemonProcess.start(socket: socket, in: dir)
        defer { restarted.signal(SIGTERM) }
        let again = try SocketClient(path: socket)
        #expect(
            (object(try again.request(resumeLine(session, ack: 0)))["result"] as? [String: Any])?["resumed"] as? Bool
                == true
        )
        #expect(try again.request(#"{"id":11,"op":"components"}"#) == listed)
        #expect(
            errorCode(try again.request(#"{"id":12,"op":"update","tag":8,"props":{"sheetGrabberVisible":false}}"#))
                == nil
        )
        // The old version, back while the view of the new one exists: refused the same way.
        #expect(message(try again.request(Self.screen(id: 13)))?.contains("has a view of it (tag 8)") == true)
    }

    /// A recording of a session whose definition was replaced (refused with a view, then accepted) replays.
    @Test func aReplacedDefinitionReplays() throws {
        let dir = TemporaryDirectory()
        let input = dir.file("input.txt")
        let lines = [
            #"{"id":1,"op":"hello","protocol":1}"#,
            Self.screen(id: 2),
            #"{"id":3,"op":"create","tag":1,"component":"RNSScreen"}"#,
            Self.screen(Self.newProp, id: 4),
            #"{"id":5,"op":"delete","tag":1}"#,
            Self.screen(Self.newProp, id: 6),
            #"{"id":7,"op":"create","tag":2,"component":"RNSScreen","props":{"sheetGrabberVisible":true}}"#,
            #"{"id":8,"op":"inspect","tag":2}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let record = try DaemonProcess(["record", input], in: dir)
        #expect(record.waitForExit() == 0)
        let recorded = record.stdout.split(separator: "\n").map(String.init)
        #expect(recorded.contains { $0.contains(#""id":4"#) && $0.contains("has a view of it (tag 1)") })
        #expect(recorded.contains { $0.contains(#""id":8"#) && $0.contains("sheetGrabberVisible=true") })
        let recording = dir.file("recording.jsonl")
        try (recorded.joined(separator: "\n") + "\n").write(toFile: recording, atomically: true, encoding: .utf8)
        let replay = try DaemonProcess(["replay", recording], in: dir)
        #expect(replay.waitForExit() == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("1 passed, 0 failed"))
    }
}
