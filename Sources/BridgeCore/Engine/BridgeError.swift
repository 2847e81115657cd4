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

    /// A bad prop (`prop`), command argument (`arg`, its position) or payload field, with where inside the
    /// value (`path`), what was expected and what was received. The last detail of a long list may instead
    /// say how many more problems there were (`more`).
    public struct Detail: Sendable {
        public var prop: String?
        public var arg: Int?
        /// `style.insets.top`, `points[2].x`: the prop (or parameter, or payload field) and the steps inside it.
        public var path: String
        public var expected: String
        public var got: RawValue
        public var message: String
        /// How many problems were left out of the list (only on the last entry).
        public var more: Int?

        public init(
            prop: String? = nil,
            arg: Int? = nil,
            path: String,
            expected: String,
            got: RawValue,
            message: String,
            more: Int? = nil
        ) {
            self.prop = prop
            self.arg = arg
            self.path = path
            self.expected = expected
            self.got = got
            self.message = message
            self.more = more
        }

        /// The details of converted values' problems, each named by the prop (or argument) it was found in.
        static func list(_ issues: PropIssues, owners: [(prop: String?, arg: Int?)]) -> [Detail] {
            var details: [Detail] = zip(issues.list, owners).map { issue, owner in
                Detail(
                    prop: owner.prop,
                    arg: owner.arg,
                    path: issue.path,
                    expected: issue.expected,
                    got: issue.got,
                    message: issue.message
                )
            }
            if issues.total > issues.list.count, let last = issues.reported.last {
                details.append(
                    Detail(
                        path: "",
                        expected: "",
                        got: .null,
                        message: last.message,
                        more: issues.total - issues.list.count
                    )
                )
            }
            return details
        }
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
                if let more = detail.more {
                    w.raw(#"{"more":"#)
                    w.int(more)
                    w.raw(#","message":"#)
                    w.string(detail.message)
                    w.raw("}")
                    return
                }
                if let prop = detail.prop {
                    w.raw(#"{"prop":"#)
                    w.string(prop)
                } else if let arg = detail.arg {
                    w.raw(#"{"arg":"#)
                    w.int(arg)
                } else {
                    w.raw("{")
                }
                if detail.prop != nil || detail.arg != nil { w.raw(",") }
                w.raw(#""path":"#)
                w.string(detail.path)
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
