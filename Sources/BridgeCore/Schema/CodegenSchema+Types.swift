import PropStore

/// Type annotations of a codegen schema as prop types.
///
/// One mapping serves props, object fields, event payloads and command parameters, so that every annotation
/// React Native's codegen writes in any of them is understood the same way:
///
/// | annotation | type |
/// |---|---|
/// | `BooleanTypeAnnotation` | `bool` |
/// | `StringTypeAnnotation` | `string` |
/// | `Int32TypeAnnotation`, `ReservedTypeAnnotation` `RootTag` | `int32` |
/// | `FloatTypeAnnotation` | `float` |
/// | `DoubleTypeAnnotation`, `NumberTypeAnnotation` | `double` |
/// | `StringEnumTypeAnnotation`, a union of `StringLiteralTypeAnnotation`s | `enum` |
/// | `Int32EnumTypeAnnotation` | `int32Enum` |
/// | `ReservedPropTypeAnnotation` (or `NativePrimitiveTypeAnnotation`) `ColorPrimitive` | `color` |
/// | … `ImageSourcePrimitive`, `ImageRequestPrimitive` | `imageSource` |
/// | … `PointPrimitive`, `EdgeInsetsPrimitive`, `DimensionPrimitive` | `point`, `edgeInsets`, `dimension` |
/// | `ArrayTypeAnnotation` | `array` of its `elementType` |
/// | `ObjectTypeAnnotation` | `object` of its `properties` |
/// | `MixedTypeAnnotation` | `mixed` |
extension CodegenSchema {
    /// The prop types of `ReservedPropTypeAnnotation` (and the older `NativePrimitiveTypeAnnotation`) names: each
    /// type's ``PropTypeDescriptor/codegenPrimitives``.
    static let reservedPropTypes: [String: PropType] = {
        var types: [String: PropType] = [:]
        for kind in PropType.Kind.allCases {
            guard let type = kind.descriptor.plain else { continue }
            for name in kind.descriptor.codegenPrimitives { types[name] = type }
        }
        return types
    }()

    /// The prop type of the type annotation at `node` (an object with a `type`).
    static func propType(_ node: SchemaNode) throws(SchemaError) -> PropType {
        _ = try node.members()
        let kind = try node.required("type").string()
        switch kind {
        case "BooleanTypeAnnotation": return .bool
        case "StringTypeAnnotation": return .string
        case "Int32TypeAnnotation": return .int32
        case "FloatTypeAnnotation": return .float
        case "DoubleTypeAnnotation", "NumberTypeAnnotation": return .double
        case "MixedTypeAnnotation": return .mixed
        case "StringEnumTypeAnnotation": return .enumeration(try stringOptions(node.required("options")))
        case "Int32EnumTypeAnnotation": return .int32Enumeration(try int32Options(node.required("options")))
        case "StringLiteralTypeAnnotation": return .enumeration([try node.string("value")])
        case "UnionTypeAnnotation":
            let types = try node.required("types")
            var values: [String] = []
            for member in try types.elements() {
                guard try member.string("type") == "StringLiteralTypeAnnotation" else {
                    throw member.error("a union is supported only of StringLiteralTypeAnnotation members")
                }
                values.append(try member.string("value"))
            }
            return .enumeration(try checkedOptions(values, at: types))
        case "ReservedPropTypeAnnotation", "NativePrimitiveTypeAnnotation":
            let name = try node.required("name")
            let primitive = try name.string()
            guard let type = reservedPropTypes[primitive] else {
                let known = reservedPropTypes.keys.sorted().joined(separator: ", ")
                throw name.error("unknown \(kind) '\(primitive)' (known: \(known))")
            }
            return type
        case "ReservedTypeAnnotation":
            let name = try node.required("name")
            guard try name.string() == "RootTag" else {
                throw name.error("unknown ReservedTypeAnnotation '\(try name.string())' (known: RootTag)")
            }
            return .int32
        case "ArrayTypeAnnotation":
            return .array(try propType(node.required("elementType")))
        case "ObjectTypeAnnotation":
            return .object(try fields(node.required("properties"), withDefaults: true))
        default:
            throw node.error("unknown type annotation '\(kind)'")
        }
    }

    /// The fields of an object type from its `properties` (each a `{name, optional, typeAnnotation}`).
    ///
    /// React Native's older schemas spelt a property flat, `{name, optional, type: …}`; that is read too.
    static func fields(_ properties: SchemaNode, withDefaults: Bool) throws(SchemaError) -> [PropField] {
        var fields: [PropField] = []
        for property in try properties.elements() {
            let name = try property.string("name")
            guard !fields.contains(where: { $0.name == name }) else {
                throw property.member("name")!.error("field '\(name)' is declared twice")
            }
            let annotation = try typeAnnotation(of: property)
            let type = try propType(annotation)
            let value = withDefaults ? try defaultValue(annotation, type: type) : .null
            fields.append(
                PropField(name, type, optional: try property.bool("optional", default: false), default: value)
            )
        }
        return fields
    }

    /// The `typeAnnotation` of a named shape, or the shape itself in the older flat spelling.
    static func typeAnnotation(of shape: SchemaNode) throws(SchemaError) -> SchemaNode {
        if let annotation = shape.member("typeAnnotation") { return annotation }
        if shape.member("type") != nil { return shape }
        return try shape.required("typeAnnotation")
    }

    /// The `default` of a type annotation converted to its type; `.null` when absent or `null`.
    static func defaultValue(_ annotation: SchemaNode, type: PropType) throws(SchemaError) -> PropValue {
        guard let node = annotation.member("default"), !node.value.isNull else { return .null }
        var path = PropPath("")
        var issues = PropIssues()
        if let value = type.convert(node.value, path: &path, into: &issues) { return value }
        let issue = issues.list.first!
        let at = issue.path.isEmpty ? "" : " (at \(issue.path))"
        throw node.error("the default is not a valid \(type.name)\(at): \(issue.message)")
    }

    /// The options of a string enum: strings, or `{name}` objects as older schemas wrote them.
    static func stringOptions(_ node: SchemaNode) throws(SchemaError) -> [String] {
        var values: [String] = []
        for option in try node.elements() {
            if option.value.isObject {
                values.append(try option.string("name"))
            } else {
                values.append(try option.string())
            }
        }
        return try checkedOptions(values, at: node)
    }

    static func checkedOptions(_ values: [String], at node: SchemaNode) throws(SchemaError) -> [String] {
        guard !values.isEmpty else { throw node.error("an enum needs at least one option") }
        var seen = Set<String>()
        for value in values where !seen.insert(value).inserted {
            throw node.error("option '\(value)' is listed twice")
        }
        return values
    }

    /// The options of an int32 enum: integers (or `{value}` objects) within the int32 range.
    static func int32Options(_ node: SchemaNode) throws(SchemaError) -> [Int32] {
        var values: [Int32] = []
        for option in try node.elements() {
            let number = option.value.isObject ? try option.required("value") : option
            guard let integer = number.value.integer, let value = Int32(exactly: integer) else {
                throw number.error("expected an int32 option, got \(number.describedValue)")
            }
            guard !values.contains(value) else { throw number.error("option \(value) is listed twice") }
            values.append(value)
        }
        guard !values.isEmpty else { throw node.error("an enum needs at least one option") }
        return values
    }
}
