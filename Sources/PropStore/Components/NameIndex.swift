/// Names (a component's props, its commands) looked up by a `String` or by UTF-8 bytes, the first of equal
/// names winning.
///
/// A request names a prop or a command by a JSON key or string that jansson holds as bytes. Up to 16 names,
/// those bytes are compared with each name's (cheaper than making a `String` and hashing it); beyond, the
/// `String` is made and looked up by hash.
struct NameIndex: Sendable {
    /// Every name's UTF-8, one after another, and where each ends.
    private let bytes: [UInt8]
    private let ends: [Int]
    private let byName: [String: Int]

    init(_ names: [String]) {
        bytes = names.flatMap { Array($0.utf8) }
        var end = 0
        ends = names.map { name in
            end += name.utf8.count
            return end
        }
        byName = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func index(of name: String) -> Int? { byName[name] }

    func index(of name: UnsafeRawBufferPointer) -> Int? {
        guard ends.count <= 16 else { return byName[String(decoding: name, as: UTF8.self)] }
        return bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            for (index, end) in ends.enumerated() {
                defer { start = end }
                guard end - start == name.count else { continue }
                var i = 0
                while i < name.count && bytes[start + i] == name[i] { i += 1 }
                if i == name.count { return index }
            }
            return nil
        }
    }
}
