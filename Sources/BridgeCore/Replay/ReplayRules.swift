/// What both replayers normalise, as data: js-client/lib/replay-rules.json, which the Node replayer reads and which
/// is generated into ``json`` (`ReplayRules+JSON.swift`, by `node js-client/scripts/generate.js`; js-client's
/// generated.test.js and `ReplayRulesTests` fail, naming the command, when it is stale).
///
/// - `helloVaries`: hello result members that vary between runs (replaced by `<name>` on both sides).
/// - `integersVary`: ops whose result's integer members vary between runs (0 on both sides), also as a batch's op.
/// - `fieldsAddedToHello`: hello result members added since recordings began: left out of the live result where
///   the recorded one lacks them. `a.b` names a member of the member `a`; `a.*` every member of `a` (`limits.*`:
///   a session limit added since).
/// - `componentsAddedToBuiltins`: built-in components added since recordings began: left out of the live hello's
///   `components` where the recorded one lacks them (`ReplayRulesTests` fails, naming this list, for a built-in
///   that the first recordings lack and it does not name).
/// - `listsThatGrow`: error messages that end with a list the daemon grows (`unknown_op`'s ops, `unknown_component`'s
///   components): an error of that `code` whose recorded message lists, after `after`, some of the live message's
///   items in the same order (separated by `, `), and is the same before it, is taken as the live one.
public struct ReplayRules: Sendable {
    public let helloVaries: [String]
    public let integersVary: [String]
    public let fieldsAddedToHello: [String]
    public let componentsAddedToBuiltins: [String]
    public let listsThatGrow: [ListThatGrows]

    /// An error message ending with a list that grows: its error's `code`, and the text the list follows.
    public struct ListThatGrows: Sendable, Equatable {
        public let code: String
        public let after: String

        public init(code: String, after: String) {
            self.code = code
            self.after = after
        }
    }

    /// The rules, read from ``json``.
    public static let shared = ReplayRules(json: json)

    /// The rules of `json` (replay-rules.json's text); a list it lacks is empty.
    init(json: String) {
        var lists: [String: [String]] = [:]
        var growing: [ListThatGrows] = []
        if let document = try? JSONDocument(parsing: json) {
            for name in document.root.keys { lists[name] = document.root[name]?.elements?.compactMap(\.string) }
            for rule in document.root["listsThatGrow"]?.elements ?? [] {
                if let code = rule["code"]?.string, let after = rule["after"]?.string {
                    growing.append(ListThatGrows(code: code, after: after))
                }
            }
        }
        helloVaries = lists["helloVaries"] ?? []
        integersVary = lists["integersVary"] ?? []
        fieldsAddedToHello = lists["fieldsAddedToHello"] ?? []
        componentsAddedToBuiltins = lists["componentsAddedToBuiltins"] ?? []
        listsThatGrow = growing
    }

    /// Whether `recorded` is `live` but for items `live`'s list (after `after`) has in addition, in the same order.
    public static func listsFewer(_ recorded: String, than live: String, after marker: String) -> Bool {
        guard recorded != live, let recordedMarker = recorded.firstRange(of: marker),
            let liveMarker = live.firstRange(of: marker),
            recorded[..<recordedMarker.upperBound] == live[..<liveMarker.upperBound]
        else { return false }
        let recordedItems = recorded[recordedMarker.upperBound...].split(separator: ", ")
        var liveItems = live[liveMarker.upperBound...].split(separator: ", ")[...]
        for item in recordedItems {
            guard let found = liveItems.firstIndex(of: item) else { return false }
            liveItems = liveItems[(found + 1)...]
        }
        return true
    }

    /// Whether a recorded error (`code`, `recorded` message) equals a live one by ``listsThatGrow``.
    public func grewSince(code: String, recorded: String, live: String) -> Bool {
        listsThatGrow.contains { $0.code == code && ReplayRules.listsFewer(recorded, than: live, after: $0.after) }
    }
}
