import Testing

@testable import BridgeServer

/// ``LongRequests``' choice of the requests that run off the event loop, on the line's bytes alone.
@Suite struct LongRequestsTests {
    static func isLong(_ line: String, views: Int) -> Bool {
        Array(line.utf8).withUnsafeBytes { LongRequests().isLong($0, sessionViews: views) }
    }

    @Test func aLineOfTheThresholdOrLongerIsLongInAnySession() {
        let prefix = #"{"id":1,"op":"ping","pad":""#
        let exactly = prefix + String(repeating: "x", count: 8 * 1024 - prefix.utf8.count - 2) + #""}"#
        #expect(exactly.utf8.count == 8 * 1024)
        #expect(Self.isLong(exactly, views: 0))
        #expect(!Self.isLong(String(exactly.dropFirst()), views: 0))
    }

    @Test(arguments: [
        (#"{"id":1,"op":"bye"}"#, true),
        (#"{"op" : "delete","tag":3}"#, true),
        (#"{ "id": "x",\#t"op":\#t"bye" }"#, true),
        (#"{"id":1,"props":{"title":"op"},"op":"bye"}"#, true),
        (#"{"id":1,"op":"update","tag":1,"props":{"op":"bye"}}"#, false),
        (#"{"id":1,"op":"byebye"}"#, false),
        (#"{"id":1,"op":"deleted"}"#, false),
        (#"{"id":1,"op":"ping"}"#, false),
        (#"{"id":1,"op""#, false),
        // An op spelled with escapes would take a parse to name: taken for a bye (two thread hops at worst).
        (#"{"id":1,"op":"by\u0065"}"#, true),
        (#"{"id":1,"op":"\u0070ing"}"#, true),
        (#"{"id":1,"op":"ping","title":"\u0062ye"}"#, false),
        ("", false),
    ])
    func byeAndDeleteOfALargeSession(line: String, long: Bool) {
        #expect(Self.isLong(line, views: 1_000) == long)
        #expect(!Self.isLong(line, views: 999))
    }

    /// A `screenshot` (milliseconds of drawing) and a `layout` that loads Yoga (the first builds it: seconds of the
    /// C++ compiler) run off the loop in any session; a `layout` without `yoga` (a touch's hit-test, a new window)
    /// stays on it.
    @Test(arguments: [
        (#"{"id":1,"op":"screenshot"}"#, true),
        (#"{"id":1,"op":"screenshot","scale":1}"#, true),
        (#"{"id":1,"op":"layout","yoga":"/app/node_modules/react-native/ReactCommon/yoga"}"#, true),
        (#"{"id":1,"op" : "layout","window":{"width":390},"yoga":"/y"}"#, true),
        (#"{"id":1,"op":"layout","at":{"x":1,"y":2}}"#, false),
        (#"{"id":1,"op":"layout","window":{"width":390}}"#, false),
        (#"{"id":1,"op":"layout"}"#, false),
        (#"{"id":1,"op":"update","tag":1,"props":{"title":"yoga"}}"#, false),
        (#"{"id":1,"op":"update","tag":1,"props":{"op":"screenshot"}}"#, false),
    ])
    func screenshotsAndYogaLoadsInAnySession(line: String, long: Bool) {
        #expect(Self.isLong(line, views: 0) == long)
    }
}

extension LongRequestsTests {
    @Test("a short line runs off the loop when its session holds a batch's parts of 8 KiB or more")
    func lastPartOfALargeBatch() {
        // A last part runs or commits the parts' ops; any other request may roll back what they applied ahead.
        let staged = LongRequests().minimumBytes
        for short in [#"{"id":9,"op":"batch","at":300,"ops":[{"op":"ping"}]}"#, #"{"id":9,"op":"inspect","tag":1}"#] {
            Array(short.utf8).withUnsafeBytes { line in
                #expect(LongRequests().isLong(line, sessionViews: 0, stagedBatchBytes: staged))
                #expect(!LongRequests().isLong(line, sessionViews: 0, stagedBatchBytes: staged - 1))
            }
        }
    }

    @Test("closing a connection runs off the loop for a large session or a batch's parts of 8 KiB or more")
    func closingALargeSessionOrItsParts() {
        let long = LongRequests()
        #expect(long.closeIsLong(sessionViews: long.minimumViews, stagedBatchBytes: 0))
        #expect(long.closeIsLong(sessionViews: 0, stagedBatchBytes: long.minimumBytes))
        #expect(!long.closeIsLong(sessionViews: long.minimumViews - 1, stagedBatchBytes: long.minimumBytes - 1))
    }

    @Test func noLineFromTheFirstLongOneOnIsParsedAhead() {
        let long = LongRequests().minimumBytes
        let lengths = [1, 2, long, 3, long + 1]
        let bytes = [UInt8](repeating: 0x20, count: lengths.reduce(0, +))
        bytes.withUnsafeBytes { all in
            var lines: [UnsafeRawBufferPointer] = []
            var at = 0
            for length in lengths {
                lines.append(UnsafeRawBufferPointer(rebasing: all[at..<at + length]))
                at += length
            }
            #expect(LongRequests().linesToParseAhead(lines).map(\.count) == [1, 2])
            #expect(LongRequests().linesToParseAhead(Array(lines.prefix(2))).map(\.count) == [1, 2])
            #expect(LongRequests().linesToParseAhead(Array(lines.dropFirst(2))).isEmpty)
            // One byte short of the threshold: parsed ahead.
            let almost = UnsafeRawBufferPointer(rebasing: all[0..<long - 1])
            #expect(LongRequests().linesToParseAhead([almost, lines[3]]).count == 2)
        }
    }
}
