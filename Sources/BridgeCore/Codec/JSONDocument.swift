import CJansson
import PropStore

/// A parsed JSON value that owns its jansson tree and releases it when it goes away.
///
/// The only place a `json_t` is created from text; every reader borrows it through ``JSONRef``.
public struct JSONDocument: ~Copyable {
    /// The root value, valid while the document lives.
    public let root: JSONRef
    /// Whether the document releases the tree when it goes away (not a tree in a ``JSONArena``, which the arena
    /// frees all at once).
    private var owned = true

    /// Parses one JSON text: duplicate keys and invalid UTF-8 are refused, `\u0000` in strings is kept.
    ///
    /// With `integersAsReals`, every integer is read as a real and integral reals within the 64-bit range are
    /// turned back into integers: how a text whose integers overflow 64 bits is read (the overflowing ones stay
    /// reals, and conversion refuses them where an integer is wanted).
    public init(parsing bytes: UnsafeRawBufferPointer, integersAsReals: Bool = false) throws(JSONParseError) {
        if integersAsReals {
            let value = try Self.load(bytes, flags: cj_decode_flags_int_as_real())
            Self.restoreIntegers(value)
            self.root = JSONRef(value)
        } else {
            self.root = JSONRef(try Self.load(bytes))
        }
    }

    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let loaded = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try Self.load(UnsafeRawBufferPointer(buffer)) }
        }
        self.root = JSONRef(try loaded.get())
    }

    public init(parsing bytes: [UInt8]) throws(JSONParseError) {
        let loaded = bytes.withUnsafeBytes { raw in Result { () throws(JSONParseError) in try Self.load(raw) } }
        self.root = JSONRef(try loaded.get())
    }

    private static func load(
        _ bytes: UnsafeRawBufferPointer,
        flags: Int = cj_decode_flags()
    ) throws(JSONParseError) -> UnsafeMutablePointer<json_t> {
        var error = json_error_t()
        guard let base = bytes.baseAddress,
            let value = json_loadb(base.assumingMemoryBound(to: CChar.self), bytes.count, flags, &error)
        else {
            if bytes.isEmpty { throw JSONParseError(message: "empty input", column: 0) }
            throw JSONParseError(error)
        }
        return value
    }

    /// Replaces every integral real within the 64-bit range below `root` with an integer, without recursion.
    private static func restoreIntegers(_ root: UnsafeMutablePointer<json_t>) {
        func integer(_ value: UnsafeMutablePointer<json_t>) -> UnsafeMutablePointer<json_t>? {
            guard cj_is_real(value) != 0 else { return nil }
            let d = json_real_value(value)
            guard d.rounded(.towardZero) == d, d >= -9.223_372_036_854_775_808e18, d < 9.223_372_036_854_775_808e18
            else { return nil }
            return cj_integer(Int64(d))
        }
        var stack = [root]
        while let node = stack.popLast() {
            if cj_is_array(node) != 0 {
                for i in 0..<json_array_size(node) {
                    let child = json_array_get(node, i)!
                    if let replacement = integer(child) {
                        json_array_set_new(node, i, replacement)
                    } else {
                        stack.append(child)
                    }
                }
            } else if cj_is_object(node) != 0 {
                var iter = json_object_iter(node)
                while let it = iter {
                    let child = json_object_iter_value(it)!
                    if let replacement = integer(child) {
                        json_object_iter_set_new(node, it, replacement)
                    } else {
                        stack.append(child)
                    }
                    iter = json_object_iter_next(node, it)
                }
            }
        }
    }

    /// A document holding a new reference to `value`.
    public init(retaining value: JSONRef) {
        self.root = JSONRef(cj_incref(value.raw)!)
    }

    private init(adopting value: JSONRef) { self.root = value }

    /// A document for a tree in a ``JSONArena``: valid while the arena lives, never freed node by node.
    init(inArena value: JSONRef) {
        self.root = value
        self.owned = false
    }

    /// Gives up the tree without releasing it: whoever holds the pointer owns it.
    consuming func release() -> UnsafeMutablePointer<json_t> {
        let raw = root.raw
        discard self
        return raw
    }

    /// A deep copy, which can be changed without touching this one.
    public func deepCopy() -> JSONDocument {
        JSONDocument(adopting: JSONRef(json_deep_copy(root.raw)!))
    }

    deinit { if owned { cj_decref(root.raw) } }
}

