import BridgeCore
import NIOCore
import Synchronization

/// The bounded queue of one observation: change frames of an observed session on their way to the
/// observer's socket.
///
/// The observed session's thread only appends to a buffer under a short lock and, when no flush is pending,
/// schedules one on the observer channel's event loop, ``flushDelay`` later: the frames of that time go out in
/// one write, and a busy session wakes the observer's thread at most once per delay (each wake-up from
/// another thread is a system call on the session's thread). It never touches the observer's socket and never
/// waits for it. The bytes queued and not yet written to the socket are counted: once they would pass
/// `limit`, the observation is cut off with a last frame saying so (``Engine/observerCutOffFrame(session:limit:)``)
/// and the session forgets the observer.
final class ObserverQueue: ObserverSink {
    private struct State {
        /// Frames not yet handed to the channel.
        var pending: [UInt8] = []
        /// Bytes handed to the channel and not yet written to the socket.
        var inFlight = 0
        var flushScheduled = false
        /// Cut off or ended: nothing more is taken.
        var done = false
    }

    private let channel: Channel
    private let limit: Int
    private let session: String
    private let state = Mutex(State())
    /// How long frames gather before they are written.
    static let flushDelay = TimeAmount.milliseconds(5)

    init(channel: Channel, session: String, limit: Int) {
        self.channel = channel
        self.session = session
        self.limit = limit
    }

    func deliver(_ frames: UnsafeRawBufferPointer, last: Bool) -> Bool {
        let (accepted, schedule) = state.withLock { state -> (Bool, Bool) in
            guard !state.done else { return (false, false) }
            var accepted = true
            if state.inFlight + state.pending.count + frames.count > limit {
                state.pending.append(contentsOf: Engine.observerCutOffFrame(session: session, limit: limit))
                state.done = true
                accepted = false
            } else {
                state.pending.append(contentsOf: frames)
                if last { state.done = true }
            }
            let schedule = !state.flushScheduled
            state.flushScheduled = true
            return (accepted, schedule)
        }
        if schedule { channel.eventLoop.scheduleTask(in: Self.flushDelay) { self.flush() } }
        return accepted
    }

    func close() {
        state.withLock { state in
            state.done = true
            state.pending.removeAll()
        }
    }

    /// On the observer's event loop: writes what is pending.
    private func flush() {
        let bytes = state.withLock { state -> [UInt8] in
            state.flushScheduled = false
            var bytes: [UInt8] = []
            swap(&bytes, &state.pending)
            state.inFlight += bytes.count
            return bytes
        }
        guard !bytes.isEmpty else { return }
        var buffer = channel.allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        let count = bytes.count
        channel.writeAndFlush(buffer).whenComplete { [self] _ in
            state.withLock { $0.inFlight -= count }
        }
    }
}
