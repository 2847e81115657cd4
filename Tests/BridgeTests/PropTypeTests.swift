import PropStore
import Testing

/// Prop types, one suite: their conversion (``Conversion``), every type over the engine (``OverTheEngine``,
/// `PropTypeTests+Engine.swift`) and their descriptors against every other list of them (``Descriptors``,
/// `PropTypeTests+Descriptors.swift`). Each enumerates the types from ``PropType/Kind/allCases``, so a new type
/// fails until it has its conversion, its prop over the engine and its descriptor.
@Suite("Prop types")
struct PropTypeTests {}

extension PropTypeTests {
    @Suite("conversion")
    struct Conversion {
        static let accepted: [(PropType, JSONValue, PropValue)] = [
            (.int, .int(5), .int(5)),
            (.int, .int(Int64.max), .int(Int.max)),
            (.int, .int(Int64.min), .int(Int.min)),
            (.int, .double(5.0), .int(5)),
            (.int, .double(-0.0), .int(0)),
            (.int, .double(-9.223372036854775808e18), .int(Int.min)),
            (.double, .int(3), .double(3)),
            (.double, .double(1.5), .double(1.5)),
            (.double, .double(-1e308), .double(-1e308)),
            (.bool, .bool(true), .bool(true)),
            (.bool, .bool(false), .bool(false)),
            (.string, .string(""), .string("")),
            (.string, .string("a\u{0}b😀"), .string("a\u{0}b😀")),
            (.enumeration(["never", "always"]), .string("always"), .string("always")),
            (.color, .string("#f00"), .color(Color(argb: 0xFFFF_0000))),
            (.color, .string("#00FF00"), .color(Color(argb: 0xFF00_FF00))),
            (.color, .string("#0000ff80"), .color(Color(argb: 0x8000_00FF))),
            (.color, .int(0xFF11_2233), .color(Color(argb: 0xFF11_2233))),
            (.color, .int(-16_777_216), .color(Color(argb: 0xFF00_0000))),
            (.color, .int(0), .color(Color(argb: 0))),
            // iOS's colour objects, as RCTConvert reads them, in light mode: PlatformColor (the first semantic name that
            // is one; the Objective-C or the Swift selector), DynamicColorIOS (its light colour), [r, g, b, a?].
            (.color, ["semantic": ["systemBackground"]], .color(Color(argb: 0xFFFF_FFFF))),
            (.color, ["semantic": "labelColor"], .color(Color(argb: 0xFF00_0000))),
            (.color, ["semantic": ["brandColor", "secondaryLabel"]], .color(Color(argb: 0x993C_3C43))),
            (
                .color, ["dynamic": ["light": .int(0xFF11_2233), "dark": .int(0xFFFF_FFFF)]],
                .color(Color(argb: 0xFF11_2233))
            ),
            (
                .color, ["dynamic": ["light": ["semantic": "systemBlue"], "dark": "#000"]],
                .color(Color(argb: 0xFF00_7AFF))
            ),
            (.color, [1, 0, 0.5], .color(Color(argb: 0xFFFF_0080))),
            (.color, [0, 0, 0, 0.5], .color(Color(argb: 0x8000_0000))),
            (.int32, .int(-7), .int(-7)),
            (.float, .double(0.5), .float(0.5)),
            (.int32Enumeration([0, 7]), .int(7), .int(7)),
            (.point, ["x": 1, "y": 2.5], .point(Point(x: 1, y: 2.5))),
            (.edgeInsets, ["top": 4], .edgeInsets(EdgeInsets(top: 4))),
            (.imageSource, "a.png", .imageSource(ImageSource(uri: "a.png"))),
            (.dimension, "50%", .dimension(.percent(50))),
            (.array(.int), [1, 2], .array([.int(1), .int(2)])),
            // RCTConvertArrayValue leaves out an element RCTConvert turns into nil; a mixed array keeps its nulls.
            (.array(.double), [nil, 50, nil, 100], .array([.double(50), .double(100)])),
            (.array(.mixed), [nil, 1], .array([.json(nil), .json(1)])),
            (.object([PropField("a", .int)]), ["a": 1], .object([PropMember("a", .int(1))])),
            (.mixed, ["b": [1, nil]], .json(["b": [1, nil]])),
        ]

