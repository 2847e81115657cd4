extension Converter {
    /// Copies any JSON value, within the depth and size limits.
    @inlinable mutating func mixed(_ source: Source, path: inout PropPath, depth: Int) -> JSONValue? {
        mixedBudget -= 1
        guard mixedBudget >= 0 else {
            if mixedBudget == -1 {
                fail(source, .mixed, path, "the value holds more than \(limits.maxMixedValues) JSON values")
            }
            return nil
        }
        switch source.sourceKind {
        case .null: return .null
        case .bool: return .bool(source.boolValue)
        case .integer: return .int(source.integerValue)
        case .real: return .double(source.realValue)
        case .string: return .string(source.stringValue)
        case .array, .object:
            guard depth <= limits.maxDepth else {
                tooDeep(source, .mixed, path)
                mixedBudget = -2
                return nil
            }
            let count = source.elementCount
            if count > mixedBudget {
                fail(source, .mixed, path, "the value holds more than \(limits.maxMixedValues) JSON values")
                mixedBudget = -2
                return nil
            }
            if source.sourceKind == .array {
                var elements: [JSONValue] = []
                elements.reserveCapacity(count)
                for index in 0..<count {
                    path.push(.index(index))
                    let element = mixed(source.element(at: index), path: &path, depth: depth + 1)
                    path.pop()
                    guard let element else { return nil }
                    elements.append(element)
                }
                return .array(elements)
            }
            var members: [JSONMember] = []
            members.reserveCapacity(count)
            var failed = false
            source.forEachSourceMember { name, value in
                guard !failed else { return }
                path.push(.field(name))
                defer { path.pop() }
                if let member = mixed(value, path: &path, depth: depth + 1) {
                    members.append(JSONMember(name, member))
                } else {
                    failed = true
                }
            }
            return failed ? nil : .object(members)
        }
    }
}
