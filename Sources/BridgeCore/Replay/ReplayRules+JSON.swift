// Generated from js-client/lib/replay-rules.json by
//   node js-client/scripts/generate.js --bin .build/debug/bridged
// Do not edit: edit the JSON file and run it again (js-client/test/generated.test.js and ReplayRulesTests fail
// until then).

extension ReplayRules {
    /// js-client/lib/replay-rules.json, byte for byte (but the last newline): the rules both replayers read.
    public static let json = #"""
        {
          "helloVaries": ["session", "server", "token", "maxFrameBytes"],
          "integersVary": ["stats"],
          "fieldsAddedToHello": ["token", "limits", "maxFrameBytes", "propTypes", "limits.*"],
          "componentsAddedToBuiltins": [
            "RCTView", "RCTText", "RCTVirtualText", "RCTRawText", "RCTScrollView", "RCTScrollContentView", "RCTSwitch",
            "RCTSinglelineTextInputView", "RCTMultilineTextInputView", "RCTActivityIndicatorView", "RCTImageView",
            "RCTModalHostView", "RCTSafeAreaView", "RCTRefreshControl"
          ],
          "listsThatGrow": [
            { "code": "unknown_op", "after": "; expected one of " },
            { "code": "unknown_component", "after": "; registered: " }
          ]
        }
        """#
}
