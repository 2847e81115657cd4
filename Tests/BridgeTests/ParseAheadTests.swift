import Dispatch
import Foundation
import Logging
import NIOCore
import Testing

@testable import BridgeCore
@testable import BridgeServer

/// ``ParseAhead``: lines parsed on another thread are taken, in order, as the documents of exactly those lines;
/// what the helper could not parse is left to the loop; and a connection answers a read the same with it as
/// without it.
@Suite struct ParseAheadTests {
    /// Lines with ids 0..<count, some not parseable (blank, not JSON, an integer beyond 64 bits), some with `\r`.
    static func lines(_ count: Int) -> [String] {
        (0..<count).map { i in
            switch i % 10 {
            case 3: ""
            case 5: #"{"id":\#(i),"op":"#
            case 7: #"{"id":\#(i),"op":"update","tag":1,"props":{"count":99999999999999999999}}"#
            case 8: #"{"id":\#(i),"op":"ping"}"# + "\r"
            default: #"{"id":\#(i),"op":"update","tag":1,"props":{"count":\#(i)}}"#
            }
        }
    }

    static func parseable(_ i: Int) -> Bool { ![3, 5, 7].contains(i % 10) }

    /// Takes `line`: whether it came parsed, and then its `id`.
    static func take(_ ahead: ParseAhead, _ line: UnsafeRawBufferPointer) -> (parsed: Bool, id: Int64?) {
        guard let document = ahead.take(line) else { return (false, nil) }
        return (true, document.root["id"]?.integer)
    }

    /// One buffer holding the lines, and each line's place in it.
    final class Read: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer
        let lines: [UnsafeRawBufferPointer]

