/// A request about other sessions (`sessions`, `observe`, `unobserve`): checked by the session, answered by
/// its ``Connection``, which alone can reach the other sessions and push frames.
enum ObserverRequest {
    case sessions
    case observe(String)
    case unobserve(String)

    /// The request named by `op`, or `nil` when `op` is not one of these.
    init?(op: JSONRef, request json: JSONRef) throws(BridgeError) {
        if op.isString("sessions") {
            self = .sessions
        } else if op.isString("observe") {
            self = .observe(try Request(op: "observe", json: json).string("session"))
        } else if op.isString("unobserve") {
            self = .unobserve(try Request(op: "unobserve", json: json).string("session"))
        } else {
            return nil
        }
    }
}
