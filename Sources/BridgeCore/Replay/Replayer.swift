import PropStore

/// Replays recorded sessions against a fresh engine and compares every frame with the recording.
///
/// Frames are compared as JSON values. Only what must vary is normalised: `result.session` and
/// `result.server` of hello responses, and the numbers of `stats` results.
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
        // An optional first record carries the limits the recording was made with.
        if let first = lines.first, let meta = try? JSONDocument(parsing: first),
            meta.root["dir"]?.isString("meta") == true
        {
            if let views = meta.root["limits"]?["maxViewsPerSession"]?.integer {
                configuration.maxViewsPerSession = Int(views)
            }
            if let ops = meta.root["limits"]?["maxOpsPerBatch"]?.integer { configuration.maxOpsPerBatch = Int(ops) }
            if let events = meta.root["limits"]?["eventBuffer"]?.integer { configuration.eventBuffer = Int(events) }
        }
        let engine = Engine(registry: registry, configuration: configuration)
        var connection = engine.connect()
        defer { engine.closeAllSessions() }
        /// Recorded session ids → the ids this replay's sessions have, learnt from hello responses.
        var sessionIDs: [String: String] = [:]
        var produced: [String] = []
        var producedOps: [String?] = []
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
            if line.utf8.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
            let record: JSONDocument
            do {
                record = try JSONDocument(parsing: line)
            } catch {
                return differ(expected: "a record", got: "bad JSON: \(error)")
            }
            let dir = record.root["dir"]
            if dir?.isString("meta") == true, record.root["connection"]?.isString("closed") == true {
                // The client's connection ended here; what follows comes on a new one (a resume, usually).
                connection.close()
                connection = engine.connect()
                continue
            }
            if dir?.isString("in") == true {
                let input: String
                var op: String?
                if let frame = record.root["frame"] {
                    input = Replayer.mappingResume(frame, sessionIDs)
                    op = frame.isObject ? frame["op"]?.string : nil
                } else if let raw = record.root["raw"]?.string {
                    input = raw
                } else {
                    return differ(expected: "an in record with frame or raw", got: line)
                }
                let frames = connection.handle(line: input)
                // Every line but a keep-alive is answered, so frames come exactly when a response does.
                if !frames.isEmpty { producedOps.append(op) }
                produced.append(contentsOf: frames)
            } else if dir?.isString("out") == true, let expected = record.root["frame"] {
                guard next < produced.count else {
                    return differ(expected: expected.compactText, got: "no frame")
                }
                let got = produced[next]
                next += 1
                guard let gotDocument = try? JSONDocument(parsing: got) else {
                    return differ(expected: expected.compactText, got: got)
                }
                var op: String?
                if gotDocument.root["ok"] != nil {
                    op = nextOp < producedOps.count ? producedOps[nextOp] : nil
                    nextOp += 1
                }
                if op == "hello", let recorded = expected["result"]?["session"]?.string,
                    let actual = gotDocument.root["result"]?["session"]?.string
                {
                    sessionIDs[recorded] = actual
                }
                let left = Replayer.normalised(expected, op: op)
                let right = Replayer.normalised(gotDocument.root, op: op)
                guard left.root.isEqual(to: right.root) else {
                    return differ(expected: expected.compactText, got: got)
                }
                matched += 1
            } else if dir?.isString("out") == true {
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

    /// The text of an input frame; a hello that resumes a recorded session names this replay's session instead.
    static func mappingResume(_ frame: JSONRef, _ sessionIDs: [String: String]) -> String {
        guard frame.isObject, frame["op"]?.isString("hello") == true,
            let recorded = frame["resume"]?["session"]?.string, let actual = sessionIDs[recorded]
        else { return frame.compactText }
        let copy = JSONDocument(retaining: frame).deepCopy()
        copy.root["resume"]?.setString("session", actual)
        return copy.root.compactText
    }

    /// A copy of `frame` with what varies between runs replaced by placeholders.
    static func normalised(_ frame: JSONRef, op: String?) -> JSONDocument {
        let copy = JSONDocument(retaining: frame).deepCopy()
        guard let op, let result = copy.root["result"], result.isObject else { return copy }
        switch op {
        case "hello":
            if result["session"] != nil { result.setString("session", "<session>") }
            if result["server"] != nil { result.setString("server", "<server>") }
        case "stats":
            for key in result.keys where result[key]?.kind == .integer { result.setInteger(key, 0) }
        default:
            break
        }
        return copy
    }
}