        init(_ text: [String]) {
            let joined = Array(text.joined(separator: "\n").utf8) + [0x0A]
            let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: joined.count, alignment: 1)
            joined.withUnsafeBytes { bytes.copyMemory(from: $0) }
            self.bytes = bytes
            var lines: [UnsafeRawBufferPointer] = []
            var start = 0
            for (index, byte) in joined.enumerated() where byte == 0x0A {
                lines.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index]))
                start = index + 1
            }
            self.lines = lines
        }

        deinit { bytes.deallocate() }
    }

    /// The helper done first: every parseable line is taken parsed, as itself; the others are left to the loop.
    @Test func aHelperThatRanFirstParsedEveryLine() {
        let read = Read(Self.lines(100))
        let ahead = ParseAhead(lines: read.lines, keepAlive: read)
        ahead.help()
        for (i, line) in read.lines.enumerated() {
            let taken = Self.take(ahead, line)
            #expect(taken.parsed == Self.parseable(i), "line \(i)")
            if taken.parsed { #expect(taken.id == Int64(i)) }
        }
        #expect(ahead.takenParsed == (0..<100).filter(Self.parseable).count)
    }

    /// Trees larger than the arena's 64 KiB chunks, and many small ones after them, are whole and distinct: a
    /// 200,000-byte string, then 2,000 lines whose strings each differ.
    @Test func treesLargerThanAnArenaChunkAreWhole() {
        let big = String(repeating: "ab", count: 100_000)
        let text =
            [#"{"id":0,"op":"ping","pad":"\#(big)"}"#]
            + (1...2_000).map { #"{"id":\#($0),"op":"ping","pad":"line \#($0)"}"# }
        let read = Read(text)
        let ahead = ParseAhead(lines: read.lines, keepAlive: read)
        ahead.help()
        for (i, line) in read.lines.enumerated() {
            guard let document = ahead.take(line) else {
                Issue.record("line \(i) was not parsed ahead")
                continue
            }
            #expect(document.root["id"]?.integer == Int64(i))
            #expect(document.root["pad"]?.string == (i == 0 ? big : "line \(i)"))
        }
        #expect(ahead.takenParsed == 2_001)
    }

    /// No helper: the loop claims every line itself (and parses it as usual).
    @Test func withoutAHelperTheLoopClaimsEveryLine() {
        let read = Read(Self.lines(40))
        let ahead = ParseAhead(lines: read.lines, keepAlive: read)
        for line in read.lines { #expect(!Self.take(ahead, line).parsed) }
        // A helper that starts late finds nothing left.
        ahead.help()
        #expect(ahead.takenParsed == 0)
    }

    /// A helper on another thread while the loop takes: whichever side parsed a line, the loop gets that line's
    /// document or parses it itself; never another line's.
    @Test(arguments: 0..<5)
    func aConcurrentHelperHandsOverTheRightDocuments(round: Int) async {
        let read = Read(Self.lines(2_000))
        let ahead = ParseAhead(lines: read.lines, keepAlive: read)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            ahead.help()
            done.signal()
        }
        for (i, line) in read.lines.enumerated() {
            let taken = Self.take(ahead, line)
            if taken.parsed {
                #expect(Self.parseable(i))
                #expect(taken.id == Int64(i))
            }
        }
        done.wait()
    }

    /// A line that is not the next one expected (completed from an earlier read) is the loop's to parse; the
    /// lines after it are still handed over.
    @Test func aLineNotListedIsLeftToTheLoop() {
        let read = Read(Self.lines(20))
        let other = Read([#"{"id":1000,"op":"ping"}"#])
        let ahead = ParseAhead(lines: read.lines, keepAlive: read)
        ahead.help()
        #expect(!Self.take(ahead, other.lines[0]).parsed)
        #expect(Self.take(ahead, read.lines[0]) == (true, 0))
    }

    /// A helper that claimed the last lines and stalls (preempted): the loop, with nothing left to parse meanwhile,
    /// reads a short line itself at once, and waits for a long one only while the helper shows no progress for
    /// ``ParseAhead/stall``, then reads it itself.
    @Test func aStalledHelperIsNotWaitedForLong() {
        let pad = String(repeating: "x", count: ParseAhead.waitBytes)
        let read = Read([
            #"{"id":0,"op":"ping"}"#, #"{"id":1,"op":"ping"}"#, #"{"id":2,"op":"ping","pad":"\#(pad)"}"#,
            #"{"id":3,"op":"ping"}"#,
        ])
        let ahead = ParseAhead(lines: read.lines, keepAlive: read)
        #expect(!Self.take(ahead, read.lines[0]).parsed, "caught up with a helper that has not started")
        for index in 1...3 { #expect(ahead.claimForHelper() == index..<index + 1) }
        #expect(!Self.take(ahead, read.lines[1]).parsed)
        #expect(ahead.waitedForHelper == 0, "a short line is read again at once")
        #expect(!Self.take(ahead, read.lines[2]).parsed)
        #expect(ahead.waitedForHelper > 0, "it waited for the long line before reading it itself")
        #expect(!Self.take(ahead, read.lines[3]).parsed)
        #expect(ahead.takenParsed == 0)
    }

    /// Short lines are claimed in runs of a quarter of what is left at most, by the helper and by the loop once it
    /// has caught up (it then parses the lines of its run itself, without touching the counter again); a long line
    /// is claimed alone.
    @Test func shortLinesAreClaimedInRuns() {
        let read = Read((0..<400).map { #"{"id":\#($0),"op":"ping"}"# })
        let ahead = ParseAhead(lines: read.lines, keepAlive: read)
        #expect(!Self.take(ahead, read.lines[0]).parsed, "caught up with a helper that has not started")
        #expect(ahead.claimForHelper() == 100..<175, "the loop claimed 0..<100")
        for index in 1..<100 { #expect(!Self.take(ahead, read.lines[index]).parsed, "line \(index)") }
        #expect(ahead.claimForHelper() == 175..<231)

        let pad = String(repeating: "x", count: ParseAhead.waitBytes)
        let long = Read((0..<40).map { #"{"id":\#($0),"op":"ping","pad":"\#(pad)"}"# })
        let aheadOfLong = ParseAhead(lines: long.lines, keepAlive: long)
        #expect(aheadOfLong.claimForHelper() == 0..<1)
    }

    /// Stopped early (the connection paused): nothing more is claimed, what was parsed is freed.
    @Test func stoppedEarlyNothingMoreIsParsed() {
        let read = Read(Self.lines(50))
        let ahead = ParseAhead(lines: read.lines, keepAlive: read)
        #expect(!Self.take(ahead, read.lines[0]).parsed)
        ahead.stop()
        ahead.help()
        for line in read.lines.dropFirst() { #expect(!Self.take(ahead, line).parsed) }
        #expect(ahead.takenParsed == 0)
    }

    // MARK: In a connection

    /// The same reads (many lines, cut at several sizes, so that lines complete across reads; with refused,
    /// blank, over-long and `\r\n` lines) are answered byte for byte the same with lines parsed ahead as without.
    @Test(arguments: [100_000, 4096, 333, 61])
    func aConnectionAnswersTheSameWithLinesParsedAhead(chunkSize: Int) throws {
        var text = ParseAheadTests.lines(600)
        text[11] = #"{"id":11,"op":"ping","pad":""# + String(repeating: "x", count: 300) + #""}"#
        let creates = #"{"id":-1,"op":"create","tag":1,"component":"SwiftUIButton"}"# + "\n"
        let bytes = Array((creates + text.joined(separator: "\n") + "\n").utf8)
        func answers(helpers: Int) throws -> [String] {
            let pool = ParseAheadPool(helpers: helpers, minimumBytes: 0, minimumLines: 1)
            let client = try EmbeddedConnection(maxFrameBytes: 200, parseAhead: pool)
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                try client.send(bytes: bytes[start..<min(start + chunkSize, bytes.count)])
            }
            return try client.written()
        }
        let plain = try answers(helpers: 0)
        #expect(plain.count == 600 - 60 + 1)
        #expect(plain.contains { $0.contains("frame_too_large") })
        #expect(try answers(helpers: 1) == plain)
    }

    // MARK: In the daemon

    /// Over a real socket: reads of 300 pipelined lines (about 17 KiB each, past the parse-ahead threshold) are
    /// answered the same by a daemon with a parse thread as by one without; the views end in the same state.
    @Test func theDaemonAnswersTheSameWithAParseThread() throws {
        let dir = TemporaryDirectory()
        var lines = [#"{"id":"c","op":"create","tag":1,"component":"SwiftUIButton","props":{"title":"t"}}"#]
        for i in 0..<3_000 {
            switch i % 50 {
            case 7: lines.append("")
            case 13: lines.append(#"{"id":\#(i),"op":"#)
            case 29: lines.append(#"{"id":\#(i),"op":"update","tag":1,"props":{"count":99999999999999999999}}"#)
            case 41: lines.append(#"{"id":\#(i),"op":"command","tag":1,"name":"press"}"#)
            default: lines.append(#"{"id":\#(i),"op":"update","tag":1,"props":{"count":\#(i),"title":"n\#(i % 7)"}}"#)
            }
        }
        lines.append(#"{"id":"last","op":"inspect","tag":1}"#)
        func answers(parseThreads: Int) throws -> [String] {
            let socket = dir.file("p\(parseThreads).sock")
            let daemon = try DaemonProcess.start(
                socket: socket,
                ["--parse-threads", "\(parseThreads)", "--log-level", "trace"],
                in: dir
            )
            defer {
                daemon.signal(SIGTERM)
                // Reads were parsed ahead only where a thread was given for it.
                #expect(daemon.stderr.contains("read parsed ahead") == (parseThreads > 0))
            }
            let client = try SocketClient(path: socket)
            try client.hello()
            var answers: [String] = []
            for start in stride(from: 0, to: lines.count, by: 300) {
                let chunk = lines[start..<min(start + 300, lines.count)]
                client.send(chunk.joined(separator: "\n") + "\n")
                for line in chunk where !line.isEmpty { answers.append(try #require(client.readLine())) }
            }
            return answers
        }
        let plain = try answers(parseThreads: 0)
        #expect(plain.count == lines.count - 60)
        #expect(plain.last?.contains(#""count":2999"#) == true)
        #expect(try answers(parseThreads: 1) == plain)
    }
}
