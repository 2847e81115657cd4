/// What a `hello` with `resume` asks for, read and checked once by the session that got it.
///
/// The session leaves the answer to its ``Connection`` (``Session/Handoff/resume(_:)``), which claims the
/// session with it (``Engine/claim(_:by:)``) without reading the request again.
struct ResumeRequest: Equatable {
    /// The id of the session to resume.
    let session: String
    /// The token of the hello that opened that session; `nil` when the client gave none, which is refused as a
    /// wrong token is (like an unknown session), not as a bad request.
    let token: String?
    /// The highest seq the client has dispatched: the events after it are written again.
    let ack: Int
}

extension ResumeRequest {
    /// Reads hello's `resume`: `{session: string, token: string, ack: non-negative integer}`.
    init(_ resume: JSONRef) throws(BridgeError) {
        guard resume.isObject, let session = resume[field: "session"]?.string,
            let ackValue = resume[field: "ack"], let ack = ackValue.integer, ack >= 0
        else {
            throw BridgeError(.badRequest, "hello: 'resume' must be {session: string, ack: non-negative integer}")
        }
        let token = resume[field: "token"]
        if let token, !token.isNull, token.string == nil {
            throw BridgeError(
                .badRequest,
                "hello: 'resume.token' must be a string (the token of the hello that opened the session), "
                    + "got \(token.compactText)"
            )
        }
        self.session = session
        self.token = token?.string
        self.ack = Int(ack)
    }
}
