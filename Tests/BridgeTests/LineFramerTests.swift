import NIOCore
import Testing

@testable import BridgeServer

/// ``LineFramer`` on its own: the lines it hands out do not depend on how the bytes were cut into reads.
@Suite struct LineFramerTests {
    /// What the framer reported, as text: a line, or `<too large>`.
    static let tooLarge = "<too large>"

    /// Feeds `chunks` one read each and returns every frame, in order.
    static func frames(of chunks: [ArraySlice<UInt8>], limit: Int) -> [String] {
        var framer = LineFramer(maxFrameBytes: limit)
        var found: [String] = []
        for chunk in chunks {
            framer.frame(ByteBuffer(bytes: chunk)) { frame in
                found.append(text(of: frame))
                return true
            }
        }
        return found
    }

    static func text(of frame: LineFramer.Frame) -> String {
        switch frame {
        case .line(let bytes, _): String(decoding: bytes, as: UTF8.self)
        case .tooLarge: tooLarge
        }
    }

    /// What the frames of `text` must be: each complete line, or `<too large>` for one over `limit`; an
    /// unfinished last line is not a frame unless it is already too long.
    static func expected(_ text: String, limit: Int) -> [String] {
        // Bytes, not characters: "\r\n" is one `Character`.
        var lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
        let last = lines.removeLast()
        var frames = lines.map { $0.count > limit ? tooLarge : String(decoding: $0, as: UTF8.self) }
        if last.count > limit { frames.append(tooLarge) }
        return frames
    }

    /// Cuts `text` into reads of `size` bytes.
    static func chunks(_ text: String, size: Int) -> [ArraySlice<UInt8>] {
        let bytes = Array(text.utf8)
        return stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let limit: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "requests", text: #"{"id":1,"op":"ping"}"# + "\n" + #"{"id":2,"op":"ping"}"# + "\n", limit: 64),
        Case(name: "blank lines and CRLF", text: "\n\na\r\n\nbc\n", limit: 8),
        Case(name: "an unfinished last line", text: "one\ntwo\nthr", limit: 8),
        Case(name: "a line of exactly the limit", text: "12345678\nok\n", limit: 8),
        Case(name: "a line one byte over the limit", text: "123456789\nok\n", limit: 8),
        Case(name: "long lines back to back", text: "123456789\n123456789abcdef\n12345678\n", limit: 8),
        Case(name: "an unfinished line over the limit", text: "ok\n123456789abc", limit: 8),
        Case(name: "a limit of zero", text: "\nx\n\n", limit: 0),
        Case(name: "multi-byte text", text: "ünïcödé\n日本語\n", limit: 16),
    ]

    static let chunkSizes = [1, 2, 3, 5, 8, 9, 13, 64, 1000]

    @Test(arguments: cases, chunkSizes)
    func framesDoNotDependOnTheReads(example: Case, chunkSize: Int) {
        let found = Self.frames(of: Self.chunks(example.text, size: chunkSize), limit: example.limit)
        #expect(found == Self.expected(example.text, limit: example.limit))
    }

    /// Every case cut in two reads at every byte position.
    @Test(arguments: cases)
    func everySplitPosition(example: Case) {
        let bytes = Array(example.text.utf8)
        let expected = Self.expected(example.text, limit: example.limit)
        for position in 0...bytes.count {
            var framer = LineFramer(maxFrameBytes: example.limit)
            var found: [String] = []
            for part in [bytes[..<position], bytes[position...]] {
                framer.frame(ByteBuffer(bytes: part)) { frame in
                    found.append(Self.text(of: frame))
                    return true
                }
            }
            #expect(found == expected, "split at \(position)")
        }
    }

    /// A line of exactly the limit, and one byte over it, spread over reads of every size; the next line is
    /// framed either way.
    @Test(arguments: [0, 1], 1...12)
    func theLimitAcrossReads(over: Int, chunkSize: Int) {
        let limit = 10
        let long = String(repeating: "x", count: limit + over)
        let found = Self.frames(of: Self.chunks(long + "\nnext\n", size: chunkSize), limit: limit)
        #expect(found == [over == 0 ? long : Self.tooLarge, "next"])
    }

