import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `--exit-with-parent`: the daemon that a client started for itself (`connect({spawn: true})`) ends with that
/// client's process, a crash included, and is never left behind.
///
/// The client keeps the write end of a pipe that is the daemon's standard input; the kernel closes it when the
/// client's process ends, however it ends, and the daemon reads end of file (``watchStandardInput(onEnd:)``).
/// From then on the daemon stops (cleanly, as on SIGTERM) as soon as no connection is open: at once when the
/// parent's was the last, else when the last client of another process leaves. Sessions waiting to be resumed do
/// not hold it: the parent that started it is gone, so is whoever would resume them (``stopped`` tells the daemon
/// not to save them).
///
/// While the parent lives, the daemon serves as any other, also with no connection open: the parent may connect
/// again, and other processes may share it (`spawn` finds it listening).
final class ParentLife: Sendable {
    private struct State {
        var connections = 0
        var parentEnded = false
        var stopped = false
    }

    private let state = Mutex(State())
    private let onStop: @Sendable () -> Void

    /// `onStop` is called once, when the daemon should stop (from whichever thread decided it).
    init(onStop: @escaping @Sendable () -> Void) {
        self.onStop = onStop
    }

    /// Open connections, as counted.
    var connections: Int { state.withLock { $0.connections } }

    /// Whether the parent's end of the pipe was seen.
    var parentEnded: Bool { state.withLock { $0.parentEnded } }

    /// Whether this decided that the daemon stops (then its sessions are not saved: nobody is left to resume them).
    var stopped: Bool { state.withLock { $0.stopped } }

    /// A connection was accepted.
    func connectionOpened() {
        state.withLock { $0.connections += 1 }
    }

    /// A connection closed.
    func connectionClosed() {
        decide { state in
            state.connections -= 1
        }
    }

    /// The parent's process ended: standard input reached its end (or cannot be read any more).
    func parentEnd() {
        decide { state in
            state.parentEnded = true
        }
    }

    private func decide(_ change: (inout State) -> Void) {
        let stop = state.withLock { state -> Bool in
            change(&state)
            guard state.parentEnded, state.connections <= 0, !state.stopped else { return false }
            state.stopped = true
            return true
        }
        if stop { onStop() }
    }
}

extension ParentLife {
    /// Whether standard input is something whose end can be read: a pipe, a socket, or a character device (a
    /// terminal, `/dev/null`). A daemon started with it closed has given descriptor 0 to the first one it made (one
    /// of its event loops' eventfds), which is none of these.
    static var standardInputIsReadable: Bool { canWatch(STDIN_FILENO) }

    /// Whether `descriptor` is open and a pipe, a socket or a character device.
    static func canWatch(_ descriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK || kind == S_IFCHR
    }

    /// Reads standard input (or `descriptor`) on a thread of its own until its end of file (what is read is
    /// ignored), or until it cannot be read any more, then calls `onEnd` once.
    static func watchStandardInput(
        descriptor: Int32 = STDIN_FILENO,
        onEnd: @escaping @Sendable () -> Void
    ) {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        pool.submit { _ in
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&watched, 1, -1) < 0 {
                    if errno == EINTR { continue }
                    break
                }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 { continue }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                break
            }
            onEnd()
        }
    }
}
