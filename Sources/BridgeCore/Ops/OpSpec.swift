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
        var w = JSONWriter()
        w.raw(#"{"ops":["#)
        for (index, entry) in entries.enumerated() {
            let spec = ops[index].spec
            if index > 0 { w.comma() }
            w.raw(#"{"name":"#)
            w.string(entry.name.description)
            w.raw(#","batch":"#)
            if let refusal = entry.batch.refusal {
                w.string(refusal.description)
            } else {
                w.raw("true")
            }
            w.raw(#","safeToRepeat":"#)
            w.raw(spec.safeToRepeat ? "true" : "false")
            w.raw(#","sessionFree":"#)
            w.raw(spec.sessionFree ? "true" : "false")
            w.raw(#","needsLayout":"#)
            w.raw(spec.needsLayout ? "true" : "false")
            w.raw(#","fields":"#)
            w.raw(spec.fields)
            w.raw(#","sample":"#)
            w.raw(spec.sample)
            w.raw(#","result":"#)
            w.raw(spec.result)
            w.raw("}")
        }
        w.raw(#"],"limits":["#)
        for (index, limit) in SessionLimit.all.enumerated() {
            if index > 0 { w.comma() }
            w.raw(#"{"name":"#)
            w.string(limit.name)
            w.raw(#","flag":"#)
            w.string(limit.flag)
            w.raw(#","minimum":"#)
            w.int(limit.minimum)
            w.raw("}")
        }
        w.raw(#"],"sampleSetup":["#)
        for (index, line) in sampleSetup.enumerated() {
            if index > 0 { w.comma() }
            w.raw(Array(line.utf8))
        }
        w.raw("]}")
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
