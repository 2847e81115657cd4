#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The protocol's ops: the one list that dispatch, the `unknown_op` message, the batch rule, recording and the
/// tests read.
///
/// Adding an op: write `Ops/<Name>.swift`, an enum in ``Ops`` conforming to ``Op`` (its ``Entry``: its name,
/// whether a batch may hold it; its ``OpSpec``: its fields, a sample request, its result's shape, whether a client
/// may repeat it; and its `perform`, which reads the request and makes its changes through an ``OpContext``), and
/// put it in ``ops`` where protocol.md lists the op. Then, each checked by a test that names the place:
/// - a change of a kind no op made before: its ``OpContext`` method, which records the undo, and the observers'
///   frame it writes (`SessionWatch+Changes.swift`) (`ObserverFramesTests`: a request that changes what
///   `observe` shows sends observers a frame); and its case in the DevTools page's change handler;
/// - an op about other sessions conforms to ``ObserverOp`` instead (then the connection answers it,
///   `Connection+Observe`/`Engine+Observe` with an ``ObserverRequest`` case, and it is never recorded);
/// - a result that varies between runs: its rule in js-client/lib/replay-rules.json, which both replayers read;
/// - its tests, and a recorded session in `Tests/BridgeTests/Sessions` that sends it (`OpTableTests`);
/// - its row in protocol.md's "Operations" table: same name, same place, its `batch` column (`OpTableTests`);
/// - the JS client: `js-client/lib/ops.js` and `index.d.ts`'s `RequestResults` are generated from the specs
///   (`node js-client/scripts/generate.js`; `generated.test.js` fails until they are), its sample's result is
///   checked against its schema by a real daemon (`op-results.test.js`); its method (`client-api.test.js`).
public enum OpTable {
    /// What the dispatcher and the batch need to know of an op.
    public struct Entry: Sendable {
        /// Its `op` on the wire.
        public let name: StaticString
        /// Whether a batch may hold it, and otherwise what the batch is refused with.
        public let batch: BatchRule
        /// A session must say hello before any other op: this op is the hello.
        let isHello: Bool
        /// Answered by the session's ``Connection``, which alone reaches other sessions; a recorder does not
        /// keep it (a replay has no other sessions to show). An ``ObserverOp``: set by the table, from the type.
        public fileprivate(set) var reachesOtherSessions = false
        /// Its output (events with their paths, a view's props, a subtree's tags) is not bounded by the request's
        /// size: it runs with the undo open, so that one that would write too much is rolled back (a batch opens
        /// its own).
        let outputIsUnbounded: Bool
        /// Its result is not bounded at all (hello's components are the same for every session).
        let resultIsUnbounded: Bool
        /// The session ends once it is answered (`bye`).
        let endsSession: Bool
        /// It may come between the parts of a batch without rolling back what they applied ahead (``StagedBatch``):
        /// `batch` itself, which decides, and `ping`, which reads nothing of the session.
        let keepsBatchInParts: Bool

        init(
            _ name: StaticString,
            batch: BatchRule = .allowed,
            isHello: Bool = false,
            outputIsUnbounded: Bool = false,
            resultIsUnbounded: Bool = false,
            endsSession: Bool = false,
            keepsBatchInParts: Bool = false
        ) {
            self.name = name
            self.batch = batch
            self.isHello = isHello
            self.outputIsUnbounded = outputIsUnbounded
            self.resultIsUnbounded = resultIsUnbounded
            self.endsSession = endsSession
            self.keepsBatchInParts = keepsBatchInParts
        }
    }

    /// Whether a batch may hold an op; a batch holding one it may not is `bad_request` with the message.
    public enum BatchRule: Sendable {
        case allowed
        /// Refused before the op reads its request.
        case refused(StaticString)
        /// Refused once the op has read its request (which changes nothing), so that a malformed one is reported
        /// as such first.
        case refusedOnceRead(StaticString)

        /// The message a batch holding the op is refused with, `nil` for an op a batch may hold.
        public var refusal: StaticString? {
            switch self {
            case .allowed: nil
            case .refused(let message), .refusedOnceRead(let message): message
            }
        }
    }

