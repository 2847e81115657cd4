import BridgeCore
import Synchronization

/// One fuzz input run through every entry to the engine, with the invariants that must hold for any input.
///
/// The input is the bytes a client could send: lines split on `\n` (the daemon's framing; a trailing `\r` is
/// the engine's to strip), each handed to a connection of a fresh ``Engine``. A line that is exactly
/// ``reconnect`` is the harness's own: it closes the connection and opens another on the same engine, so a
/// `hello` with `resume` can find a detached session. The line after a `bye` must get nothing (the daemon drops
/// it and closes the connection); the lines after that go on a new connection, as a client's would. The same bytes are also loaded as a state file and
/// replayed as a recording. A broken invariant traps, which libFuzzer reports as a crash.
enum EngineInput {
    /// The line that ends the current connection (it is not sent to the engine).
    static let reconnect: [UInt8] = Array("#reconnect".utf8)

    /// What one input came to, for the corpus tool.
    struct Summary {
        /// The state the engine saved after the lines.
        var saved: [UInt8]
        /// Sessions loaded from the input as a state file, or `nil` when it is not one.
        var loaded: Int?
        /// Whether the input replays as a recording.
        var replayed: Bool
    }

    @discardableResult
    static func check(_ input: UnsafeRawBufferPointer) -> Summary {
        let (saved, answers) = runLines(input, parsedAhead: false)
        // The same lines parsed ahead (``ParseAhead``, its helper run first) must be answered byte for byte alike.
        let (savedAhead, answersAhead) = runLines(input, parsedAhead: true)
        precondition(answersAhead == answers, "lines parsed ahead were answered differently")
        precondition(savedAhead == saved, "lines parsed ahead left a different state")
        // A batch's parts held unapplied until the last part must be answered as those run as they come.
        let (savedHeld, answersHeld) = runLines(input, parsedAhead: false, partsAhead: false)
        precondition(answersHeld == answers, "a batch's parts held until the last were answered differently")
        precondition(savedHeld == saved, "a batch's parts held until the last left a different state")
        reload(saved, mustLoad: true)
        let loaded = reload(Array(input), mustLoad: false)
        let replayed = Replayer().replay(String(decoding: input, as: UTF8.self)).passed
        return Summary(saved: saved, loaded: loaded, replayed: replayed)
    }

    /// Feeds every line to connections of a fresh engine and checks their output; returns the saved state and
    /// every answer. With `parsedAhead`, the lines come parsed by a ``ParseAhead`` whose helper ran first; without
    /// `partsAhead`, a batch's parts are held unapplied until its last part (``Engine/Configuration``).
    static func runLines(
        _ input: UnsafeRawBufferPointer,
        parsedAhead: Bool,
        partsAhead: Bool = true
    ) -> (saved: [UInt8], answers: [UInt8]) {
        let clock = FuzzClock()
        var saved: [UInt8] = []
        var answers: [UInt8] = []
        let lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let ahead =
            parsedAhead
            ? ParseAhead(
                lines: lines.filter { !$0.elementsEqual(reconnect) }.map { UnsafeRawBufferPointer(rebasing: $0) },
                keepAlive: ()
            ) : nil
        ahead?.help()
        weak var weakEngine: Engine?
        do {
            var configuration = Engine.Configuration()
            configuration.appliesBatchPartsAhead = partsAhead
            let engine = Engine(configuration: configuration, clock: clock.read)
            weakEngine = engine
            var connection = engine.connect()
            var checker = OutputChecker()
            var out: [UInt8] = []
            for line in lines {
                if connection.hasEnded {
                    // The line right after a `bye` is still checked to get nothing; the next goes on a new one.
                    out.removeAll(keepingCapacity: true)
                    let bytes = UnsafeRawBufferPointer(rebasing: line)
                    let kind = connection.handle(line: bytes, parsed: ahead?.take(bytes), into: &out)
                    checker.check(line: bytes, kind: kind, output: out)
                    answers += out
                    connection.close()
                    connection = engine.connect()
                    checker = OutputChecker()
                    continue
                }
                if line.elementsEqual(reconnect) {
                    connection.close()
                    connection = engine.connect()
                    checker = OutputChecker()
                    continue
                }
                out.removeAll(keepingCapacity: true)
                let bytes = UnsafeRawBufferPointer(rebasing: line)
                let kind = connection.handle(line: bytes, parsed: ahead?.take(bytes), into: &out)
                checker.check(line: bytes, kind: kind, output: out)
                answers += out
            }
            connection.close()
            saved = engine.saveState()
            shutDown(engine, clock: clock)
        }
        precondition(weakEngine == nil, "the engine outlived its connections and sessions")
        return (saved, answers)
    }

