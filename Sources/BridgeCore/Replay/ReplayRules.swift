/// What both replayers normalise, as data: js-client/lib/replay-rules.json, which the Node replayer reads, held here
/// verbatim (``json``; `ReplayRulesTests` fails, naming the file, when the two differ: paste the file's text in).
///
/// - `helloVaries`: hello result members that vary between runs (replaced by `<name>` on both sides).
/// - `integersVary`: ops whose result's integer members vary between runs (0 on both sides), also as a batch's op.
/// - `fieldsAddedToHello`: hello result members added since recordings began: left out of the live result where
///   the recorded one lacks them.
/// - `componentsAddedToBuiltins`: built-in components added since recordings began: left out of the live hello's
///   `components` where the recorded one lacks them (`ReplayRulesTests` fails, naming this list, for a built-in
///   that the first recordings lack and it does not name).
public struct ReplayRules: Sendable {
    public let helloVaries: [String]
    public let integersVary: [String]
    public let fieldsAddedToHello: [String]
    public let componentsAddedToBuiltins: [String]

    /// The rules, read from ``json``.
    public static let shared = ReplayRules(json: json)

    /// The rules of `json` (replay-rules.json's text); a list it lacks is empty.
    init(json: String) {
        var lists: [String: [String]] = [:]
        if let document = try? JSONDocument(parsing: json) {
            for name in document.root.keys { lists[name] = document.root[name]?.elements?.compactMap(\.string) }
        }
        helloVaries = lists["helloVaries"] ?? []
        integersVary = lists["integersVary"] ?? []
        fieldsAddedToHello = lists["fieldsAddedToHello"] ?? []
        componentsAddedToBuiltins = lists["componentsAddedToBuiltins"] ?? []
    }

    /// js-client/lib/replay-rules.json, byte for byte (but the last newline).
    public static let json = #"""
        {
          "helloVaries": ["session", "server", "token", "maxFrameBytes"],
          "integersVary": ["stats"],
          "fieldsAddedToHello": ["token", "limits", "maxFrameBytes", "propTypes"],
          "componentsAddedToBuiltins": [
            "RCTView", "RCTText", "RCTVirtualText", "RCTRawText", "RCTScrollView", "RCTScrollContentView", "RCTSwitch",
            "RCTSinglelineTextInputView", "RCTMultilineTextInputView", "RCTActivityIndicatorView", "RCTImageView",
            "RCTModalHostView", "RCTSafeAreaView", "RCTRefreshControl"
          ]
        }
        """#
}
