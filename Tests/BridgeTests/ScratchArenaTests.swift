import Testing

@testable import BridgeCore

/// The thread's scratch arena, which holds the tree of the request being handled: one tree at a time, its
/// memory given back after each request, lines of any size.
@Suite struct ScratchArenaTests {
    static func parse(_ text: String, inScratch: Bool) throws -> JSONDocument {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: text.utf8.count, alignment: 1)
        defer { bytes.deallocate() }
        bytes.copyBytes(from: text.utf8)
        return try JSONDocument(parsing: UnsafeRawBufferPointer(bytes), inScratch: inScratch)
    }

    /// While a tree is in the scratch arena, a second parse on the thread does not enter it (it would reset
    /// the first tree when done); once released, the arena is free again.
    @Test func oneTreeAtATime() throws {
        #expect(JanssonMemory.enterScratch())
        let outer = try Self.parse(#"{"id":1}"#, inScratch: true)
        #expect(!JanssonMemory.enterScratch())
        let inner = try Self.parse(#"{"id":2}"#, inScratch: false)
        #expect(inner.root["id"]?.integer == 2)
        #expect(outer.root["id"]?.integer == 1)
        JanssonMemory.releaseScratch()
        #expect(JanssonMemory.enterScratch())
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

