extension Converter {
    /// An `object`: its declared fields converted, absent optional ones at their defaults; unknown fields and
    /// missing required ones are problems.
    @inlinable mutating func object(
        _ source: Source,
        fields: [PropField],
        type: PropType,
        path: inout PropPath,
        depth: Int
    ) -> PropValue? {
        guard source.sourceKind == .object else {
            fail(source, type, path)
            return nil
        }
        guard depth <= limits.maxDepth else {
            tooDeep(source, type, path)
            return nil
        }
        var values = [PropValue?](repeating: nil, count: fields.count)
        let before = issues.total
        source.forEachSourceMember { name, value in
            path.push(.field(name))
            defer { path.pop() }
            guard let index = fields.firstIndex(where: { $0.name == name }) else {
                let names = fields.map(\.name).joined(separator: ", ")
                fail(value, type, path, "unknown field '\(name)'; the fields are \(names)")
                return
            }
            let field = fields[index]
            if value.sourceKind == .null {
                values[index] = field.defaultValue
                return
            }
            values[index] = convert(value, as: field.type, path: &path, depth: depth + 1)
        }
        var members: [PropMember] = []
        members.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() {
            if let value = values[index] {
                members.append(PropMember(field.name, value))
            } else if field.isOptional {
                members.append(PropMember(field.name, field.defaultValue))
            } else if source.sourceMember(field.name) == nil {
                path.push(.field(field.name))
                issues.add(
                    PropIssue(
                        path: path.text,
                        expected: field.type.expected,
                        got: .null,
                        message: "missing required field '\(field.name)' (\(field.type.expected))"
                    )
                )
                path.pop()
            }
        }
        return issues.total == before ? .object(members) : nil
    }
}
