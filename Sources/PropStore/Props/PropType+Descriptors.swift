/// One kind of prop type, described once: its name, what it accepts, and the facts a client needs of it, which
/// `hello` sends as `propTypes` (so that no client switches on type names): React Native's native type,
/// whether React Native's renderer compares its values deeply, and its TypeScript types.
public struct PropTypeDescriptor: Sendable, Equatable {
    /// The type's name, as `hello` and schemas say it: its ``PropType/Kind``'s raw value.
    public let name: String
    /// What an error message says was expected of a value of it (``PropType/expected`` adds a type's parameters:
    /// an enum's values, an array's element type, an object's fields).
    public let accepts: String
    /// The type itself when it has no parameters, so that a schema may name it alone (`{"type": "point"}`):
    /// ``PropType/plain`` lists these.
    public let plain: PropType?
    /// React Native's name of its native type (`RCTConvert`'s, as a view manager config's `NativeProps` says it):
    /// `getNativeComponentAttributes` chooses a prop's differ and processor by it (`UIColor` is processed by
    /// `processColor`).
    public let nativeType: String
    /// The native type of an array of it, where React Native has one of its own (`UIColorArray`); `nil`: `NSArray`
    /// (the ``PropType/Kind/array`` descriptor's).
    public let nativeArrayType: String?
    /// Whether React Native's renderer compares two values of it by their contents (`deepDiffer`, an object
    /// attribute) rather than by identity: a point, an object, an array, made anew at each render.
    public let deepDiffs: Bool
    /// The TypeScript type of a value a client sends. For a type with parameters it is the type's without them
    /// (an enum without values is `never`); a generator builds the whole type from a description's `values`,
    /// `elements` or `fields`.
    public let typeScript: String
    /// The TypeScript type of a value the daemon reports (`inspect`, event payloads), where it differs from
    /// ``typeScript`` (a color is reported as `"#rrggbbaa"` only).
    public let reportedTypeScript: String
    /// How a value is written where its TypeScript type alone does not say: a generator's comment beside a prop.
    public let note: String?
    /// The names React Native's codegen gives it in a `ReservedPropTypeAnnotation` (`ColorPrimitive`), which a
    /// schema's prop of it is read by (`CodegenSchema+Types.swift`).
    public let codegenPrimitives: [String]

    public init(
        _ kind: PropType.Kind,
        accepts: String? = nil,
        plain: PropType?,
        nativeType: String,
        nativeArrayType: String? = nil,
        deepDiffs: Bool,
        typeScript: String,
        reportedTypeScript: String? = nil,
        note: String? = nil,
        codegenPrimitives: [String] = []
    ) {
        self.name = kind.rawValue
        self.accepts = accepts ?? kind.rawValue
        self.plain = plain
        self.nativeType = nativeType
        self.nativeArrayType = nativeArrayType
        self.deepDiffs = deepDiffs
        self.typeScript = typeScript
        self.reportedTypeScript = reportedTypeScript ?? typeScript
        self.note = note
        self.codegenPrimitives = codegenPrimitives
    }
}

extension PropType {
    /// The kinds of prop type, each named by its raw value: the one list of type names (``PropValue/kindName``,
    /// `hello`'s `propTypes`, and the tests that enumerate types read it).
    public enum Kind: String, CaseIterable, Sendable {
        case int, int32, float, double, bool, string
        case enumeration = "enum"
        case int32Enumeration = "int32Enum"
        case color, point, edgeInsets, imageSource, dimension, array, object, mixed
    }
}

