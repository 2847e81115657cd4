import PropStore

extension Session {
    /// A prop and the value it is to take.
    typealias PropChange = (prop: ComponentType.PropDescriptor, value: PropValue)

    /// Checks every prop of `props` against the component into `converted`; all bad props are reported
    /// together (each with the path inside its value) and nothing is converted then.
    func convert(
        _ props: JSONRef,
        for type: ComponentType,
        tag: Int,
        op: StaticString,
        into converted: inout [PropChange]
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
            if let typed = Session.convertScalar(value, to: prop.type) {
                converted.append((prop, typed))
                return
            }
            if value.isNull {
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
            let first = details[0].path == details[0].prop ? details[0].message : "\(details[0].path): \(details[0].message)"
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

    /// Applies converted props to a view, writing the names of those whose value changed into `result` as a
    /// comma-separated list of JSON strings.
    func apply(_ converted: [PropChange], to view: ViewProxy) {
        var first = true
        for (prop, value) in converted {
            if undo.isActive {
                let neededRender = view.needsRender
                guard let old = view.replaceValue(value, of: prop) else { continue }
                undo.note(view, neededRender: neededRender)
                undo.record(prop: prop, of: view, old: old)
            } else {
                guard view.setValue(value, of: prop) else { continue }
            }
            if first {
                first = false
            } else {
                scratch.result.comma()
            }
            scratch.result.string(prop.name)
        }
    }

    func update(_ request: Request) throws(BridgeError) {
        let tag = try request.tag()
        guard let props = try request.object("props", required: true) else { return }
        let view = try view(tag, op: "update")
        var converted = scratch.takeConverted()
        defer { scratch.giveBack(converted: &converted) }
        try convert(props, for: view.type, tag: tag, op: "update", into: &converted)
        scratch.result.raw(#"{"changed":["#)
        let before = watch.isObserved ? converted.map { view.value(of: $0.prop) } : nil
        apply(converted, to: view)
        if let before { observeUpdated(view, props: converted.map(\.prop), before: before) }
        scratch.result.raw("]}")
    }
}
