import PropStore

/// A failed request: the protocol error code, a message saying what was wrong and where, and extras.
public struct BridgeError: Error, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// One entry per bad prop or argument (`invalid_props`, `invalid_args`).
    public var details: [Detail] = []
    /// The failing op of a batch (`batch_failed`).
    public var index: Int?
    /// The error of the failing op of a batch.
    public var inner: Inner?

    public init(_ code: ErrorCode, _ message: String, details: [Detail] = []) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { "\(code): \(message)" }

    /// A bad prop (`prop`) or command argument (`arg`, its position) with what was expected and received.
    public struct Detail: Sendable {
        public var prop: String?
        public var arg: Int?
        public var expected: String
        public var got: RawValue
        public var message: String
    }

    /// Boxes the inner error of a batch, which is itself a `BridgeError`.
    public final class Inner: Sendable {
        public let error: BridgeError
        init(_ error: BridgeError) { self.error = error }
    }
}

extension JSONWriter {
    /// Writes the `error` object of a failed response.
    mutating func error(_ error: BridgeError) {
        raw("{")
        key("code")
        string(error.code.rawValue)
        raw(",")
        key("message")
        string(error.message)
        if !error.details.isEmpty {
            raw(#","details":"#)
            array(error.details) { w, detail in
                if let prop = detail.prop {
                    w.raw(#"{"prop":"#)
                    w.string(prop)
                } else {
                    w.raw(#"{"arg":"#)
                    w.int(detail.arg ?? 0)
                }
                w.raw(#","expected":"#)
                w.string(detail.expected)
                w.raw(#","got":"#)
                w.rawValue(detail.got)
                w.raw(#","message":"#)
                w.string(detail.message)
                w.raw("}")
            }
        }
        if let index = error.index {
            raw(",")
            key("index")
            int(index)
        }
        if let inner = error.inner {
            raw(",")
            key("error")
            self.error(inner.error)
        }
        raw("}")
    }
}