extension PropType.Kind {
    /// The kind's descriptor: everything about the type that is not its conversion, its Swift value, its render
    /// and its JSON output (README, "Where a change goes", lists those places).
    public var descriptor: PropTypeDescriptor {
        switch self {
        case .int:
            PropTypeDescriptor(self, plain: .int, nativeType: "NSInteger", deepDiffs: false, typeScript: "number")
        case .int32:
            PropTypeDescriptor(
                self,
                accepts: "int32 (an integer in -2147483648...2147483647)",
                plain: .int32,
                nativeType: "NSInteger",
                deepDiffs: false,
                typeScript: "number"
            )
        case .float:
            PropTypeDescriptor(
                self,
                accepts: "float (a number within the 32-bit float range)",
                plain: .float,
                nativeType: "CGFloat",
                deepDiffs: false,
                typeScript: "number"
            )
        case .double:
            PropTypeDescriptor(self, plain: .double, nativeType: "CGFloat", deepDiffs: false, typeScript: "number")
        case .bool:
            PropTypeDescriptor(self, plain: .bool, nativeType: "BOOL", deepDiffs: false, typeScript: "boolean")
        case .string:
            PropTypeDescriptor(self, plain: .string, nativeType: "NSString", deepDiffs: false, typeScript: "string")
        case .enumeration:
            PropTypeDescriptor(self, plain: nil, nativeType: "NSString", deepDiffs: false, typeScript: "never")
        case .int32Enumeration:
            PropTypeDescriptor(self, plain: nil, nativeType: "NSInteger", deepDiffs: false, typeScript: "never")
        case .color:
            PropTypeDescriptor(
                self,
                accepts: "color (#RGB, #RRGGBB, #RRGGBBAA or an ARGB integer)",
                plain: .color,
                nativeType: "UIColor",
                nativeArrayType: "UIColorArray",
                deepDiffs: false,
                typeScript: "string | number",
                reportedTypeScript: "string",
                note: "`\"#RGB\"`, `\"#RRGGBB\"`, `\"#RRGGBBAA\"` or an ARGB integer.",
                codegenPrimitives: ["ColorPrimitive"]
            )
        case .point:
            PropTypeDescriptor(
                self,
                accepts: Point.fields.expected,
                plain: .point,
                nativeType: "CGPoint",
                deepDiffs: true,
                typeScript: "{ x: number; y: number }",
                codegenPrimitives: ["PointPrimitive"]
            )
        case .edgeInsets:
            PropTypeDescriptor(
                self,
                accepts: EdgeInsets.fields.expected,
                plain: .edgeInsets,
                nativeType: "UIEdgeInsets",
                deepDiffs: true,
                typeScript: "{ top?: number; left?: number; bottom?: number; right?: number }",
                reportedTypeScript: "{ top: number; left: number; bottom: number; right: number }",
                codegenPrimitives: ["EdgeInsetsPrimitive"]
            )
        case .imageSource:
            PropTypeDescriptor(
                self,
                accepts: ImageSource.fields.expected,
                plain: .imageSource,
                nativeType: "RCTImageSource",
                deepDiffs: true,
                typeScript: "string | " + Self.imageSourceObject,
                reportedTypeScript: Self.imageSourceObject,
                note: "A URI, or `{uri, width, height, scale, …}`.",
                codegenPrimitives: ["ImageSourcePrimitive", "ImageRequestPrimitive"]
            )
        case .dimension:
            PropTypeDescriptor(
                self,
                accepts: "dimension (a number, \"auto\" or a percentage such as \"50%\")",
                plain: .dimension,
                nativeType: "CGFloat",
                deepDiffs: false,
                typeScript: "number | 'auto' | `${number}%`",
                note: "Points, `'auto'`, or a percentage (`'50%'`).",
                codegenPrimitives: ["DimensionPrimitive"]
            )
        case .array:
            PropTypeDescriptor(self, plain: nil, nativeType: "NSArray", deepDiffs: true, typeScript: "JsonValue[]")
        case .object:
            PropTypeDescriptor(
                self,
                plain: nil,
                nativeType: "NSDictionary",
                deepDiffs: true,
                typeScript: "Record<string, never>"
            )
        case .mixed:
            PropTypeDescriptor(self, plain: .mixed, nativeType: "id", deepDiffs: true, typeScript: "JsonValue")
        }
    }

    /// An image source as an object (React Native's `ImageURISource`).
    private static let imageSourceObject =
        "{ uri: string; width?: number; height?: number; scale?: number; headers?: JsonObject; method?: string; "
        + "body?: string; cache?: string; bundle?: string }"
}
