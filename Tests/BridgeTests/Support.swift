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

/// A session driven in-process, one request at a time.
final class Client {
    let engine: Engine
    let session: Session

    init(engine: Engine = Engine(), hello: Bool = true, id: String = "test") {
        self.engine = engine
        self.session = engine.makeSession(id: id)
        if hello { _ = send(#"{"id":0,"op":"hello","protocol":1}"#) }
    }

    deinit { session.close() }

    /// Sends one line; returns the events it caused and its response.
    @discardableResult
    func send(_ line: String) -> (events: [String], response: String) {
        let frames = session.handle(line: line)
        return (Array(frames.dropLast()), frames.last ?? "")
    }

    /// Sends a request and returns its `result` (or its `error`) as canonical JSON.
    func result(_ line: String) -> String {
        let response = send(line).response
        return field(response, field(response, "ok") == "true" ? "result" : "error.code")
    }

    func inspect(_ tag: Int) -> String { send(#"{"op":"inspect","tag":\#(tag)}"#).response }
}
