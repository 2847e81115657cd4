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
/// waits for it. The frames are appended straight into the `ByteBuffer` that is then written, so they are
/// copied once.
///
/// The bytes queued and not yet written to the socket are counted: once they would pass `limit`, the
/// observation is cut off with a last frame saying so (``Engine/observerCutOffFrame(session:limit:)``) and the
/// session forgets the observer.
final class ObserverQueue: ObserverSink {
    private struct State {
        /// Frames not yet handed to the channel.
        var pending: ByteBuffer
        /// Bytes handed to the channel and not yet written to the socket.
        var inFlight = 0
        var flushScheduled = false
        /// Cut off or ended: nothing more is taken.
        var done = false
        /// The size of the last write: the next buffer starts at it, so a steady stream does not regrow it.
        var lastWrite = 0
    }

    private let channel: Channel
    private let limit: Int
    private let session: String
    private let state: Mutex<State>
    /// How long frames gather before they are written.
    static let flushDelay = TimeAmount.milliseconds(5)

    init(channel: Channel, session: String, limit: Int) {
        self.channel = channel
        self.session = session
        self.limit = limit
        self.state = Mutex(State(pending: channel.allocator.buffer(capacity: 0)))
    }

    func deliver(_ frames: UnsafeRawBufferPointer, last: Bool) -> Bool {
        let (accepted, schedule) = state.withLock { state -> (Bool, Bool) in
            guard !state.done else { return (false, false) }
            var accepted = true
            if state.inFlight + state.pending.readableBytes + frames.count > limit {
                state.pending.writeBytes(Engine.observerCutOffFrame(session: session, limit: limit))
                state.done = true
                accepted = false
            } else {
                state.pending.writeBytes(frames)
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
            state.pending.clear()
        }
    }

    /// On the observer's event loop: writes what is pending.
    private func flush() {
        // Allocated outside the lock, which the session's thread may be waiting for.
        var buffer = channel.allocator.buffer(capacity: state.withLock { $0.lastWrite })
        state.withLock { state in
            state.flushScheduled = false
            swap(&buffer, &state.pending)
            state.inFlight += buffer.readableBytes
            state.lastWrite = state.done ? 0 : buffer.readableBytes
        }
        let count = buffer.readableBytes
        guard count > 0 else { return }
        channel.writeAndFlush(buffer).whenComplete { [self] _ in
            state.withLock { $0.inFlight -= count }
        }
    }
}
