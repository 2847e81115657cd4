import Foundation
import PropStore
import Testing

/// Every component of every schema in `Tests/Schemas`, driven over a real socket from nothing but its `hello`
/// description: each prop set to a value of its type, to a wrong one and back to `null`; each event subscribed
/// and emitted with a payload of its type; each command called with arguments of its params and with wrong
/// ones; the command log read back.
@Suite("Daemon: every schema component driven from its description", .serialized)
struct SchemaDriveTests {
    /// A value of the described type.
    static func sample(_ type: [String: Any]) -> Any {
        switch type["type"] as? String {
        case "int", "int32": 3
        case "float": 0.5
        case "double": 1.25
        case "bool": true
        case "string": "x"
        case "enum", "int32Enum": (type["values"] as? [Any])?.last ?? NSNull()
        case "color": "#123456"
        case "point": ["x": 1, "y": 2]
        case "edgeInsets": ["top": 1]
        case "imageSource": ["uri": "a.png"]
        case "dimension": "50%"
        case "array":
            [sample(type["elements"] as? [String: Any] ?? [:]), sample(type["elements"] as? [String: Any] ?? [:])]
        case "object": fields(type["fields"])
        default: ["any": [1]]
        }
    }

    /// An object with a sample of every field.
    static func fields(_ described: Any?) -> [String: Any] {
        (described as? [String: Any] ?? [:]).mapValues { sample($0 as? [String: Any] ?? [:]) }
    }

    /// A value that is not of the described type (`nil` for `mixed`, which takes anything).
    static func wrong(_ type: [String: Any]) -> Any? {
        switch type["type"] as? String {
        case "mixed": nil
        case "string", "imageSource": 5
        default: "zz"
        }
    }

    static func line(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test(arguments: SchemaCorpus.goodFiles)
    func everyComponentPropEventAndCommand(file: String) throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("b.sock")
        let daemon = try DaemonProcess.start(socket: socket, ["--components", SchemaCorpus.path(file)], in: dir)
        defer { daemon.signal(SIGTERM) }
        let client = try SocketClient(path: socket)
        let hello = object(try client.request(helloLine))["result"] as? [String: Any]
        let components = try #require(hello?["components"] as? [String: Any])
        // The schema's components: the built-ins have their own suites (their commands take particular arguments).
        let builtins = Set(ComponentRegistry.builtin.components.map(\.name))
        var tag = 0
        for (name, value) in components.sorted(by: { $0.key < $1.key }) where !builtins.contains(name) {
            let component = try #require(value as? [String: Any])
            tag += 1
            let created = try client.request(try Self.line(["op": "create", "tag": tag, "component": name]))
            #expect(errorCode(created) == nil, "\(name): \(created)")
            for (prop, described) in component["props"] as? [String: [String: Any]] ?? [:] {
                let good = try client.request(
                    try Self.line(["op": "update", "tag": tag, "props": [prop: Self.sample(described)]])
                )
                #expect(errorCode(good) == nil, "\(name).\(prop): \(good)")
                if let wrong = Self.wrong(described) {
                    let bad = try client.request(try Self.line(["op": "update", "tag": tag, "props": [prop: wrong]]))
                    #expect(errorCode(bad) == "invalid_props", "\(name).\(prop): \(bad)")
                }
                let reset = try client.request(try Self.line(["op": "update", "tag": tag, "props": [prop: NSNull()]]))
                #expect(errorCode(reset) == nil, "\(name).\(prop): \(reset)")
            }
            for (event, described) in component["events"] as? [String: [String: Any]] ?? [:] {
                #expect(
                    errorCode(try client.request(try Self.line(["op": "subscribe", "tag": tag, "event": event]))) == nil
                )
                let payload = Self.fields(described["payload"])
                client.send(try Self.line(["op": "emit", "tag": tag, "event": event, "payload": payload]) + "\n")
                let frame = object(try #require(client.readLine()))
                #expect(frame["event"] as? String == event, "\(name).\(event): \(frame)")
                #expect((frame["payload"] as? [String: Any])?.count == payload.count)
                #expect(errorCode(try #require(client.readLine())) == nil)
            }
            let commands = component["commands"] as? [String: [String: Any]] ?? [:]
            for (command, described) in commands {
                let params = described["params"] as? [[String: Any]] ?? []
                let ran = try client.request(
                    try Self.line(["op": "command", "tag": tag, "name": command, "args": params.map(Self.sample)])
                )
                #expect(errorCode(ran) == nil, "\(name).\(command): \(ran)")
                if !params.isEmpty {
                    let args = params.map { Self.wrong($0) ?? 1 }
                    let refused = try client.request(
                        try Self.line(["op": "command", "tag": tag, "name": command, "args": args])
                    )
                    #expect(errorCode(refused) == "invalid_args", "\(name).\(command): \(refused)")
                }
            }
            let inspected =
                object(try client.request(try Self.line(["op": "inspect", "tag": tag])))["result"] as? [String: Any]
            let logged = (inspected?["commands"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(logged.sorted() == commands.keys.sorted(), "\(name)")
        }
        #expect(tag > 0)
    }
}
