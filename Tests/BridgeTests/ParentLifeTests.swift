import Synchronization
import Testing

@testable import BridgeServer

#if canImport(Glibc)
import Glibc
#endif

/// `--exit-with-parent` (``ParentLife``): the daemon a client spawned stops once that client's process ended and no
/// connection is open, never while another client still uses it, and its end is read from a real pipe's end of
/// file. The daemon itself, spawned by a Node process that is then killed, is js-client/test/spawn-life.test.js's.
@Suite("Daemon: --exit-with-parent")
struct ParentLifeTests {
    /// How many times `onStop` was called.
    final class Stops: Sendable {
        let count = Atomic<Int>(0)
        func stop() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    @Test func theParentsEndWithNoConnectionStopsAtOnce() {
        let stops = Stops()
        let life = ParentLife(onStop: stops.stop)
        #expect(!life.parentEnded && !life.stopped)
        life.parentEnd()
        #expect(stops.value == 1 && life.stopped && life.parentEnded)
        // Nothing after it calls again.
        life.connectionOpened()
        life.connectionClosed()
        life.parentEnd()
        #expect(stops.value == 1)
    }

    @Test func openConnectionsHoldItUntilTheLastCloses() {
        let stops = Stops()
        let life = ParentLife(onStop: stops.stop)
        life.connectionOpened()  // the parent's own
        life.connectionOpened()  // another process's, which found the daemon listening
        life.parentEnd()
        #expect(stops.value == 0 && life.connections == 2)
        life.connectionClosed()
        #expect(stops.value == 0, "a client still uses it")
        life.connectionOpened()  // a client may still come while one is open
        life.connectionClosed()
        #expect(stops.value == 0)
        life.connectionClosed()
        #expect(stops.value == 1 && life.stopped && life.connections == 0)
    }

    @Test func whileTheParentLivesItServesWithNoConnectionOpen() {
        let stops = Stops()
        let life = ParentLife(onStop: stops.stop)
        for _ in 0..<3 {
            life.connectionOpened()
            life.connectionClosed()
        }
        #expect(stops.value == 0 && !life.stopped && life.connections == 0)
    }

    @Test func manyConnectionsClosingAtOnceStopItOnce() async {
        let stops = Stops()
        let life = ParentLife(onStop: stops.stop)
        for _ in 0..<100 { life.connectionOpened() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { life.parentEnd() }
            for _ in 0..<100 { group.addTask { life.connectionClosed() } }
        }
        #expect(stops.value == 1 && life.connections == 0)
    }

    /// Bytes written to the pipe are read and ignored; the end of file (the writer closed its end, as the kernel
    /// does for a process that ended) calls `onEnd`.
    @Test func thePipesEndOfFileIsTheParentsEnd() async {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (reading, writing) = (ends[0], ends[1])
        defer { close(reading) }
        let ended = Stops()
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        ParentLife.watchStandardInput(descriptor: reading) {
            ended.stop()
            continuation.yield()
            continuation.finish()
        }
        let bytes: [UInt8] = Array("still here\n".utf8)
        #expect(bytes.withUnsafeBytes { write(writing, $0.baseAddress, $0.count) } == bytes.count)
        #expect(ended.value == 0, "bytes on the pipe are not its end")
        close(writing)
        for await _ in stream { break }
        #expect(ended.value == 1)
    }

    @Test func standardInputMustBeSomethingWhoseEndCanBeRead() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        #expect(ParentLife.canWatch(ends[0]), "a pipe")
        let null = open("/dev/null", O_RDONLY)
        defer { close(null) }
        #expect(ParentLife.canWatch(null), "a character device: its end of file comes at once")
        // What descriptor 0 is in a daemon started with standard input closed: the first one it made (an eventfd of
        // an event loop), or a file; and a descriptor that is not open.
        let file = open("/proc/self/status", O_RDONLY)
        defer { close(file) }
        #expect(!ParentLife.canWatch(file), "a regular file")
        #expect(!ParentLife.canWatch(-1), "no descriptor")
        let help = Serve.helpMessage()
        #expect(help.contains("--exit-with-parent"), "bridged --help lists the flag")
    }
}
