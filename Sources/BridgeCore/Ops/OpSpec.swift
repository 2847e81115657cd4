/// What a client knows of an op beside its ``OpTable/Entry``: its request's fields, a sample request, the shape of
/// its result, and whether a client may send it again. Each op's file holds its `spec`; `bridged ops` prints them
/// all (``OpTable/describe()``), and the Node client's `lib/ops.js` (`OPS`, `LIMITS`) and `index.d.ts`'s
/// `RequestResults` are generated from that (`bridged-client generate`; `js-client/test/generated.test.js` fails,
/// naming the file and the command, when one is stale).
///
/// Fields and results are written in a small schema language, as JSON text:
/// - `"string"`, `"integer"`, `"number"`, `"boolean"`, `"null"`, `"json"` (any value), `"object"` (any object);
///   `"integer|null"`: either;
/// - `[S]`: an array of `S`;
/// - `{"name": S, "other?": S}`: an object with exactly these members (`?`: it may be absent);
/// - `{"*": S}`: an object whose every member is `S`;
/// - `{"$oneOf": [S, …]}`: one of them;
/// - `"$name": "Name"` in an object: the TypeScript type `index.d.ts` declares for it by hand (a result's shape is
///   checked all the same).
///
/// Every op's sample, sent after ``OpTable/sampleSetup`` (with the session's layout on where ``needsLayout``), is
/// answered with a result of its schema: `js-client/test/op-results.test.js` sends each to a real daemon.
/// `OpTableTests` checks that the sample has the fields and that leaving out a required one is refused, naming it.
public struct OpSpec: Sendable {
    /// The request's fields beside `id` and `op`: an object schema.
    public let fields: StaticString
    /// A request the op answers with a result; `"<session>"` stands for the id of the session it is sent on.
    public let sample: StaticString
    /// The shape of its result.
    public let result: StaticString
    /// Sent again on the next connection when the connection was lost before its answer: repeating it changes
    /// nothing.
    public let safeToRepeat: Bool
    /// Does not depend on the session's views: still sent after a reconnect started a fresh session.
    public let sessionFree: Bool
    /// Its sample needs the session's layout on (`layout` with React Native's `ReactCommon/yoga`).
    public let needsLayout: Bool

    init(
        fields: StaticString = "{}",
        sample: StaticString,
        result: StaticString = "{}",
        safeToRepeat: Bool = false,
        sessionFree: Bool = false,
        needsLayout: Bool = false
    ) {
        self.fields = fields
        self.sample = sample
        self.result = result
        self.safeToRepeat = safeToRepeat
        self.sessionFree = sessionFree
        self.needsLayout = needsLayout
    }
}

extension OpTable {
    /// The requests every op's sample is sent after, on a session of its own: hello, a View (tag 1) holding a
    /// SwiftUIButton (tag 2).
    public static let sampleSetup: [String] = [
        #"{"op":"hello","protocol":1}"#,
        #"{"op":"create","tag":1,"component":"View"}"#,
        #"{"op":"create","tag":2,"component":"SwiftUIButton","props":{"title":"Sample"},"parent":1}"#,
    ]

    /// Every op's spec, in ``ops``'s order.
    public static var specs: [(name: String, spec: OpSpec)] {
        zip(names, ops.map { $0.spec }).map { ($0, $1) }
    }

    /// What `bridged ops` prints: every op (its entry's name and batch rule, its ``OpSpec``), the session limits
    /// (``SessionLimit/all``) and ``sampleSetup``, as one JSON object.
    public static func describe() -> String {
        let ops = entries.indices.map { index in
            let (entry, spec) = (entries[index], OpTable.ops[index].spec)
            return object([
                ("name", quoted(entry.name.description)),
                ("batch", entry.batch.refusal.map { quoted($0.description) } ?? "true"),
                ("safeToRepeat", "\(spec.safeToRepeat)"), ("sessionFree", "\(spec.sessionFree)"),
                ("needsLayout", "\(spec.needsLayout)"), ("fields", spec.fields.description),
                ("sample", spec.sample.description), ("result", spec.result.description),
            ])
        }
        let limits = SessionLimit.all.map {
            object([("name", quoted($0.name)), ("flag", quoted($0.flag)), ("minimum", "\($0.minimum)")])
        }
        return object([
            ("ops", "[" + ops.joined(separator: ",") + "]"),
            ("limits", "[" + limits.joined(separator: ",") + "]"),
            ("sampleSetup", "[" + sampleSetup.joined(separator: ",") + "]"),
        ])
    }

    /// A JSON object of members whose values are JSON text already.
    private static func object(_ members: [(name: String, json: String)]) -> String {
        "{" + members.map { quoted($0.name) + ":" + $0.json }.joined(separator: ",") + "}"
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String {
        var w = JSONWriter()
        w.string(text)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
