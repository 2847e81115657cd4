import BridgeCore
import Testing

/// The event names of `frames`, in order.
private func names(_ frames: [String]) -> [String] { frames.map { field($0, "event") } }

/// `RCTSinglelineTextInputView` and `RCTMultilineTextInputView`: the daemon as the keyboard.
@Suite("React Native core components: TextInput")
struct ReactNativeTextInputTests {
    /// View 1 > text input 2, with every text event subscribed on the input.
    func input(_ props: String = "{}", multiline: Bool = false) -> Client {
        let client = Client()
        let component = multiline ? "RCTMultilineTextInputView" : "RCTSinglelineTextInputView"
        client.send(#"{"op":"create","tag":1,"component":"RCTView"}"#)
        client.send(#"{"op":"create","tag":2,"component":"\#(component)","parent":1,"props":\#(props)}"#)
        for event in ["focus", "blur", "change", "submitEditing", "endEditing", "keyPressSync"] {
            client.send(#"{"op":"subscribe","tag":2,"event":"\#(event)"}"#)
        }
        return client
    }

    func render(_ client: Client) -> String { field(client.inspect(2), "result.render") }

    @Test func typingAppendsAndReportsTheKeyThenTheChange() {
        let client = input(#"{"placeholder":"Name"}"#)
        #expect(render(client) == #""TextInput placeholder=\"Name\"""#)
        let events = client.send(#"{"op":"command","tag":2,"name":"type","args":["a"]}"#).events
        #expect(names(events) == [#""keyPressSync""#, #""change""#])
        #expect(field(events[0], "payload") == canonical(#"{"key":"a","eventCount":0}"#))
        #expect(field(events[1], "payload") == canonical(#"{"text":"a","eventCount":1}"#))
        client.send(#"{"op":"command","tag":2,"name":"type","args":["na"]}"#)
        #expect(field(client.inspect(2), "result.props.text") == #""ana""#)
        #expect(render(client) == #""TextInput \"ana\"""#)
    }

    @Test func aNonEditableInputTakesNoTypingAndNoFocus() {
        let client = input(#"{"editable":false,"text":"fixed"}"#)
        #expect(client.send(#"{"op":"command","tag":2,"name":"type","args":["a"]}"#).events.isEmpty)
        #expect(client.send(#"{"op":"command","tag":2,"name":"focus"}"#).events.isEmpty)
        #expect(client.send(#"{"op":"command","tag":2,"name":"clear"}"#).events.isEmpty)
        #expect(render(client) == #""TextInput \"fixed\" disabled""#)
    }

    @Test func maxLengthRefusesACharacterAndCutsAPaste() {
        let client = input(#"{"maxLength":3}"#)
        client.send(#"{"op":"command","tag":2,"name":"type","args":["ab"]}"#)
        // "c👍": one UTF-16 unit of room: the paste is cut to "c".
        let cut = client.send(#"{"op":"command","tag":2,"name":"type","args":["c👍"]}"#).events
        #expect(field(cut[1], "payload.text") == #""abc""#)
        let refused = client.send(#"{"op":"command","tag":2,"name":"type","args":["d"]}"#).events
        #expect(names(refused) == [#""keyPressSync""#], "iOS reports the key, refuses the edit: no change")
        #expect(field(client.inspect(2), "result.props.text") == #""abc""#)
    }

    @Test func theDeleteKeyReportsBackspaceThenTakesTheLastCharacter() {
        let client = input()
        client.send(#"{"op":"subscribe","tag":2,"event":"selectionChange"}"#)
        client.send(#"{"op":"command","tag":2,"name":"type","args":["ab👍🏽"]}"#)
        let events = client.send(#"{"op":"command","tag":2,"name":"deleteBackward"}"#).events
        #expect(names(events) == [#""keyPressSync""#, #""change""#, #""selectionChange""#])
        #expect(field(events[0], "payload") == canonical(#"{"key":"Backspace","eventCount":1}"#))
        // A grapheme at a time: the emoji with its skin tone (four UTF-16 units) goes at once.
        #expect(field(events[1], "payload") == canonical(#"{"text":"ab","eventCount":2}"#))
        #expect(field(events[2], "payload") == canonical(#"{"selection":{"start":2,"end":2}}"#))
        client.send(#"{"op":"command","tag":2,"name":"deleteBackward"}"#)
        client.send(#"{"op":"command","tag":2,"name":"deleteBackward"}"#)
        #expect(field(client.inspect(2), "result.props.text") == #""""#)
        // On an empty text the key is still reported; nothing changes.
        let empty = client.send(#"{"op":"command","tag":2,"name":"deleteBackward"}"#).events
        #expect(names(empty) == [#""keyPressSync""#])
        #expect(field(empty[0], "payload") == canonical(#"{"key":"Backspace","eventCount":4}"#))
    }

    @Test func deleteAllSelectsTheTextThenDeletesIt() {
        let client = input(#"{"text":"hello"}"#)
        client.send(#"{"op":"subscribe","tag":2,"event":"selectionChange"}"#)
        let events = client.send(#"{"op":"command","tag":2,"name":"deleteAll"}"#).events
        #expect(names(events) == [#""selectionChange""#, #""keyPressSync""#, #""change""#, #""selectionChange""#])
        #expect(field(events[0], "payload") == canonical(#"{"selection":{"start":0,"end":5}}"#))
        #expect(field(events[2], "payload") == canonical(#"{"text":"","eventCount":1}"#))
        #expect(field(events[3], "payload") == canonical(#"{"selection":{"start":0,"end":0}}"#))
        let again = client.send(#"{"op":"command","tag":2,"name":"deleteAll"}"#).events
        #expect(names(again) == [#""keyPressSync""#], "nothing to select: the key alone")
        let fixed = input(#"{"editable":false,"text":"fixed"}"#)
        #expect(fixed.send(#"{"op":"command","tag":2,"name":"deleteBackward"}"#).events.isEmpty)
        #expect(fixed.send(#"{"op":"command","tag":2,"name":"deleteAll"}"#).events.isEmpty)
        #expect(field(fixed.inspect(2), "result.props.text") == #""fixed""#)
    }

    @Test func pasteSelectsTheTextThenReplacesItAsOneChangeWithNoKey() {
        let client = input(#"{"text":"hello","maxLength":4}"#)
        client.send(#"{"op":"subscribe","tag":2,"event":"selectionChange"}"#)
        let events = client.send(#"{"op":"command","tag":2,"name":"paste","args":["ab👍c"]}"#).events
        // No keyPressSync: iOS reports no key for pasted text. maxLength cuts the paste to whole characters.
        #expect(names(events) == [#""selectionChange""#, #""change""#, #""selectionChange""#])
        #expect(field(events[0], "payload") == canonical(#"{"selection":{"start":0,"end":5}}"#))
        #expect(field(events[1], "payload") == canonical(#"{"text":"ab👍","eventCount":1}"#))
        let same = client.send(#"{"op":"command","tag":2,"name":"paste","args":["ab👍"]}"#).events
        #expect(names(same) == [#""selectionChange""#], "the same text: selected, nothing changes")
        let fixed = input(#"{"editable":false,"text":"fixed"}"#)
        #expect(fixed.send(#"{"op":"command","tag":2,"name":"paste","args":["x"]}"#).events.isEmpty)
    }

    @Test func setTextAndSelectionIgnoresAStaleCall() {
        let client = input()
        client.send(#"{"op":"command","tag":2,"name":"type","args":["a"]}"#)
        client.send(#"{"op":"command","tag":2,"name":"type","args":["b"]}"#)
        client.send(#"{"op":"command","tag":2,"name":"setTextAndSelection","args":[1,"stale",0,0]}"#)
        #expect(field(client.inspect(2), "result.props.text") == #""ab""#)
        let fresh = client.send(#"{"op":"command","tag":2,"name":"setTextAndSelection","args":[2,"fresh",5,5]}"#)
        #expect(fresh.events.isEmpty, "a change JavaScript made is not reported back")
        #expect(field(client.inspect(2), "result.props.text") == #""fresh""#)
        client.send(#"{"op":"command","tag":2,"name":"setTextAndSelection","args":[2,null,0,0]}"#)
        #expect(field(client.inspect(2), "result.props.text") == #""fresh""#)
    }

    @Test func submitOnOneLineEndsEditingThenBlurs() {
        let client = input(#"{"text":"ana"}"#)
        #expect(names(client.send(#"{"op":"command","tag":2,"name":"focus"}"#).events) == [#""focus""#])
        #expect(render(client) == #""TextInput \"ana\" focused""#)
        let events = client.send(#"{"op":"command","tag":2,"name":"submit"}"#).events
        #expect(names(events) == [#""submitEditing""#, #""endEditing""#, #""blur""#])
        #expect(field(events[0], "payload") == canonical(#"{"text":"ana","eventCount":0}"#))
        #expect(field(events[1], "payload") == canonical(#"{"text":"ana"}"#))
        #expect(render(client) == #""TextInput \"ana\"""#)
        #expect(client.send(#"{"op":"command","tag":2,"name":"blur"}"#).events.isEmpty, "not focused")
    }

    @Test func submitOnManyLinesKeepsTheFocusUnlessTold() {
        let client = input(multiline: true)
        client.send(#"{"op":"command","tag":2,"name":"focus"}"#)
        #expect(names(client.send(#"{"op":"command","tag":2,"name":"submit"}"#).events) == [#""submitEditing""#])
        client.send(#"{"op":"update","tag":2,"props":{"submitBehavior":"blurAndSubmit"}}"#)
        let events = client.send(#"{"op":"command","tag":2,"name":"submit"}"#).events
        #expect(names(events) == [#""submitEditing""#, #""endEditing""#, #""blur""#])
        client.send(#"{"op":"update","tag":2,"props":{"submitBehavior":"newline"}}"#)
        let newline = client.send(#"{"op":"command","tag":2,"name":"submit"}"#).events
        #expect(names(newline) == [#""keyPressSync""#, #""change""#])
        #expect(field(newline[1], "payload.text") == #""\n""#)
    }

    @Test func aReturnKeyEnabledAutomaticallyDoesNothingOnAnEmptyField() {
        let client = input(#"{"enablesReturnKeyAutomatically":true}"#)
        client.send(#"{"op":"command","tag":2,"name":"focus"}"#)
        #expect(client.send(#"{"op":"command","tag":2,"name":"submit"}"#).events.isEmpty, "iOS disables the key")
        #expect(render(client) == #""TextInput placeholder=\"\" focused""#)
        client.send(#"{"op":"command","tag":2,"name":"type","args":["a"]}"#)
        let events = client.send(#"{"op":"command","tag":2,"name":"submit"}"#).events
        #expect(names(events) == [#""submitEditing""#, #""endEditing""#, #""blur""#])
    }

    @Test func aBlurOnSubmitOfFalseKeepsTheFocus() {
        let client = input(#"{"blurOnSubmit":false}"#)
        client.send(#"{"op":"command","tag":2,"name":"focus"}"#)
        #expect(names(client.send(#"{"op":"command","tag":2,"name":"submit"}"#).events) == [#""submitEditing""#])
        #expect(render(client) == #""TextInput placeholder=\"\" focused""#)
    }

    @Test func aFieldTakingTheFocusEndsTheEditingOfTheOneThatHadItFirst() {
        let client = input(#"{"placeholder":"first"}"#)
        client.send(#"{"op":"create","tag":3,"component":"RCTMultilineTextInputView","parent":1}"#)
        for event in ["focus", "blur", "endEditing"] { client.send(#"{"op":"subscribe","tag":3,"event":"\#(event)"}"#) }
        client.send(#"{"op":"command","tag":2,"name":"focus"}"#)
        // UIKit ends the first field's editing, then begins the second's: one request, the events in that order.
        let events = client.send(#"{"op":"command","tag":3,"name":"focus"}"#).events
        #expect(
            events.map { "\(field($0, "target")) \(field($0, "event"))" } == [
                #"2 "endEditing""#, #"2 "blur""#, #"3 "focus""#,
            ]
        )
        #expect(render(client) == #""TextInput placeholder=\"first\"""#)
        #expect(field(client.inspect(3), "result.render") == #""TextInput placeholder=\"\" focused""#)
        #expect(
            field(client.inspect(2), "result.commands")
                == canonical(#"[{"name":"focus","args":[]},{"name":"blur","args":[]}]"#)
        )
        // Focusing the field that has the focus changes nothing; a blurred field's focus blurs no one.
        #expect(client.send(#"{"op":"command","tag":3,"name":"focus"}"#).events.isEmpty)
        client.send(#"{"op":"command","tag":3,"name":"blur"}"#)
        #expect(names(client.send(#"{"op":"command","tag":2,"name":"focus"}"#).events) == [#""focus""#])
        // In a batch that fails, the move of the focus is taken back with the rest.
        let failed = client.send(
            #"{"op":"batch","ops":[{"op":"command","tag":3,"name":"focus"},{"op":"update","tag":99,"props":{}}]}"#
        )
        #expect(failed.events.isEmpty)
        #expect(render(client) == #""TextInput placeholder=\"first\" focused""#)
        #expect(field(client.inspect(3), "result.render") == #""TextInput placeholder=\"\"""#)
    }

    @Test func clearEmptiesTheTextAsAChange() {
        let client = input(#"{"text":"abc","secureTextEntry":true}"#)
        let events = client.send(#"{"op":"command","tag":2,"name":"clear"}"#).events
        #expect(field(events[0], "payload") == canonical(#"{"text":"","eventCount":1}"#))
        #expect(render(client) == #""TextInput placeholder=\"\" secure""#)
    }

    @Test func everyPropOfTheViewConfigIsTaken() {
        let client = input()
        let props =
            #"{"keyboardType":"email-address","autoCapitalize":"none","selection":{"start":0,"end":1},"#
            + ##""placeholderTextColor":"#ff0000","returnKeyType":"done","textContentType":"username","##
            + #""clearButtonMode":"while-editing","autoCorrect":false,"multiline":false,"mostRecentEventCount":0}"#
        let response = client.send(#"{"op":"update","tag":2,"props":\#(props)}"#).response
        #expect(field(response, "ok") == "true", "\(response)")
    }
}

@Suite("React Native core components: Switch, ScrollView, Image, Modal, RefreshControl, ActivityIndicator")
struct ReactNativeCoreComponentsTests {
    @Test func toggleFlipsTheSwitchUnlessDisabled() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"RCTView"}"#)
        client.send(##"{"op":"create","tag":2,"component":"RCTSwitch","parent":1,"props":{"onTintColor":"#00ff00"}}"##)
        client.send(#"{"op":"subscribe","tag":1,"event":"change"}"#)
        let events = client.send(#"{"op":"command","tag":2,"name":"toggle"}"#).events
        #expect(field(events[0], "payload") == canonical(#"{"value":true}"#))
        #expect(field(client.inspect(2), "result.render") == #""Switch on""#)
        #expect(client.send(#"{"op":"command","tag":2,"name":"setValue","args":[false]}"#).events.isEmpty)
        client.send(#"{"op":"update","tag":2,"props":{"disabled":true}}"#)
        #expect(client.send(#"{"op":"command","tag":2,"name":"toggle"}"#).events.isEmpty)
        #expect(field(client.inspect(2), "result.render") == #""Switch off disabled""#)
    }

    @Test func scrollToMovesTheOffsetAndEmitsScroll() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"RCTScrollView","props":{"bounces":false}}"#)
        client.send(#"{"op":"create","tag":2,"component":"RCTScrollContentView","parent":1}"#)
        client.send(#"{"op":"subscribe","tag":1,"event":"scroll"}"#)
        let events = client.send(#"{"op":"command","tag":1,"name":"scrollTo","args":[0,120,true]}"#).events
        #expect(events.count == 1)
        #expect(field(events[0], "payload.contentOffset") == canonical(#"{"x":0.0,"y":120.0}"#))
        #expect(field(events[0], "payload.zoomScale") == "1.0")
        #expect(field(client.inspect(1), "result.render") == #""ScrollView offset=(0,120)""#)
        #expect(client.send(#"{"op":"command","tag":1,"name":"scrollTo","args":[0,120,true]}"#).events.isEmpty)
        // No layout known yet: scrollToEnd stays.
        #expect(client.send(#"{"op":"command","tag":1,"name":"scrollToEnd","args":[true]}"#).events.isEmpty)
    }

    @Test func aDragEmitsBeginScrollEndAndScrollToEndUsesItsSizes() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"RCTScrollView"}"#)
        for event in ["scrollBeginDrag", "scroll", "scrollEndDrag"] {
            client.send(#"{"op":"subscribe","tag":1,"event":"\#(event)"}"#)
        }
        let drag = client.send(#"{"op":"command","tag":1,"name":"scroll","args":[0,50,320,480,320,1000]}"#).events
        #expect(names(drag) == [#""scrollBeginDrag""#, #""scroll""#, #""scrollEndDrag""#])
        #expect(field(drag[1], "payload.layoutMeasurement") == canonical(#"{"width":320.0,"height":480.0}"#))
        #expect(field(drag[1], "payload.contentSize") == canonical(#"{"width":320.0,"height":1000.0}"#))
        let end = client.send(#"{"op":"command","tag":1,"name":"scrollToEnd","args":[false]}"#).events
        #expect(field(end[0], "payload.contentOffset") == canonical(#"{"x":0.0,"y":520.0}"#))
        client.send(#"{"op":"update","tag":1,"props":{"scrollEnabled":false}}"#)
        #expect(client.send(#"{"op":"command","tag":1,"name":"scroll","args":[0,9,1,1,1,1]}"#).events.isEmpty)
    }

    @Test func aDragInStepsScrollsThroughEvenlySpacedOffsets() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"RCTScrollView","props":{"contentOffset":{"x":0,"y":100}}}"#)
        for event in ["scrollBeginDrag", "scroll", "scrollEndDrag", "momentumScrollBegin", "momentumScrollEnd"] {
            client.send(#"{"op":"subscribe","tag":1,"event":"\#(event)"}"#)
        }
        let drag = client.send(#"{"op":"command","tag":1,"name":"drag","args":[0,500,320,480,320,2000,4]}"#).events
        #expect(
            names(drag) == [
                #""scrollBeginDrag""#, #""scroll""#, #""scroll""#, #""scroll""#, #""scroll""#, #""scrollEndDrag""#,
            ]
        )
        let offsets = drag.map { field($0, "payload.contentOffset.y") }
        #expect(offsets == ["100.0", "200.0", "300.0", "400.0", "500.0", "500.0"])
        #expect(field(client.inspect(1), "result.render") == #""ScrollView offset=(0,500)""#)
        // A drag that does not move the offset reports no scroll (a `scroll` reports one); fewer than one step is one.
        func count(_ name: String, _ args: String) -> Int {
            client.send(#"{"op":"command","tag":1,"name":"\#(name)","args":[\#(args)]}"#).events.count
        }
        #expect(count("drag", "0,500,320,480,320,2000,4") == 2)
        #expect(count("scroll", "0,500,320,480,320,2000") == 3)
        #expect(count("drag", "0,0,320,480,320,2000,0") == 3)
        // A paging view still settles on its page after the steps.
        client.send(#"{"op":"update","tag":1,"props":{"pagingEnabled":true}}"#)
        let swipe = client.send(#"{"op":"command","tag":1,"name":"drag","args":[0,700,320,480,320,2000,2]}"#).events
        #expect(names(swipe).count == 7)
        #expect(field(swipe.last!, "payload.contentOffset.y") == "480.0")
        client.send(#"{"op":"update","tag":1,"props":{"scrollEnabled":false}}"#)
        #expect(client.send(#"{"op":"command","tag":1,"name":"drag","args":[0,9,1,1,1,1,3]}"#).events.isEmpty)
    }

    @Test func aPagingScrollViewLetGoDeceleratesOntoTheNearestPage() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"RCTScrollView","props":{"pagingEnabled":true}}"#)
        for event in ["scrollBeginDrag", "scroll", "scrollEndDrag", "momentumScrollBegin", "momentumScrollEnd"] {
            client.send(#"{"op":"subscribe","tag":1,"event":"\#(event)"}"#)
        }
        // Three pages of 390 side by side; the drag ends at 500, past the middle of none: the view settles on 390.
        let swipe = client.send(#"{"op":"command","tag":1,"name":"scroll","args":[500,0,390,844,1170,844]}"#).events
        #expect(
            names(swipe) == [
                #""scrollBeginDrag""#, #""scroll""#, #""scrollEndDrag""#, #""momentumScrollBegin""#, #""scroll""#,
                #""momentumScrollEnd""#,
            ]
        )
        #expect(field(swipe[5], "payload.contentOffset") == canonical(#"{"x":390.0,"y":0.0}"#))
        // Past the last page it settles on the last; on a page already, no scroll while decelerating.
        let last = client.send(#"{"op":"command","tag":1,"name":"scroll","args":[2000,0,390,844,1170,844]}"#).events
        #expect(field(last.last!, "payload.contentOffset") == canonical(#"{"x":780.0,"y":0.0}"#))
        let onPage = client.send(#"{"op":"command","tag":1,"name":"scroll","args":[390,0,390,844,1170,844]}"#).events
        #expect(names(onPage).suffix(2) == [#""momentumScrollBegin""#, #""momentumScrollEnd""#])
        // Without pagingEnabled a drag ends where it is let go.
        client.send(#"{"op":"update","tag":1,"props":{"pagingEnabled":false}}"#)
        let drag = client.send(#"{"op":"command","tag":1,"name":"scroll","args":[500,0,390,844,1170,844]}"#).events
        #expect(names(drag) == [#""scrollBeginDrag""#, #""scroll""#, #""scrollEndDrag""#])
    }

    @Test func aSnappingScrollViewLetGoDeceleratesOntoItsNearestSnapPoint() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"RCTScrollView","props":{"snapToInterval":300}}"#)
        for event in ["scroll", "momentumScrollBegin", "momentumScrollEnd"] {
            client.send(#"{"op":"subscribe","tag":1,"event":"\#(event)"}"#)
        }
        /// Where a horizontal drag (a 390-point view over 1,500 points of content) let go at `x` comes to rest.
        func rest(_ x: Int) -> String? {
            let events = client.send(#"{"op":"command","tag":1,"name":"scroll","args":[\#(x),0,390,844,1500,844]}"#)
                .events
            guard names(events).last == #""momentumScrollEnd""# else { return nil }
            return field(events.last!, "payload.contentOffset")
        }
        let point = { (x: Double) in canonical(#"{"x":\#(x),"y":0.0}"#) }
        // snapToInterval: the nearest multiple (RCTScrollView rounds with no velocity), within the content.
        #expect(rest(440) == point(300))
        #expect(rest(460) == point(600))
        #expect(rest(1100) == point(1110), "the last multiple, 1,200, is past the end (1,110)")
        // snapToAlignment shifts the multiples as RCTScrollView does: center by half the view and half the interval.
        client.send(#"{"op":"update","tag":1,"props":{"snapToAlignment":"center"}}"#)
        #expect(rest(440) == point(555), "(440 + 345) / 300 rounds to 3: 900 - 345")
        // snapToOffsets win over the interval: the nearer offset on either side, the start and the end included.
        client.send(
            #"{"op":"update","tag":1,"props":{"snapToAlignment":null,"snapToOffsets":[200,700,1000]}}"#
        )
        #expect(rest(420) == point(200))
        #expect(rest(500) == point(700))
        #expect(rest(60) == point(0), "the start counts")
        #expect(rest(1090) == point(1110), "the end counts")
        // snapToStart / snapToEnd false: free before the first offset and after the last (no deceleration).
        client.send(#"{"op":"update","tag":1,"props":{"snapToStart":false,"snapToEnd":false}}"#)
        #expect(rest(60) == nil)
        #expect(rest(1090) == nil)
        #expect(rest(420) == point(200))
        // Neither: a drag ends where it is let go.
        client.send(#"{"op":"update","tag":1,"props":{"snapToOffsets":null,"snapToInterval":null}}"#)
        #expect(rest(420) == nil)
    }

    @Test func iOSColorObjectsAreTakenInLightModeAndABadOneIsNamedByItsPath() {
        let client = Client()
        let semantic = #"{"semantic":["systemBackground"]}"#
        let dynamic = #"{"dynamic":{"light":{"semantic":"label"},"dark":4294967295}}"#
        client.send(
            #"{"op":"create","tag":1,"component":"RCTView","props":{"backgroundColor":\#(semantic),"borderColor":\#(dynamic)}}"#
        )
        #expect(field(client.inspect(1), "result.props.backgroundColor") == ##""#ffffffff""##)
        #expect(field(client.inspect(1), "result.props.borderColor") == ##""#000000ff""##)
        let bad = client.send(
            ##"{"op":"update","tag":1,"props":{"backgroundColor":{"dynamic":{"light":"#fff","dark":{"semantic":"nope"}}}}}"##
        )
        #expect(field(bad.response, "error.code") == #""invalid_props""#)
        #expect(field(bad.response, "error.details.0.path") == #""backgroundColor.dynamic.dark""#)
        #expect(field(client.inspect(1), "result.props.backgroundColor") == ##""#ffffffff""##, "nothing applied")
    }

    @Test func anImageIsToldItLoadedOrFailed() {
        let client = Client()
        let source = #"[{"uri":"file:///app/logo.png","width":64,"height":64,"scale":2}]"#
        client.send(#"{"op":"create","tag":1,"component":"RCTImageView","props":{"source":\#(source)}}"#)
        for event in ["loadStart", "load", "error", "loadEnd"] {
            client.send(#"{"op":"subscribe","tag":1,"event":"\#(event)"}"#)
        }
        #expect(field(client.inspect(1), "result.render") == #""Image \"file:///app/logo.png\" loading""#)
        let loaded = client.send(#"{"op":"command","tag":1,"name":"loaded","args":["file:///app/logo.png",64,64]}"#)
        #expect(names(loaded.events) == [#""loadStart""#, #""load""#, #""loadEnd""#])
        #expect(
            field(loaded.events[1], "payload.source")
                == canonical(#"{"uri":"file:///app/logo.png","width":64.0,"height":64.0}"#)
        )
        #expect(field(client.inspect(1), "result.render") == #""Image \"file:///app/logo.png\" loaded 64x64""#)
        let failed = client.send(
            #"{"op":"command","tag":1,"name":"failed","args":["file:///app/logo.png","no such file"]}"#
        )
        #expect(names(failed.events) == [#""loadStart""#, #""error""#, #""loadEnd""#])
        #expect(field(failed.events[1], "payload") == canonical(#"{"error":"no such file"}"#))
        #expect(field(client.inspect(1), "result.render") == #""Image \"file:///app/logo.png\" failed""#)
        client.send(#"{"op":"update","tag":1,"props":{"source":[{"uri":"file:///app/other.png"}]}}"#)
        #expect(field(client.inspect(1), "result.render") == #""Image \"file:///app/other.png\" loading""#)
    }

    @Test func aModalIsPresentedAskedToCloseAndDismissed() {
        let client = Client()
        client.send(
            #"{"op":"create","tag":1,"component":"RCTModalHostView","props":{"visible":true,"animationType":"slide"}}"#
        )
        for event in ["show", "requestClose", "dismiss"] {
            client.send(#"{"op":"subscribe","tag":1,"event":"\#(event)"}"#)
        }
        #expect(names(client.send(#"{"op":"command","tag":1,"name":"present"}"#).events) == [#""show""#])
        #expect(field(client.inspect(1), "result.render") == #""Modal presented""#)
        #expect(client.send(#"{"op":"command","tag":1,"name":"present"}"#).events.isEmpty)
        let close = client.send(#"{"op":"command","tag":1,"name":"requestClose"}"#).events
        #expect(names(close) == [#""requestClose""#])
        #expect(field(close[0], "payload") == "{}")
        #expect(names(client.send(#"{"op":"command","tag":1,"name":"dismiss"}"#).events) == [#""dismiss""#])
        #expect(field(client.inspect(1), "result.render") == #""Modal""#)
    }

    @Test func pullToRefreshTurnsRefreshingOnOnce() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"RCTRefreshControl","props":{"title":"Pull"}}"#)
        client.send(#"{"op":"subscribe","tag":1,"event":"refresh"}"#)
        #expect(names(client.send(#"{"op":"command","tag":1,"name":"pullToRefresh"}"#).events) == [#""refresh""#])
        #expect(client.send(#"{"op":"command","tag":1,"name":"pullToRefresh"}"#).events.isEmpty)
        #expect(field(client.inspect(1), "result.props.refreshing") == "true")
        client.send(#"{"op":"command","tag":1,"name":"setNativeRefreshing","args":[false]}"#)
        #expect(field(client.inspect(1), "result.render") == #""RefreshControl""#)
    }

    @Test func anActivityIndicatorAndASafeAreaViewRender() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"RCTSafeAreaView","props":{"emulateUnlessSupported":true}}"#)
        client.send(
            ##"{"op":"create","tag":2,"component":"RCTActivityIndicatorView","parent":1,"props":{"color":"#999"}}"##
        )
        #expect(field(client.inspect(2), "result.render") == #""ActivityIndicator animating""#)
        client.send(#"{"op":"update","tag":2,"props":{"animating":false,"size":"large"}}"#)
        #expect(field(client.inspect(2), "result.render") == #""ActivityIndicator stopped hidden large""#)
        #expect(field(client.inspect(1), "result.render") == #""SafeAreaView""#)
    }
}
