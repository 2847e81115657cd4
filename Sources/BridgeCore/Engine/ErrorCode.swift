/// A protocol error code: the `error.code` of a failed response. The same strings appear in `protocol.md`
/// and in the Node client.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The line is not JSON, has duplicate keys or invalid UTF-8.
    public static let badJSON = ErrorCode(rawValue: "bad_json")
    /// JSON that is not an object, lacks `op`, or has a field of the wrong type.
    public static let badRequest = ErrorCode(rawValue: "bad_request")
    public static let unknownOp = ErrorCode(rawValue: "unknown_op")
    public static let helloRequired = ErrorCode(rawValue: "hello_required")
    public static let unsupportedProtocol = ErrorCode(rawValue: "unsupported_protocol")
    public static let unknownComponent = ErrorCode(rawValue: "unknown_component")
    public static let unknownTag = ErrorCode(rawValue: "unknown_tag")
    public static let tagInUse = ErrorCode(rawValue: "tag_in_use")
    public static let invalidProps = ErrorCode(rawValue: "invalid_props")
    public static let unknownEvent = ErrorCode(rawValue: "unknown_event")
    public static let unknownCommand = ErrorCode(rawValue: "unknown_command")
    public static let invalidArgs = ErrorCode(rawValue: "invalid_args")
    /// An event payload that does not fit the event's payload type (`emit`, or a command's own emission).
    public static let invalidPayload = ErrorCode(rawValue: "invalid_payload")
    /// A `define` whose schema cannot be taken (the JSON path and the problem), or names a component that is
    /// registered already and described otherwise.
    public static let invalidSchema = ErrorCode(rawValue: "invalid_schema")
    public static let cycle = ErrorCode(rawValue: "cycle")
    public static let batchFailed = ErrorCode(rawValue: "batch_failed")
    /// A line longer than the daemon's frame limit.
    public static let frameTooLarge = ErrorCode(rawValue: "frame_too_large")
    public static let limitExceeded = ErrorCode(rawValue: "limit_exceeded")
    /// The daemon refused the connecting user.
    public static let permissionDenied = ErrorCode(rawValue: "permission_denied")
    /// Another connection resumed this connection's session; this one is closed.
    public static let sessionTakenOver = ErrorCode(rawValue: "session_taken_over")
    /// `observe` with a session id the daemon does not have.
    public static let unknownSession = ErrorCode(rawValue: "unknown_session")

    /// `layout`: the session's layout cannot be turned on (no Yoga sources, no C++ compiler, no usable cache
    /// folder, a build that failed); the message names what is missing.
    public static let layoutUnavailable = ErrorCode(rawValue: "layout_unavailable")

    /// Every code, in the order `protocol.md` lists them.
    public static let all: [ErrorCode] = [
        .badJSON, .badRequest, .unknownOp, .helloRequired, .unsupportedProtocol, .unknownComponent, .unknownTag,
        .tagInUse, .invalidProps, .unknownEvent, .unknownCommand, .invalidArgs, .invalidPayload, .invalidSchema, .cycle,
        .batchFailed, .frameTooLarge, .limitExceeded, .permissionDenied, .sessionTakenOver, .unknownSession,
        .layoutUnavailable,
    ]
}
