/// A request about other sessions (`sessions`, `observe`, `unobserve`): read by its op (``Ops/Sessions``,
/// ``Ops/Observe``, ``Ops/Unobserve``), answered by the session's ``Connection``, which alone can reach the other
/// sessions and push frames.
enum ObserverRequest {
    case sessions
    case observe(String)
    case unobserve(String)
}
