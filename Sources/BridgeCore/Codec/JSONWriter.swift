import PropStore

/// Appends compact JSON to a byte buffer: the engine's output path, without building a tree.
///
/// Strings are written byte-exact: only `"`, `\` and control characters below U+0020 are escaped,
/// as jansson's own encoder does.
public struct JSONWriter {
    public var bytes: [UInt8]

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inlinable
    public mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inlinable
    public mutating func raw(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    /// Writes `"key":`.
    @inlinable
    public mutating func key(_ key: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            var start = 0
            for i in 0..<utf8.count {
                let byte = utf8[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[start..<i]))
                start = i + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[start...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    public mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[count] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            while count > 0 {
                count -= 1
                bytes.append(digits[count])
            }
        }
    }

    /// A number; integral values keep a `.0` so that they read back as reals. Non-finite values are `null`.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return raw("null") }
        bytes.append(contentsOf: value.description.utf8)
    }

    public mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    public mutating func null() { raw("null") }

    public mutating func comma() { bytes.append(UInt8(ascii: ",")) }

    public mutating func propValue(_ value: PropValue) {
        switch value {
        case .int(let i): int(i)
        case .double(let d): double(d)
        case .bool(let b): bool(b)
        case .string(let s): string(s)
        case .color(let c): string(c.description)
        }
    }

    /// A received value echoed back (the `got` of an error detail).
    public mutating func rawValue(_ value: RawValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(Int(i))
        case .double(let d): double(d)
        case .string(let s): string(s)
        case .array(let json), .object(let json): bytes.append(contentsOf: json.utf8)
        }
    }

    public mutating func payload(_ payload: EventPayload) {
        object(payload.fields, key: \.name) { $0.propValue($1.value) }
    }

    /// Appends to `out` what `body` writes, without copying `out`.
    @inlinable
    public static func append(to out: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        var w = JSONWriter(capacity: 0)
        swap(&w.bytes, &out)
        body(&w)
        swap(&w.bytes, &out)
    }

    /// Writes `[…]`: each element by `element`, separated by commas.
    @inlinable
    public mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { comma() }
            first = false
            element(&self, item)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `{…}`: a member `"key":value` per element, the value by `value`.
    @inlinable
    public mutating func object<S: Sequence>(
        _ items: S,
        key: (S.Element) -> String,
        _ value: (inout JSONWriter, S.Element) -> Void
    ) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for item in items {
            if !first { comma() }
            first = false
            string(key(item))
            bytes.append(UInt8(ascii: ":"))
            value(&self, item)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func stringArray<S: Sequence<String>>(_ values: S) {
        array(values) { $0.string($1) }
    }

    /// The tags of views, `[1,2,3]`.
    public mutating func tagArray<S: Sequence<ViewProxy>>(_ views: S) {
        array(views) { $0.int($1.tag) }
    }
}

extension JSONWriter {
    /// Writes `{"tag":…,"component":…,"props":{every prop}` of a view, leaving the object open.
    mutating func viewHead(_ view: ViewProxy) {
        raw(#"{"tag":"#)
        int(view.tag)
        raw(#","component":"#)
        string(view.type.name)
        raw(#","props":"#)
        object(view.type.props, key: \.name) { $0.propValue(view.value(of: $1)) }
    }

    /// Runs `handle` on the bytes of `line` and splits the frames it wrote (each ending in a newline) into
    /// strings, for tests and tools.
    static func frames(
        answering line: String,
        _ handle: (UnsafeRawBufferPointer, inout [UInt8]) -> Session.LineKind
    ) -> [String] {
        var out: [UInt8] = []
        var line = line
        line.withUTF8 { _ = handle(UnsafeRawBufferPointer($0), &out) }
        // Split on bytes: "\r\n" inside a string would be one Character.
        return out.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }
}