    /// Loads `state` into a fresh engine; when it loads, what the engine saves must load again and save the same.
    ///
    /// Then the first loaded session is resumed from seq 0, which must not crash (a foreign state's event
    /// frames are what they are, so the frames are not checked).
    @discardableResult
    static func reload(_ state: [UInt8], mustLoad: Bool) -> Int? {
        let clock = FuzzClock()
        let engine = Engine(clock: clock.read)
        let loaded: Int
        do {
            loaded = try engine.loadState(state)
        } catch {
            precondition(
                !mustLoad,
                "a state the engine saved does not load: \(error)\n\(String(decoding: state, as: UTF8.self))"
            )
            shutDown(engine, clock: clock)
            return nil
        }
        let saved = engine.saveState()
        let again = Engine(clock: clock.read)
        do {
            try again.loadState(saved)
        } catch {
            fatalError(
                "a state saved after a load does not load again: \(error)\n\(String(decoding: saved, as: UTF8.self))"
            )
        }
        let resaved = again.saveState()
        precondition(
            resaved == saved,
            "load then save is not stable:\n\(String(decoding: saved, as: UTF8.self))\n\(String(decoding: resaved, as: UTF8.self))"
        )
        shutDown(again, clock: clock)
        if loaded > 0, let (id, token) = firstSession(saved) {
            let connection = engine.connect()
            var out: [UInt8] = []
            var hello = #"{"id":1,"op":"hello","protocol":1,"resume":{"session":"#
            hello += JSONText.string(id) + #","token":"# + JSONText.string(token) + #","ack":0}}"#
            hello.withUTF8 { _ = connection.handle(line: UnsafeRawBufferPointer($0), into: &out) }
            if mustLoad {
                // A state this engine wrote holds frames it wrote: the resume output must obey every rule.
                var checker = OutputChecker()
                hello.withUTF8 { line in
                    checker.check(line: UnsafeRawBufferPointer(line), kind: .object, output: out)
                }
            }
            connection.close()
        }
        shutDown(engine, clock: clock)
        return loaded
    }

    /// Ends every session of `engine` (they wait for a resume otherwise) and checks that none is left open.
    static func shutDown(_ engine: Engine, clock: FuzzClock) {
        clock.nanoseconds.store(UInt64.max / 2, ordering: .relaxed)
        engine.expireSessions()
        precondition(engine.sessionCount == 0, "\(engine.sessionCount) sessions still open after every one expired")
        clock.nanoseconds.store(0, ordering: .relaxed)
    }

    /// The id and resume token of the first session of a state file.
    static func firstSession(_ state: [UInt8]) -> (id: String, token: String)? {
        guard let document = try? JSONDocument(parsing: state),
            let first = document.root["sessions"]?.elements?.first,
            let id = first["id"]?.string, let token = first["token"]?.string
        else { return nil }
        return (id, token)
    }
}

/// The engine's clock, moved by hand: only session expiry reads it.
final class FuzzClock: Sendable {
    let nanoseconds = Atomic<UInt64>(0)
    var read: @Sendable () -> UInt64 { { self.nanoseconds.load(ordering: .relaxed) } }
}

/// JSON text for the few values the harness writes itself.
enum JSONText {
    static func string(_ value: String) -> String {
        var text = "\""
        for unit in value.unicodeScalars {
            switch unit {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where unit.value < 0x20:
                let hex = String(unit.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(unit)
            }
        }
        return text + "\""
    }
}
