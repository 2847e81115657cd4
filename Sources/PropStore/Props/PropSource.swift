/// A JSON value to convert, read in place: PropStore knows nothing of JSON text, so the codec (BridgeCore's
/// jansson reader) conforms its values to this, and conversion walks them without building a copy.
public protocol PropSource {
    var sourceKind: PropSourceKind { get }
    /// The value of a `.bool`.
    var boolValue: Bool { get }
    /// The value of an `.integer`.
    var integerValue: Int64 { get }
    /// The value of a `.real`.
    var realValue: Double { get }
    /// The value of a `.string`.
    var stringValue: String { get }
    /// How many elements an array has, or members an object has.
    var elementCount: Int { get }
    /// The element `index` of an array.
    func element(at index: Int) -> Self
    /// Calls `body` with each member of an object, in the order they were written.
    func forEachSourceMember(_ body: (String, Self) -> Void)
    /// The member `name` of an object.
    func sourceMember(_ name: String) -> Self?
    /// The value as an error detail quotes it (`got`): scalars as they are, large composites summarised.
    var quoted: RawValue { get }
}

/// The JSON kinds a ``PropSource`` can be.
public enum PropSourceKind: Sendable {
    case null, bool, integer, real, string, array, object
}

extension JSONValue: PropSource {
    public var sourceKind: PropSourceKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .int: .integer
        case .double: .real
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    public var boolValue: Bool { if case .bool(let b) = self { b } else { false } }
    public var integerValue: Int64 { if case .int(let i) = self { i } else { 0 } }
    public var realValue: Double { if case .double(let d) = self { d } else { 0 } }
    public var stringValue: String { if case .string(let s) = self { s } else { "" } }

    public var elementCount: Int {
        switch self {
        case .array(let elements): elements.count
        case .object(let members): members.count
        default: 0
        }
    }

    public func element(at index: Int) -> JSONValue {
        if case .array(let elements) = self { elements[index] } else { .null }
    }

    public func forEachSourceMember(_ body: (String, JSONValue) -> Void) {
        if case .object(let members) = self { for member in members { body(member.name, member.value) } }
    }

    public func sourceMember(_ name: String) -> JSONValue? {
        if case .object(let members) = self { members.first { $0.name == name }?.value } else { nil }
    }

    public var quoted: RawValue {
        switch self {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .array(let elements): .summary("an array of \(elements.count) elements")
        case .object(let members): .summary("an object of \(members.count) members")
        }
    }
}
