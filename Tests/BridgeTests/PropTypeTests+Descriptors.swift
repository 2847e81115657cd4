import BridgeCore
import Foundation
import PropStore
import Testing

extension PropTypeTests {
    /// Each kind of type's descriptor (``PropTypeDescriptor``) against every other list of types: `hello`'s
    /// `propTypes`, protocol.md's "Typed props" table, and the client, which reads `propTypes` and names no type.
    /// The types come from ``PropType/Kind/allCases``: a new kind is in every check here without an edit.
    @Suite("descriptors")
    struct Descriptors {
        static let names = PropType.Kind.allCases.map(\.rawValue)

        static func file(_ path: String) throws -> String {
            try String(contentsOf: OpTableTests.root.appendingPathComponent(path), encoding: .utf8)
        }

        @Test func eachKindHasOneDescriptorUnderItsName() {
            for kind in PropType.Kind.allCases {
                let descriptor = kind.descriptor
                #expect(descriptor.name == kind.rawValue)
                // A plain type is its own kind, and a schema's name for it reads back as it.
                if let plain = descriptor.plain {
                    #expect(plain.kind == kind, "\(kind.rawValue)'s descriptor names another kind's type as plain")
                    #expect(PropType.named(kind.rawValue) == plain)
                    #expect(plain.expected == descriptor.accepts)
                } else {
                    #expect(PropType.named(kind.rawValue) == nil)
                }
            }
            // One list of names: a value's kind is the type's (kindName of an int, a string, a point…).
            #expect(PropValue.int(1).kindName == PropType.int.name)
            #expect(PropValue.json(.null).kindName == PropType.mixed.name)
        }

        @Test func helloSendsEveryDescriptorAsPropTypes() throws {
            let hello = Client(hello: false).send(#"{"op":"hello","protocol":1}"#).response
            let document = try JSONDocument(parsing: hello)
            let propTypes = try #require(document.root["result"]?["propTypes"])
            #expect(propTypes.keys == Self.names)
            for kind in PropType.Kind.allCases {
                let descriptor = kind.descriptor
                let entry = try #require(propTypes[kind.rawValue])
                #expect(entry["nativeType"]?.string == descriptor.nativeType)
                #expect(entry["nativeArrayType"]?.string == descriptor.nativeArrayType)
                #expect(entry["deepDiffs"]?.compactText == (descriptor.deepDiffs ? "true" : "false"))
                #expect(entry["typeScript"]?.string == descriptor.typeScript)
                #expect(entry["reportedTypeScript"]?.string == descriptor.reportedTypeScript)
                #expect(entry["note"]?.string == descriptor.note)
            }
            #expect(
                field(hello, "result.propTypes.color")
                    == ##"{"deepDiffs":false,"nativeArrayType":"UIColorArray","nativeType":"UIColor","note":"`\"#RGB\"`, `\"#RRGGBB\"`, `\"#RRGGBBAA\"` or an ARGB integer.","reportedTypeScript":"string","typeScript":"string | number"}"##
            )
        }

        /// protocol.md's example of `propTypes` (a few of its entries, then `…`) is what hello sends for them.
        @Test func protocolMdsPropTypesExampleIsHellos() throws {
            let text = try Self.file("protocol.md")
            let start = try #require(text.range(of: "```json\n\"propTypes\": {\n"))
            let end = try #require(text[start.upperBound...].range(of: "\n}\n```"))
            let lines = text[start.upperBound..<end.lowerBound].split(separator: "\n").filter { !$0.contains("…") }
            var body = lines.joined(separator: "\n")
            if body.hasSuffix(",") { body.removeLast() }
            let example = try JSONDocument(parsing: "{" + body + "}")
            let hello = Client(hello: false).send(#"{"op":"hello","protocol":1}"#).response
            #expect(example.root.keys.count >= 3)
            for name in example.root.keys {
                #expect(
                    example.root[name]?.canonicalText == field(hello, "result.propTypes.\(name)"),
                    "protocol.md's propTypes example for \(name) is not what hello sends"
                )
            }
        }

        @Test func protocolMdsTableHasEveryTypeInOrder() throws {
            let text = try Self.file("protocol.md")
            let section = try #require(text.range(of: "## Typed props\n"))
            let rest = text[section.upperBound...]
            let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
            let rows = rest[..<end].split(separator: "\n").compactMap { $0.firstMatch(of: #/^\| `([A-Za-z0-9]+)` \|/#) }
            #expect(
                rows.map { String($0.output.1) } == Self.names,
                "protocol.md's \"Typed props\" table lists the types of PropType.Kind, in its order"
            )
        }

        /// The client reads a type's facts from hello's `propTypes` (js-client/lib/prop-types.js): no file of it
        /// switches on a type's name or compares a description's `.type` with one (`case 'string':` and
        /// `case 'object':` aside, which are also `typeof`'s).
        @Test func noClientFileNamesAType() throws {
            let lib = OpTableTests.root.appendingPathComponent("js-client/lib")
            let typeofNames: Set<String> = ["string", "object"]
            var found: [String] = []
            let files = FileManager.default.enumerator(at: lib, includingPropertiesForKeys: nil)!
            for case let url as URL in files where url.pathExtension == "js" {
                let text = try String(contentsOf: url, encoding: .utf8)
                for name in Self.names {
                    let quoted = "'\(name)'"
                    let asCase = !typeofNames.contains(name) && text.contains("case \(quoted):")
                    let asComparison = text.contains(".type === \(quoted)") || text.contains(".type !== \(quoted)")
                    if asCase || asComparison {
                        found.append("\(url.path.replacingOccurrences(of: lib.path, with: "js-client/lib")): \(name)")
                    }
                }
            }
            #expect(found.isEmpty, "client files that name prop types (read hello's propTypes instead): \(found)")
        }
    }
}
