import BridgeCore
import Foundation
import Synchronization
import Testing

/// Every change an op makes to what `observe` shows reaches the session's observers as a frame: the corpus is
/// run with an observer on each session, and after each request a fresh snapshot is compared with the one before.
/// An op whose change does not go through an ``OpContext`` method that writes a frame (SessionWatch+Changes.swift)
/// fails here, named with the recording and the line.
@Suite("Observers see every change")
struct ObserverFramesTests {
    /// Collects the frames handed to it.
    final class CollectingSink: ObserverSink {
        let frames = Mutex<[UInt8]>([])
        func deliver(_ bytes: UnsafeRawBufferPointer, last: Bool) -> Bool {
            frames.withLock { $0.append(contentsOf: bytes) }
            return true
        }
        func close() {}
        func take() -> [UInt8] {
            frames.withLock { frames in
                defer { frames = [] }
                return frames
            }
        }
    }

    /// The recordings replayed here: those with no components of their own (the others need their schemas).
    static let files = ReplayTests.files.filter { file in
        (try? ReplayTests.text(file))?.split(separator: "\n").first?.contains(#""components""#) == false
    }

    /// The views and events an observer of `session` starts from (a snapshot's `views` and `events`).
    static func snapshot(_ probe: Connection, _ session: String) -> String {
        let answer = probe.handle(line: #"{"id":"p","op":"observe","session":"\#(session)"}"#).first ?? ""
        _ = probe.handle(line: #"{"id":"q","op":"unobserve","session":"\#(session)"}"#)
        guard let document = try? JSONDocument(parsing: answer), let result = document.root["result"] else {
            return answer
        }
        return (result["views"]?.compactText ?? "") + (result["events"]?.compactText ?? "")
    }

    @Test(arguments: files)
    func everyChangeIsAFrame(file: String) throws {
        let lines = try ReplayTests.text(file).split(separator: "\n").map(String.init)
        var configuration = Engine.Configuration()
        if let meta = try? JSONDocument(parsing: lines[0]) {
            configuration = SessionLimit.applying(meta.root["limits"], to: configuration)
        }
        let engine = Engine(configuration: configuration)
        defer { engine.closeAllSessions() }
        let tools = engine.connect()
        tools.makeObserverSink = { _ in CollectingSink() }
        let probe = engine.connect()
        probe.makeObserverSink = { _ in CollectingSink() }
        _ = tools.handle(line: #"{"id":0,"op":"hello","protocol":1,"client":"observer"}"#)
        _ = probe.handle(line: #"{"id":0,"op":"hello","protocol":1,"client":"probe"}"#)
        var observers: [String: CollectingSink] = [:]
        var connection = engine.connect()
        for (index, line) in lines.enumerated() {
            guard let record = try? JSONDocument(parsing: line) else { continue }
            if record.root["connection"]?.isString("closed") == true {
                connection.close()
                connection = engine.connect()
                continue
            }
            guard record.root["dir"]?.isString("in") == true else { continue }
            let input = record.root["frame"]?.compactText ?? record.root["raw"]?.string ?? ""
            let op = record.root["frame"]?["op"]?.string ?? "?"
            if connection.hasEnded {
                connection.close()
                connection = engine.connect()
            }
            let session = connection.hasSaidHello ? connection.session.id : nil
            let before = session.map { Self.snapshot(probe, $0) }
            _ = connection.handle(line: input)
            guard let session, let before else {
                // Greeted now: observe the session from here on.
                if connection.hasSaidHello, observers[connection.session.id] == nil {
                    let sink = CollectingSink()
                    tools.makeObserverSink = { _ in sink }
                    _ = tools.handle(line: #"{"id":1,"op":"observe","session":"\#(connection.session.id)"}"#)
                    observers[connection.session.id] = sink
                }
                continue
            }
            let frames = observers[session]?.take() ?? []
            let after = Self.snapshot(probe, session)
            // A session that ended (`bye`) is not observed any more: ObserveTests checks its `ended` frame.
            if after.contains(#""unknown_session""#) { continue }
            if after != before && frames.isEmpty {
                Issue.record(
                    """
                    \(file):\(index + 1): '\(op)' changed what observe shows and sent observers no frame: make the \
                    change through an OpContext method that writes one (SessionWatch+Changes.swift)
                    """
                )
            }
        }
    }
}
