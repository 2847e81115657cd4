import PropStore

/// The encoders of PropStore's values: a prop's value, a struct type's fields, a JSON value, a received value
/// echoed back, a type's description, an event payload. (PropStore knows no JSON text: they are written here,
/// beside the codec.)
extension JSONWriter {
    public mutating func propValue(_ value: PropValue) {
        switch value {
        case .null: null()
        case .int(let i): int(i)
        case .float(let f): float(f)
        case .double(let d): double(d)
        case .bool(let b): bool(b)
        case .string(let s): string(s)
        case .color(let c): string(c.description)
        case .point(let p): fields(p, Point.fields)
        case .edgeInsets(let e): fields(e, EdgeInsets.fields)
        case .imageSource(let source): fields(source, ImageSource.fields)
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

    /// A value of a struct prop type as the object its ``FieldTable`` describes: the fields present, in the
    /// table's order, then the pass-through fields as given.
    public mutating func fields<Value>(_ value: Value, _ table: FieldTable<Value>) {
        byte(UInt8(ascii: "{"))
        var first = true
        for field in table.fields {
            guard let fieldValue = field.value(in: value) else { continue }
            if !first { comma() }
            first = false
            string(field.name)
            byte(UInt8(ascii: ":"))
            switch fieldValue {
            case .number(let number): double(number)
            case .string(let text): string(text)
            }
        }
        for member in table.extraMembers(of: value) {
            if !first { comma() }
            first = false
            string(member.name)
            byte(UInt8(ascii: ":"))
            jsonValue(member.value)
        }
        byte(UInt8(ascii: "}"))
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
        case .array(var json), .object(var json): json.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
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

    /// hello's `propTypes`: each kind of prop type's descriptor, for clients, by name (``PropTypeDescriptor``):
    /// `{"int":{"nativeType":"NSInteger","deepDiffs":false,"typeScript":"number","reportedTypeScript":"number"},…}`;
    /// `nativeArrayType` and `note` where the type has one. Written once.
    public static let propTypeDescriptors: [UInt8] = {
        var w = JSONWriter()
        w.object(PropType.Kind.allCases.map(\.descriptor), key: \.name) { w, descriptor in
            w.raw(#"{"nativeType":"#)
            w.string(descriptor.nativeType)
            if let arrayType = descriptor.nativeArrayType {
                w.raw(#","nativeArrayType":"#)
                w.string(arrayType)
            }
            w.raw(#","deepDiffs":"#)
            w.bool(descriptor.deepDiffs)
            w.raw(#","typeScript":"#)
            w.string(descriptor.typeScript)
            w.raw(#","reportedTypeScript":"#)
            w.string(descriptor.reportedTypeScript)
            if let note = descriptor.note {
                w.raw(#","note":"#)
                w.string(note)
            }
            w.raw("}")
        }
        return w.bytes
    }()

    public mutating func payload(_ payload: EventPayload) {
        object(payload.fields, key: \.name) { $0.propValue($1.value) }
    }
}
