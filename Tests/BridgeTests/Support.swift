import BridgeCore
import PropStore

/// Canonical JSON text (sorted keys, compact) so that two frames compare as JSON values with readable diffs.
func canonical(_ text: String) -> String {
    guard let document = try? JSONDocument(parsing: text) else { return "<not JSON: \(text)>" }
    return document.root.canonicalText
}

/// The value at a dotted path (`result.changed`, `error.details.0.prop`) of a frame, as canonical JSON.
func field(_ frame: String, _ path: String) -> String {
    guard let document = try? JSONDocument(parsing: frame) else { return "<not JSON>" }
    var value: JSONRef? = document.root
    for part in path.split(separator: ".") {
        if let index = Int(part), let elements = value?.elements {
            value = index < elements.count ? elements[index] : nil
        } else {
            value = value?[String(part)]
        }
    }
    guard let value else { return "<missing>" }
    return canonical(value.compactText)
}

/// A hello that resumes `session`, presenting its token, from the cursor `ack`.
func resumeLine(_ session: Session, ack: Int, id: Int = 1) -> String {
    #"{"id":\#(id),"op":"hello","protocol":1,"resume":{"session":"\#(session.id)","token":"\#(session.token)","ack":\#(ack)}}"#
}

/// A client driven in-process, one request at a time, through a ``Connection``: the same entry point as the
/// daemon's (resume, takeover and `bye` behave as they do over a socket).
final class Client {
    let engine: Engine
    let connection: Connection
    var session: Session { connection.session }

    /// - Parameter engine: by default an engine whose sessions are all called `test`.
    init(engine: Engine = Engine(sessionID: { _ in "test" }), hello: Bool = true) {
        self.engine = engine
        self.connection = engine.connect()
        if hello { _ = send(#"{"id":0,"op":"hello","protocol":1}"#) }
    }

    /// Ends the session at once (`bye`), as a client that is done does: its views leave the static storage.
    deinit {
        _ = connection.handle(line: #"{"op":"bye"}"#)
        connection.close()
    }

    /// Sends one line; returns the events it caused and its response.
    @discardableResult
    func send(_ line: String) -> (events: [String], response: String) {
        let frames = connection.handle(line: line)
        return (Array(frames.dropLast()), frames.last ?? "")
    }

    /// Sends a request and returns its `result` (or its `error`) as canonical JSON.
    func result(_ line: String) -> String {
        let response = send(line).response
        return field(response, field(response, "ok") == "true" ? "result" : "error.code")
    }

    func inspect(_ tag: Int) -> String { send(#"{"op":"inspect","tag":\#(tag)}"#).response }
}
