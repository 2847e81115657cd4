import PropStore

/// Replays recorded sessions against a fresh engine and compares every frame with the recording.
///
/// Frames are compared as JSON values (`5` equals `5.0`). Only what must vary is normalised: `result.session`,
/// `result.server` and `result.token` of hello responses, and the integer fields of every `stats` result, also
/// one inside a batch's `results`. A hello result recorded before a field was added to it
/// (``fieldsAddedToHello``) is compared without that field. The Node replayer (js-client/lib/replay.js) treats
/// every record the same way; `ReplayerAgreementTests` and js-client/test/replayers-agree.test.js hold them to it.
public struct Replayer: Sendable {
    public let registry: ComponentRegistry
    public let configuration: Engine.Configuration

    public init(registry: ComponentRegistry = .builtin, configuration: Engine.Configuration = .init()) {
        self.registry = registry
        self.configuration = configuration
    }

    /// The outcome of replaying one file.
    public struct Outcome: Sendable {
        /// The first difference, or `nil` when every frame matched.
        public var difference: Difference?
        /// How many output frames matched.
        public var framesMatched: Int
        public var passed: Bool { difference == nil }
    }

    /// Where a replay first differed from its recording.
    public struct Difference: Sendable, CustomStringConvertible {
        /// The 1-based line of the recording.
        public var line: Int
        public var expected: String
        public var got: String
        public var description: String { "line \(line): expected \(expected), got \(got)" }
    }

