import BridgeCore
import Foundation
import PropStore
import Testing

/// Recordings and state files carry the descriptions of their components, so that a component loaded from a
/// codegen schema replays with no flag and a restarted daemon knows which sessions it can take back.
@Suite("Self-described recordings and state")
struct SelfDescribedTests {
    private func field(_ frame: String, _ path: String) -> String? {
        guard let document = try? JSONDocument(parsing: frame) else { return nil }
        var node: JSONRef? = document.root
        for key in path.split(separator: ".") { node = node?[String(key)] }
        return node?.canonicalText
    }

    /// The components of `schemas` on top of the built-ins.
    private func registry(_ schemas: String...) throws -> ComponentRegistry {
        var loaded = CodegenSchema()
        for name in schemas { try loaded.load(try SchemaCorpus.bytes(name), file: name) }
        return loaded.registry
    }

    /// The `components` of a hello answered by `engine`.
    private func helloComponents(_ engine: Engine) -> String? {
        let connection = engine.connect()
        defer { connection.close() }
        return field(connection.handle(line: #"{"op":"hello","protocol":1}"#)[0], "result.components")
    }

    @Test(arguments: SchemaCorpus.goodFiles)
    func aDescriptionRebuildsTheSameComponents(file: String) throws {
        let original = Engine(registry: try registry(file))
        let described = try #require(original.describedComponentsJSON)
        let document = try JSONDocument(parsing: described)
        let rebuilt = try Engine.registry(.builtin, adding: document.root, source: "test")
        #expect(helloComponents(Engine(registry: rebuilt)) == helloComponents(original))
        #expect(Engine(registry: rebuilt).describedComponentsJSON == described)
    }

    @Test func onlyComponentsThatAreNotBuiltInsAreDescribed() throws {
        #expect(Engine().describedComponentsJSON == nil)
        let described = try #require(Engine(registry: try registry("core-view-props.json")).describedComponentsJSON)
        let document = try JSONDocument(parsing: described)
        #expect(document.root.keys == ["Badge", "PlainBadge"])
    }

    @Test func aRecordingCarriesItsComponentsAndReplaysWithoutTheSchema() throws {
        let engine = Engine(registry: try registry("core-view-props.json"))
        let meta = String(
            decoding: SessionRecord.meta(engine.configuration, components: engine.describedComponentsJSON),
            as: UTF8.self
        )
        #expect(field(meta, "components.Badge.props.opacity") == #"{"default":0.5,"type":"double"}"#)
        let connection = engine.connect()
        var recording = meta
        for line in [
            #"{"id":1,"op":"hello","protocol":1}"#,
            #"{"id":2,"op":"create","tag":1,"component":"Badge","props":{"text":"9"}}"#,
            #"{"id":3,"op":"command","tag":1,"name":"nope"}"#,
            #"{"id":4,"op":"inspect","tag":1}"#,
        ] {
            recording += #"{"dir":"in","frame":"# + line + "}\n"
            for frame in connection.handle(line: line) { recording += #"{"dir":"out","frame":"# + frame + "}\n" }
        }
        connection.close()
        let outcome = Replayer().replay(recording)
        #expect(outcome.passed, "\(String(describing: outcome.difference))")
        #expect(outcome.framesMatched == 4)

        // A replayer whose own Badge is described otherwise refuses the recording at its meta record.
        let other = try registry("all-annotations.json")
        var renamed = CodegenSchema(registry: other)
        let text = try String(contentsOfFile: SchemaCorpus.path("core-view-props.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"default\": 0.5", with: "\"default\": 0.75")
        try renamed.load(Array(text.utf8), file: "changed.json")
        let refused = Replayer(registry: renamed.registry).replay(recording)
        #expect(refused.difference?.line == 1)
        #expect(
            refused.difference?.got
                == "the meta record: components.Badge: component 'Badge' is described differently by this bridged"
        )
    }

    /// A saved session whose views use a component the next engine lacks, or describes differently, is dropped;
    /// its resume is answered `components_changed`. The other sessions come back.
    @Test func sessionsWithChangedComponentsAreDropped() throws {
        let engine = Engine(registry: try registry("core-view-props.json"))
        let badge = engine.connect()
        let badgeToken = try #require(field(badge.handle(line: #"{"op":"hello","protocol":1}"#)[0], "result.token"))
        _ = badge.handle(line: #"{"op":"create","tag":1,"component":"Badge"}"#)
        let plain = engine.connect()
        let plainToken = try #require(field(plain.handle(line: #"{"op":"hello","protocol":1}"#)[0], "result.token"))
        _ = plain.handle(line: #"{"op":"create","tag":1,"component":"View"}"#)
        let (badgeID, plainID) = (badge.session.id, plain.session.id)
        func resume(_ id: String, _ token: String) -> String {
            #"{"op":"hello","protocol":1,"resume":{"session":"\#(id)","token":\#(token),"ack":0}}"#
        }
        badge.close()
        plain.close()
        let state = engine.saveState()
        #expect(field(String(decoding: state, as: UTF8.self), "components.Badge.props.text.type") == #""string""#)

        // The same components: everything comes back.
        var dropped: [DroppedSession] = []
        #expect(try Engine(registry: try registry("core-view-props.json")).loadState(state, dropped: &dropped) == 2)
        #expect(dropped.isEmpty)

        // No Badge at all.
        let lacking = Engine()
        #expect(try lacking.loadState(state, dropped: &dropped) == 1)
        #expect(dropped == [DroppedSession(session: badgeID, component: "Badge", reason: .missing)])
        // Without the token, a dropped session is unknown, as any other.
        let guessed = lacking.connect().handle(line: resume(badgeID, #""0000""#))
        #expect(field(guessed[0], "result.reason") == #""unknown_session""#)
        let refused = lacking.connect().handle(line: resume(badgeID, badgeToken))
        #expect(field(refused[0], "result.resumed") == "false")
        #expect(field(refused[0], "result.reason") == #""components_changed""#)
        let kept = lacking.connect().handle(line: resume(plainID, plainToken))
        #expect(field(kept[0], "result.resumed") == "true")

        // A Badge with another default.
        let text = try String(contentsOfFile: SchemaCorpus.path("core-view-props.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"default\": \"badge\"", with: "\"default\": \"a badge\"")
        var changed = CodegenSchema()
        try changed.load(Array(text.utf8), file: "changed.json")
        dropped = []
        #expect(try Engine(registry: changed.registry).loadState(state, dropped: &dropped) == 1)
        #expect(dropped == [DroppedSession(session: badgeID, component: "Badge", reason: .changed)])
    }
}
