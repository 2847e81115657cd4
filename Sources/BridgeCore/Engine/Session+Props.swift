import PropStore

extension Session {
    /// A prop and the value it is to take.
    typealias PropChange = (prop: ComponentType.PropDescriptor, value: PropValue)

    /// Checks every prop of `props` against the component into `converted`; all bad props are reported
    /// together and nothing is converted then.
    func convert(
        _ props: JSONRef,
        for type: ComponentType,
        tag: Int,
        op: StaticString,
        into converted: inout [PropChange]
    ) throws(BridgeError) {
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
            converted.removeAll(keepingCapacity: true)
            let what = issues.count == 1 ? "invalid prop '\(issues[0].prop!)'" : "\(issues.count) invalid props"
            throw BridgeError(
                .invalidProps,
                "\(op): \(what) for \(type.name) (tag \(tag)): \(issues[0].message)",
                details: issues
            )
        }
    }

    /// Applies converted props to a view, writing the names of those whose value changed into `result` as a
    /// comma-separated list of JSON strings.
    func apply(_ converted: [PropChange], to view: ViewProxy) {
        var first = true
        for (prop, value) in converted {
            let old = view.value(of: prop)
            guard old != value else { continue }
            if first {
                noteChange(of: view)
                first = false
            } else {
                result.comma()
            }
            view.setValue(value, of: prop)
            result.string(prop.name)
            if inBatch { recordUndo { view.setValue(old, of: prop) } }
        }
    }

    func update(_ request: Request) throws(BridgeError) {
        let tag = try request.tag()
        guard let props = try request.object("props", required: true) else { return }
        let view = try view(tag, op: "update")
        var converted = takeScratch()
        defer { returnScratch(&converted) }
        try convert(props, for: view.type, tag: tag, op: "update", into: &converted)
        result.raw(#"{"changed":["#)
        apply(converted, to: view)
        result.raw("]}")
    }

    /// The session's reusable array for converted props (so the hot path does not allocate one per frame).
    func takeScratch() -> [PropChange] {
        var scratch: [PropChange] = []
        swap(&scratch, &convertedScratch)
        return scratch
    }

    func returnScratch(_ scratch: inout [PropChange]) {
        scratch.removeAll(keepingCapacity: true)
        swap(&scratch, &convertedScratch)
    }
}
