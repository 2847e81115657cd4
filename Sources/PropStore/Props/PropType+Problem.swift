extension PropType {
    /// Why `value` is not a value of this type (e.g. a default that is not among an enum's values), or `nil`
    /// when it is one. `null` is always accepted: it is "no value".
    public func problem(with value: PropValue) -> String? {
        switch (self, value) {
        case (_, .null): return nil
        case (.int, .int):
            return nil
        case (.int32, .int(let i)):
            return Int32(exactly: i) == nil ? "\(i) is outside the int32 range" : nil
        case (.int, .double(let d)) where d.isFinite && d.rounded() == d && Int64(exactly: d) == nil:
            return "\(d) is outside the int range"
        case (.float, .float(let f)):
            return f.isFinite ? nil : "\(f) is not a finite float"
        case (.enumeration(let values), .string(let s)):
            return values.contains(s) ? nil : "'\(s)' is not one of \(values.joined(separator: ", "))"
        case (.int32Enumeration(let values), .int(let i)):
            return Int32(exactly: i).map(values.contains) == true
                ? nil : "\(i) is not one of \(values.map(String.init).joined(separator: ", "))"
        case (.array(let element), .array(let elements)):
            for (index, value) in elements.enumerated() {
                if let problem = element.problem(with: value) { return "[\(index)]: \(problem)" }
            }
            return nil
        case (.object(let fields), .object(let members)):
            for member in members {
                guard let field = fields.first(where: { $0.name == member.name }) else {
                    return "unknown field '\(member.name)'"
                }
                if let problem = field.type.problem(with: member.value) { return "\(member.name): \(problem)" }
            }
            for field in fields {
                if let problem = field.type.problem(with: field.defaultValue) {
                    return "the default of field '\(field.name)': \(problem)"
                }
            }
            return nil
        case _ where value.kind == kind:
            // Any other value of the type's own case (a point for `point`, JSON for `mixed`) is one of it.
            return nil
        default:
            return "a value of type \(value.kindName) is not of type \(name)"
        }
    }
}