/// Why jansson did not read a text, in its words, with where.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The 1-based column (byte) where jansson stopped.
    public var column: Int
    /// The 1-based line where jansson stopped (0 when unknown).
    public var line: Int = 0
    public var reason: Reason = .syntax

    /// What kind of refusal: only `.syntax` means the text is not JSON.
    public enum Reason: Sendable {
        /// Not JSON (or not valid UTF-8).
        case syntax
        /// Nested deeper than jansson's limit (2048).
        case tooDeep
        /// A number outside the 64-bit integer or the double range.
        case numberOverflow
        /// An object key containing `\u0000`.
        case nulInKey
        case duplicateKey
        case outOfMemory
    }

    init(message: String, column: Int) {
        self.message = message
        self.column = column
    }

    init(_ error: json_error_t) {
        var error = error
        let text = withUnsafeBytes(of: &error.text) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        self.init(message: text, column: Int(error.column))
        line = Int(error.line)
        let code = cj_error_code(&error)
        switch code {
        case cj_error_stack_overflow(): reason = .tooDeep
        case cj_error_numeric_overflow(): reason = .numberOverflow
        case cj_error_null_byte_in_key(): reason = .nulInKey
        case cj_error_duplicate_key(): reason = .duplicateKey
        case cj_error_out_of_memory(): reason = .outOfMemory
        default: reason = .syntax
        }
    }

    public var description: String { "\(message) at column \(column)" }
}

/// A borrowed jansson value: reading only, valid while its document lives.
///
/// Safety of `@unchecked Sendable`: a `JSONRef` is a raw pointer into a tree owned by a ``JSONDocument``.
/// jansson's reading functions do not mutate a tree (its reference counts are touched only by `json_incref`
/// and `json_decref`, which only ``JSONDocument`` calls), so reads from several threads are safe while the
/// document lives. What is not checked is the lifetime: a `JSONRef` must not outlive its document, which
/// every user in this module keeps by reading it only inside the scope that owns the document (a request is
/// handled inside `Session.withParsed`, a state file inside `loadState`). The `setString`/`setInteger`
/// writers are used only on a private deep copy (`Replayer.normalised`), never on a shared tree.
public struct JSONRef: @unchecked Sendable {
    @usableFromInline let raw: UnsafeMutablePointer<json_t>

    init(_ raw: UnsafeMutablePointer<json_t>) { self.raw = raw }

    public enum Kind: Sendable { case object, array, string, integer, real, bool, null }

    public var kind: Kind {
        switch cj_type(raw) {
        case JSON_OBJECT: .object
        case JSON_ARRAY: .array
        case JSON_STRING: .string
        case JSON_INTEGER: .integer
        case JSON_REAL: .real
        case JSON_TRUE, JSON_FALSE: .bool
        default: .null
        }
    }

    public var isObject: Bool { cj_is_object(raw) != 0 }
    public var isNull: Bool { cj_is_null(raw) != 0 }

    /// The member `key` of an object, or `nil` when absent or not an object.
    public subscript(key: String) -> JSONRef? {
        json_object_get(raw, key).map(JSONRef.init)
    }

    /// The member `key` of an object, looked up without making a Swift string (the hot path).
    public subscript(field key: StaticString) -> JSONRef? {
        key.withUTF8Buffer { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { json_object_getn(raw, $0.baseAddress, $0.count) }
        }.map(JSONRef.init)
    }

    /// The integer value, when this is a JSON integer.
    public var integer: Int64? {
        cj_is_integer(raw) != 0 ? Int64(cj_integer_value(raw)) : nil
    }

    /// The string value, byte-exact (including NUL), when this is a JSON string.
    public var string: String? { stringBytes.map { String(decoding: $0, as: UTF8.self) } }

    /// The UTF-8 bytes of a string, valid while its tree is; `nil` when this is not a string.
    public var stringBytes: UnsafeRawBufferPointer? {
        guard cj_is_string(raw) != 0, let chars = json_string_value(raw) else { return nil }
        return UnsafeRawBufferPointer(start: chars, count: json_string_length(raw))
    }

