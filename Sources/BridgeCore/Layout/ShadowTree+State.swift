import PropStore

/// A session's layout in the daemon's state file: which Yoga (its sources' hash) and the window, so that a session
/// resumed after a restart (`systemctl --user restart bridged`) lays out, hit-tests and draws as before it.
extension ShadowTree {
    /// `{"yoga":<hash>,"window":{width, height, scale, fontScale, insets}}`.
    func writeState(into w: inout JSONWriter) {
        w.raw(#"{"yoga":"#)
        w.string(yoga.hash)
        w.raw(#","window":{"width":"#)
        w.number(window.width)
        w.raw(#","height":"#)
        w.number(window.height)
        w.raw(#","scale":"#)
        w.number(window.scale)
        w.raw(#","fontScale":"#)
        w.number(window.fontScale)
        w.raw(#","insets":["#)
        w.number(window.insets.top)
        w.comma()
        w.number(window.insets.right)
        w.comma()
        w.number(window.insets.bottom)
        w.comma()
        w.number(window.insets.left)
        w.raw("]}}")
    }

    /// The layout a state file's session saved (`layout`, ``writeState(into:)``), over `session`'s restored views,
    /// laid out once (no `layout` event: the client had the frames). Throws a message when the entry is not one the
    /// daemon writes; `nil` when its Yoga is no longer in the daemon's cache (the session then comes back with layout
    /// off, as `layout` answers).
    static func restore(_ entry: JSONRef, in session: Session) throws(StateError) -> ShadowTree? {
        func number(_ value: JSONRef?, _ name: String, positive: Bool) throws(StateError) -> Double {
            guard let value, value.kind == .integer || value.kind == .real else {
                throw StateError("session \(session.id): layout's \(name) is not a number")
            }
            let number = value.kind == .integer ? Double(value.integerValue) : value.realValue
            guard number.isFinite, positive ? number > 0 : number >= 0, number <= Ops.Layout.maxSide else {
                throw StateError("session \(session.id): layout's \(name) is out of range: \(number)")
            }
            return number
        }
        guard let hash = entry[field: "yoga"]?.string, let json = entry[field: "window"], json.isObject,
            let insets = json[field: "insets"]?.elements, insets.count == 4
        else {
            throw StateError("session \(session.id): its layout has no yoga hash or window")
        }
        var window = Ops.Layout.defaultWindow
        window.width = try number(json[field: "width"], "width", positive: true)
        window.height = try number(json[field: "height"], "height", positive: true)
        window.scale = try number(json[field: "scale"], "scale", positive: true)
        window.fontScale = try number(json[field: "fontScale"], "fontScale", positive: true)
        guard window.fontScale <= Ops.Layout.maxFontScale else {
            throw StateError("session \(session.id): layout's fontScale is out of range: \(window.fontScale)")
        }
        window.insets = (
            try number(insets[0], "insets", positive: false), try number(insets[1], "insets", positive: false),
            try number(insets[2], "insets", positive: false), try number(insets[3], "insets", positive: false)
        )
        let yoga: YogaLibrary
        do {
            yoga = try YogaLibrary.load(hash: hash)
        } catch {
            return nil
        }
        let tree = ShadowTree(yoga: yoga, window: window)
        tree.adopt(ViewStorage.views(session: session.storageKey))
        yoga.lock.withLock { _ in tree.layOut { _, _ in } }
        return tree
    }
}