        @Test("accepts", arguments: accepted)
        func accepts(type: PropType, raw: JSONValue, expected: PropValue) {
            #expect(type.convert(raw) == .success(expected))
        }

        static let refused: [(PropType, JSONValue)] = [
            (.int, .string("5")),
            (.int, .double(1.5)),
            (.int, .bool(true)),
            (.int, .double(9.223372036854775808e18)),
            (.int, .double(1e300)),
            (.int, [1]),
            (.double, .string("1.5")),
            (.double, .bool(false)),
            (.bool, .int(1)),
            (.bool, .string("true")),
            (.string, .int(5)),
            (.string, .object([])),
            (.enumeration(["never", "always"]), .string("sometimes")),
            (.enumeration(["never", "always"]), .int(0)),
            (.color, .string("red")),
            (.color, .string("#12345")),
            (.color, .string("#ggg")),
            (.color, .int(0x1_0000_0000)),
            (.color, .int(-2_147_483_649)),
            (.color, .double(1.5)),
            (.color, ["semantic": ["brandColor"]]),
            (.color, ["semantic": 5]),
            (.color, ["dynamic": ["light": .int(0xFF00_0000)]]),
            (.color, ["dynamic": ["light": "red", "dark": "#000"]]),
            (.color, ["rgb": 1]),
            (.color, [1, 0]),
            (.color, [1, 0, 2]),
            (.int32, .int(2_147_483_648)),
            (.float, .double(1e39)),
            (.int32Enumeration([0, 7]), .int(1)),
            (.point, ["x": 1]),
            (.edgeInsets, ["top": "4"]),
            (.imageSource, ["url": "a.png"]),
            (.dimension, "50"),
            (.array(.int), [1, "2"]),
            (.object([PropField("a", .int)]), ["b": 1]),
        ]

        /// Every kind of type has an accepted conversion above, and a refused one but for `mixed` (any JSON value).
        @Test func everyKindOfTypeHasItsConversionTest() {
            let accepted = Set(Self.accepted.map(\.0.kind))
            let refused = Set(Self.refused.map(\.0.kind))
            let noAccepted = PropType.Kind.allCases.filter { !accepted.contains($0) }.map(\.rawValue)
            let noRefused = PropType.Kind.allCases.filter { $0 != .mixed && !refused.contains($0) }.map(\.rawValue)
            #expect(noAccepted.isEmpty, "no accepted value of \(noAccepted) in PropTypeTests.Conversion.accepted")
            #expect(noRefused.isEmpty, "no refused value of \(noRefused) in PropTypeTests.Conversion.refused")
        }

        @Test("refuses", arguments: refused)
        func refuses(type: PropType, raw: JSONValue) {
            #expect(throws: PropConversionError.self) { try type.convert(raw).get() }
        }

        @Test func messageReadsLikeReactNative() throws {
            let failure = PropType.int.convert(JSONValue.string("abc"))
            guard case .failure(let error) = failure else {
                Issue.record("expected a failure")
                return
            }
            #expect(error.message == "JSON value 'abc' of type string cannot be converted to int")
            #expect(error.expected == "int")
        }

        @Test func anUnknownSemanticColorIsRefusedAsRCTConvertRefusesIt() throws {
            guard case .failure(let error) = PropType.color.convert(["semantic": ["brandColor", "nope"]] as JSONValue)
            else {
                Issue.record("expected a failure")
                return
            }
            #expect(
                error.message.hasPrefix(
                    "'brandColor', 'nope' is not an iOS semantic color (bridged has no asset catalog)"
                )
            )
            #expect(error.message.contains("systemBackgroundColor"))
        }

        @Test func colorCanonicalForm() {
            #expect(Color(hex: "#ABC")?.description == "#aabbccff")
            #expect(Color(argb: 0x8011_2233).description == "#11223380")
            #expect(Color.black.description == "#000000ff")
        }
    }
}
