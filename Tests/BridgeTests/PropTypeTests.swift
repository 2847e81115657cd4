import PropStore
import Testing

@Suite("Prop type conversion")
struct PropTypeTests {
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
        (.color, ["dynamic": ["light": ["semantic": "systemBlue"], "dark": "#000"]], .color(Color(argb: 0xFF00_7AFF))),
        (.color, [1, 0, 0.5], .color(Color(argb: 0xFFFF_0080))),
        (.color, [0, 0, 0, 0.5], .color(Color(argb: 0x8000_0000))),
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
    ]

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
            error.message.hasPrefix("'brandColor', 'nope' is not an iOS semantic color (bridged has no asset catalog)")
        )
        #expect(error.message.contains("systemBackgroundColor"))
    }

    @Test func colorCanonicalForm() {
        #expect(Color(hex: "#ABC")?.description == "#aabbccff")
        #expect(Color(argb: 0x8011_2233).description == "#11223380")
        #expect(Color.black.description == "#000000ff")
    }
}
