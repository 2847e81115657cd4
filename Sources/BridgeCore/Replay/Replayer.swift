import PropStore

/// Replays recorded sessions against a fresh engine and compares every frame with the recording.
///
/// Every line is read first (a line that is not a record fails before anything is replayed); then the `in`
/// records are fed to a fresh engine and the k-th frame it writes is compared with the k-th `out` record, wherever
/// that record sits among the `in` records. Frames are compared as JSON values (`5` equals `5.0`). Only what must
/// vary is normalised, by the rules both replayers read (``ReplayRules``, js-client/lib/replay-rules.json): the
/// hello result members that vary (`session`, `server`, `token`), the integer fields of every `stats` result, also
/// one inside a batch's `results`; a hello result recorded before a field or a built-in component was added is
/// compared without it. The Node replayer (js-client/lib/replay.js) treats every record the same way;
/// `ReplayerAgreementTests` and js-client/test/replayers-agree.test.js hold them to it.
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
        // Every line is read before anything is replayed: a line that is not a record fails at once.
        let records: [Record]
        switch Replayer.records(lines) {
        case .records(let read): records = read
        case .notARecord(let difference): return Outcome(difference: difference, framesMatched: 0)
        }
        /// The lines of the `out` records, in order: the k-th is compared with the k-th frame the replay writes.
        let outputs = records.compactMap { record -> Int? in
            if case .output(let line) = record { line } else { nil }
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
        /// The outcome when the recording and the replay part at `line`.
        func differ(_ line: Int, expected: String, got: String) -> Outcome {
            Outcome(difference: .init(line: line, expected: expected, got: got), framesMatched: next)
        }
        /// Compares the frames written so far with the `out` records they answer to; the first that differs.
        func compareProduced() -> Outcome? {
            while next < produced.count, next < outputs.count {
                let line = outputs[next]
                guard let record = try? JSONDocument(parsing: lines[line - 1]), let expected = record.root["frame"]
                else { return differ(line, expected: "an out record", got: lines[line - 1]) }
                let got = produced[next]
                guard let gotDocument = try? JSONDocument(parsing: got) else {
                    return differ(line, expected: expected.compactText, got: got)
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
                Replayer.allowListsGrownSince(recorded: left.root, in: right.root)
                guard Replayer.sameValue(left.root, right.root) else {
                    return differ(line, expected: expected.compactText, got: got)
                }
                next += 1
            }
            return nil
        }
        for record in records {
            let input: String
            var op: String?
            var inner: [String?] = []
            switch record {
            case .output:
                continue
            case .reconnect:
                // The client's connection ended here; what follows comes on a new one (a resume, usually).
                connection.close()
                connection = engine.connect()
                continue
            case .raw(let raw):
                input = raw
            case .frame(let line):
                guard let document = try? JSONDocument(parsing: lines[line - 1]), let frame = document.root["frame"]
                else { return differ(line, expected: "an in record", got: lines[line - 1]) }
                input = Replayer.mappingResume(frame, sessionIDs, tokens)
                op = frame.isObject ? frame["op"]?.string : nil
                if op == "batch" {
                    inner = frame["ops"]?.elements?.map { $0.isObject ? $0["op"]?.string : nil } ?? []
                }
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
            if let difference = compareProduced() { return difference }
        }
        if next < outputs.count {
            let line = outputs[next]
            let expected = (try? JSONDocument(parsing: lines[line - 1]))?.root["frame"]?.compactText
            return differ(line, expected: expected ?? lines[line - 1], got: "no frame")
        }
        if next < produced.count {
            return differ(lines.count + 1, expected: "end of recording", got: produced[next])
        }
        return Outcome(difference: nil, framesMatched: next)
    }

    /// What one line of a recording holds.
    enum Record {
        /// An input line from a `frame` on this line (read again when it is sent).
        case frame(line: Int)
        /// An input line kept as text (`raw`).
        case raw(String)
        /// The client's connection ended here (`{"dir":"meta","connection":"closed"}`).
        case reconnect
        /// An output frame on this line, to compare.
        case output(line: Int)
    }

    /// A recording's lines read as records, or the first line that is not one.
    enum Reading {
        case records([Record])
        case notARecord(Difference)
    }

    /// The records of a recording's lines (blank lines and records of another `dir` hold none), or where a line
    /// is not a record. The Node replayer's `parseSession` reads them by the same rules.
    static func records(_ lines: [String]) -> Reading {
        var records: [Record] = []
        for (index, line) in lines.enumerated() where !isBlank(line) {
            let number = index + 1
            let record: JSONDocument
            do {
                record = try JSONDocument(parsing: line)
            } catch {
                return .notARecord(Difference(line: number, expected: "a record", got: "bad JSON: \(error)"))
            }
            guard record.root.isObject, let dir = record.root["dir"], dir.stringBytes != nil else {
                let expected = "a record: a JSON object with a \"dir\""
                return .notARecord(Difference(line: number, expected: expected, got: line))
            }
            if dir.isString("meta") {
                if record.root["connection"]?.isString("closed") == true { records.append(.reconnect) }
            } else if dir.isString("in") {
                if record.root["frame"] != nil {
                    records.append(.frame(line: number))
                } else if let raw = record.root["raw"]?.string {
                    records.append(.raw(raw))
                } else {
                    let expected = "an in record with frame or raw"
                    return .notARecord(Difference(line: number, expected: expected, got: line))
                }
            } else if dir.isString("out") {
                guard record.root["frame"] != nil else {
                    return .notARecord(Difference(line: number, expected: "an out record with a frame", got: line))
                }
                records.append(.output(line: number))
            }
            // Records of any other `dir` are not frames.
        }
        return .records(records)
    }

    /// The resume tokens a replay has seen in hello results.
    struct Tokens {
        /// Recorded session id → the token its recorded hello result had (`.some(nil)`: it had none).
        var recorded: [String: String?] = [:]
        /// This replay's session id → its token.
        var actual: [String: String] = [:]
    }

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
    /// result fields and built-in components that the recording lacks and that were added since
    /// (``ReplayRules``) are left out.
    static func normalised(
        _ frame: JSONRef,
        op: String?,
        batchOps: [String?] = [],
        recorded: JSONRef? = nil
    ) -> JSONDocument {
        let copy = JSONDocument(retaining: frame).deepCopy()
        guard let op, let result = copy.root["result"], result.isObject else { return copy }
        let rules = ReplayRules.shared
        switch op {
        case "hello":
            for name in rules.helloVaries where result[name] != nil { result.setString(name, "<\(name)>") }
            if let recordedResult = recorded?["result"], recordedResult.isObject {
                for path in rules.fieldsAddedToHello { removeAdded(path, from: result, absentFrom: recordedResult) }
                if let components = result["components"], components.isObject,
                    let recordedComponents = recordedResult["components"], recordedComponents.isObject
                {
                    for name in rules.componentsAddedToBuiltins where recordedComponents[name] == nil {
                        components.removeMember(name)
                    }
                }
            }
        case "batch":
            guard let results = result["results"], let count = results.arrayCount else { break }
            for (index, inner) in batchOps.enumerated() where index < count {
                guard let inner, rules.integersVary.contains(inner) else { continue }
                let element = results.element(at: index)
                if element.isObject { zeroIntegers(element) }
            }
        case _ where rules.integersVary.contains(op):
            zeroIntegers(result)
        default:
            break
        }
        return copy
    }

    /// Removes the member at `path` (``ReplayRules/fieldsAddedToHello``: `name`, `name.member` or `name.*`) from
    /// `live` where `recorded` lacks it.
    static func removeAdded(_ path: String, from live: JSONRef, absentFrom recorded: JSONRef) {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            if recorded[path] == nil { live.removeMember(path) }
            return
        }
        guard let liveInner = live[parts[0]], liveInner.isObject, let recordedInner = recorded[parts[0]],
            recordedInner.isObject
        else { return }
        for key in parts[1] == "*" ? liveInner.keys : [parts[1]] where recordedInner[key] == nil {
            liveInner.removeMember(key)
        }
    }

    /// The lists some error messages end with grow (``ReplayRules/listsThatGrow``): where the recorded message
    /// lists some of the live one's items, in the same order, the live message is taken as the recorded one (the
    /// error's own `message`, and a batch's inner error's).
    static func allowListsGrownSince(recorded: JSONRef, in live: JSONRef) {
        var recordedError = recorded["error"]
        var liveError = live["error"]
        while let recordedObject = recordedError, recordedObject.isObject, let liveObject = liveError,
            liveObject.isObject
        {
            if let code = recordedObject["code"]?.string, liveObject["code"]?.string == code,
                let recordedMessage = recordedObject["message"]?.string,
                let liveMessage = liveObject["message"]?.string,
                ReplayRules.shared.grewSince(code: code, recorded: recordedMessage, live: liveMessage)
            {
                liveObject.setString("message", recordedMessage)
            }
            recordedError = recordedObject["error"]
            liveError = liveObject["error"]
        }
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
