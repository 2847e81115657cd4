import BridgeCore
import Foundation
import PropStore
import Testing

/// The schema corpus in `Tests/Schemas`: files that load, and broken ones with their exact errors.
enum SchemaCorpus {
    static let directory = DaemonHarness.packageRoot + "/Tests/Schemas"

    static func path(_ name: String) -> String { directory + "/" + name }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: path(name)), "cannot read \(name)"))
    }

    /// The registry with the built-ins and the components of `names`, loaded in order.
    static func load(_ names: String...) throws -> CodegenSchema {
        var schemas = CodegenSchema()
        for name in names { try schemas.load(try bytes(name), file: name) }
        return schemas
    }

    /// Every `*.json` file directly in `Tests/Schemas`: each loads on its own.
    static var goodFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".json") }
            .sorted()
    }
}

@Suite("Codegen schemas")
struct CodegenSchemaTests {
    @Test(arguments: SchemaCorpus.goodFiles)
    func everyGoodSchemaLoads(file: String) throws {
        let schemas = try SchemaCorpus.load(file)
        #expect(!schemas.loadedComponents.isEmpty)
        for name in schemas.loadedComponents { #expect(schemas.registry.component(named: name) != nil) }
    }

    @Test func everyAnnotationMapsToItsType() throws {
        let gallery = try #require(
            try SchemaCorpus.load("all-annotations.json").registry.component(named: "AnnotationGallery")
        )
        let own = gallery.props.dropFirst(CodegenSchema.coreViewProps.count)
        let types = Dictionary(uniqueKeysWithValues: own.map { ($0.name, $0.type) })
        #expect(types["enabled"] == .bool)
        #expect(types["label"] == .string)
        #expect(types["count"] == .int32)
        #expect(types["ratio"] == .float)
        #expect(types["precise"] == .double)
        #expect(types["size"] == .enumeration(["small", "medium", "large"]))
        #expect(types["level"] == .int32Enumeration([0, 1, 2]))
        #expect(types["tint"] == .color)
        #expect(types["image"] == .imageSource)
        #expect(types["request"] == .imageSource)
        #expect(types["anchor"] == .point)
        #expect(types["insets"] == .edgeInsets)
        #expect(types["width"] == .dimension)
        #expect(types["tags"] == .array(.string))
        #expect(types["grid"] == .array(.array(.object([PropField("cell", .int32, default: .int(0))]))))
        #expect(types["palette"] == .array(.color))
        #expect(types["modes"] == .array(.enumeration(["on", "off"])))
        #expect(
            types["style"]
                == .object([
                    PropField("radius", .float, optional: true, default: .float(4)),
                    PropField(
                        "border",
                        .object([
                            PropField("color", .color, optional: true),
                            PropField("width", .double, optional: true, default: .double(1)),
                        ])
                    ),
                    PropField("shadow", .bool, optional: true, default: .bool(false)),
                ])
        )
        #expect(types["extra"] == .mixed)
        let defaults = Dictionary(uniqueKeysWithValues: own.map { ($0.name, $0.defaultValue) })
        #expect(defaults["enabled"] == .bool(true))
        #expect(defaults["checked"] == .null)
        #expect(defaults["label"] == .string("hello"))
        #expect(defaults["subtitle"] == .null)
        #expect(defaults["count"] == .int(7))
        #expect(defaults["ratio"] == .float(0.25))
        #expect(defaults["size"] == .string("medium"))
        #expect(defaults["level"] == .int(1))
        #expect(defaults["tint"] == .null)
        #expect(gallery.prop(named: "count")?.isOptional == false)
        #expect(gallery.prop(named: "label")?.isOptional == true)
    }

    @Test func eventsAreNamedWithoutOnWithTheirPayloads() throws {
        let gallery = try #require(
            try SchemaCorpus.load("all-annotations.json").registry.component(named: "AnnotationGallery")
        )
        #expect(gallery.events.map(\.name) == ["valueChange", "loadEnd", "snapshot"])
        #expect(gallery.events.map(\.bubbles) == [true, false, false])
        #expect(gallery.events.map(\.registrationName) == ["onValueChange", "onLoadEnd", "onSnapshot"])
        let payload = try #require(gallery.events[0].payload)
        #expect(
            payload.map(\.name) == [
                "value", "step", "fraction", "final", "source", "phase", "kind", "location", "history", "meta",
            ]
        )
        #expect(payload.map(\.isOptional) == [false, true, true, false, true, true, true, true, true, true])
        #expect(payload[5].type == .enumeration(["began", "moved", "ended"]))
        #expect(payload[6].type == .enumeration(["touch", "key"]))
        #expect(payload[7].type == .object([PropField("x", .double), PropField("y", .double)]))
        #expect(payload[8].type == .array(.double))
        #expect(payload[9].type == .mixed)
        // No argument, or a null one: the event has no payload.
        #expect(gallery.events[1].payload == [])
        #expect(gallery.events[2].payload == [])
    }

    @Test func commandsHaveTypedParams() throws {
        let gallery = try #require(
            try SchemaCorpus.load("all-annotations.json").registry.component(named: "AnnotationGallery")
        )
        #expect(gallery.commands.map(\.name) == ["reset", "scrollTo", "attach"])
        #expect(gallery.commands[0].params == [])
        #expect(
            gallery.commands[1].params == [
                CommandParam("x", .int32), CommandParam("y", .float), CommandParam("zoom", .double),
                CommandParam("reason", .string), CommandParam("animated", .bool),
            ]
        )
        #expect(
            gallery.commands[2].params == [
                CommandParam("rootTag", .int32), CommandParam("ids", .array(.int32)),
                CommandParam("options", .array(.mixed)),
            ]
        )
        // A schema command has no native code: it changes nothing and emits nothing.
        let props = gallery.makeProps()
        let outcome = gallery.commands[1].run(
            on: props,
            args: [.int(1), .float(2), .double(3), .string("x"), .bool(true)]
        )
        #expect(outcome.emitted.isEmpty && outcome.undo.isEmpty)
    }

    @Test func olderSpellingsLoad() throws {
        let picker = try #require(
            try SchemaCorpus.load("legacy-spellings.json").registry.component(named: "LegacyPicker")
        )
        #expect(picker.prop(named: "selectionColor")?.type == .color)
        #expect(picker.prop(named: "icon")?.type == .imageSource)
        #expect(picker.prop(named: "origin")?.type == .point)
        #expect(picker.prop(named: "mode")?.type == .enumeration(["dialog", "dropdown"]))
        #expect(picker.prop(named: "mode")?.defaultValue == .string("dialog"))
        #expect(picker.prop(named: "sizes")?.type == .array(.enumeration(["small", "large"])))
        #expect(
            picker.events.first?.payload == [
                PropField("position", .int32), PropField("label", .string, optional: true),
            ]
        )
    }

    @Test func coreViewPropsComeFromViewAndASchemaPropReplacesOne() throws {
        let registry = try SchemaCorpus.load("core-view-props.json").registry
        let view = try #require(registry.component(named: "View"))
        let badge = try #require(registry.component(named: "Badge"))
        #expect(badge.props.map(\.name) == view.props.map(\.name) + ["text"])
        #expect(badge.prop(named: "accessibilityHint")?.defaultValue == .string("badge"))
        #expect(badge.prop(named: "opacity")?.type == .double)
        #expect(badge.prop(named: "opacity")?.defaultValue == .double(0.5))
        #expect(badge.prop(named: "hitSlop")?.type == .edgeInsets)
        #expect(badge.prop(named: "pointerEvents")?.type == .enumeration(["auto", "none", "box-none", "box-only"]))
        let plain = try #require(registry.component(named: "PlainBadge"))
        #expect(plain.props.map(\.name) == ["text"])
        // A component with only the core view props, and one whose schema lists nothing at all.
        let bare = try SchemaCorpus.load("bare-components.json").registry
        #expect(bare.component(named: "BareCoreView")?.props.map(\.name) == view.props.map(\.name))
        let nothing = try #require(bare.component(named: "BareNothing"))
        #expect(nothing.props.isEmpty && nothing.events.isEmpty && nothing.commands.isEmpty)
    }

    @Test func nativeModulesAreSkippedAndNamesKeptAsWritten() throws {
        let schemas = try SchemaCorpus.load("modules-and-names.json")
        #expect(schemas.skippedModules.map(\.module) == ["NativeClipboard"])
        #expect(schemas.loadedComponents == ["OddNames"])
        let odd = try #require(schemas.registry.component(named: "OddNames"))
        #expect(odd.events.map(\.name) == ["dire tChange", "change", "tick"])
        #expect(odd.events[0].registrationName == "onDire tChange")
    }

    @Test func aDescribedComponentRendersItsChangedProps() throws {
        let badge = try #require(try SchemaCorpus.load("core-view-props.json").registry.component(named: "Badge"))
        let props = badge.makeProps()
        #expect(badge.render(props) == "Badge")
        let text = try #require(badge.prop(named: "text"))
        #expect(text.set(props, .string("new")))
        #expect(!text.set(props, .string("new")))
        #expect(badge.render(props) == "Badge text=\"new\"")
    }

    /// Each broken schema in `Tests/Schemas/bad`, with the exact error: the file, the JSON path, the problem.
    static let badSchemas: [(file: String, path: String, problem: String)] = [
        ("not-json.json", "", "not JSON: string or '}' expected near '}' at line 4, column 3"),
        ("not-an-object.json", "", "a codegen schema is an object with 'modules', got an array"),
        ("no-modules.json", "modules", "missing (required)"),
        (
            "unknown-module-type.json", "modules.Weird.type",
            "unknown module type 'TurboThing' (expected Component or NativeModule)"
        ),
        (
            "unknown-annotation.json", "modules.BadModule.components.BadView.props[1].typeAnnotation",
            "unknown type annotation 'LongTypeAnnotation'"
        ),
        (
            "unknown-nested-annotation.json",
            "modules.BadModule.components.BadView.props[0].typeAnnotation.properties[0].typeAnnotation.elementType",
            "unknown type annotation 'TupleTypeAnnotation'"
        ),
        (
            "unknown-reserved.json", "modules.BadModule.components.BadView.props[0].typeAnnotation.name",
            "unknown ReservedPropTypeAnnotation 'FontPrimitive' (known: ColorPrimitive, DimensionPrimitive, "
                + "EdgeInsetsPrimitive, ImageRequestPrimitive, ImageSourcePrimitive, PointPrimitive)"
        ),
        (
            "clash-builtin.json", "modules.BadModule.components.Slider",
            "component 'Slider' is already registered (a built-in)"
        ),
        (
            "bubbling-direct-clash.json", "modules.BadModule.components.BadView.events[0].bubblingType",
            "event 'commit' is bubbling here but TextField declares it direct"
        ),
        (
            "default-wrong-type.json", "modules.BadModule.components.BadView.props[0].typeAnnotation.default",
            "the default is not a valid int32: JSON value 'three' of type string cannot be converted to int32"
        ),
        (
            "default-enum-not-option.json", "modules.BadModule.components.BadView.props[0].typeAnnotation.default",
            "the default is not a valid enum: JSON value 'middle' of type string is not one of top, bottom"
        ),
        (
            "default-int32-out-of-range.json",
            "modules.BadModule.components.BadView.props[0].typeAnnotation.default",
            "the default is not a valid int32: JSON value '2147483648' is outside the int32 range "
                + "-2147483648...2147483647"
        ),
        (
            "default-int32-enum-not-option.json",
            "modules.BadModule.components.BadView.props[0].typeAnnotation.default",
            "the default is not a valid int32Enum: JSON value '5' is not one of 0, 1"
        ),
        (
            "default-nested-field.json",
            "modules.BadModule.components.BadView.props[0].typeAnnotation.properties[0].typeAnnotation.default",
            "the default is not a valid bool: JSON value 'yes' of type string cannot be converted to bool"
        ),
        (
            "unknown-bubbling-type.json", "modules.BadModule.components.BadView.events[0].bubblingType",
            "unknown bubblingType 'sideways' (expected bubble or direct)"
        ),
        (
            "prop-declared-twice.json", "modules.BadModule.components.BadView.props[1].name",
            "prop 'a' is declared twice"
        ),
        (
            "event-declared-twice.json", "modules.BadModule.components.BadView.events[1].name",
            "event 'onPress' is declared twice"
        ),
        (
            "missing-type-annotation.json", "modules.BadModule.components.BadView.props[0].typeAnnotation",
            "missing (required)"
        ),
        (
            "command-not-function.json", "modules.BadModule.components.BadView.commands[0].typeAnnotation",
            "a command is a FunctionTypeAnnotation, not 'VoidTypeAnnotation'"
        ),
        (
            "command-unknown-param.json",
            "modules.BadModule.components.BadView.commands[0].typeAnnotation.params[0].typeAnnotation",
            "unknown type annotation 'DateTypeAnnotation'"
        ),
        (
            "unknown-extends.json", "modules.BadModule.components.BadView.extendsProps[0]",
            "unknown extendsProps ReactNativeBuiltInType 'ReactNativeCoreTextProps' "
                + "(known: ReactNativeBuiltInType ReactNativeCoreViewProps)"
        ),
        (
            "enum-without-options.json", "modules.BadModule.components.BadView.props[0].typeAnnotation.options",
            "an enum needs at least one option"
        ),
        (
            "event-argument-not-object.json", "modules.BadModule.components.BadView.events[0].typeAnnotation.argument",
            "an event's argument is an ObjectTypeAnnotation, not 'StringTypeAnnotation'"
        ),
    ]

    @Test(arguments: badSchemas)
    func aBrokenSchemaIsRefusedWithWhereAndWhy(file: String, path: String, problem: String) throws {
        var schemas = CodegenSchema()
        let name = "bad/" + file
        let bytes = try SchemaCorpus.bytes(name)
        let error = #expect(throws: SchemaError.self) { try schemas.load(bytes, file: name) }
        #expect(error == SchemaError(file: name, path: path, problem: problem))
        // Never a partial load.
        #expect(schemas.registry.components.map(\.name) == ComponentRegistry.builtin.components.map(\.name))
    }

    @Test func everyBrokenSchemaHasATest() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: SchemaCorpus.path("bad")).sorted()
        #expect(files == (CodegenSchemaTests.badSchemas.map(\.file) + ["clash-other-file.json"]).sorted())
    }

    @Test func aComponentOfAnotherFileClashes() throws {
        var schemas = try SchemaCorpus.load("all-annotations.json")
        let error = #expect(throws: SchemaError.self) {
            try schemas.load(try SchemaCorpus.bytes("bad/clash-other-file.json"), file: "bad/clash-other-file.json")
        }
        #expect(
            error?.description
                == "bad/clash-other-file.json: modules.BadModule.components.AnnotationGallery: "
                + "component 'AnnotationGallery' is already registered (declared in all-annotations.json)"
        )
    }

    @Test func aFileLoadsWholeOrNotAtAll() throws {
        // The first component is fine, the second is not: neither is registered.
        let text = """
            {"modules": {"M": {"type": "Component", "components": {
              "Fine": {"props": [], "events": [], "commands": []},
              "Broken": {"props": [{"name": "x", "optional": true, "typeAnnotation": {"type": "NopeTypeAnnotation"}}]}}}}}
            """
        var schemas = CodegenSchema()
        #expect(throws: SchemaError.self) { try schemas.load(Array(text.utf8), file: "two.json") }
        #expect(schemas.registry.component(named: "Fine") == nil)
        #expect(schemas.loadedComponents.isEmpty)
    }
}

@Suite("Prop lookup by a key's bytes")
struct PropLookupTests {
    /// Every prop of every component (the built-ins, and schema components of up to and over 16 props) is found
    /// by the UTF-8 bytes of its name, as by the name itself; names that differ by a byte, a prefix or an extra
    /// byte find nothing.
    @Test(arguments: SchemaCorpus.goodFiles)
    func everyPropIsFoundByItsBytesAndNothingElseIs(file: String) throws {
        let registry = try SchemaCorpus.load(file).registry
        for type in registry.components {
            for prop in type.props {
                let found = Array(prop.name.utf8).withUnsafeBytes { type.prop(named: $0) }
                #expect(found === type.prop(named: prop.name), "\(type.name).\(prop.name)")
                for near in [prop.name + "x", String(prop.name.dropLast()), "x" + prop.name.dropFirst(), ""]
                where type.prop(named: near) == nil {
                    #expect(Array(near.utf8).withUnsafeBytes { type.prop(named: $0) } == nil, "\(type.name): \(near)")
                }
            }
        }
    }
}
