import BridgeCore
import Dispatch
import NIOCore
import Synchronization

/// When a read brings many lines, has another core parse them while the connection's event loop handles them
/// (``ParseAhead``): jansson's parse of one line beside the engine's work on the one before it.
///
/// Only where a core is idle: at most `helpers` reads are parsed ahead at once (the machine's cores less the
/// loop's own), and none while another connection's loop is also handling a large read (then both cores are
/// busy already, and a helper would only take turns with them).
final class ParseAheadPool: Sendable {
    /// Reads parsed ahead at once; 0 turns it off.
    let helpers: Int
    /// A read is parsed ahead from this many bytes…
    ///
    /// 1 KiB and 4 lines: a client that keeps 64 updates in flight sends reads of about 3.8 KB, which a larger
    /// threshold would leave to the loop alone. Below that, with 8 or 16 in flight, handing a read over costs
    /// more CPU than it saves (bench/README.md).
    let minimumBytes: Int
    /// …and this many complete lines.
    let minimumLines: Int
    /// Reads being parsed ahead.
    private let running = Atomic<Int>(0)
    /// Event loops handling a large read now.
    private let busyLoops = Atomic<Int>(0)

    init(helpers: Int, minimumBytes: Int = 1024, minimumLines: Int = 4) {
        self.helpers = helpers
        self.minimumBytes = minimumBytes
        self.minimumLines = minimumLines
    }

    /// Handles the lines of `buffer` (`handle` frames them), with the complete lines the framer hands out in
    /// place (`linesInPlace`, ``LineFramer/linesInPlace(of:)``) parsed ahead when that pays: `handle` is given the
    /// ``ParseAhead`` to take them from, or `nil`. Returns, when the read was parsed ahead, how many lines it had and
    /// how many the loop took parsed.
    ///
    /// The lines come from a closure, not from a copy of the framer: a copy alive while `handle` frames would
    /// share the framer's kept bytes, and every read of a line longer than a read would then copy all of the line
    /// received so far (copy on write): quadratic, 30 ms of the loop for a 7.5 MB line.
    @discardableResult
    func withParseAhead(
        of buffer: ByteBuffer,
        linesInPlace: () -> [UnsafeRawBufferPointer]?,
        _ handle: (ParseAhead?) -> Void
    ) -> (lines: Int, takenParsed: Int)? {
        guard helpers > 0, buffer.readableBytes >= minimumBytes else {
            handle(nil)
            return nil
        }
        let loops = busyLoops.wrappingAdd(1, ordering: .relaxed).newValue
        defer { busyLoops.wrappingSubtract(1, ordering: .relaxed) }
        guard loops == 1, let ahead = start(of: buffer, linesInPlace: linesInPlace) else {
            handle(nil)
            return nil
        }
        handle(ahead)
        ahead.stop()
        return (ahead.count, ahead.takenParsed)
    }

    /// A helper started on the lines of `buffer`, or `nil` when every helper is busy or there are too few lines.
    private func start(of buffer: ByteBuffer, linesInPlace: () -> [UnsafeRawBufferPointer]?) -> ParseAhead? {
        guard running.wrappingAdd(1, ordering: .relaxed).newValue <= helpers,
            let lines = linesInPlace(), lines.count >= minimumLines
        else {
            running.wrappingSubtract(1, ordering: .relaxed)
            return nil
        }
        let ahead = ParseAhead(lines: lines, keepAlive: buffer)
        DispatchQueue.global().async {
            ahead.help()
            self.running.wrappingSubtract(1, ordering: .relaxed)
        }
        return ahead
    }
}
