import BridgeCore

/// The rules of `protocol.md` that the frames written for one connection must obey, whatever the input.
///
/// - A blank line (empty or `\r`) is a keep-alive: no frame. Any other line: exactly one response frame.
/// - Every frame is one JSON object on one line: a response (`ok`, `id`) or an event (`event`, `seq`).
/// - The response echoes an integer or string `id` of an object request; otherwise its `id` is `null`.
/// - Events precede the response, except the retained events a resuming `hello` writes after it.
/// - `seq` goes up by one per event frame: from 1 in a fresh session, from past the client's `ack` after a
///   resume.
/// - After a successful `bye` the connection is over: no line after it gets a frame.
struct OutputChecker {
    /// The last event seq written on this connection's current session, or `nil` right after a resume
    /// (then the next must exceed `resumeAck`).
    private var lastSeq: Int? = 0
    private var resumeAck = 0
    private var lines = 0
    /// A `bye` was answered: the session ended and the daemon closes the connection.
    private var ended = false
    /// The current line is one the JSON reader refuses: maybe valid JSON that jansson cannot take (a duplicate
    /// key, a key with `\u0000`, too deep, a number beyond the double range), answered with the request's `id`.
    private var unreadable = false

    mutating func check(line: UnsafeRawBufferPointer, kind: RequestLine.Kind, output: [UInt8]) {
        lines += 1
        if ended {
            require(output.isEmpty, "a line after bye was answered", line, output)
            return
        }
        var content = line
        if content.last == UInt8(ascii: "\r") { content = UnsafeRawBufferPointer(rebasing: content.dropLast()) }
        if content.isEmpty {
            require(kind == .keepAlive, "a blank line is not a keep-alive", line, output)
            require(output.isEmpty, "a keep-alive was answered", line, output)
            return
        }
        require(kind != .keepAlive, "a non-blank line was taken for a keep-alive", line, output)
        require(output.last == UInt8(ascii: "\n"), "the output does not end with a newline", line, output)
        // The request as the engine reads it (`null` when it is not JSON), to know what `id` to expect.
        let requestDocument: JSONDocument
        do {
            requestDocument = try JSONDocument(parsing: content)
            unreadable = false
        } catch {
            requestDocument = try! JSONDocument(parsing: "null")
            unreadable = true
        }
        let request = requestDocument.root
        var responses = 0
        var afterResponse = false
        var resumedAfter = false
        for frame in output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
            let document: JSONDocument
            do {
                document = try JSONDocument(parsing: Array(frame))
            } catch {
                fail("a frame is not JSON (\(error))", line, output)
            }
            let root = document.root
            require(root.isObject, "a frame is not a JSON object", line, output)
            if let ok = root["ok"] {
                responses += 1
                require(root["event"] == nil, "a frame is both a response and an event", line, output)
                require(ok.kind == .bool, "'ok' is not a boolean", line, output)
                checkID(root, request: request, line: line, output: output)
                if ok.compactText == "true" {
                    require(root["result"] != nil, "a success has no result", line, output)
                    if request["op"]?.isString("bye") == true { ended = true }
                    if let resumed = root["result"]?["resumed"] {
                        // The session changed: a resumed one goes on from the client's ack, a fresh one from 1.
                        if resumed.compactText == "true" {
                            lastSeq = nil
                            resumeAck = Int(request["resume"]?["ack"]?.integer ?? 0)
                            resumedAfter = true
                        } else {
                            lastSeq = 0
                        }
                    }
                } else {
                    let error = root["error"]
                    require(error?.isObject == true, "a failure has no error object", line, output)
                    require(error?["code"]?.kind == .string, "an error has no string code", line, output)
                    require(error?["message"]?.kind == .string, "an error has no string message", line, output)
                }
                afterResponse = true
            } else if let event = root["event"] {
                require(event.kind == .string, "an event name is not a string", line, output)
                require(!afterResponse || resumedAfter, "an event follows the response", line, output)
                guard let seq = root["seq"]?.integer.map(Int.init) else {
                    fail("an event has no integer seq", line, output)
                }
                if let last = lastSeq {
                    require(seq == last + 1, "event seq \(seq) after \(last)", line, output)
                } else {
                    require(
                        seq > resumeAck,
                        "a resumed event's seq \(seq) is not past the ack \(resumeAck)",
                        line,
                        output
                    )
                }
                lastSeq = seq
            } else {
                fail("a frame is neither a response nor an event", line, output)
            }
        }
        require(responses == 1, "\(responses) responses to one line", line, output)
    }

    /// The response's `id`: the request's when it is an integer or a string, else `null`.
    private func checkID(_ response: JSONRef, request: JSONRef, line: UnsafeRawBufferPointer, output: [UInt8]) {
        guard let id = response["id"] else { fail("a response has no id", line, output) }
        if request.isObject, let expected = request["id"], expected.kind == .integer || expected.kind == .string {
            require(id.isEqual(to: expected), "the response's id is not the request's", line, output)
        } else if unreadable && (id.kind == .integer || id.kind == .string) {
            // protocol.md "Limits of values": valid JSON jansson refuses keeps its top-level integer or plain
            // string `id`. The checker's reader refuses it too, so it checks that this id's text is in the line.
            let text = Array(id.compactText.utf8)
            require(
                Array(line).firstRange(of: text) != nil,
                "the response's id \(id.compactText) is not the line's",
                line,
                output
            )
        } else {
            require(id.isNull, "the response's id is not null", line, output)
        }
    }

    private func require(
        _ condition: Bool,
        _ message: @autoclosure () -> String,
        _ line: UnsafeRawBufferPointer,
        _ output: [UInt8]
    ) {
        if !condition { fail(message(), line, output) }
    }

    private func fail(_ message: String, _ line: UnsafeRawBufferPointer, _ output: [UInt8]) -> Never {
        fatalError(
            """
            invariant broken at input line \(lines): \(message)
            line:   \(Array(line).map { $0 < 0x20 || $0 >= 0x7F ? "\\x" + String($0, radix: 16) : String(UnicodeScalar($0)) }.joined())
            output: \(String(decoding: output, as: UTF8.self))
            """
        )
    }
}
