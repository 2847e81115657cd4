extension Converter {
    /// A value of a struct type described by a ``FieldTable`` (`point`, `edgeInsets`, `imageSource`): its fields
    /// read into the table's `empty` value. An unknown field, a field of another kind and a missing required one
    /// are problems, each with its path.
    @inlinable mutating func fields<Value>(
        _ source: Source,
        _ table: FieldTable<Value>,
        path: inout PropPath,
        depth: Int
    ) -> Value? {
        if source.sourceKind == .string, let shorthand = table.shorthand {
            var value = table.empty
            table.fields[shorthand].set(.string(source.stringValue), in: &value)
            return value
        }
        guard source.sourceKind == .object else {
            fail(source, table.type, path)
            return nil
        }
        var value = table.empty
        var present: UInt64 = 0
        let before = issues.total
        source.forEachSourceMember { name, member in
            // The path gets the field's step only where a problem is reported: a right value costs no path work.
            guard let index = table.index(of: name) else {
                path.push(.field(name))
                defer { path.pop() }
                if let extra = table.extra, table.passThrough.contains(name) {
                    mixedBudget = limits.maxMixedValues
                    if let kept = mixed(member, path: &path, depth: depth + 1) {
                        value[keyPath: extra].append(JSONMember(name, kept))
                    }
                } else {
                    fail(member, table.type, path, table.unknownFieldMessage(name))
                }
                return
            }
            present |= 1 << index
            let kind = table.fields[index].kind
            switch kind {
            case .number:
                if let number = number(member) {
                    table.fields[index].set(.number(number), in: &value)
                    return
                }
            case .string:
                if member.sourceKind == .string {
                    table.fields[index].set(.string(member.stringValue), in: &value)
                    return
                }
            }
            path.push(.field(name))
            fail(member, kind == .number ? .double : .string, path)
            path.pop()
        }
        if table.reportsMissingWithOtherProblems || issues.total == before {
            for (index, field) in table.fields.enumerated() where field.isRequired && present & (1 << index) == 0 {
                path.push(.field(field.name))
                missing(
                    path,
                    expected: field.kind.name,
                    message: "\(table.type.name) needs '\(field.name)' (a \(field.kind.name))"
                )
                path.pop()
            }
        }
        return issues.total == before ? value : nil
    }
}
