/// Checks that a line is JSON by RFC 8259's grammar alone, at any depth and without building a tree, and
/// reads the top-level `id` of an object.
///
/// Used only when jansson refused a line: jansson also refuses valid JSON (nesting deeper than 2048, integers
/// beyond 64 bits, `\u0000` in a key, a lone surrogate escape such as `"\ud800"`), and such a line must be
/// answered with the request's own `id` and a code that says what was wrong, never `bad_json`.
struct JSONScanner {
    /// What a valid line's top level was, with its `id` when it is an object with a readable one.
    struct Outline {
        var isObject: Bool
        var id: RequestLine.ID
        /// The first `\uXXXX` escape of a UTF-16 surrogate without its other half (RFC 8259 allows it; jansson
        /// refuses it): where it starts in the line, and its text.
        var loneSurrogate: (offset: Int, escape: String)?
    }

    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The outline of `bytes` when it is one JSON value (with optional surrounding whitespace), else `nil`.
    static func outline(_ bytes: UnsafeRawBufferPointer) -> Outline? {
        var scanner = JSONScanner(bytes)
        return scanner.scan()
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func scan() -> Outline? {
        // Containers open, innermost last: true for an object. Depth costs one bit's worth of memory each.
        var containers: [Bool] = []
        var outline = Outline(isObject: false, id: .none, loneSurrogate: nil)
        skipSpace()
        outline.isObject = current == UInt8(ascii: "{")
        var topLevelKey: (start: Int, end: Int)?
        while true {
            skipSpace()
            // A value.
            guard let byte = current else { return nil }
            let valueStart = position
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                position += 1
                skipSpace()
                containers.append(isObject)
                if current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    containers.removeLast()
                } else {
                    if isObject {
                        guard let key = scanKey(noting: &outline) else { return nil }
                        if containers.count == 1 { topLevelKey = key }
                    }
                    continue
                }
            case UInt8(ascii: "\""):
                guard scanString(noting: &outline) else { return nil }
            case UInt8(ascii: "t"): guard literal("true") else { return nil }
            case UInt8(ascii: "f"): guard literal("false") else { return nil }
            case UInt8(ascii: "n"): guard literal("null") else { return nil }
            default: guard scanNumber() else { return nil }
            }
            // The value of the top-level "id".
            if containers.count == 1, containers[0], let key = topLevelKey, isIDKey(key) {
                outline.id = requestID(valueStart, position)
                topLevelKey = nil
            }
            // After a value: a comma, or the end of containers.
            while true {
                skipSpace()
                guard let last = containers.last else {
                    return current == nil ? outline : nil
                }
                guard let byte = current else { return nil }
                position += 1
                if byte == UInt8(ascii: ",") {
                    if last {
                        skipSpace()
                        guard let key = scanKey(noting: &outline) else { return nil }
                        if containers.count == 1 { topLevelKey = key }
                    }
                    break
                }
                guard byte == (last ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return nil }
                containers.removeLast()
            }
        }
    }

    /// `"key" :`, returning where the key's text is (without quotes).
    private mutating func scanKey(noting outline: inout Outline) -> (start: Int, end: Int)? {
        guard current == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        guard scanString(noting: &outline) else { return nil }
        let end = position - 1
        skipSpace()
        guard current == UInt8(ascii: ":") else { return nil }
        position += 1
        return (start, end)
    }

    private func isIDKey(_ key: (start: Int, end: Int)) -> Bool {
        key.end - key.start == 2 && bytes[key.start] == UInt8(ascii: "i") && bytes[key.start + 1] == UInt8(ascii: "d")
    }

    /// An integer or a plain (escape-free) string id; anything else reads as no id.
    private func requestID(_ start: Int, _ end: Int) -> RequestLine.ID {
        let text = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        if text.first == UInt8(ascii: "\"") {
            let inner = text.dropFirst().dropLast()
            guard !inner.contains(UInt8(ascii: "\\")) else { return .none }
            return .string(String(decoding: inner, as: UTF8.self))
        }
        if let value = Int(String(decoding: text, as: UTF8.self)) { return .int(value) }
        return .none
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for i in 0..<count where bytes[position + i] != word.utf8Start[i] { return false }
        position += count
        return true
    }

    /// A string with valid escapes, no raw control characters and valid UTF-8; notes the first lone surrogate.
    private mutating func scanString(noting outline: inout Outline) -> Bool {
        position += 1
        let start = position
        /// A high surrogate escape just read, waiting for its low half: where it starts.
        var highAt: Int?
        while let byte = current {
            if let high = highAt,
                byte != UInt8(ascii: "\\") || position + 1 >= bytes.count
                    || bytes[position + 1] != UInt8(ascii: "u")
            {
                noteLoneSurrogate(at: high, in: &outline)
                highAt = nil
            }
            switch byte {
            case UInt8(ascii: "\""):
                let text = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return String(validating: text, as: UTF8.self) != nil
            case UInt8(ascii: "\\"):
                position += 1
                guard let escaped = current else { return false }
                if escaped == UInt8(ascii: "u") {
                    var unit: UInt16 = 0
                    for i in 1...4 {
                        guard position + i < bytes.count, let digit = bytes[position + i].hexValue else { return false }
                        unit = unit << 4 | UInt16(digit)
                    }
                    let escapeAt = position - 1
                    position += 5
                    switch unit {
                    case 0xD800...0xDBFF:
                        if let high = highAt { noteLoneSurrogate(at: high, in: &outline) }
                        highAt = escapeAt
                    case 0xDC00...0xDFFF:
                        if highAt == nil { noteLoneSurrogate(at: escapeAt, in: &outline) }
                        highAt = nil
                    default:
                        if let high = highAt { noteLoneSurrogate(at: high, in: &outline) }
                        highAt = nil
                    }
                } else {
                    guard Array(#""\/bfnrt"#.utf8).contains(escaped) else { return false }
                    position += 1
                }
            case 0..<0x20:
                return false
            default:
                position += 1
            }
        }
        return false
    }

    private func noteLoneSurrogate(at offset: Int, in outline: inout Outline) {
        guard outline.loneSurrogate == nil else { return }
        let escape = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 6)]), as: UTF8.self)
        outline.loneSurrogate = (offset, escape)
    }

    private mutating func digits() -> Int {
        let start = position
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        return position - start
    }

    private mutating func scanNumber() -> Bool {
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits() > 0 else { return false }
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { return false }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { return false }
        }
        return true
    }
}

extension UInt8 {
    fileprivate var hexValue: UInt8? {
        switch self {
        case 0x30...0x39: self - 0x30
        case 0x41...0x46: self - 0x41 + 10
        case 0x61...0x66: self - 0x61 + 10
        default: nil
        }
    }
}
