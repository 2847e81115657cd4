import Dispatch
import Logging
import NIOCore
import NIOPosix
import Testing

@testable import BridgeServer

/// ``LoopSlices``: the event loops' scheduling slices, short while a long request runs and the kernel's default
/// otherwise, read back from the kernel on each loop's own thread.
@Suite struct LoopSlicesTests {
    static let short = LoopSlices.shortSliceNanoseconds

    /// Whether this kernel takes a thread's slice and reports it (Linux 6.12 and later), tried on a thread of its
    /// own that is given its default back.
    static let kernelHasSlices: Bool = {
        DispatchQueue(label: "slice probe").sync {
            guard let before = LoopSlices.currentThreadSlice(), before > 0 else { return false }
            return LoopSlices.setCurrentThreadSlice(short) == 0 && LoopSlices.currentThreadSlice() == short
                && LoopSlices.setCurrentThreadSlice(0) == 0 && LoopSlices.currentThreadSlice() == before
        }
    }()

    static func withGroup(
        threads: Int,
        _ body: (MultiThreadedEventLoopGroup) async throws -> Void
    ) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        do {
            try await body(group)
        } catch {
            try await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
    }

    static func slices(of group: MultiThreadedEventLoopGroup) async throws -> [UInt64?] {
        var slices: [UInt64?] = []
        for loop in group.makeIterator() {
            // Submitted after any task begin() or end() queued on the loop: run after it.
            slices.append(try await loop.submit { LoopSlices.currentThreadSlice() }.get())
        }
        return slices
    }

    @Test(.enabled(if: kernelHasSlices, "the kernel has no custom scheduling slices (Linux 6.12 and later)"))
    func theLoopsAreShortWhileAnyLongRequestRunsAndBackToTheirDefaultAfterTheLast() async throws {
        try await Self.withGroup(threads: 2) { group in try await Self.shortWhileAnyRuns(group) }
    }

    static func shortWhileAnyRuns(_ group: MultiThreadedEventLoopGroup) async throws {
        let slices = LoopSlices(group: group, logger: Logger(label: "test"))
        let before = try await Self.slices(of: group)
        #expect(before.count == 2)
        #expect(before.allSatisfy { $0 != nil && $0 != Self.short })

        slices.begin()
        slices.begin()
        #expect(try await Self.slices(of: group) == [Self.short, Self.short])
        slices.end()
        #expect(try await Self.slices(of: group) == [Self.short, Self.short], "one long request still runs")
        slices.end()
        #expect(try await Self.slices(of: group) == before)
    }

    @Test(.enabled(if: kernelHasSlices, "the kernel has no custom scheduling slices (Linux 6.12 and later)"))
    func aLongRequestHandedOffShortensTheLoopsUntilItsWorkIsDone() async throws {
        try await Self.withGroup(threads: 1) { group in try await Self.shortUntilTheWorkIsDone(group) }
    }

    static func shortUntilTheWorkIsDone(_ group: MultiThreadedEventLoopGroup) async throws {
        var requests = LongRequests()
        requests.loopSlices = LoopSlices(group: group, logger: Logger(label: "test"))
        let before = try await Self.slices(of: group)

        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        requests.run {
            started.signal()
            release.wait()
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                started.wait()
                continuation.resume()
            }
        }
        #expect(try await Self.slices(of: group) == [Self.short])
        release.signal()
        // The work is over; its end (after the work, on the pool's thread) gives the loop its default back: asked
        // until it has come through (a bounded number of times).
        var after = try await Self.slices(of: group)
        for _ in 0..<10_000 where after != before {
            try await Task.sleep(for: .milliseconds(1))
            after = try await Self.slices(of: group)
        }
        #expect(after == before)
    }
}
