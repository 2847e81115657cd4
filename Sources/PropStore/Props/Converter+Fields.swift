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
            value[keyPath: shorthand] = source.stringValue
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
            path.push(.field(name))
            defer { path.pop() }
            guard let index = table.index(of: name) else {
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
            switch table.fields[index].storage {
            case .number(let keyPath):
                guard let number = number(member) else { return fail(member, .double, path) }
                value[keyPath: keyPath] = number
            case .optionalNumber(let keyPath):
                guard let number = number(member) else { return fail(member, .double, path) }
                value[keyPath: keyPath] = number
            case .string(let keyPath):
                guard member.sourceKind == .string else { return fail(member, .string, path) }
                value[keyPath: keyPath] = member.stringValue
            }
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