    /// Replays the text of one recorded session.
    public func replay(_ recording: String) -> Outcome {
        var configuration = self.configuration
        // Split on bytes: as Characters, "\r\n" is one grapheme and would not split on "\n".
        let lines = Array(recording.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        var registry = self.registry
        // An optional first record carries the limits the recording was made with, and the descriptions of its
        // components that are not built-ins (those of codegen schemas), rebuilt here.
        let first = lines.first { !Replayer.isBlank($0) }
        if let first, let meta = try? JSONDocument(parsing: first), meta.root["dir"]?.isString("meta") == true {
            if let components = meta.root["components"] {
                do {
                    registry = try Engine.registry(registry, adding: components, source: "the meta record")
                } catch {
                    return Outcome(
                        difference: .init(line: 1, expected: "components this replay can rebuild", got: "\(error)"),
                        framesMatched: 0
                    )
                }
            }
            configuration = SessionLimit.applying(meta.root["limits"], to: configuration)
        }
        let engine = Engine(registry: registry, configuration: configuration)
        var connection = engine.connect()
        let strict = recordingFormat(first) >= SessionRecord.format
        defer { engine.closeAllSessions() }
        /// Recorded session ids → the ids this replay's sessions have, learnt from hello responses.
        var sessionIDs: [String: String] = [:]
        /// The resume tokens seen in recorded and in replayed hello results.
        var tokens = Tokens()
        var produced: [String] = []
        /// The op each response answers and, for a batch, the op of each of its ops.
        var producedOps: [(op: String?, inner: [String?])] = []
        var next = 0
        var nextOp = 0
        var matched = 0
        var lineNumber = 0
        /// The outcome when the recording and the replay part at the current line.
        func differ(expected: String, got: String) -> Outcome {
            Outcome(difference: .init(line: lineNumber, expected: expected, got: got), framesMatched: matched)
        }
        for line in lines {
            lineNumber += 1
            if Replayer.isBlank(line) { continue }
            let record: JSONDocument
            do {
                record = try JSONDocument(parsing: line)
            } catch {
                return differ(expected: "a record", got: "bad JSON: \(error)")
            }
            guard record.root.isObject, let dir = record.root["dir"], dir.stringBytes != nil else {
                return differ(expected: "a record: a JSON object with a \"dir\"", got: line)
            }
            if dir.isString("meta"), record.root["connection"]?.isString("closed") == true {
                // The client's connection ended here; what follows comes on a new one (a resume, usually).
                connection.close()
                connection = engine.connect()
                continue
            }
            if dir.isString("in") {
                let input: String
                var op: String?
                var inner: [String?] = []
                if let frame = record.root["frame"] {
                    input = Replayer.mappingResume(frame, sessionIDs, tokens)
                    op = frame.isObject ? frame["op"]?.string : nil
                    if op == "batch" {
                        inner = frame["ops"]?.elements?.map { $0.isObject ? $0["op"]?.string : nil } ?? []
                    }
                } else if let raw = record.root["raw"]?.string {
                    input = raw
                } else {
                    return differ(expected: "an in record with frame or raw", got: line)
                }
                if connection.hasEnded {
                    // After a `bye` the daemon closes the connection: the client goes on on a new one.
                    connection.close()
                    connection = engine.connect()
                }
                let frames = connection.handle(line: input)
                // Every line but a keep-alive is answered, so frames come exactly when a response does.
                if !frames.isEmpty { producedOps.append((op, inner)) }
                produced.append(contentsOf: frames)
            } else if dir.isString("out"), let expected = record.root["frame"] {
                guard next < produced.count else {
                    return differ(expected: expected.compactText, got: "no frame")
                }
                let got = produced[next]
                next += 1
                guard let gotDocument = try? JSONDocument(parsing: got) else {
                    return differ(expected: expected.compactText, got: got)
                }
                var op: String?
                var inner: [String?] = []
                if gotDocument.root["ok"] != nil {
                    if nextOp < producedOps.count { (op, inner) = producedOps[nextOp] }
                    nextOp += 1
                }
                if op == "hello", let recorded = expected["result"]?["session"]?.string,
                    let actual = gotDocument.root["result"]?["session"]?.string
                {
                    sessionIDs[recorded] = actual
                    tokens.recorded[recorded] = .some(expected["result"]?["token"]?.string)
                    tokens.actual[actual] = gotDocument.root["result"]?["token"]?.string
                }
                let left = Replayer.normalised(expected, op: op, batchOps: inner)
                let right = Replayer.normalised(gotDocument.root, op: op, batchOps: inner, recorded: expected)
                // A recording older than format 2 is compared for the members it has: members added to the
                // protocol since (a view's `commands`, the paths of details, View's core props) are not.
                if !strict { Replayer.removeMembersAbsent(from: left.root, in: right.root) }
                guard Replayer.sameValue(left.root, right.root) else {
                    return differ(expected: expected.compactText, got: got)
                }
                matched += 1
            } else if dir.isString("out") {
                return differ(expected: "an out record with a frame", got: line)
            }
            // Records of any other kind (meta, or future ones) are not frames.
        }
        if next < produced.count {
            lineNumber += 1
            return differ(expected: "end of recording", got: produced[next])
        }
        return Outcome(difference: nil, framesMatched: matched)
    }

    /// The resume tokens a replay has seen in hello results.
    struct Tokens {
        /// Recorded session id → the token its recorded hello result had (`.some(nil)`: it had none).
        var recorded: [String: String?] = [:]
        /// This replay's session id → its token.
        var actual: [String: String] = [:]
    }

    /// Fields of the hello result that recordings made before they existed do not have.
    static let fieldsAddedToHello = ["token", "limits"]

    /// Built-in components added since recordings were first made (React Native's core host components): a
    /// recording whose hello lacks them is compared without them.
    static let componentsAddedToBuiltins = ["RCTView", "RCTText", "RCTVirtualText", "RCTRawText"]

    /// The text of an input frame. A hello that resumes a recorded session names this replay's session instead,
    /// with this replay's token where it presents the recorded token of that session, or presents none and was
    /// recorded before hello results had tokens. Any other token (a wrong one, on purpose) is sent as recorded.
    static func mappingResume(_ frame: JSONRef, _ sessionIDs: [String: String], _ tokens: Tokens) -> String {
        guard frame.isObject, frame["op"]?.isString("hello") == true, let resume = frame["resume"],
            let recorded = resume["session"]?.string, let actual = sessionIDs[recorded]
        else { return frame.compactText }
        let copy = JSONDocument(retaining: frame).deepCopy()
        copy.root["resume"]?.setString("session", actual)
        if let actualToken = tokens.actual[actual], let recordedToken = tokens.recorded[recorded] {
            let presented = resume["token"]
            let substitute: Bool
            if let recordedToken {
                substitute = presented?.string == recordedToken
            } else {
                substitute = presented == nil
            }
            if substitute { copy.root["resume"]?.setString("token", actualToken) }
        }
        return copy.root.compactText
    }

    /// A copy of `frame` with what varies between runs replaced by placeholders. `batchOps` are the ops of
    /// the batch the frame answers, if it does. With `recorded` (the frame this one is compared with), hello
    /// result fields that the recording lacks and that were added since (``fieldsAddedToHello``) are left out.
    static func normalised(
        _ frame: JSONRef,
        op: String?,
        batchOps: [String?] = [],
        recorded: JSONRef? = nil
    ) -> JSONDocument {
        let copy = JSONDocument(retaining: frame).deepCopy()
        guard let op, let result = copy.root["result"], result.isObject else { return copy }
        switch op {
        case "hello":
            if result["session"] != nil { result.setString("session", "<session>") }
            if result["server"] != nil { result.setString("server", "<server>") }
            if result["token"] != nil { result.setString("token", "<token>") }
            if let recordedResult = recorded?["result"], recordedResult.isObject {
                for field in fieldsAddedToHello where recordedResult[field] == nil { result.removeMember(field) }
                if let components = result["components"], components.isObject,
                    let recordedComponents = recordedResult["components"], recordedComponents.isObject
                {
                    for name in componentsAddedToBuiltins where recordedComponents[name] == nil {
                        components.removeMember(name)
                    }
                }
            }
        case "stats":
            zeroIntegers(result)
        case "batch":
            guard let results = result["results"], let count = results.arrayCount else { break }
            for (index, inner) in batchOps.enumerated() where inner == "stats" && index < count {
                let element = results.element(at: index)
                if element.isObject { zeroIntegers(element) }
            }
        default:
            break
        }
        return copy
    }

    /// Removes from `live`, all the way down, the object members that `recorded` lacks where both are objects.
    static func removeMembersAbsent(from recorded: JSONRef, in live: JSONRef) {
        var stack = [(recorded, live)]
        while let (recorded, live) = stack.popLast() {
            if recorded.isObject, live.isObject {
                for key in live.keys {
                    if let inner = recorded[key] {
                        stack.append((inner, live[key]!))
                    } else {
                        live.removeMember(key)
                    }
                }
            } else if let count = recorded.arrayCount, count == live.arrayCount {
                for i in 0..<count { stack.append((recorded.element(at: i), live.element(at: i))) }
            }
        }
    }

    /// A line of a recording that holds no record: empty, or only spaces, tabs and `\r`.
    static func isBlank(_ line: String) -> Bool {
        line.utf8.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }

    /// Whether two JSON values are equal: key order does not matter, and numbers are compared as numbers (an
    /// integer equals a real of the same value, as the Node replayer has it: a recording written by the Node
    /// client says `1` where the daemon said `1.0`).
    static func sameValue(_ a: JSONRef, _ b: JSONRef) -> Bool {
        // A stack, not recursion: a fuzzed recording nests as deep as jansson reads.
        var stack = [(a, b)]
        while let (a, b) = stack.popLast() {
            switch (a.kind, b.kind) {
            case (.integer, .integer): guard a.integerValue == b.integerValue else { return false }
            case (.integer, .real): guard Double(a.integerValue) == b.realValue else { return false }
            case (.real, .integer): guard a.realValue == Double(b.integerValue) else { return false }
            case (.real, .real): guard a.realValue == b.realValue else { return false }
            case (.object, .object):
                let keys = a.keys
                guard keys.count == b.keys.count else { return false }
                for key in keys {
                    guard let inner = b[key] else { return false }
                    stack.append((a[key]!, inner))
                }
            case (.array, .array):
                guard let count = a.arrayCount, count == b.arrayCount else { return false }
                for i in 0..<count { stack.append((a.element(at: i), b.element(at: i))) }
            default:
                guard a.isEqual(to: b) else { return false }
            }
        }
        return true
    }

    /// The `format` of a recording's meta record (1 when it has none: recorded before formats were numbered).
    private func recordingFormat(_ first: String?) -> Int {
        guard let first, let meta = try? JSONDocument(parsing: first), meta.root["dir"]?.isString("meta") == true,
            let format = meta.root["format"]?.integer
        else { return 1 }
        return Int(format)
    }

    /// The rule for a `stats` result: each of its integer fields becomes 0.
    private static func zeroIntegers(_ result: JSONRef) {
        for key in result.keys where result[key]?.kind == .integer { result.setInteger(key, 0) }
    }
}
