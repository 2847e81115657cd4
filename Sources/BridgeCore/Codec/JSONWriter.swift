/// Appends compact JSON to a byte buffer: the engine's output path, without building a tree.
///
/// Strings are written byte-exact: only `"`, `\` and control characters below U+0020 are escaped,
/// as jansson's own encoder does.
///
/// The bytes are in a buffer of its own, written through a pointer: a frame is a dozen short appends, and
/// `Array.append(contentsOf:)` costs several times a `memcpy` behind a capacity check for each. A writer is not
/// copyable, so it owns its buffer alone.
///
/// This file is the JSON codec alone; what the engine's values look like in JSON is beside it:
/// `JSONWriter+Props.swift` (prop values, types, payloads) and `JSONWriter+Views.swift` (a view, its tree, its log).
public struct JSONWriter: ~Copyable {
    /// `count` bytes written at `start`, room for `capacity`.
    private var start: UnsafeMutablePointer<UInt8>
    public private(set) var count = 0
    public private(set) var capacity: Int

    public init(capacity: Int = 256) {
        self.capacity = Swift.max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// The bytes written so far (a copy).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    public var isEmpty: Bool { count == 0 }

    /// Calls `body` with the bytes written so far.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// Appends the bytes written so far to `out`.
    public func write(to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeRawBufferPointer(start: start, count: count))
    }

    /// Forgets what was written, keeping the buffer.
    public mutating func removeAll() { count = 0 }

    /// Trades buffers with `other`: each then holds what the other had written.
    public mutating func exchange(with other: inout JSONWriter) {
        Swift.swap(&start, &other.start)
        Swift.swap(&count, &other.count)
        Swift.swap(&capacity, &other.capacity)
    }

    /// Where the next `count` bytes go; ``advance(by:)`` once they are written.
    @inline(__always)
    private mutating func room(_ needed: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(capacity - count < needed) { grow(by: needed) }
        return start + count
    }

    /// Room for `additional` more bytes, doubling.
    private mutating func grow(by additional: Int) {
        let capacity = Swift.max(self.capacity * 2, count + additional)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        moved.update(from: start, count: count)
        start.deallocate()
        start = moved
        self.capacity = capacity
    }

    @inline(__always)
    private mutating func advance(by written: Int) { count += written }

    @inline(__always)
    public mutating func byte(_ byte: UInt8) {
        room(1).pointee = byte
        advance(by: 1)
    }

    public mutating func raw(_ text: StaticString) {
        raw(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(room(bytes.count)).copyMemory(from: base, byteCount: bytes.count)
        advance(by: bytes.count)
    }

    public mutating func raw(_ other: [UInt8]) { other.withUnsafeBytes { raw($0) } }

    public mutating func raw(_ other: ArraySlice<UInt8>) { other.withUnsafeBytes { raw($0) } }

    /// Writes `"key":`.
    public mutating func key(_ key: StaticString) {
        byte(UInt8(ascii: "\""))
        raw(key)
        byte(UInt8(ascii: "\""))
        byte(UInt8(ascii: ":"))
    }

    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            byte(UInt8(ascii: "\""))
            var start = 0
            for i in 0..<utf8.count {
                let byte = utf8[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                raw(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[start..<i]))
                start = i + 1
                self.byte(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): self.byte(byte)
                case 0x0A: self.byte(UInt8(ascii: "n"))
                case 0x0D: self.byte(UInt8(ascii: "r"))
                case 0x09: self.byte(UInt8(ascii: "t"))
                case 0x08: self.byte(UInt8(ascii: "b"))
                case 0x0C: self.byte(UInt8(ascii: "f"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    raw("u00")
                    self.byte(hex.utf8Start[Int(byte >> 4)])
                    self.byte(hex.utf8Start[Int(byte & 0xF)])
                }
            }
            raw(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[start...]))
            byte(UInt8(ascii: "\""))
        }
    }

    public mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {
            byte(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        // At most 19 digits and a sign, written from the end.
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let length = digits + (value < 0 ? 1 : 0)
        let start = room(length)
        var end = start + length
        repeat {
            end -= 1
            end.pointee = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if value < 0 { start.pointee = UInt8(ascii: "-") }
        advance(by: length)
    }

    /// A number; integral values keep a `.0` so that they read back as reals. Non-finite values are `null`.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return raw("null") }
        var text = value.description
        text.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    public mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    public mutating func null() { raw("null") }

    public mutating func comma() { byte(UInt8(ascii: ",")) }

    /// A 32-bit float as the shortest decimal that reads back as the same float (`0.1`).
    public mutating func float(_ value: Float) {
        guard value.isFinite else { return raw("null") }
        var text = value.description
        text.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    /// Appends to `out` what `body` writes (written here first, then copied once).
    public static func append(to out: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        var w = JSONWriter(capacity: 256)
        body(&w)
        w.write(to: &out)
    }

    /// Writes `[…]`: each element by `element`, separated by commas.
    public mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        byte(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { comma() }
            first = false
            element(&self, item)
        }
        byte(UInt8(ascii: "]"))
    }

    /// Writes `{…}`: a member `"key":value` per element, the value by `value`.
    public mutating func object<S: Sequence>(
        _ items: S,
        key: (S.Element) -> String,
        _ value: (inout JSONWriter, S.Element) -> Void
    ) {
        byte(UInt8(ascii: "{"))
        var first = true
        for item in items {
            if !first { comma() }
            first = false
            string(key(item))
            byte(UInt8(ascii: ":"))
            value(&self, item)
        }
        byte(UInt8(ascii: "}"))
    }

    public mutating func stringArray<S: Sequence<String>>(_ values: S) {
        array(values) { $0.string($1) }
    }
}

extension JSONWriter {
    /// Runs `handle` on the bytes of `line` and splits the frames it wrote (each ending in a newline) into
    /// strings, for tests and tools.
    static func frames(
        answering line: String,
        _ handle: (UnsafeRawBufferPointer, inout [UInt8]) -> RequestLine.Kind
    ) -> [String] {
        var out: [UInt8] = []
        var line = line
        line.withUTF8 { _ = handle(UnsafeRawBufferPointer($0), &out) }
        // Split on bytes: "\r\n" inside a string would be one Character.
        return out.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }
}
