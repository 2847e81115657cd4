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
}
