/// A request about other sessions (`sessions`, `observe`, `unobserve`; `screenshot` and `layout`'s `at` given a
/// `session`): read by its op (``Ops/Sessions``, ``Ops/Observe``, ``Ops/Unobserve``, ``Ops/Screenshot``,
/// ``Ops/Layout``), answered by the session's ``Connection``, which alone can reach the other sessions and push
/// frames.
enum ObserverRequest {
    case sessions
    /// `tree`: the tree's changes alone, compactly (the connection's own session only); `grouped`: each request's
    /// as one frame.
    case observe(String, tree: Bool = false, layout: Bool = true, grouped: Bool = false)
    case unobserve(String)
    /// Another session's window drawn (``Engine/screenshot(_:scale:frames:into:)``).
    case screenshot(session: String, scale: Double?, frames: Bool)
    /// The view a touch at a point of another session's window reaches (``Engine/hitTest(_:x:y:into:)``).
    case hitTest(session: String, x: Double, y: Double)
}
