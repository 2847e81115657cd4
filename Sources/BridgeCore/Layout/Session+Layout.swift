import PropStore

extension Session {
    /// The `layout` event: a view's frame changed (`onLayout`'s `topLayout`), `{layout: {x, y, width, height}}`.
    /// Direct, and not declared by any component: any view of a session with layout on may subscribe to it.
    static let layoutEvent = EventSpec.direct("layout")

    /// Lays the session's tree out after a request changed it, as RCTUIManager does after each batch: the views
    /// whose frame changed and that listen for `layout` get the event, after the request's own events.
    func layOut(_ layout: ShadowTree) {
        let event = Session.layoutEvent
        layout.yoga.lock.withLock { _ in layOut(layout, event: event) }
    }

    /// Whether a request's layout pass waits for the first read of a frame: no view has listened to `layout`
    /// (``layoutListened``) and no observer takes the `laidOut` frames. A pass then would emit nothing; reading a frame
    /// runs it first (``layoutToRead()``), so what is read is what an eager pass would have laid out.
    var layoutIsDeferred: Bool { !layoutListened && !watch.takesLayoutFrames }

    /// The session's layout, laid out first when a pass was deferred (``layoutIsDeferred``): what reads a frame
    /// (`inspect`, `layout`'s `at`, `screenshot`) takes the tree from here. Not in the middle of a request that has
    /// changed the tree already (a batch whose earlier ops did): that reads the frames of the last pass, as an eager
    /// session does until the batch commits.
    func layoutToRead() -> ShadowTree? {
        guard let layout else { return nil }
        if layout.isDirty && layoutIsDeferred && undo.count == 0 && staged?.isApplied != true { layOut(layout) }
        return layout
    }

    private func layOut(_ layout: ShadowTree, event: EventSpec) {
        // Observers (openApp's own session, whose queries' handles carry `layout`) are told every frame that changed.
        let observed = watch.takesLayoutFrames
        var changed: [(view: ViewProxy, frame: Frame)] = []
        defer { if observed { watch.laidOut(changed) } }
        layout.layOut { view, frame in
            if observed { changed.append((view, frame)) }
            guard !view.listeners.isEmpty, view.phases(for: event.name) != nil else { return }
            let payload: EventPayload = [
                "layout": .object([
                    PropMember("x", points(frame.x)), PropMember("y", points(frame.y)),
                    PropMember("width", points(frame.width)), PropMember("height", points(frame.height)),
                ])
            ]
            scratch.events.append(PendingEvent(view: view, event: event, payload: payload))
        }
    }

    /// A number of points as `inspect` writes it: an integer when integral.
    private func points(_ value: Double) -> PropValue {
        value == value.rounded() && abs(value) < 1e15 ? .int(Int(value)) : .double(value)
    }
}
