import PropStore

/// Reading the fields of a request, with errors that say which op and which field was wrong.
struct Request {
    let op: StaticString
    let json: JSONRef

    /// A required positive-integer tag.
    func tag(_ field: StaticString = "tag") throws(BridgeError) -> Int {
        guard let value = json[field: field] else {
            throw BridgeError(.badRequest, "\(op): missing '\(field)' (a positive integer)")
        }
        return try Request.tag(value, field: field, op: op)
    }

    static func tag(_ value: JSONRef, field: StaticString, op: StaticString) throws(BridgeError) -> Int {
        guard let tag = value.integer, tag > 0 else {
            throw BridgeError(
                .badRequest,
                "\(op): '\(field)' must be a positive integer, got \(value.rawValue.typeName) \(value.compactText)"
            )
        }
        return Int(tag)
    }

    /// An optional positive-integer tag.
    func optionalTag(_ field: StaticString) throws(BridgeError) -> Int? {
        guard let value = json[field: field], !value.isNull else { return nil }
        return try Request.tag(value, field: field, op: op)
    }

    func string(_ field: StaticString) throws(BridgeError) -> String {
        String(decoding: try stringBytes(field), as: UTF8.self)
    }

    /// A required string's UTF-8 bytes, valid while the request's tree is (``string(_:)`` without making a
    /// `String`).
    func stringBytes(_ field: StaticString) throws(BridgeError) -> UnsafeRawBufferPointer {
        guard let value = json[field: field] else {
            throw BridgeError(.badRequest, "\(op): missing '\(field)' (a string)")
        }
        guard let bytes = value.stringBytes else {
            throw BridgeError(.badRequest, "\(op): '\(field)' must be a string, got \(value.compactText)")
        }
        return bytes
    }

    func optionalString(_ field: StaticString) throws(BridgeError) -> String? {
        guard let value = json[field: field], !value.isNull else { return nil }
        guard let string = value.string else {
            throw BridgeError(.badRequest, "\(op): '\(field)' must be a string, got \(value.compactText)")
        }
        return string
    }

    func optionalInt(_ field: StaticString) throws(BridgeError) -> Int? {
        guard let value = json[field: field], !value.isNull else { return nil }
        guard let int = value.integer else {
            throw BridgeError(.badRequest, "\(op): '\(field)' must be an integer, got \(value.compactText)")
        }
        return Int(int)
    }

    func optionalBool(_ field: StaticString) throws(BridgeError) -> Bool? {
        guard let value = json[field: field], !value.isNull else { return nil }
        guard value.kind == .bool else {
            throw BridgeError(.badRequest, "\(op): '\(field)' must be true or false, got \(value.compactText)")
        }
        return value.boolValue
    }

    func object(_ field: StaticString, required: Bool) throws(BridgeError) -> JSONRef? {
        guard let value = json[field: field], !value.isNull else {
            if required { throw BridgeError(.badRequest, "\(op): missing '\(field)' (an object)") }
            return nil
        }
        guard value.isObject else {
            throw BridgeError(.badRequest, "\(op): '\(field)' must be an object, got \(value.compactText)")
        }
        return value
    }

    func array(_ field: StaticString, required: Bool) throws(BridgeError) -> [JSONRef]? {
        guard let value = json[field: field], !value.isNull else {
            if required { throw BridgeError(.badRequest, "\(op): missing '\(field)' (an array)") }
            return nil
        }
        guard let elements = value.elements else {
            throw BridgeError(.badRequest, "\(op): '\(field)' must be an array, got \(value.compactText)")
        }
        return elements
    }
}
