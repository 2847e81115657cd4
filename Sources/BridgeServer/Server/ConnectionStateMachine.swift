/// The states of one connection and the moves between them, with no channel: each transition returns what
/// the ``ConnectionHandler`` must do (the shape of hummingbird's `HTTPConnectionStateHandler.StateMachine`).
///
/// ```
/// reading ⇄ paused                 the channel stops being writable mid-read / is writable again
/// reading, paused → draining       quiesce, takeover, or the client closes its side
/// draining → flushing              every complete line read is answered (paused while not writable)
/// flushing → discarding            flushed, the client may still send: our side is shut down
/// flushing, discarding → closed    the client closed its side (or the flush failed)
/// ```
///
/// Reads requested by the channel are passed on only while reading and writable, and while discarding; a
/// read held back is passed on once the channel is writable again.
///
/// Orthogonal to these, a long request of the connection may be running off the event loop (``LongRequests``,
/// ``requestRunning``): meanwhile no line is handled, bytes read are kept, reads are held and draining waits, as
/// when paused; ``requestEnded(writable:)`` says how to go on.
struct ConnectionStateMachine {
    enum State: Equatable {
        /// Handling lines as they are read. `readHeld`: a read was requested while not writable.
        case reading(readHeld: Bool)
        /// The client does not read fast enough: lines read wait (in the framer) until the channel is writable.
        case paused(readHeld: Bool)
        /// Closing: nothing more is read; the complete lines already read are answered, under backpressure
        /// (`paused` while the channel is not writable). `inputClosed`: the client has closed its side.
        case draining(paused: Bool, inputClosed: Bool)
        /// Closing: every answer written; waiting for them to be flushed.
        case flushing(inputClosed: Bool)
        /// Closing: every answer flushed and our side shut down; reading only to drop what the client still
        /// sends, so that it sees a clean end of stream rather than a reset.
        case discarding
        /// The channel is closed (or closing).
        case closed
    }

    private(set) var state: State = .reading(readHeld: false)
    /// A long request of this connection is running off the event loop.
    private(set) var requestRunning = false

    // MARK: Reading

    enum ReadAction: Equatable {
        /// Frame the bytes and handle their lines.
        case handleLines
        /// Keep the bytes, unframed, for when the channel is writable again.
        case keep
        /// Drop the bytes.
        case drop
    }

    /// Bytes were read.
    func channelRead() -> ReadAction {
        switch state {
        case .reading: requestRunning ? .keep : .handleLines
        case .paused: .keep
        case .draining, .flushing, .discarding, .closed: .drop
        }
    }

    /// A chunk of answers was written in the middle of handling lines.
    ///
    /// - Returns: whether to go on handling lines (`false`: the channel is not writable; the connection pauses).
    mutating func chunkWritten(writable: Bool) -> Bool {
        guard !writable else { return true }
        switch state {
        case .reading(let readHeld):
            state = .paused(readHeld: readHeld)
            return false
        case .draining(paused: false, let inputClosed):
            state = .draining(paused: true, inputClosed: inputClosed)
            return false
        case .paused, .draining(paused: true, _), .flushing, .discarding, .closed:
            return true
        }
    }

    enum ReadRequestAction: Equatable {
        /// Pass the read on.
        case read
        /// Hold it back.
        case hold
    }

    /// The channel asks for more bytes.
    mutating func readRequested(writable: Bool) -> ReadRequestAction {
        switch state {
        case .reading:
            guard writable, !requestRunning else {
                state = .reading(readHeld: true)
                return .hold
            }
            return .read
        case .paused:
            state = .paused(readHeld: true)
            return .hold
        case .discarding:
            return .read
        case .draining, .flushing, .closed:
            return .hold
        }
    }

    enum WritabilityAction: Equatable {
        case none
        /// Pass on the read held back.
        case read
        /// Handle the lines the framer kept, write the answers, then call ``writabilityChanged(writable:)``
        /// again (it may pass on a held read).
        case handleKeptLines
        /// Go on draining: call ``drainStep(writable:)``.
        case drain
    }

    /// The channel's writability changed.
    mutating func writabilityChanged(writable: Bool) -> WritabilityAction {
        // While a request runs, a held read stays held: ``requestEnded(writable:)`` goes on.
        guard writable, !requestRunning else { return .none }
        switch state {
        case .reading(readHeld: true):
            state = .reading(readHeld: false)
            return .read
        case .paused(let readHeld):
            state = .reading(readHeld: readHeld)
            return .handleKeptLines
        case .draining(paused: true, _):
            return .drain
        case .reading(readHeld: false), .draining(paused: false, _), .flushing, .discarding, .closed:
            return .none
        }
    }