    /// Every op, in protocol.md's order (which the `unknown_op` message lists).
    static let ops: [any Op.Type] = [
        Ops.Hello.self, Ops.Create.self, Ops.Update.self, Ops.SetChildren.self, Ops.Delete.self, Ops.Subscribe.self,
        Ops.Unsubscribe.self, Ops.Command.self, Ops.Emit.self, Ops.Touch.self, Ops.Define.self, Ops.Components.self,
        Ops.Inspect.self, Ops.Layout.self, Ops.Screenshot.self, Ops.Batch.self, Ops.Ack.self,
        Ops.Ping.self, Ops.Stats.self, Ops.Sessions.self, Ops.Observe.self, Ops.Unobserve.self, Ops.Bye.self,
    ]

    /// Every op's entry, in protocol.md's order.
    public static var entries: [Entry] { table.entries }

    /// The ops' names, in protocol.md's order.
    public static let names: [String] = table.entries.map { $0.name.description }

    /// The ops and the index that finds one by name: built once.
    static let table = Lookup(ops)

    /// Finds an op by the bytes of its name without making a Swift string: its slot (by length and first byte)
    /// holds the entry to compare with; the list is searched only when that is not it (an unknown op, or two
    /// names sharing a slot).
    struct Lookup: Sendable {
        /// Every op's entry, by index: plain values, read without counting a reference.
        let entries: [Entry]
        /// Every op, by index: a call through its witness table, no closure, no box.
        let ops: [any Op.Type]
        /// Entry index + 1 by ``slot(count:first:)``; 0 for none.
        private let slots: [UInt8]
        private static let longest = 15

        init(_ ops: [any Op.Type]) {
            self.ops = ops
            entries = ops.map { op in
                var entry = op.entry
                entry.reachesOtherSessions = op is any ObserverOp.Type
                return entry
            }
            var slots = [UInt8](repeating: 0, count: (Lookup.longest + 1) * 32)
            for (index, entry) in entries.enumerated() {
                let count = entry.name.utf8CodeUnitCount
                guard count <= Lookup.longest else { continue }
                let slot = Lookup.slot(count: count, first: entry.name.utf8Start.pointee)
                if slots[slot] == 0 { slots[slot] = UInt8(index + 1) }
            }
            self.slots = slots
        }

        @inline(__always)
        private static func slot(count: Int, first: UInt8) -> Int { count &* 32 &+ Int(first & 31) }

        /// The index of the op named `bytes`, or `nil`.
        @inline(__always)
        func index(of bytes: UnsafeRawBufferPointer) -> Int? {
            let count = bytes.count
            if count > 0, count <= Lookup.longest {
                let slot = Int(slots[Lookup.slot(count: count, first: bytes.load(as: UInt8.self))])
                if slot > 0, Lookup.equals(entries[slot - 1].name, bytes) { return slot - 1 }
            }
            return entries.firstIndex { Lookup.equals($0.name, bytes) }
        }

        @inline(__always)
        private static func equals(_ name: StaticString, _ bytes: UnsafeRawBufferPointer) -> Bool {
            name.utf8CodeUnitCount == bytes.count && memcmp(name.utf8Start, bytes.baseAddress!, bytes.count) == 0
        }
    }

    /// The error of an op that is not in the table.
    static func unknownOp(_ op: JSONRef) -> BridgeError {
        BridgeError(.unknownOp, "unknown op '\(op.string ?? "")'; expected one of \(names.joined(separator: ", "))")
    }
}

/// One op of the protocol: a file in `Ops/`, listed in ``OpTable/ops``.
protocol Op: Sendable {
    /// Its name and what the dispatcher and the batch need to know of it.
    static var entry: OpTable.Entry { get }
    /// What a client knows of it: its fields, a sample request, its result's shape (``OpSpec``).
    static var spec: OpSpec { get }
    /// Reads the request and does the op, writing its result into the context's; or returns what the connection
    /// is to answer. Throws without having changed anything, unless the undo is open (then it recorded how).
    static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff?
}

/// An op about other sessions (`sessions`, `observe`, `unobserve`): it only reads its request, and the session's
/// ``Connection`` answers it (it alone reaches other sessions); a recorder leaves it out.
protocol ObserverOp: Op {
    /// Reads the request into what the connection is to answer.
    static func observerRequest(_ context: OpContext) throws(BridgeError) -> ObserverRequest
}

extension ObserverOp {
    static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
        .observer(try observerRequest(context))
    }
}

/// The ops, one file each (``OpTable`` lists them).
enum Ops {}
