import PropStore

extension Session {
    /// Runs one op, writing its result into `result`. Throws without having changed anything
    /// (outside a batch), or after recording how to undo (inside one).
    func perform(op: JSONRef, request json: JSONRef, inBatch: Bool) throws(BridgeError) {
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
            result.raw("{}")
        } else if op.isString("stats") {
            stats()
        } else if op.isString("hello") {
            if inBatch { throw BridgeError(.badRequest, "batch: hello cannot be part of a batch") }
            try hello(Request(op: "hello", json: json))
        } else if let observerRequest = try ObserverRequest(op: op, request: json) {
            if inBatch { throw BridgeError(.badRequest, "batch: \(op.string ?? "") cannot be part of a batch") }
            watch.request = observerRequest
        } else if op.isString("bye") {
            // The session is closed by `handle(request:into:)` once the answer is written.
            if inBatch { throw BridgeError(.badRequest, "batch: bye cannot be part of a batch") }
            result.raw("{}")
        } else {
            throw BridgeError(
                .unknownOp,
                "unknown op '\(op.string ?? "")'; expected one of hello, create, update, setChildren, delete, "
                    + "subscribe, unsubscribe, command, emit, inspect, batch, ack, ping, stats, sessions, observe, "
                    + "unobserve, bye"
            )
        }
    }

    /// Looks a tag up in the static storage.
    func view(_ tag: Int, field: StaticString = "tag", op: StaticString) throws(BridgeError) -> ViewProxy {
        guard let view = ViewStorage.proxy(session: storageKey, tag: tag) else {
            throw BridgeError(.unknownTag, "\(op): no view with \(field) \(tag) in this session")
        }
        return view
    }

    func hello(_ request: Request) throws(BridgeError) {
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
        if client != nil { watch.client = client }
        if request.json[field: "resume"] != nil {
            // Moving to another session is the connection's business: it answers this hello itself.
            resumeRequested = true
            return
        }
        greeted = true
        writeHelloResult(resumed: nil, reason: nil, into: &result)
    }

    func stats() {
        result.raw(#"{"sessions":"#)
        result.int(engine.sessionCount)
        result.raw(#","views":"#)
        result.int(engine.viewCount)
        result.raw(#","sessionViews":"#)
        result.int(viewCount)
        result.raw(#","seq":"#)
        result.int(seq)
        result.raw("}")
    }

    func inspect(_ request: Request) throws(BridgeError) {
        let view = try view(try request.tag(), op: "inspect")
        if view.renderIfNeeded(), watch.isObserved { observeRender(view) }
        result.viewHead(view)
        result.raw(#","parent":"#)
        if let parent = view.parent { result.int(parent.tag) } else { result.null() }
        result.raw(#","children":"#)
        result.tagArray(view.children)
        result.raw(#","render":"#)
        result.string(view.render)
        result.raw(#","renders":"#)
        result.int(view.renders)
        result.raw(#","commands":"#)
        result.commandLog(view.commandsInOrder)
        result.raw("}")
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
        undoLog = []
        result.raw(#"{"results":["#)
        for (index, op) in ops.enumerated() {
            if index > 0 { result.comma() }
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
        }
        result.raw("]}")
    }
}
