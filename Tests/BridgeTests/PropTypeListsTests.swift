import Foundation
import PropStore
import Testing

/// The daemon's prop types against every other list of them: protocol.md's "Typed props" table, `index.d.ts`'s
/// `PropType` union and the client's type generator (`js-client/lib/types.js`, whose `typeOf` has a case each and
/// throws for any other). A new prop type that misses one of them fails here.
@Suite("Prop types: the lists elsewhere")
struct PropTypeListsTests {
    /// One value of every case, in declaration order: a new case must be added here to compile (`kind(of:)`).
    static let every: [PropType] = [
        .int, .int32, .float, .double, .bool, .string, .enumeration(["a"]), .int32Enumeration([1]), .color, .point,
        .edgeInsets, .imageSource, .dimension, .array(.int), .object([]), .mixed,
    ]

    /// Exhaustive: a new case does not compile until it is in ``every`` too.
    static func kind(of type: PropType) -> Int {
        switch type {
        case .int: 0
        case .int32: 1
        case .float: 2
        case .double: 3
        case .bool: 4
        case .string: 5
        case .enumeration: 6
        case .int32Enumeration: 7
        case .color: 8
        case .point: 9
        case .edgeInsets: 10
        case .imageSource: 11
        case .dimension: 12
        case .array: 13
        case .object: 14
        case .mixed: 15
        }
    }

    static let names = every.map(\.name)

    static func file(_ path: String) throws -> String {
        try String(contentsOf: OpTableTests.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everyCaseIsListedOnce() {
        #expect(Self.every.map(Self.kind(of:)) == Array(0..<16))
    }

    @Test func protocolMdsTableHasEveryTypeInOrder() throws {
        let text = try Self.file("protocol.md")
        let section = try #require(text.range(of: "## Typed props\n"))
        let rest = text[section.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        let rows = rest[..<end].split(separator: "\n").compactMap { $0.firstMatch(of: #/^\| `([A-Za-z0-9]+)` \|/#) }
        #expect(rows.map { String($0.output.1) } == Self.names)
    }

    @Test func indexDTsPropTypeUnionHasEveryType() throws {
        let text = try Self.file("js-client/index.d.ts")
        let start = try #require(text.range(of: "export type PropType =\n"))
        let rest = text[start.upperBound...]
        let end = try #require(rest.range(of: ";"))
        let names = rest[..<end.upperBound].matches(of: #/\| '([A-Za-z0-9]+)'/#).map { String($0.output.1) }
        #expect(names == Self.names)
    }

    @Test func theClientsTypeGeneratorHasACaseForEveryType() throws {
        let text = try Self.file("js-client/lib/types.js")
        let start = try #require(text.range(of: "export function typeOf("))
        let rest = text[start.upperBound...]
        let end = try #require(rest.range(of: "\n}\n"))
        let cases = Set(rest[..<end.lowerBound].matches(of: #/case '([A-Za-z0-9]+)':/#).map { String($0.output.1) })
        #expect(cases == Set(Self.names))
        #expect(rest[..<end.lowerBound].contains("throw new"), "an unknown type is an error, not JsonValue")
    }
}
