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

    private func layOut(_ layout: ShadowTree, event: EventSpec) {
        // Observers (openApp's own session, whose queries' handles carry `layout`) are told every frame that changed.
        let observed = watch.isObserved
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
