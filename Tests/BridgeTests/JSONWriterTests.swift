import Testing

@testable import BridgeCore

/// The engine's writer on its own: its buffer grows past any capacity without losing a byte, integers and
/// strings come out as jansson reads them back, and a frame is appended to the output once.
@Suite("JSONWriter")
struct JSONWriterTests {
    func text(_ w: borrowing JSONWriter) -> String { String(decoding: w.bytes, as: UTF8.self) }

    @Test(arguments: [0, 1, 16, 17, 255])
    func growsPastItsCapacityKeepingEveryByte(capacity: Int) {
        var w = JSONWriter(capacity: capacity)
        var expected = ""
        for i in 0..<2_000 {
            w.raw(#"{"i":"#)
            w.int(i)
            w.raw("}")
            w.byte(UInt8(ascii: ","))
            expected += #"{"i":\#(i)},"#
        }
        #expect(text(w) == expected)
        #expect(w.count == expected.utf8.count)
        #expect(w.capacity >= w.count)
    }

    @Test(arguments: [
        0, 7, 9, 10, 11, 99, 100, 12_345, -1, -9, -10, -12_345, Int.max, Int.min, Int.max - 1, Int.min + 1,
    ])
    func integersReadBackAsThemselves(value: Int) throws {
        var w = JSONWriter(capacity: 0)
        w.raw("[")
        w.int(value)
        w.raw("]")
        #expect(text(w) == "[\(value)]")
        let document = try JSONDocument(parsing: w.bytes)
        #expect(document.root.elements?.first?.integer == Int64(value))
    }

    @Test func stringsAreEscapedAsJanssonDoes() throws {
        let value = "a\"b\\c\nd\re\tf\u{8}g\u{c}h\u{1}i\u{1f}j é 😀"
        var w = JSONWriter(capacity: 0)
        w.string(value)
        #expect(text(w) == #""a\"b\\c\nd\re\tf\bg\fh\u0001i\u001fj é 😀""#)
        let document = try JSONDocument(parsing: w.bytes)
        #expect(document.root.string == value)
    }

    @Test func removeAllKeepsTheBufferAndWriteAppendsOnce() {
        var w = JSONWriter(capacity: 0)
        for _ in 0..<100 { w.raw("0123456789") }
        let capacity = w.capacity
        w.removeAll()
        #expect(w.count == 0)
        #expect(w.capacity == capacity)
        w.raw(#"{"ok":true}"#)
        var out: [UInt8] = Array("before\n".utf8)
        w.write(to: &out)
        w.write(to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"before\#n{"ok":true}{"ok":true}"#)
    }

    @Test func appendWritesAfterWhatTheOutputHolds() {
        var out: [UInt8] = Array("x".utf8)
        JSONWriter.append(to: &out) { w in
            w.key("k")
            w.bool(true)
            w.comma()
            w.double(1)
            w.comma()
            w.null()
        }
        #expect(String(decoding: out, as: UTF8.self) == #"x"k":true,1.0,null"#)
    }
}
