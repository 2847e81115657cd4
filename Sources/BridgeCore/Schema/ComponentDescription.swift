import PropStore

/// A component rebuilt from its `hello` description, which is complete: prop types with their defaults and
/// optionality, events with bubbling and payload types, commands with typed parameters.
///
/// What recordings and the state file carry, so that a component loaded from a codegen schema replays (and
/// is recognised after a restart) without its schema. The rebuilt component is a described component: its
/// commands change nothing, as those of a schema component.
enum ComponentDescription {
    /// The component `name` from its description `{"props": …, "events": …, "commands": …, "untyped"?: true}`.
    static func component(named name: String, _ node: SchemaNode) throws(SchemaError) -> ComponentType {
        var props: [PropField] = []
        for (propName, prop) in try node.required("props").members() {
            let type = try propType(prop)
            props.append(
                PropField(
                    propName,
                    type,
                    optional: try prop.bool("optional", default: true),
                    default: try CodegenSchema.defaultValue(prop, type: type)
                )
            )
        }
        var events: [EventSpec] = []
        for (eventName, event) in try node.required("events").members() {
            let bubbles = try event.required("bubbles")
            guard bubbles.value.sourceKind == .bool else {
                throw bubbles.error("expected a boolean, got \(bubbles.describedValue)")
            }
            let payload = try event.member("payload").flatMap { node throws(SchemaError) in
                node.value.isNull ? nil : try fields(node)
            }
            events.append(EventSpec(name: eventName, bubbles: bubbles.value.boolValue, payload: payload))
        }
        var commands: [DescribedCommand] = []
        for (commandName, command) in try node.required("commands").members() {
            var params: [CommandParam] = []
            for param in try command.optionalElements("params") {
                params.append(CommandParam(try param.string("name"), try propType(param)))
            }
            commands.append(DescribedCommand(commandName, params: params))
        }
        let untyped = try node.bool("untyped", default: false)
        return ComponentType(described: name, props: props, events: events, commands: commands, untyped: untyped)
    }

    /// The type of a type description: `{"type": "array", "elements": {…}}` and the like.
    static func propType(_ node: SchemaNode) throws(SchemaError) -> PropType {
        let name = try node.string("type")
        if let plain = PropType.named(name) { return plain }
        switch name {
        case "enum": return .enumeration(try CodegenSchema.stringOptions(node.required("values")))
        case "int32Enum": return .int32Enumeration(try CodegenSchema.int32Options(node.required("values")))
        case "array": return .array(try propType(node.required("elements")))
        case "object": return .object(try fields(node.required("fields")))
        default: throw node.member("type")!.error("unknown type '\(name)'")
        }
    }

    /// The fields of an object type or an event payload: `{"name": {"type": …, "optional": …, "default": …}}`.
    static func fields(_ node: SchemaNode) throws(SchemaError) -> [PropField] {
        var fields: [PropField] = []
        for (name, field) in try node.members() {
            let type = try propType(field)
            fields.append(
                PropField(
                    name,
                    type,
                    optional: try field.bool("optional", default: false),
                    default: try CodegenSchema.defaultValue(field, type: type)
                )
            )
        }
        return fields
    }
}
