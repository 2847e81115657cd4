/// The framing of one request line: reading it (a keep-alive, a request object, or a line answered here with
/// `bad_json`, `bad_request` or `limit_exceeded`), its `id`, and the frames that answer it. Apart from any
/// session's state.
public enum RequestLine {
    /// What a line turned out to be, for a recorder that keeps bad input as raw text.
    public enum Kind: Sendable {
        /// Blank: a keep-alive, answered with nothing.
        case keepAlive
        /// A JSON object (a request, valid or not).
        case object
        /// Not a JSON object jansson reads (answered with `bad_json`, `bad_request` or `limit_exceeded`), or
        /// one it reads only with its integers as reals: a recorder keeps it as raw text.
        case notObject
        /// A request about other sessions (`sessions`, `observe`, `unobserve`) that a connection answered.
        /// Not recorded: a replay has no other sessions to show.
        case observer
    }

    /// Parses a line and calls `body` with the request object; a line that is not one is answered here
    /// (`bad_json` or `bad_request`, with `id: null`) and a blank line is a keep-alive.
    static func withRequest(
        line: UnsafeRawBufferPointer,
        parsed: consuming JSONDocument? = nil,
        into out: inout [UInt8],
        _ body: (JSONRef, inout [UInt8]) -> Void
    ) -> Kind {
        if let parsed = parsed.take() { return withParsed(parsed, into: &out, body) }
        guard let line = text(line) else { return .keepAlive }
        // The tree goes in the thread's scratch arena, given back when the request is answered. A line jansson
        // refuses is read again below, for its error.
        let scratch = JanssonMemory.claimScratch()
        defer { if scratch != nil { JanssonMemory.releaseScratch() } }
        if let scratch, let tree = JanssonMemory.parse(line, into: scratch) {
            return withParsed(JSONDocument(inArena: JSONRef(tree)), into: &out, body)
        }
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: line)
        } catch {
            guard let reread = refused(line, error, into: &out) else { return .notObject }
            // Handled as a request, but kept as text by a recorder: its integers do not fit a JSON reader.
            _ = withParsed(reread, into: &out, body)
            return .notObject
        }
        return withParsed(document, into: &out, body)
    }

    /// The text of a request line: without a `\r` before its `\n`; `nil` for a blank line (a keep-alive).
    static func text(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
        return line.isEmpty ? nil : line
    }

    private static func withParsed(
        _ document: consuming JSONDocument,
        into out: inout [UInt8],
        _ body: (JSONRef, inout [UInt8]) -> Void
    ) -> Kind {
        let request = document.root
        guard request.isObject else {
            writeError(BridgeError(.badRequest, "a request must be a JSON object"), id: .none, into: &out)
            return .notObject
        }
        body(request, &out)
        withExtendedLifetime(document) {}
        return .object
    }

    /// Answers a line jansson refused. Only a line that is not JSON is `bad_json`; valid JSON that jansson
    /// cannot take is answered with the request's own `id` (read by ``JSONScanner``) and what was wrong, except
    /// integers beyond 64 bits: the line is read again with them as reals, and returned to be handled, so that
    /// the prop or field that holds one is named.
    private static func refused(
        _ line: UnsafeRawBufferPointer,
        _ error: JSONParseError,
        into out: inout [UInt8]
    ) -> JSONDocument? {
        // A syntax error of valid JSON is a lone surrogate escape, which the scanner finds.
        guard let outline = JSONScanner.outline(line), error.reason != .syntax || outline.loneSurrogate != nil else {
            writeError(BridgeError(.badJSON, "invalid JSON: \(error)"), id: .none, into: &out)
            return nil
        }
        if error.reason == .numberOverflow, let reread = try? JSONDocument(parsing: line, integersAsReals: true) {
            // An integer `id` read as a real may come back as another integer (beyond 64 bits, or past 2^53):
            // it is never echoed changed; an `id` that is not a 64-bit integer is `bad_request`.
            if outline.isObject, let id = reread.root[field: "id"], id.kind == .integer {
                guard case .int(let given) = outline.id, Int64(given) == id.integer else {
                    writeError(BridgeError(.badRequest, "'id' must be an integer or a string"), id: .none, into: &out)
                    return nil
                }
            }
            return reread
        }
        let id = outline.isObject ? outline.id : .none
        let failure: BridgeError
        switch error.reason {
        case .tooDeep:
            failure = BridgeError(
                .limitExceeded,
                "the request nests arrays and objects deeper than 2048 levels, the JSON reader's limit"
            )
        case .outOfMemory:
            failure = BridgeError(.limitExceeded, "the request is too large to read")
        case .numberOverflow:
            failure = BridgeError(.badRequest, "a number is outside the range of a double (\(error))")
        case .nulInKey:
            failure = BridgeError(.badRequest, "an object key contains \\u0000, which is not supported (\(error))")
        case .duplicateKey:
            failure = BridgeError(.badRequest, "an object has a duplicate key (\(error))")
        case .syntax:
            guard let lone = outline.loneSurrogate else {
                failure = BridgeError(.badJSON, "invalid JSON: \(error)")
                break
            }
            failure = BridgeError(
                .badRequest,
                "a string has a lone UTF-16 surrogate escape, \(lone.escape) at byte \(lone.offset + 1) (half of a "
                    + "surrogate pair, such as half an emoji); strings must hold whole Unicode characters"
            )
        }
        writeError(failure, id: id, into: &out)
        return nil
    }

    /// The `id` of a request, or `nil` (after answering `bad_request`) when it is neither an integer nor a string.
    static func id(of request: JSONRef, into out: inout [UInt8]) -> ID? {
        guard let value = request[field: "id"] else { return ID.none }
        switch value.kind {
        case .integer: return .int(Int(value.integer!))
        case .string: return .string(value.string!)
        case .null: return ID.none
        default:
            writeError(BridgeError(.badRequest, "'id' must be an integer or a string"), id: .none, into: &out)
            return nil
        }
    }

    /// A request's `id`, echoed in its answer (`null` when it had none).
    enum ID {
        case none
        case int(Int)
        case string(String)
    }

    static func writeResponsePrefix(id: ID, into out: inout [UInt8]) {
        JSONWriter.append(to: &out) { writeResponsePrefix(id: id, into: &$0) }
    }

    static func writeResponsePrefix(id: ID, into w: inout JSONWriter) {
        w.raw(#"{"id":"#)
        w.requestID(id)
        w.raw(#","ok":true,"result":"#)
    }

    static func writeError(_ error: BridgeError, id: ID, into out: inout [UInt8]) {
        JSONWriter.append(to: &out) { w in
            w.raw(#"{"id":"#)
            w.requestID(id)
            w.raw(#","ok":false,"error":"#)
            w.error(error)
            w.raw("}\n")
        }
    }

    /// Writes an error frame that answers no request (`id: null`), e.g. `frame_too_large` from the daemon.
    public static func errorFrame(_ code: ErrorCode, _ message: String) -> [UInt8] {
        var w = JSONWriter()
        w.raw(#"{"id":null,"ok":false,"error":"#)
        w.error(BridgeError(code, message))
        w.raw("}\n")
        return w.bytes
    }
}

extension JSONWriter {
    mutating func requestID(_ id: RequestLine.ID) {
        switch id {
        case .none: null()
        case .int(let i): int(i)
        case .string(let s): string(s)
        }
    }
}
