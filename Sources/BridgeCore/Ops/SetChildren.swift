import CYieldPoint
import PropStore

extension Ops {
    /// `setChildren {tag, children}` → `{children}`: replaces a view's children, in order.
    enum SetChildren: Op {
        static let entry = OpTable.Entry("setChildren")
        static let spec = OpSpec(
            fields: #"{"tag":"integer","children":["integer"]}"#,
            sample: #"{"op":"setChildren","tag":1,"children":[2]}"#,
            result: #"{"children":["integer"]}"#,
        )
        /// Up to this many children, a repeated tag is looked for among those before it (no set).
        static let fewChildren = 8

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let request = context.request
            let parent = try context.view(try request.tag())
            guard let elements = try request.array("children", required: true) else { return nil }
            var children: [ViewProxy] = []
            children.reserveCapacity(elements.count)
            // A few children (most views have one) are checked for repeats in place; more, through a set.
            var seen = elements.count > Self.fewChildren ? Set<Int>(minimumCapacity: elements.count) : nil
            for element in elements {
                cyield_point(1)
                let tag = try Request.tag(element, field: "children", op: "setChildren")
                let repeated: Bool
                if let inserted = seen?.insert(tag).inserted {
                    repeated = !inserted
                } else {
                    repeated = children.contains { $0.tag == tag }
                }
                if repeated { throw BridgeError(.badRequest, "setChildren: tag \(tag) appears twice in 'children'") }
                children.append(try context.view(tag, field: "child"))
            }
            // A child may not be the parent itself or one of its ancestors.
            if let looped = ViewTree.cycle(making: children, childrenOf: parent) {
                throw BridgeError(
                    .cycle,
                    "setChildren: making \(looped.tag) a child of \(parent.tag) would make it its own ancestor"
                )
            }
            context.setChildren(children, of: parent)
            context.result.raw(#"{"children":"#)
            context.result.tagArray(children)
            context.result.raw("}")
            return nil
        }
    }
}