    /// Whether this is the string `literal` (compared without making a Swift string).
    public func isString(_ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { cj_string_equals(raw, $0.baseAddress, $0.count) != 0 }
        }
    }

    /// The elements of an array, or `nil` when this is not one.
    public var elements: [JSONRef]? {
        guard cj_is_array(raw) != 0 else { return nil }
        let count = json_array_size(raw)
        var result: [JSONRef] = []
        result.reserveCapacity(count)
        for i in 0..<count { result.append(JSONRef(json_array_get(raw, i))) }
        return result
    }

    public var arrayCount: Int? { cj_is_array(raw) != 0 ? json_array_size(raw) : nil }

    /// Calls `body` with each member of an object, in the order they were written.
    public func forEachMember(_ body: (String, JSONRef) throws(BridgeError) -> Void) throws(BridgeError) {
        var iter = json_object_iter(raw)
        while let it = iter {
            let key = String(
                decoding: UnsafeRawBufferPointer(start: json_object_iter_key(it), count: json_object_iter_key_len(it)),
                as: UTF8.self
            )
            try body(key, JSONRef(json_object_iter_value(it)))
            iter = json_object_iter_next(raw, it)
        }
    }

    /// The value for prop conversion.
    public var rawValue: RawValue {
        switch cj_type(raw) {
        case JSON_NULL: .null
        case JSON_TRUE: .bool(true)
        case JSON_FALSE: .bool(false)
        case JSON_INTEGER: .int(Int64(cj_integer_value(raw)))
        case JSON_REAL: .double(json_real_value(raw))
        case JSON_STRING: .string(string ?? "")
        case JSON_ARRAY:
            json_array_size(raw) > 32
                ? .summary("an array of \(json_array_size(raw)) elements") : quotedText(array: true)
        default:
            json_object_size(raw) > 32
                ? .summary("an object of \(json_object_size(raw)) members") : quotedText(array: false)
        }
    }

    /// A small array or object as text, or a summary when its text is long (deep nesting).
    private func quotedText(array: Bool) -> RawValue {
        let text = compactText
        guard text.utf8.count <= 512 else {
            return .summary(
                array ? "an array of \(json_array_size(raw)) elements" : "an object of \(json_object_size(raw)) members"
            )
        }
        return array ? .array(json: text) : .object(json: text)
    }

    /// The value as compact JSON text.
    public var compactText: String {
        guard let text = json_dumps(raw, cj_encode_flags()) else { return "null" }
        defer { free(text) }
        return String(cString: text)
    }

    /// The value as compact JSON text with object keys sorted: equal values give equal text.
    public var canonicalText: String {
        guard let text = json_dumps(raw, cj_encode_flags() | Int(JSON_SORT_KEYS)) else { return "null" }
        defer { free(text) }
        return String(cString: text)
    }

    /// Whether two values are equal as JSON (key order does not matter).
    public func isEqual(to other: JSONRef) -> Bool { json_equal(raw, other.raw) != 0 }

    /// Replaces (or adds) the member `key` of an object with a string. For normalising copies only.
    public func setString(_ key: String, _ value: String) {
        json_object_set_new(raw, key, json_stringn(value, value.utf8.count))
    }

    /// Replaces (or adds) the member `key` of an object with an integer. For normalising copies only.
    public func setInteger(_ key: String, _ value: Int) {
        json_object_set_new(raw, key, cj_integer(Int64(value)))
    }

    /// Removes the member `key` of an object, if it has one. For normalising copies only.
    public func removeMember(_ key: String) {
        json_object_del(raw, key)
    }

    /// The keys of an object, in order.
    public var keys: [String] {
        var keys: [String] = []
        var iter = json_object_iter(raw)
        while let it = iter {
            keys.append(String(cString: json_object_iter_key(it)))
            iter = json_object_iter_next(raw, it)
        }
        return keys
    }
}

extension JSONRef: PropSource {
    public var sourceKind: PropSourceKind {
        switch kind {
        case .object: .object
        case .array: .array
        case .string: .string
        case .integer: .integer
        case .real: .real
        case .bool: .bool
        case .null: .null
        }
    }

    public var boolValue: Bool { cj_is_true(raw) != 0 }
    public var integerValue: Int64 { Int64(cj_integer_value(raw)) }
    public var realValue: Double { json_real_value(raw) }
    public var stringValue: String { string ?? "" }

    public var elementCount: Int {
        cj_is_array(raw) != 0 ? json_array_size(raw) : cj_is_object(raw) != 0 ? json_object_size(raw) : 0
    }

    public func element(at index: Int) -> JSONRef { JSONRef(json_array_get(raw, index)) }

    public func forEachSourceMember(_ body: (String, JSONRef) -> Void) {
        forEachMember { key, value in body(String(decoding: key, as: UTF8.self), value) }
    }

    public func sourceMember(_ name: String) -> JSONRef? { self[name] }

    /// Calls `body` with the UTF-8 bytes of each member's name and its value, in order, without making strings.
    public func forEachMember(_ body: (UnsafeRawBufferPointer, JSONRef) -> Void) {
        var iter = json_object_iter(raw)
        while let it = iter {
            body(
                UnsafeRawBufferPointer(start: json_object_iter_key(it), count: json_object_iter_key_len(it)),
                JSONRef(json_object_iter_value(it))
            )
            iter = json_object_iter_next(raw, it)
        }
    }

    public var quoted: RawValue { rawValue }
}
