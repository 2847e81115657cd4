import PropStore

/// A value inside a schema document with its JSON path, for reading with errors that say where.
///
/// Valid while the ``JSONDocument`` it was read from lives.
struct SchemaNode {
    let value: JSONRef
    /// `modules.MyModule.components.MyView.props[3]`; empty for the root.
    let path: String
    let file: String

    /// An error at this node.
    func error(_ problem: String) -> SchemaError { SchemaError(file: file, path: path, problem: problem) }

    /// The path of the member `key` of this node.
    func path(of key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The member `key`, or `nil` when it is absent.
    func member(_ key: String) -> SchemaNode? {
        value[key].map { SchemaNode(value: $0, path: path(of: key), file: file) }
    }

    /// The member `key`, which must be there.
    func required(_ key: String) throws(SchemaError) -> SchemaNode {
        guard let node = member(key) else {
            throw SchemaError(file: file, path: path(of: key), problem: "missing (required)")
        }
        return node
    }

    /// The JSON type of the value in messages: `object`, `array`, `string`, `number`, `boolean`, `null`.
    var typeName: String { value.rawValue.typeName }

    /// The value as a string.
    func string() throws(SchemaError) -> String {
        guard let text = value.string else { throw error("expected a string, got \(describedValue)") }
        return text
    }

    /// The value as an object's members, in order.
    func members() throws(SchemaError) -> [(name: String, node: SchemaNode)] {
        guard value.isObject else { throw error("expected an object, got \(describedValue)") }
        var members: [(name: String, node: SchemaNode)] = []
        value.forEachSourceMember { name, member in
            members.append((name: name, node: SchemaNode(value: member, path: path(of: name), file: file)))
        }
        return members
    }

    /// The value as an array's elements.
    func elements() throws(SchemaError) -> [SchemaNode] {
        guard let elements = value.elements else { throw error("expected an array, got \(describedValue)") }
        return elements.enumerated().map { SchemaNode(value: $1, path: path + "[\($0)]", file: file) }
    }

    /// The elements of the array member `key`; none when it is absent or `null`.
    func optionalElements(_ key: String) throws(SchemaError) -> [SchemaNode] {
        guard let node = member(key), !node.value.isNull else { return [] }
        return try node.elements()
    }

    /// The required string member `key`.
    func string(_ key: String) throws(SchemaError) -> String { try required(key).string() }

    /// The boolean member `key`, or `fallback` when it is absent or `null`.
    func bool(_ key: String, default fallback: Bool) throws(SchemaError) -> Bool {
        guard let node = member(key), !node.value.isNull else { return fallback }
        guard node.value.sourceKind == .bool else { throw node.error("expected a boolean, got \(node.describedValue)") }
        return node.value.boolValue
    }

    /// The value quoted for a message: `a string "abc"`, `an object`.
    var describedValue: String {
        switch value.rawValue {
        case .null: "null"
        case .bool(let b): "the boolean \(b)"
        case .int(let i): "the number \(i)"
        case .double(let d): "the number \(d)"
        case .string(let s): "the string \"\(s)\""
        case .array: "an array"
        case .object: "an object"
        case .summary(let s): s
        }
    }
}
