import Testing

@testable import BridgeServer

/// ``ConnectionStateMachine`` on its own: every event in every state, and what the handler is told to do.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine
    typealias State = ConnectionStateMachine.State

    /// Every state, each reached from the start by the events that lead there.
    static let states: [State] = [
        .reading(readHeld: false), .reading(readHeld: true),
        .paused(readHeld: false), .paused(readHeld: true),
        .draining(paused: false, inputClosed: false), .draining(paused: false, inputClosed: true),
        .draining(paused: true, inputClosed: false), .draining(paused: true, inputClosed: true),
        .flushing(inputClosed: false), .flushing(inputClosed: true),
        .discarding, .closed,
    ]

    /// A machine brought to `state` by real transitions (so that each state is reachable).
    static func machine(in state: State) -> Machine {
        var machine = Machine()
        switch state {
        case .reading(let readHeld):
            if readHeld { _ = machine.readRequested(writable: false) }
        case .paused(let readHeld):
            _ = machine.chunkWritten(writable: false)
            if readHeld { _ = machine.readRequested(writable: false) }
        case .draining(let paused, let inputClosed):
            if paused { _ = machine.chunkWritten(writable: false) }
            _ = inputClosed ? machine.inputClosed() : machine.quiesce()
        case .flushing(let inputClosed):
            _ = inputClosed ? machine.inputClosed() : machine.quiesce()
            _ = machine.drainStep(writable: true)
        case .discarding:
            _ = machine.quiesce()
            _ = machine.drainStep(writable: true)
            _ = machine.flushed(success: true)
        case .closed:
            machine.channelInactive()
        }
        #expect(machine.state == state, "could not reach \(state)")
        return machine
    }

    @Test(arguments: states)
    func everyStateIsReachable(state: State) {
        #expect(Self.machine(in: state).state == state)
    }

    // MARK: Reading and backpressure

    @Test(arguments: states)
    func bytesRead(state: State) {
        let expected: Machine.ReadAction =
            switch state {
            case .reading: .handleLines
            case .paused: .keep
            case .draining, .flushing, .discarding, .closed: .drop
            }
        let machine = Self.machine(in: state)
        #expect(machine.channelRead() == expected)
        #expect(machine.state == state)
        // Reading changes nothing, whatever the bytes were.
        _ = machine.channelRead()
        #expect(machine.state == state)
    }

    /// A read request with backpressure off (writable) and on (not writable), in every state.
    @Test(arguments: states, [true, false])
    func readRequested(state: State, writable: Bool) {
        var machine = Self.machine(in: state)
        let action = machine.readRequested(writable: writable)
        switch state {
        case .reading:
            #expect(action == (writable ? .read : .hold))
            #expect(machine.state == (writable ? state : .reading(readHeld: true)))
        case .paused:
            #expect(action == .hold)
            #expect(machine.state == .paused(readHeld: true))
        case .discarding:
            #expect(action == .read)
            #expect(machine.state == .discarding)
        case .draining, .flushing, .closed:
            #expect(action == .hold)
            #expect(machine.state == state)
        }
    }

    /// A chunk of answers written mid-read, with backpressure off and on, in every state.
    @Test(arguments: states, [true, false])
    func chunkWritten(state: State, writable: Bool) {
        var machine = Self.machine(in: state)
        let goOn = machine.chunkWritten(writable: writable)
        switch (state, writable) {
        case (_, true):
            #expect(goOn)
            #expect(machine.state == state)
        case (.reading(let readHeld), false):
            #expect(!goOn)
            #expect(machine.state == .paused(readHeld: readHeld))
        case (.draining(paused: false, let inputClosed), false):
            #expect(!goOn)
            #expect(machine.state == .draining(paused: true, inputClosed: inputClosed))
        case (_, false):
            #expect(goOn)
            #expect(machine.state == state)
        }
    }

    /// Writability coming back (backpressure off) and going (on), in every state.
    @Test(arguments: states, [true, false])
    func writabilityChanged(state: State, writable: Bool) {
        var machine = Self.machine(in: state)
        let action = machine.writabilityChanged(writable: writable)
        switch (state, writable) {
        case (_, false):
            #expect(action == Machine.WritabilityAction.none)
            #expect(machine.state == state)
        case (.reading(readHeld: true), true):
            #expect(action == .read)
            #expect(machine.state == .reading(readHeld: false))
        case (.paused(let readHeld), true):
            #expect(action == .handleKeptLines)
            #expect(machine.state == .reading(readHeld: readHeld))
        case (.draining(paused: true, _), true):
            #expect(action == .drain)
            #expect(machine.state == state)
        case (_, true):
            #expect(action == Machine.WritabilityAction.none)
            #expect(machine.state == state)
        }
    }

    /// Pausing with a read held, then unpausing: the kept lines first, then the held read, once.
    @Test func aHeldReadIsPassedOnAfterTheKeptLines() {
        var machine = Machine()
        #expect(machine.chunkWritten(writable: false) == false)
        #expect(machine.readRequested(writable: false) == .hold)
        #expect(machine.channelRead() == .keep)
        #expect(machine.writabilityChanged(writable: true) == .handleKeptLines)
        #expect(machine.channelRead() == .handleLines)
        #expect(machine.writabilityChanged(writable: true) == .read)
        #expect(machine.writabilityChanged(writable: true) == Machine.WritabilityAction.none)
        #expect(machine.state == .reading(readHeld: false))
    }

    /// Handling the kept lines paused again: the held read stays held.
    @Test func pausingAgainWhileHandlingKeptLinesKeepsTheReadHeld() {
        var machine = Self.machine(in: .paused(readHeld: true))
        #expect(machine.writabilityChanged(writable: true) == .handleKeptLines)
        #expect(machine.chunkWritten(writable: false) == false)
        #expect(machine.writabilityChanged(writable: false) == Machine.WritabilityAction.none)
        #expect(machine.state == .paused(readHeld: true))
        #expect(machine.readRequested(writable: true) == .hold)
    }

    // MARK: Closing

    /// Quiescing in every state: only a connection still reading starts to drain (with the drain timeout).
    @Test(arguments: states)
    func quiesce(state: State) {
        var machine = Self.machine(in: state)
        let action = machine.quiesce()
        switch state {
        case .reading:
            #expect(action == .drain(deadline: true))
            #expect(machine.state == .draining(paused: false, inputClosed: false))
        case .paused:
            #expect(action == .drain(deadline: true))
            #expect(machine.state == .draining(paused: true, inputClosed: false))
        case .draining, .flushing, .discarding, .closed:
            #expect(action == Machine.CloseAction.none)
            #expect(machine.state == state)
        }
    }

    /// Takeover in every state: the frame is written while answers are still being written.
    @Test(arguments: states)
    func takenOver(state: State) {
        var machine = Self.machine(in: state)
        let action = machine.takenOver()
        switch state {
        case .reading:
            #expect(action == .writeTakeoverFrame(then: .drain(deadline: true)))
            #expect(machine.state == .draining(paused: false, inputClosed: false))
        case .paused:
            #expect(action == .writeTakeoverFrame(then: .drain(deadline: true)))
            #expect(machine.state == .draining(paused: true, inputClosed: false))
        case .draining:
            #expect(action == .writeTakeoverFrame(then: .none))
            #expect(machine.state == state)
        case .flushing, .discarding, .closed:
            #expect(action == .none)
            #expect(machine.state == state)
        }
    }

    /// The client closing its side in every state: drain without a deadline, or close once discarding.
    @Test(arguments: states)
    func inputClosed(state: State) {
        var machine = Self.machine(in: state)
        let action = machine.inputClosed()
        switch state {
        case .reading:
            #expect(action == .drain(deadline: false))
            #expect(machine.state == .draining(paused: false, inputClosed: true))
        case .paused:
            #expect(action == .drain(deadline: false))
            #expect(machine.state == .draining(paused: true, inputClosed: true))
        case .draining(let paused, _):
            #expect(action == Machine.CloseAction.none)
            #expect(machine.state == .draining(paused: paused, inputClosed: true))
        case .flushing:
            #expect(action == Machine.CloseAction.none)
            #expect(machine.state == .flushing(inputClosed: true))
        case .discarding:
            #expect(action == .close)
            #expect(machine.state == .closed)
        case .closed:
            #expect(action == Machine.CloseAction.none)
            #expect(machine.state == .closed)
        }
    }

    /// Each step of draining, with backpressure off and on, in every state.
    @Test(arguments: states, [true, false])
    func drainStep(state: State, writable: Bool) {
        var machine = Self.machine(in: state)
        let action = machine.drainStep(writable: writable)
        switch state {
        case .draining(paused: true, let inputClosed):
            #expect(action == (writable ? .handleKeptLines : .wait))
            #expect(machine.state == .draining(paused: !writable, inputClosed: inputClosed))
        case .draining(paused: false, let inputClosed):
            #expect(action == .flush)
            #expect(machine.state == .flushing(inputClosed: inputClosed))
        case .reading, .paused, .flushing, .discarding, .closed:
            #expect(action == .wait)
            #expect(machine.state == state)
        }
    }

    /// After the last flush: keep reading (to drop) only if it worked and the client may still send.
    @Test(arguments: states, [true, false])
    func flushed(state: State, success: Bool) {
        var machine = Self.machine(in: state)
        let action = machine.flushed(success: success)
        if state == .flushing(inputClosed: false) && success {
            #expect(action == .discardInput)
            #expect(machine.state == .discarding)
        } else {
            #expect(action == .close)
            #expect(machine.state == .closed)
        }
    }

    /// Quiescing while paused: nothing is handled until the client reads, and pausing again waits again.
    @Test func drainingUnderBackpressure() {
        var machine = Self.machine(in: .paused(readHeld: true))
        #expect(machine.quiesce() == .drain(deadline: true))
        #expect(machine.drainStep(writable: false) == .wait)
        #expect(machine.readRequested(writable: true) == .hold)
        #expect(machine.channelRead() == .drop)
        #expect(machine.writabilityChanged(writable: true) == .drain)
        #expect(machine.drainStep(writable: true) == .handleKeptLines)
        #expect(machine.chunkWritten(writable: false) == false)
        #expect(machine.drainStep(writable: false) == .wait)
        #expect(machine.inputClosed() == .none)
        #expect(machine.writabilityChanged(writable: true) == .drain)
        #expect(machine.drainStep(writable: true) == .handleKeptLines)
        #expect(machine.drainStep(writable: true) == .flush)
        #expect(machine.flushed(success: true) == .close)
        #expect(machine.state == .closed)
    }

    // MARK: A long request off the loop

    /// While a request runs off the loop, reading: bytes are kept, reads held (even when writable), writability
    /// changes nothing; at its end the kept lines are handled, then the held read passed on.
    @Test(arguments: [true, false])
    func aLongRequestWhileReading(writableAtEnd: Bool) {
        var machine = Machine()
        machine.requestStarted()
        #expect(machine.channelRead() == .keep)
        #expect(machine.readRequested(writable: true) == .hold)
        #expect(machine.writabilityChanged(writable: true) == .none)
        #expect(machine.state == .reading(readHeld: true))
        if writableAtEnd {
            #expect(machine.requestEnded(writable: true) == .handleKeptLines)
            #expect(machine.channelRead() == .handleLines)
            #expect(machine.writabilityChanged(writable: true) == .read)
            #expect(machine.state == .reading(readHeld: false))
        } else {
            // The answer filled the channel: paused, as under backpressure, until it is writable.
            #expect(machine.requestEnded(writable: false) == .none)
            #expect(machine.state == .paused(readHeld: true))
            #expect(machine.writabilityChanged(writable: true) == .handleKeptLines)
        }
        #expect(!machine.requestRunning)
    }

    /// Draining (quiesce, takeover, the client's end) waits for the request; at its end, draining goes on with the
    /// lines kept.
    @Test func drainingWaitsForALongRequest() {
        var machine = Machine()
        machine.requestStarted()
        #expect(machine.quiesce() == .drain(deadline: true))
        #expect(machine.drainStep(writable: true) == .wait)
        #expect(machine.inputClosed() == .none)
        #expect(machine.drainStep(writable: true) == .wait)
        #expect(machine.requestEnded(writable: true) == .drain)
        #expect(machine.drainStep(writable: true) == .handleKeptLines)
        #expect(machine.drainStep(writable: true) == .flush)
        #expect(machine.flushed(success: true) == .close)
    }

    /// The channel closed while the request ran: nothing more to do at its end.
    @Test func aLongRequestOfAClosedChannel() {
        var machine = Machine()
        machine.requestStarted()
        machine.channelInactive()
        #expect(machine.requestEnded(writable: true) == .none)
        #expect(machine.state == .closed)
    }
}
