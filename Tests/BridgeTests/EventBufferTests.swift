@testable import BridgeCore
import Testing

/// The resume buffer on its own: what it keeps, forgets, drops and writes again.
@Suite("EventBuffer")
struct EventBufferTests {
    func frame(_ seq: Int) -> ArraySlice<UInt8> { Array("{\"seq\":\(seq)}\n".utf8)[...] }

    func text(_ buffer: EventBuffer, after seq: Int) -> String {
        var out: [UInt8] = []
        buffer.write(after: seq, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func keepsWritesAgainAndForgets() {
        var buffer = EventBuffer(limit: 10)
        for seq in 1...4 { buffer.keep(seq: seq, frame: frame(seq)) }
        #expect(buffer.count == 4)
        #expect(text(buffer, after: 2) == "{\"seq\":3}\n{\"seq\":4}\n")
        buffer.forget(through: 3)
        #expect(buffer.count == 1)
        #expect(buffer.frames.map { String(decoding: $0, as: UTF8.self) } == ["{\"seq\":4}\n"])
        #expect(buffer.droppedThrough == 0)
    }

    @Test func dropsTheOldestPastTheLimitAndRemembersIt() {
        var buffer = EventBuffer(limit: 3)
        for seq in 1...5 { buffer.keep(seq: seq, frame: frame(seq)) }
        #expect(buffer.count == 3)
        #expect(buffer.droppedThrough == 2)
        #expect(text(buffer, after: 0) == "{\"seq\":3}\n{\"seq\":4}\n{\"seq\":5}\n")
    }

    @Test func aZeroLimitKeepsNothing() {
        var buffer = EventBuffer(limit: 0)
        buffer.keep(seq: 1, frame: frame(1))
        #expect(buffer.count == 0)
        #expect(buffer.droppedThrough == 1)
    }

    @Test func compactionKeepsTheFramesIntact() {
        var buffer = EventBuffer(limit: 10_000)
        for seq in 1...5000 { buffer.keep(seq: seq, frame: frame(seq)) }
        buffer.forget(through: 3000)
        for seq in 5001...5100 { buffer.keep(seq: seq, frame: frame(seq)) }
        #expect(buffer.count == 2100)
        #expect(buffer.frames.first.map { String(decoding: $0, as: UTF8.self) } == "{\"seq\":3001}\n")
        #expect(text(buffer, after: 5098) == "{\"seq\":5099}\n{\"seq\":5100}\n")
    }
}
