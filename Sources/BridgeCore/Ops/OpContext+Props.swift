import PropStore

extension OpContext {
    /// Checks every prop of `props` against the component into `converted`; all bad props are reported
    /// together (each with the path inside its value) and nothing is converted then.
    @inline(__always)
    func convert(
        _ props: JSONRef,
        for type: ComponentType,
        tag: Int,
        into converted: inout [Session.PropChange]
    ) throws(BridgeError) {
        try OpContext.convert(props, for: type, tag: tag, op: request.op, engine: engine, into: &converted)
    }

    /// ``convert(_:for:tag:into:)`` for `op` (a saved state's `restore` too).
    static func convert(
        _ props: JSONRef,
        for type: ComponentType,
        tag: Int,
        op: StaticString,
        engine: Engine,
        into converted: inout [Session.PropChange]
    ) throws(BridgeError) {
        var issues = PropIssues(limits: engine.configuration.propLimits)
        var owners: [(prop: String?, arg: Int?)] = []
        props.forEachMember { key, value in
            guard let prop = type.prop(named: key) else {
                let name = String(decoding: key, as: UTF8.self)
                let known = type.props.map(\.name).joined(separator: ", ")
                issues.add(
                    PropIssue(
                        path: name,
                        expected: "one of \(known)",
                        got: value.rawValue,
                        message: "\(type.name) has no prop '\(name)'"
                    )
                )
                if owners.count < issues.list.count { owners.append((name, nil)) }
                return
            }
            if let typed = OpContext.convertScalar(value, to: prop.type) {
                converted.append((prop, typed))
                return
            }
            if value.isNull
                || prop.type == .dimension && value.kind == .string
                    && Dimension.isUnreadablePercentage(value.stringValue)
            {
                converted.append((prop, prop.defaultValue))
                return
            }
            var path = PropPath(prop.name)
            if let typed = prop.type.convert(value, path: &path, into: &issues) { converted.append((prop, typed)) }
            while owners.count < issues.list.count { owners.append((prop.name, nil)) }
        }
        if !issues.isEmpty {
            converted.removeAll(keepingCapacity: true)
            let details = BridgeError.Detail.list(issues, owners: owners)
            // A problem at the top of a prop reads as before paths existed: "invalid prop 'count' …: JSON value …".
            let topLevel = details.allSatisfy { $0.more == nil && $0.path == $0.prop }
            let what =
                issues.total == 1
                ? "invalid prop '\(details[0].prop!)'"
                : topLevel ? "\(issues.total) invalid props" : "\(issues.total) problems"
            let first =
                details[0].path == details[0].prop ? details[0].message : "\(details[0].path): \(details[0].message)"
            throw BridgeError(
                .invalidProps,
                "\(op): \(what) for \(type.name) (tag \(tag)): \(first)",
                details: details
            )
        }
    }

    /// The hot path: a scalar of the kind its type takes, converted without the general converter.
    @inline(__always)
    static func convertScalar(_ value: JSONRef, to type: PropType) -> PropValue? {
        switch (type, value.kind) {
        case (.int, .integer): .int(Int(value.integerValue))
        case (.double, .real): .double(value.realValue)
        case (.double, .integer): .double(Double(value.integerValue))
        case (.bool, .bool): .bool(value.boolValue)
        case (.string, .string): .string(value.stringValue)
        default: nil
        }
    }
}
