import PropStore

extension Session {
    /// Checks every prop of `props` against the component; all bad props are reported together.
    func convert(
        _ props: JSONRef,
        for type: ComponentType,
        tag: Int,
        op: String
    ) throws(BridgeError) -> [(ComponentType.PropDescriptor, PropValue)] {
        var converted: [(ComponentType.PropDescriptor, PropValue)] = []
        var issues: [BridgeError.Detail] = []
        try props.forEachMember { (name, value) throws(BridgeError) in
            guard let prop = type.prop(named: name) else {
                let known = type.props.map(\.name).joined(separator: ", ")
                issues.append(
                    .init(
                        prop: name,
                        expected: "one of \(known)",
                        got: value.rawValue,
                        message: "\(type.name) has no prop '\(name)'"
                    )
                )
                return
            }
            if value.isNull {
                converted.append((prop, prop.defaultValue))
                return
            }
            let raw = value.rawValue
            switch prop.type.convert(raw) {
            case .success(let typed): converted.append((prop, typed))
            case .failure(let failure):
                issues.append(.init(prop: name, expected: failure.expected, got: raw, message: failure.message))
            }
        }
        if !issues.isEmpty {
            let what = issues.count == 1 ? "invalid prop '\(issues[0].prop!)'" : "\(issues.count) invalid props"
            throw BridgeError(
                .invalidProps,
                "\(op): \(what) for \(type.name) (tag \(tag)): \(issues[0].message)",
                details: issues
            )
        }
        return converted
    }

    /// Applies converted props; returns the names of those whose value changed.
    @discardableResult
    func apply(_ converted: [(ComponentType.PropDescriptor, PropValue)], to view: ViewProxy) -> [String] {
        var changed: [String] = []
        for (prop, value) in converted {
            let old = view.value(of: prop)
            guard old != value else { continue }
            view.setValue(value, of: prop)
            changed.append(prop.name)
            recordUndo { view.setValue(old, of: prop) }
        }
        if !changed.isEmpty { touched.append(view) }
        return changed
    }

    func update(_ request: Request) throws(BridgeError) {
        let tag = try request.tag()
        guard let props = try request.object("props", required: true) else { return }
        let view = try view(tag, op: "update")
        let changed = apply(try convert(props, for: view.type, tag: tag, op: "update"), to: view)
        result.raw(#"{"changed":"#)
        result.stringArray(changed)
        result.raw("}")
    }
}