    // MARK: Long requests

    /// A line is handed to another thread: lines are handled no more until ``requestEnded(writable:)``.
    /// Only while handling lines (reading, or draining and not paused).
    mutating func requestStarted() {
        requestRunning = true
    }

    /// The request running off the loop was answered (its answer written); `writable` is the channel's state now.
    /// Returns what to do next, as a change of writability does: handle the lines kept meanwhile (then call
    /// ``writabilityChanged(writable:)``, which may pass a held read on), go on draining, or nothing (the
    /// connection paused until the channel is writable, or it is closed).
    mutating func requestEnded(writable: Bool) -> WritabilityAction {
        requestRunning = false
        switch state {
        case .reading(let readHeld):
            guard writable else {
                state = .paused(readHeld: readHeld)
                return .none
            }
            return .handleKeptLines
        case .draining(_, let inputClosed):
            // Lines read before draining began may wait in the framer: draining handles them (when writable).
            state = .draining(paused: true, inputClosed: inputClosed)
            return .drain
        case .paused, .flushing, .discarding, .closed:
            return .none
        }
    }

    // MARK: Closing

    enum CloseAction: Equatable {
        case none
        /// Start draining (call ``drainStep(writable:)``); if `deadline`, close after the drain timeout anyway.
        case drain(deadline: Bool)
        /// Close the channel.
        case close
    }

    /// The server is shutting down (``ChannelShouldQuiesceEvent``).
    mutating func quiesce() -> CloseAction {
        startDraining(inputClosed: false, deadline: true)
    }

    enum TakeoverAction: Equatable {
        case none
        /// Write the takeover frame after the answers so far, then act on `then`.
        case writeTakeoverFrame(then: CloseAction)
    }

    /// Another connection resumed this connection's session.
    mutating func takenOver() -> TakeoverAction {
        switch state {
        case .reading, .paused, .draining:
            .writeTakeoverFrame(then: startDraining(inputClosed: false, deadline: true))
        case .flushing, .discarding, .closed:
            .none
        }
    }

    /// The client closed its side. A line it cut short is not a frame: it is dropped.
    mutating func inputClosed() -> CloseAction {
        switch state {
        case .reading, .paused:
            return startDraining(inputClosed: true, deadline: false)
        case .draining(let paused, _):
            state = .draining(paused: paused, inputClosed: true)
            return .none
        case .flushing:
            state = .flushing(inputClosed: true)
            return .none
        case .discarding:
            state = .closed
            return .close
        case .closed:
            return .none
        }
    }

    private mutating func startDraining(inputClosed: Bool, deadline: Bool) -> CloseAction {
        switch state {
        case .reading:
            state = .draining(paused: false, inputClosed: inputClosed)
        case .paused:
            state = .draining(paused: true, inputClosed: inputClosed)
        case .draining, .flushing, .discarding, .closed:
            return .none
        }
        return .drain(deadline: deadline)
    }

    enum DrainAction: Equatable {
        /// Wait for the channel to be writable (``writabilityChanged(writable:)`` says when).
        case wait
        /// Handle the lines the framer kept (which may pause again), then call ``drainStep(writable:)`` again.
        case handleKeptLines
        /// Every line is answered: drop an incomplete line, write the answers, and flush them with a promise
        /// whose result goes to ``flushed(success:)``.
        case flush
    }

    /// The next step of draining.
    mutating func drainStep(writable: Bool) -> DrainAction {
        guard !requestRunning else { return .wait }
        switch state {
        case .draining(paused: true, let inputClosed):
            guard writable else { return .wait }
            state = .draining(paused: false, inputClosed: inputClosed)
            return .handleKeptLines
        case .draining(paused: false, let inputClosed):
            state = .flushing(inputClosed: inputClosed)
            return .flush
        case .reading, .paused, .flushing, .discarding, .closed:
            return .wait
        }
    }

    enum FlushedAction: Equatable {
        /// Close the channel.
        case close
        /// Shut our side down, and read to drop what the client still sends until it closes.
        case discardInput
    }

    /// The last answers were flushed (or failed to be).
    mutating func flushed(success: Bool) -> FlushedAction {
        guard case .flushing(inputClosed: false) = state, success else {
            state = .closed
            return .close
        }
        state = .discarding
        return .discardInput
    }

    /// The channel is closed.
    mutating func channelInactive() {
        state = .closed
    }
}
