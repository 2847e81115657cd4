import BridgeCore
import Foundation
import Testing

/// The recorded-session corpus in `Sessions/`: every file replays against a fresh engine.
@Suite("Recorded sessions")
struct ReplayTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Sessions"
    )

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".jsonl") }
            .sorted()
    }

    static func text(_ file: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
    }

    @Test func corpusIsThere() {
        #expect(Self.files.count >= 10)
    }

    @Test("replays", arguments: files)
    func replays(file: String) throws {
        let outcome = Replayer().replay(try Self.text(file))
        #expect(
            outcome.difference == nil,
            """
            \(file): \(outcome.difference?.description ?? ""). A result that varies between runs needs its rule in \
            js-client/lib/replay-rules.json (both replayers read it; then node js-client/scripts/generate.js)
            """
        )
        #expect(outcome.framesMatched > 1)
    }

    @Test func aChangedFrameFails() throws {
        let original = try Self.text("counter-button.jsonl")
        let tampered = original.replacingOccurrences(of: #""payload":{"count":2}"#, with: #""payload":{"count":3}"#)
        #expect(tampered != original)
        let outcome = Replayer().replay(tampered)
        #expect(outcome.difference != nil)
        #expect(outcome.difference?.got.contains(#""count":2"#) == true)
    }

    @Test func aMissingOrExtraFrameFails() throws {
        let original = try Self.text("counter-button.jsonl")
        var lines = original.split(separator: "\n").map(String.init)
        let eventLine = try #require(lines.firstIndex { $0.contains(#""event":"countChange""#) })
        lines.remove(at: eventLine)
        #expect(Replayer().replay(lines.joined(separator: "\n")).difference != nil)
        let truncated = original.split(separator: "\n").dropLast().joined(separator: "\n")
        #expect(Replayer().replay(truncated).difference?.expected == "end of recording")
    }

    @Test func sessionIdAndServerAreNormalised() throws {
        let original = try Self.text("hello-handshake.jsonl")
        let renamedSession = original.replacingOccurrences(of: #""session":"s1""#, with: #""session":"s-42""#)
        let renamedServer = original.replacingOccurrences(
            of: #""server":"bridged/0.1.0""#,
            with: #""server":"bridged/9.9.9""#
        )
        #expect(renamedSession != original)
        #expect(renamedServer != original)
        #expect(Replayer().replay(renamedSession).difference == nil)
        #expect(Replayer().replay(renamedServer).difference == nil)
    }

    /// One rule with the Node replayer: the integer fields of a `stats` result are normalised, also inside a
    /// batch's `results` (they count every session of the daemon); anything else in the batch is compared.
    @Test func statsInsideABatchAreNormalisedAndNothingElse() throws {
        let original = try Self.text("batch-stats.jsonl")
        let counts = original.replacingOccurrences(of: #""sessions":5,"views":12"#, with: #""sessions":77,"views":88"#)
        let render = original.replacingOccurrences(
            of: #""testID":"one","nativeID""#,
            with: #""testID":"two","nativeID""#
        )
        #expect(counts != original)
        #expect(render != original)
        #expect(Replayer().replay(counts).difference == nil)
        #expect(Replayer().replay(render).difference != nil)
    }

    /// A recorded token is normalised in hello results and, in a resume, replaced by the replay's own token for
    /// the same session; a token that was no session's (a wrong one, on purpose) is sent as recorded.
    @Test func tokensAreNormalisedAndMapped() throws {
        let original = try Self.text("resume-token.jsonl")
        let recordedToken = "feedfacefeedfacefeedfacefeedface"
        let renamed = original.replacingOccurrences(of: "00000000000000000000000000000001", with: recordedToken)
        #expect(renamed != original)
        #expect(Replayer().replay(renamed).difference == nil, "another run's token, mapped to this run's")

        // Only the hello result's token changed: the resume presents a token that was no session's, and is refused.
        let lines = renamed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let helloResult = try #require(lines.firstIndex { $0.contains(#""token":"\#(recordedToken)","components""#) })
        var changed = lines
        changed[helloResult] = lines[helloResult].replacingOccurrences(of: recordedToken, with: "0123")
        let outcome = Replayer().replay(changed.joined(separator: "\n"))
        #expect(outcome.difference?.got.contains(#""reason":"unknown_session""#) == true)
    }

    /// A recording made before hello results had a token replays: the hello result is compared without it, and
    /// its resumes are sent with the replay's token.
    @Test func aRecordingWithoutTokensReplays() throws {
        let original = try Self.text("resume.jsonl")
        #expect(!original.contains(#""token""#))
        #expect(original.contains(#""resumed":true"#))
        #expect(Replayer().replay(original).difference == nil)
    }

    /// A recording of an older format (no `format` in its meta record) is compared for the members it has; one of
    /// format 2 is compared member for member.
    @Test func anOlderFormatIsComparedForTheMembersItHas() throws {
        let current = try Self.text("counter-button.jsonl")
        #expect(current.hasPrefix(#"{"dir":"meta","format":2,"#))
        // As recorded before views had a command log: the inspect result lacks `commands`.
        let withoutLog = current.replacingOccurrences(
            of: #","commands":[{"name":"press","args":[]},{"name":"press","args":[]}]"#,
            with: ""
        )
        #expect(withoutLog != current)
        #expect(Replayer().replay(withoutLog).difference != nil, "format 2: every member is compared")
        let older = withoutLog.replacingOccurrences(of: #"{"dir":"meta","format":2,"#, with: #"{"dir":"meta","#)
        #expect(Replayer().replay(older).difference == nil, "no format: the members it has")
        // A member it has must still be equal.
        let changed = older.replacingOccurrences(of: #""render":"Button \"Count\" count=2""#, with: #""render":"x""#)
        #expect(changed != older)
        #expect(Replayer().replay(changed).difference != nil)
    }

    /// A keep-alive line gets no response, so it must not shift which request each response answers
    /// (normalising a hello response depends on knowing it is one).
    @Test func aKeepAliveDoesNotShiftResponses() throws {
        let original = try Self.text("hello-handshake.jsonl")
            .replacingOccurrences(of: #""session":"s1""#, with: #""session":"elsewhere""#)
        let hello = #"{"dir":"in","frame":{"id":4,"op":"hello","protocol":1,"client":"corpus"}}"#
        let withKeepAlive = original.replacingOccurrences(of: hello, with: #"{"dir":"in","raw":"\r"}"# + "\n" + hello)
        #expect(withKeepAlive != original)
        #expect(Replayer().replay(withKeepAlive).difference == nil)
    }

    /// What the corpus covers: every error code the engine can produce (every op it records:
    /// `OpTableTests.corpusSendsEveryRecordedOp`).
    @Test func corpusCoversEveryEngineErrorCode() throws {
        let all = try Self.files.map { try Self.text($0) }.joined(separator: "\n")
        // Only the daemon produces these; observing (unknown_session) is never recorded.
        let daemonOnly: Set<ErrorCode> = [.frameTooLarge, .permissionDenied, .sessionTakenOver, .unknownSession]
        for code in ErrorCode.all where !daemonOnly.contains(code) {
            #expect(all.contains(#""code":"\#(code.rawValue)""#), "no session shows \(code)")
        }
        for component in ["View", "SwiftUIButton", "TextField", "Slider"] {
            #expect(all.contains(#""component":"\#(component)""#))
        }
    }
}
