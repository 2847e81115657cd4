import Testing

@testable import BridgeCore

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

    @Test func swappingGenerationsKeepsTheFramesIntact() {
        var buffer = EventBuffer(limit: 10_000)
        for seq in 1...5000 { buffer.keep(seq: seq, frame: frame(seq)) }
        buffer.forget(through: 3000)
        for seq in 5001...5100 { buffer.keep(seq: seq, frame: frame(seq)) }
        #expect(buffer.count == 2100)
        #expect(buffer.frames.first.map { String(decoding: $0, as: UTF8.self) } == "{\"seq\":3001}\n")
        #expect(text(buffer, after: 5098) == "{\"seq\":5099}\n{\"seq\":5100}\n")
    }

    /// Random keeps and acknowledgements against a plain array of the frames that should be kept, through many
    /// swaps of generations, with a limit that is and one that is never reached.
    @Test(arguments: [1, 7, 100, 1_000_000])
    func agreesWithAPlainListOfFrames(limit: Int) {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D &* UInt64(limit)
        func random(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        var buffer = EventBuffer(limit: limit)
        var model: [Int] = []
        var dropped = 0
        var seq = 0
        for _ in 0..<20_000 {
            if random(4) == 0, let first = model.first {
                let through = first + random(model.count + 2) - 1
                buffer.forget(through: through)
                model.removeAll { $0 <= through }
            } else {
                seq += 1
                buffer.keep(seq: seq, frame: frame(seq))
                model.append(seq)
                if model.count > limit { dropped = model.removeFirst() }
            }
            #expect(buffer.count == model.count)
            #expect(buffer.droppedThrough == dropped)
        }
        #expect(buffer.frames.map { String(decoding: $0, as: UTF8.self) } == model.map { "{\"seq\":\($0)}\n" })
        let after = model.count > 2 ? model[model.count / 2] : 0
        #expect(text(buffer, after: after) == model.filter { $0 > after }.map { "{\"seq\":\($0)}\n" }.joined())
    }
}
