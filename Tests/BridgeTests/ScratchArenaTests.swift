import CJanssonArena
import Testing

@testable import BridgeCore

/// The thread's scratch arena, which holds the tree of the request being handled: one tree at a time, its
/// memory given back after each request, lines of any size.
@Suite struct ScratchArenaTests {
    static func withBytes<T>(_ text: String, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes(body)
    }

    /// While a tree is in the scratch arena, it cannot be claimed again (a second parse would reset the first
    /// tree when done); once released, it can.
    @Test func oneTreeAtATime() throws {
        let scratch = try #require(JanssonMemory.claimScratch())
        let outer = try #require(Self.withBytes(#"{"id":1}"#) { JanssonMemory.parse($0, into: scratch) })
        #expect(JanssonMemory.claimScratch() == nil)
        let inner = try Self.withBytes(#"{"id":2}"#) { bytes in
            let document = try JSONDocument(parsing: bytes)
            let id = document.root["id"]?.integer
            withExtendedLifetime(document) {}
            return id
        }
        #expect(inner == 2)
        #expect(JSONRef(outer)["id"]?.integer == 1)
        JanssonMemory.releaseScratch()
        #expect(JanssonMemory.claimScratch() != nil)
        JanssonMemory.releaseScratch()
    }

    /// A batch part keeps the tree its line was parsed into (``StagedBatch``): the scratch arena is taken from the
    /// thread only by a node in it, the tree stays readable after the thread's next request, and that request
    /// gets a new scratch arena.
    @Test func aTreeTakesTheScratchArenaWithIt() throws {
        let scratch = try #require(JanssonMemory.claimScratch())
        let big = String(repeating: "y", count: 200_000)
        let tree = try #require(
            Self.withBytes(#"{"id":1,"ops":["\#(big)"]}"#) { JanssonMemory.parse($0, into: scratch) }
        )
        let other = JSONArena()
        let elsewhere = try #require(Self.withBytes(#"{"id":3}"#) { JanssonMemory.parse($0, in: other) })
        #expect(JanssonMemory.takeScratch(holding: elsewhere) == nil, "a node outside it takes nothing")
        let ops = try #require(JSONRef(tree)["ops"])
        let taken = try #require(JanssonMemory.takeScratch(holding: ops.raw))
        #expect(taken == scratch)
        JanssonMemory.releaseScratch()
        // The next request parses into a new arena, and the taken tree is untouched by it.
        let next = try #require(JanssonMemory.claimScratch())
        #expect(next != taken)
        _ = Self.withBytes(#"{"id":2,"pad":"\#(big)"}"#) { JanssonMemory.parse($0, into: next) }
        JanssonMemory.releaseScratch()
        #expect(JSONRef(tree)["id"]?.integer == 1)
        #expect(ops.element(at: 0).string?.count == big.count)
        #expect(JanssonMemory.takeScratch(holding: ops.raw) == nil, "not claimed: nothing to take")
        cja_arena_destroy(taken)
    }

    /// Requests larger than the arena's 64 KiB chunk between small ones, and lines jansson refuses, are answered
    /// as themselves: nothing of one request's tree is left in the next.
    @Test func requestsOfEverySizeAreAnsweredAsThemselves() {
        let connection = Engine().connect()
        _ = connection.handle(line: #"{"id":0,"op":"hello","protocol":1}"#)
        for round in 1...50 {
            let pad = String(repeating: "x", count: round % 5 == 0 ? 300_000 : round)
            let answer = connection.handle(line: #"{"id":\#(round),"op":"ping","pad":"\#(pad)"}"#)
            #expect(answer == [#"{"id":\#(round),"ok":true,"result":{}}"#], "round \(round)")
            let refused = connection.handle(line: #"{"id":\#(round),"op":"#)
            #expect(refused.count == 1 && refused[0].contains("bad_json"), "round \(round)")
        }
    }

    /// Arenas give their 64 KiB chunks back to a cache the next arenas take from, so that a read parsed ahead does
    /// not fault its megabytes of trees in again from the kernel; the cache keeps at most 64 chunks.
    ///
    /// Other tests parse at the same time, so only what holds under any interleaving is asserted: the count of
    /// chunks taken from the cache (which only grows, whoever takes them) grows by a parse after arenas were
    /// dropped (the next arena takes their chunks, or another test's took them first), and the cache never holds
    /// more than its bound. How many it holds at a given moment is not asserted: another test may just have
    /// taken them all (seen under load: `cachedChunks` 0 right after ten arenas were dropped).
    @Test func arenasReuseTheChunksOfEarlierOnesUpToABound() throws {
        // A tree of about 1.3 MB: some twenty chunks.
        let line = Array(
            ("[" + (0..<3_000).map { #"{"x":\#($0),"y":"point \#($0)"}"# }.joined(separator: ",") + "]").utf8
        )
        func parsed(in arena: JSONArena) -> Int? {
            line.withUnsafeBytes { bytes in JanssonMemory.parse(bytes, in: arena).flatMap { JSONRef($0).arrayCount } }
        }
        let before = JSONArena.reusedChunks
        do { #expect(parsed(in: JSONArena()) == 3_000) }
        do { #expect(parsed(in: JSONArena()) == 3_000) }
        #expect(JSONArena.reusedChunks - before >= 3)

        // Ten at once hold some two hundred chunks; dropped, the cache keeps 64 of them for the next arenas.
        var arenas = (0..<10).map { _ in JSONArena() }
        for arena in arenas { #expect(parsed(in: arena) == 3_000) }
        arenas.removeAll()
        #expect(JSONArena.cachedChunks <= JSONArena.maximumCachedChunks)
        let dropped = JSONArena.reusedChunks
        do { #expect(parsed(in: JSONArena()) == 3_000) }
        #expect(JSONArena.reusedChunks > dropped)
        #expect(JSONArena.cachedChunks <= JSONArena.maximumCachedChunks)
    }
}