    /// A line over the limit is refused as soon as it is too long, before its newline, and only once.
    @Test func aLongLineIsRefusedBeforeItsNewline() {
        var framer = LineFramer(maxFrameBytes: 4)
        var found: [String] = []
        let record: (LineFramer.Frame) -> Bool = { frame in
            found.append(Self.text(of: frame))
            return true
        }
        framer.frame(ByteBuffer(string: "1234"), record)
        #expect(found == [])
        #expect(framer.keptBytes == 4)
        framer.frame(ByteBuffer(string: "5"), record)
        #expect(found == [Self.tooLarge])
        #expect(framer.keptBytes == 0)
        framer.frame(ByteBuffer(string: String(repeating: "6", count: 100)), record)
        framer.frame(ByteBuffer(string: "7\nok\n"), record)
        #expect(found == [Self.tooLarge, "ok"])
    }

    /// Lines inside one read are handed out where they are in the read buffer: no copy.
    @Test func linesWithinAReadAreNotCopied() {
        var framer = LineFramer(maxFrameBytes: 64)
        let buffer = ByteBuffer(string: "first\nsecond\nthi")
        buffer.withUnsafeReadableBytes { read in
            let range = UInt(bitPattern: read.baseAddress!)..<UInt(bitPattern: read.baseAddress! + read.count)
            var lines = 0
            framer.frame(buffer) { frame in
                guard case .line(let line, storage: .none) = frame else { return true }
                lines += 1
                #expect(range.contains(UInt(bitPattern: line.baseAddress!)))
                return true
            }
            #expect(lines == 2)
        }
        #expect(framer.keptBytes == 3)
        #expect(!framer.hasUnframedBytes)
    }

    /// Stopping after any line keeps the rest, and ``LineFramer/frameKept(_:)`` goes on where it stopped,
    /// with bytes kept in between (``LineFramer/keep(_:)``) after them.
    @Test(arguments: 0...5)
    func stoppingAndGoingOn(stopAfter: Int) {
        let text = "a\nbb\n123456789\nccc\ndddd\n"
        var framer = LineFramer(maxFrameBytes: 8)
        var found: [String] = []
        framer.frame(ByteBuffer(string: text)) { frame in
            found.append(Self.text(of: frame))
            return found.count != stopAfter
        }
        let all = ["a", "bb", Self.tooLarge, "ccc", "dddd"]
        #expect(found == Array(all.prefix(stopAfter == 0 ? all.count : stopAfter)))
        framer.keep(ByteBuffer(string: "e"))
        framer.keep(ByteBuffer(string: "e\nf"))
        #expect(framer.hasUnframedBytes)
        framer.frameKept { frame in
            found.append(Self.text(of: frame))
            return true
        }
        #expect(found == all + ["ee"])
        #expect(!framer.hasUnframedBytes)
        #expect(framer.keptBytes == 1)
        framer.dropIncompleteLine()
        #expect(framer.keptBytes == 0)
    }

    /// Stopping in the middle of a line being skipped: the rest of it is still skipped when framing goes on.
    @Test func stoppingOnALongLineKeepsSkippingIt() {
        var framer = LineFramer(maxFrameBytes: 4)
        var found: [String] = []
        framer.frame(ByteBuffer(string: "123456")) { frame in
            found.append(Self.text(of: frame))
            return false
        }
        framer.keep(ByteBuffer(string: "78\nok\n"))
        framer.frameKept { frame in
            found.append(Self.text(of: frame))
            return true
        }
        #expect(found == [Self.tooLarge, "ok"])
    }

    /// A stop while completing a line cut by the previous read.
    @Test func stoppingOnTheLineThatCompletesAnIncompleteOne() {
        var framer = LineFramer(maxFrameBytes: 16)
        var found: [String] = []
        framer.frame(ByteBuffer(string: "hel")) { _ in true }
        framer.frame(ByteBuffer(string: "lo\nworld\n")) { frame in
            found.append(Self.text(of: frame))
            return false
        }
        #expect(found == ["hello"])
        #expect(framer.hasUnframedBytes)
        framer.frameKept { frame in
            found.append(Self.text(of: frame))
            return true
        }
        #expect(found == ["hello", "world"])
    }
}
