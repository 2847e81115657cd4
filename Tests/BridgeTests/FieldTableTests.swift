import BridgeCore
import PropStore
import Testing

/// The field tables of `point`, `edgeInsets` and `imageSource`: one table converts, writes and renders each, so a
/// value converted from JSON writes back as the protocol's object (fields in the table's order), reads back as
/// itself, and a wrong field is a problem that names it and its path.
@Suite("Field tables")
struct FieldTableTests {
    /// The bytes `JSONWriter` writes for a value.
    func written(_ value: PropValue) -> String {
        var w = JSONWriter()
        w.propValue(value)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static let roundTrips: [(PropType, JSONValue, String)] = [
        (.point, ["x": 1, "y": -2.5], #"{"x":1.0,"y":-2.5}"#),
        (.point, ["y": 2, "x": 0.5], #"{"x":0.5,"y":2.0}"#),
        (.edgeInsets, ["left": 3, "top": 4], #"{"top":4.0,"left":3.0,"bottom":0.0,"right":0.0}"#),
        (.edgeInsets, [:], #"{"top":0.0,"left":0.0,"bottom":0.0,"right":0.0}"#),
        (.imageSource, "a.png", #"{"uri":"a.png"}"#),
        (.imageSource, ["height": 3, "uri": "b.png"], #"{"uri":"b.png","height":3.0}"#),
        (
            .imageSource, ["cache": "reload", "scale": 2, "uri": "a.png", "headers": ["Auth": "t"]],
            #"{"uri":"a.png","scale":2.0,"cache":"reload","headers":{"Auth":"t"}}"#
        ),
    ]

    @Test("convert, write, convert again", arguments: roundTrips)
    func roundTrip(type: PropType, source: JSONValue, expected: String) throws {
        let value = try type.convert(source).get()
        #expect(written(value) == expected)
        // What was written converts back to the same value, and writes the same bytes.
        let again = try type.convert(try #require(Self.json(value))).get()
        #expect(again == value)
        #expect(written(again) == expected)
    }

    /// The value as the JSON object its table describes, read field by field from the table.
    static func json(_ value: PropValue) -> JSONValue? {
        func object<Value>(_ value: Value, _ table: FieldTable<Value>) -> JSONValue {
            var members: [JSONMember] = []
            for field in table.fields {
                switch field.value(in: value) {
                case .number(let number): members.append(JSONMember(field.name, .double(number)))
                case .string(let text): members.append(JSONMember(field.name, .string(text)))
                case nil: break
                }
            }
            return .object(members + table.extraMembers(of: value))
        }
        switch value {
        case .point(let p): return object(p, Point.fields)
        case .edgeInsets(let e): return object(e, EdgeInsets.fields)
        case .imageSource(let source): return object(source, ImageSource.fields)
        default: return nil
        }
    }

    static let problems: [(PropType, JSONValue, [String])] = [
        (.point, ["x": 1], ["p.y | number | point needs 'y' (a number)"]),
        (
            .point, ["x": 1, "y": 2, "z": 3],
            ["p.z | point {x: number, y: number} | point has no field 'z'; its fields are x, y"]
        ),
        (
            .point, ["x": "a"],
            [
                "p.x | double | JSON value 'a' of type string cannot be converted to double",
                "p.y | number | point needs 'y' (a number)",
            ]
        ),
        (
            .edgeInsets, ["middle": 1],
            [
                "p.middle | edgeInsets {top?, left?, bottom?, right?: number} | edgeInsets has no field 'middle'; "
                    + "its fields are top, left, bottom, right"
            ]
        ),
        (.imageSource, ["width": 1], ["p.uri | string | imageSource needs 'uri' (a string)"]),
        // A source with another problem does not also say that its uri is missing.
        (
            .imageSource, ["width": "wide"],
            ["p.width | double | JSON value 'wide' of type string cannot be converted to double"]
        ),
        (.imageSource, ["uri": 1], ["p.uri | string | JSON value '1' of type number cannot be converted to string"]),
        (
            .imageSource, ["uri": "a", "size": 1],
            [
                "p.size | imageSource ({uri: string, width?, height?, scale?} or a uri string) | imageSource has no "
                    + "field 'size'; its fields are uri, width, height, scale, headers, method, body, cache, bundle"
            ]
        ),
    ]

    @Test("a wrong field is named with its path", arguments: problems)
    func problem(type: PropType, source: JSONValue, expected: [String]) {
        var path = PropPath("p")
        var issues = PropIssues()
        #expect(type.convert(source, path: &path, into: &issues) == nil)
        #expect(issues.list.map { "\($0.path) | \($0.expected) | \($0.message)" } == expected)
    }

    @Test func expectedTextsComeFromTheTables() {
        #expect(PropType.point.expected == "point {x: number, y: number}")
        #expect(PropType.edgeInsets.expected == "edgeInsets {top?, left?, bottom?, right?: number}")
        #expect(PropType.imageSource.expected == "imageSource ({uri: string, width?, height?, scale?} or a uri string)")
    }

    @Test func rendersFromTheTables() {
        #expect(Point.fields.renderText(Point(x: 1, y: 2.5)) == "(1, 2.5)")
        #expect(EdgeInsets.fields.renderText(EdgeInsets(top: 1, right: 4)) == "(1, 0, 0, 4)")
        #expect(ImageSource.fields.renderText(ImageSource(uri: "a.png", width: 3)) == "<a.png>")
    }

    /// The names of types in the recorded corpus's descriptions (what hello said, and a meta record's components
    /// are rebuilt from) are read back by `PropType.named`: every recorded name is a plain type's, or a compound
    /// type's (which `named` does not take).
    @Test func plainTypesByTheirRecordedNames() throws {
        let corpus = try ReplayTests.files.map { try ReplayTests.text($0) }.joined(separator: "\n")
        let recorded = Set(corpus.matches(of: /"type":"([a-z][A-Za-z0-9]*)"/).map { String($0.1) })
        let compound: Set = ["enum", "int32Enum", "array", "object"]
        for name in recorded.subtracting(compound) {
            #expect(
                PropType.named(name)?.name == name,
                "the corpus describes a type '\(name)' that PropType.named lacks"
            )
        }
        for name in compound { #expect(PropType.named(name) == nil, "\(name) is not a plain type") }
    }
}
