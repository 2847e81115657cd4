import Testing

@testable import BridgeCore

/// `define`'s cache (``DefineCache``): what a session that had defined nothing made from a schema, reused by the
/// next such session of the engine; never by one that defined before; bounded.
@Suite("DefineCache")
struct DefineCacheTests {
    static let searchBar = DefineTests.searchBar

    @Test func aFreshSessionGetsTheSameAnswerAndWorkingComponentsFromTheCache() {
        let engine = Engine()
        let first = Client(engine: engine)
        let answer = first.send(DefineTests.define(schema: Self.searchBar, untyped: ["RNSScreen"])).response
        #expect(engine.defineCache.counts.entries == 1)
        #expect(engine.defineCache.counts.hits == 0)

        let second = Client(engine: engine)
        #expect(second.send(DefineTests.define(schema: Self.searchBar, untyped: ["RNSScreen"])).response == answer)
        #expect(engine.defineCache.counts.hits == 1)
        // The components are the second session's: typed, checked, described by `components`.
        #expect(second.result(#"{"op":"create","tag":1,"component":"RNSScreen"}"#) == #"{"tag":1}"#)
        let create = #"{"op":"create","tag":2,"component":"RNSSearchBar","parent":1,"props":{"placeholder":"Find"}}"#
        #expect(second.result(create) == #"{"tag":2}"#)
        #expect(second.result(#"{"op":"update","tag":2,"props":{"placeholder":3}}"#) == #""invalid_props""#)
        #expect(
            field(second.send(#"{"op":"components"}"#).response, "result.components.RNSSearchBar")
                == field(first.send(#"{"op":"components"}"#).response, "result.components.RNSSearchBar")
        )
        // A third session that defines nothing still has none of them.
        let third = Client(engine: engine)
        #expect(third.result(#"{"op":"create","tag":1,"component":"RNSScreen"}"#) == #""unknown_component""#)
    }

    @Test func anotherSchemaOrOtherUntypedNamesAreNotTheSameEntry() {
        let engine = Engine()
        _ = Client(engine: engine).send(DefineTests.define(schema: Self.searchBar))
        _ = Client(engine: engine).send(DefineTests.define(schema: Self.searchBar, untyped: ["RNSScreen"]))
        _ = Client(engine: engine).send(DefineTests.define(untyped: ["RNSScreen"]))
        #expect(engine.defineCache.counts.entries == 3)
        #expect(engine.defineCache.counts.hits == 0)
        let client = Client(engine: engine)
        #expect(client.result(#"{"op":"create","tag":1,"component":"RNSSearchBar"}"#) == #""unknown_component""#)
        _ = client.send(DefineTests.define(untyped: ["RNSScreen"]))
        #expect(engine.defineCache.counts.hits == 1)
        #expect(client.result(#"{"op":"create","tag":1,"component":"RNSSearchBar"}"#) == #""unknown_component""#)
        #expect(client.result(#"{"op":"create","tag":2,"component":"RNSScreen"}"#) == #"{"tag":2}"#)
    }

    /// A session that defined before is answered as without the cache: what it defines is checked against its own
    /// components (replaced, refused while it has views of them, or unchanged).
    @Test func aSessionThatDefinedBeforeIsAnsweredWithoutIt() {
        let engine = Engine()
        let typed = DefineTests.module(
            #""Thing":{"props":[{"name":"on","typeAnnotation":{"type":"BooleanTypeAnnotation","default":false}}]}"#
        )
        _ = Client(engine: engine).send(DefineTests.define(untyped: ["Thing"]))
        _ = Client(engine: engine).send(DefineTests.define(schema: typed))
        let client = Client(engine: engine)
        _ = client.send(DefineTests.define(untyped: ["Thing"]))
        #expect(engine.defineCache.counts.hits == 1)
        #expect(client.result(#"{"op":"create","tag":1,"component":"Thing","props":{"any":1}}"#) == #"{"tag":1}"#)
        // The typed schema is in the cache, but this session has a view of its untyped Thing: refused.
        let refused = client.send(DefineTests.define(schema: typed)).response
        #expect(field(refused, "error.message").contains("the session has a view of it (tag 1)"))
        #expect(engine.defineCache.counts.hits == 1)
        #expect(client.result(#"{"op":"delete","tag":1}"#) == #"{"deleted":[1]}"#)
        let replaced = client.send(DefineTests.define(schema: typed)).response
        #expect(field(replaced, "result.components.Thing.props.on.type") == #""bool""#)
        #expect(engine.defineCache.counts.hits == 1)
        #expect(field(client.send(DefineTests.define(schema: typed)).response, "result.unchanged") == #"["Thing"]"#)
    }

    @Test func aRefusedDefineIsNotKept() {
        let engine = Engine()
        let bad = DefineTests.module(#""Bad":{"props":[{"name":"x","typeAnnotation":{"type":"Nonsense"}}]}"#)
        let first = Client(engine: engine).send(DefineTests.define(schema: bad)).response
        #expect(field(first, "error.code") == #""invalid_schema""#)
        #expect(engine.defineCache.counts.entries == 0)
        #expect(Client(engine: engine).send(DefineTests.define(schema: bad)).response == first)
    }

    @Test func itKeepsAtMostItsLimitAndItsKeyBytes() {
        let cache = DefineCache(limit: 2, maxKeyBytes: 100)
        let entry = DefineCache.Entry(registry: .builtin, added: [], description: [], unchanged: [], skipped: [])
        let keys = (0..<3).map { DefineCache.Key(schema: String(repeating: "x", count: 30) + "\($0)", untyped: []) }
        for key in keys { cache.keep(entry, for: key) }
        #expect(cache.counts.entries == 2)
        #expect(cache.entry(for: keys[0]) == nil, "the oldest went first")
        #expect(cache.entry(for: keys[1]) != nil && cache.entry(for: keys[2]) != nil)
        // Over the key bytes, the oldest go until it fits; a key alone over them is never kept.
        let big = DefineCache.Key(schema: String(repeating: "y", count: 60), untyped: ["z"])
        cache.keep(entry, for: big)
        #expect(cache.counts.entries == 2)
        #expect(cache.entry(for: keys[1]) == nil && cache.entry(for: keys[2]) != nil && cache.entry(for: big) != nil)
        cache.keep(entry, for: DefineCache.Key(schema: String(repeating: "w", count: 101), untyped: []))
        #expect(cache.counts.entries == 2)
    }
}
