extension Ops {
    /// `hello {protocol, client?, resume?}`: checked here and, when the session is not greeted yet, handed to the
    /// connection to answer (it makes room among the sessions; with `resume`, it may move to another one). A
    /// second hello is answered here.
    enum Hello: Op {
        static let entry = OpTable.Entry(
            "hello",
            batch: .refused("batch: hello cannot be part of a batch"),
            isHello: true,
            resultIsUnbounded: true
        )
        static let spec = OpSpec(
            fields:
                #"{"protocol":"integer","client?":"string","resume?":{"session":"string","token?":"string","ack?":"integer"}}"#,
            sample: #"{"op":"hello","protocol":1,"client":"sample"}"#,
            result: #"""
                {"$name":"HelloResult","protocol":"integer","server":"string","session":"string","token":"string",
                "limits":{"*":"integer"},"maxFrameBytes":"integer","components":{"$name":"Components","*":"object"},
                "propTypes":{"*":{"$name":"PropTypeInfo","nativeType":"string","nativeArrayType?":"string",
                "deepDiffs":"boolean","typeScript":"string","reportedTypeScript":"string","note?":"string"}},
                "resumed?":"boolean","reason?":"string","seq?":"integer"}
                """#
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let request = context.request
            let session = context.session
            guard let version = request.json[field: "protocol"] else {
                throw BridgeError(
                    .badRequest,
                    "hello: missing 'protocol' (this server speaks protocol \(Engine.protocolVersion))"
                )
            }
            guard version.integer == Int64(Engine.protocolVersion) else {
                throw BridgeError(
                    .unsupportedProtocol,
                    "hello: protocol \(version.compactText) is not supported; this server speaks protocol \(Engine.protocolVersion)"
                )
            }
            let client = try request.optionalString("client")
            if let client, client.utf8.count > Session.maxClientBytes {
                throw BridgeError(
                    .badRequest,
                    "hello: 'client' is \(client.utf8.count) bytes; it may have at most \(Session.maxClientBytes)"
                )
            }
            if let client {
                session.watch.client = client
                session.listing.client.withLock { $0 = client }
            }
            if let resume = request.json[field: "resume"] { return .resume(try ResumeRequest(resume)) }
            if !session.greeted { return .greet }
            writeResult(of: session, resumed: nil, reason: nil, into: &session.scratch.result)
            return nil
        }

        /// The result of a hello: protocol, server, session, token, limits, components, propTypes; with `resumed`
        /// (and `reason`, `seq`) when the client asked to resume.
        static func writeResult(of session: Session, resumed: Bool?, reason: String?, into w: inout JSONWriter) {
            w.raw(#"{"protocol":"#)
            w.int(Engine.protocolVersion)
            w.raw(#","server":"#)
            w.string(session.engine.configuration.server)
            w.raw(#","session":"#)
            w.string(session.id)
            w.raw(#","token":"#)
            w.string(session.token)
            w.raw(#","limits":"#)
            SessionLimit.write(session.engine.configuration, into: &w)
            w.raw(#","maxFrameBytes":"#)
            w.int(session.engine.configuration.maxFrameBytes)
            if let resumed {
                w.raw(#","resumed":"#)
                w.bool(resumed)
                if let reason {
                    w.raw(#","reason":"#)
                    w.string(reason)
                }
                w.raw(#","seq":"#)
                w.int(session.seq)
            }
            w.raw(#","components":"#)
            w.raw(session.engine.componentsJSON)
            w.raw(#","propTypes":"#)
            w.raw(JSONWriter.propTypeDescriptors)
            w.raw("}")
        }
    }
}
