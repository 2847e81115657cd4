import PropStore

extension Session {
    /// Runs one op, writing its result into `scratch.result`, or returns what the connection is to answer.
    /// Throws without having changed anything (outside a batch), or after recording how to undo (inside one).
    @discardableResult
    func perform(op: JSONRef, request json: JSONRef, inBatch: Bool) throws(BridgeError) -> Handoff? {
        // Most frequent first; each test is a length check and a memcmp, no Swift string.
        if op.isString("update") {
            try update(Request(op: "update", json: json))
        } else if op.isString("command") {
            try command(Request(op: "command", json: json))
        } else if op.isString("create") {
            try create(Request(op: "create", json: json))
        } else if op.isString("emit") {
            try emit(Request(op: "emit", json: json))
        } else if op.isString("inspect") {
            try inspect(Request(op: "inspect", json: json))
        } else if op.isString("batch") {
            if inBatch { throw BridgeError(.badRequest, "batch: a batch cannot contain another batch") }
            try batch(Request(op: "batch", json: json))
        } else if op.isString("setChildren") {
            try setChildren(Request(op: "setChildren", json: json))
        } else if op.isString("delete") {
            try delete(Request(op: "delete", json: json))
        } else if op.isString("subscribe") {
            try subscribe(Request(op: "subscribe", json: json), on: true)
        } else if op.isString("unsubscribe") {
            try subscribe(Request(op: "unsubscribe", json: json), on: false)
        } else if op.isString("ack") {
            if inBatch { throw BridgeError(.badRequest, "batch: ack cannot be part of a batch") }
            try ack(Request(op: "ack", json: json))
        } else if op.isString("ping") {
            scratch.result.raw("{}")
        } else if op.isString("stats") {
            stats()
        } else if op.isString("hello") {
            if inBatch { throw BridgeError(.badRequest, "batch: hello cannot be part of a batch") }
            return try hello(Request(op: "hello", json: json))
        } else if let observerRequest = try ObserverRequest(op: op, request: json) {
            if inBatch { throw BridgeError(.badRequest, "batch: \(op.string ?? "") cannot be part of a batch") }
            return .observer(observerRequest)
        } else if op.isString("bye") {
            // The session is closed by `handle(request:into:)` once the answer is written.
            if inBatch { throw BridgeError(.badRequest, "batch: bye cannot be part of a batch") }
            scratch.result.raw("{}")
        } else {
            throw BridgeError(
                .unknownOp,
                "unknown op '\(op.string ?? "")'; expected one of hello, create, update, setChildren, delete, "
                    + "subscribe, unsubscribe, command, emit, inspect, batch, ack, ping, stats, sessions, observe, "
                    + "unobserve, bye"
            )
        }
        return nil
    }

    /// Looks a tag up in the static storage.
    func view(_ tag: Int, field: StaticString = "tag", op: StaticString) throws(BridgeError) -> ViewProxy {
        guard let view = ViewStorage.proxy(session: storageKey, tag: tag) else {
            throw BridgeError(.unknownTag, "\(op): no view with \(field) \(tag) in this session")
        }
        return view
    }

    /// `hello {protocol, client, resume}`: checked here and, when the session is not greeted yet, returned to be
    /// answered by the connection (it makes room among the sessions; with `resume`, it may move to another one). A
    /// second hello is answered here.
    func hello(_ request: Request) throws(BridgeError) -> Handoff? {
        guard let version = request.json[field: "protocol"] else {
            throw BridgeError(.badRequest, "hello: missing 'protocol' (this server speaks protocol 1)")
        }
        guard version.integer == Int64(Engine.protocolVersion) else {
            throw BridgeError(
                .unsupportedProtocol,
                "hello: protocol \(version.compactText) is not supported; this server speaks protocol 1"
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
            watch.client = client
            listing.client.withLock { $0 = client }
        }
        if let resume = request.json[field: "resume"] { return .resume(try ResumeRequest(resume)) }
        if !greeted { return .greet }
        writeHelloResult(resumed: nil, reason: nil, into: &scratch.result)
        return nil
    }

    func stats() {
        scratch.result.raw(#"{"sessions":"#)
        scratch.result.int(engine.sessionCount)
        scratch.result.raw(#","views":"#)
        scratch.result.int(engine.viewCount)
        scratch.result.raw(#","sessionViews":"#)
        scratch.result.int(viewCount)
        scratch.result.raw(#","seq":"#)
        scratch.result.int(seq)
        scratch.result.raw("}")
    }

    func inspect(_ request: Request) throws(BridgeError) {
        let view = try view(try request.tag(), op: "inspect")
        if view.renders == .max && view.needsRender {
            throw BridgeError(
                .limitExceeded,
                "inspect: view \(view.tag) has rendered \(view.renders) times, the most it can count"
            )
        }
        if view.renderIfNeeded(), watch.isObserved { observeRender(view) }
        scratch.result.viewHead(view)
        scratch.result.viewPlace(view)
        scratch.result.viewRender(view)
        scratch.result.raw(#","commands":"#)
        scratch.result.commandLog(view.commandsInOrder)
        scratch.result.raw("}")
    }

    /// Runs the ops in order, all or nothing; events wait for the commit.
    func batch(_ request: Request) throws(BridgeError) {
        guard let ops = try request.array("ops", required: true) else { return }
        guard ops.count <= engine.configuration.maxOpsPerBatch else {
            throw BridgeError(
                .limitExceeded,
                "batch: \(ops.count) ops exceed the limit of \(engine.configuration.maxOpsPerBatch) per batch"
            )
        }
        undo.begin()
        scratch.result.raw(#"{"results":["#)
        for (index, op) in ops.enumerated() {
            if index > 0 { scratch.result.comma() }
            // The daemon is stopping and will not wait for the rest: undone, and saved as it was before.
            if engine.isInterrupted { throw BridgeError(.limitExceeded, "batch: the daemon is stopping") }
            do throws(BridgeError) {
                guard op.isObject else { throw BridgeError(.badRequest, "batch: op \(index) is not an object") }
                guard let name = op[field: "op"], name.kind == .string else {
                    throw BridgeError(.badRequest, "batch: op \(index) has no 'op' string")
                }
                try perform(op: name, request: op, inBatch: true)
            } catch {
                var failure = BridgeError(
                    .batchFailed,
                    "op \(index) (\(op[field: "op"]?.string ?? "not an op")) of the batch failed, nothing was applied: \(error.message)"
                )
                failure.index = index
                failure.inner = BridgeError.Inner(error)
                throw failure
            }
            // The results alone may not outgrow the request's output bound (its events are checked at the commit).
            if scratch.result.count > engine.configuration.maxRequestOutputBytes { throw outputLimitError() }
        }
        if engine.isInterrupted { throw BridgeError(.limitExceeded, "batch: the daemon is stopping") }
        scratch.result.raw("]}")
        // The batch's changes are final once its events fit too: ``handle(request:into:)`` commits the undo.
    }
}
