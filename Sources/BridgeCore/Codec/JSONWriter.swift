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

    /// A 32-bit float as the shortest decimal that reads back as the same float (`0.1`).
    public mutating func float(_ value: Float) {
        guard value.isFinite else { return raw("null") }
        bytes.append(contentsOf: value.description.utf8)
    }

    public mutating func propValue(_ value: PropValue) {
        switch value {
        case .null: null()
        case .int(let i): int(i)
        case .float(let f): float(f)
        case .double(let d): double(d)
        case .bool(let b): bool(b)
        case .string(let s): string(s)
        case .color(let c): string(c.description)
        case .point(let p):
            raw(#"{"x":"#)
            double(p.x)
            raw(#","y":"#)
            double(p.y)
            raw("}")
        case .edgeInsets(let e):
            raw(#"{"top":"#)
            double(e.top)
            raw(#","left":"#)
            double(e.left)
            raw(#","bottom":"#)
            double(e.bottom)
            raw(#","right":"#)
            double(e.right)
            raw("}")
        case .imageSource(let source):
            raw(#"{"uri":"#)
            string(source.uri)
            if let width = source.width {
                raw(#","width":"#)
                double(width)
            }
            if let height = source.height {
                raw(#","height":"#)
                double(height)
            }
            if let scale = source.scale {
                raw(#","scale":"#)
                double(scale)
            }
            for member in source.extra {
                comma()
                string(member.name)
                raw(":")
                jsonValue(member.value)
            }
            raw("}")
        case .dimension(let dimension):
            if case .points(let points) = dimension { double(points) } else { string(dimension.description) }
        case .array(let elements):
            array(elements) { $0.propValue($1) }
        case .object(let members):
            object(members, key: \.name) { $0.propValue($1.value) }
        case .json(let json):
            jsonValue(json)
        }
    }

    /// Any JSON value, members in their order.
    public mutating func jsonValue(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(Int(i))
        case .double(let d): double(d)
        case .string(let s): string(s)
        case .array(let elements): array(elements) { $0.jsonValue($1) }
        case .object(let members): object(members, key: \.name) { $0.jsonValue($1.value) }
        }
    }

    /// A received value echoed back (the `got` of an error detail).
    public mutating func rawValue(_ value: RawValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(Int(i))
        case .double(let d): double(d)
        case .string(let s), .summary(let s): string(s)
        case .array(let json), .object(let json): bytes.append(contentsOf: json.utf8)
        }
    }

    /// The members of a type's description, after its opening brace: `"type":"array","elements":{…}`.
    ///
    /// The whole type is described: enum values, array element types, object fields with their types,
    /// optionality and defaults, so that a client can generate declarations from it.
    public mutating func typeDescription(_ type: PropType) {
        raw(#""type":"#)
        string(type.name)
        switch type {
        case .enumeration(let values):
            raw(#","values":"#)
            stringArray(values)
        case .int32Enumeration(let values):
            raw(#","values":"#)
            array(values) { $0.int(Int($1)) }
        case .array(let element):
            raw(#","elements":{"#)
            typeDescription(element)
            raw("}")
        case .object(let fields):
            raw(#","fields":"#)
            fieldDescriptions(fields)
        default:
            break
        }
    }

    /// `{"name":{"type":…,"optional":…,"default":…},…}`: the fields of an object type or an event payload.
    public mutating func fieldDescriptions(_ fields: [PropField]) {
        object(fields, key: \.name) { w, field in
            w.raw("{")
            w.typeDescription(field.type)
            w.raw(#","optional":"#)
            w.bool(field.isOptional)
            w.raw(#","default":"#)
            w.propValue(field.defaultValue)
            w.raw("}")
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

    /// `,"parent":…,"children":[…]`: where a view is in its tree.
    mutating func viewPlace(_ view: ViewProxy) {
        raw(#","parent":"#)
        if let parent = view.parent { int(parent.tag) } else { null() }
        raw(#","children":"#)
        tagArray(view.children)
    }

    /// `,"render":"…","renders":N`: a view's last render and how many times it has rendered.
    mutating func viewRender(_ view: ViewProxy) {
        raw(#","render":"#)
        string(view.render)
        raw(#","renders":"#)
        int(view.renders)
    }

    /// `[{"name":"scrollTo","args":[0,100,true]},…]`: a view's command log, oldest first.
    mutating func commandLog<S: Sequence<LoggedCommand>>(_ commands: S) {
        array(commands) { w, command in
            w.raw(#"{"name":"#)
            w.string(command.name)
            w.raw(#","args":"#)
            w.array(command.args) { $0.propValue($1) }
            w.raw("}")
        }
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
