import BridgeCore
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import BridgeServer

/// ``ConnectionHandler`` in-process: a real engine connection behind the handler on an `EmbeddedChannel`, the
/// socket's side played by the channel (reads in, writes out, writability set by the test).
@Suite struct ConnectionHandlerTests {
    static func ping(_ id: Int) -> String { #"{"id":\#(id),"op":"ping"}"# + "\n" }

    // MARK: Framing

    /// Three requests cut in two reads at every byte position are answered in order.
    @Test func linesSplitAtEveryPositionAreAnsweredInOrder() throws {
        let bytes = Array((1...3).map(Self.ping).joined().utf8)
        for position in 0...bytes.count {
            let client = try EmbeddedConnection()
            try client.send(bytes: bytes[..<position])
            try client.send(bytes: bytes[position...])
            #expect(try client.answeredIDs() == ["1", "2", "3"], "split at \(position)")
        }
    }

    @Test(arguments: [1, 2, 7, 19, 64, 4096])
    func readsOfEverySizeAreAnsweredInOrder(chunkSize: Int) throws {
        let client = try EmbeddedConnection()
        let bytes = Array((1...50).map(Self.ping).joined().utf8)
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            try client.send(bytes: bytes[start..<min(start + chunkSize, bytes.count)])
        }
        #expect(try client.answeredIDs() == (1...50).map(String.init))
    }

    /// A request of exactly `--max-frame-bytes` is answered; one byte more is `frame_too_large` (`id: null`);
    /// the connection goes on, however the bytes were cut into reads.
    @Test func helloReportsTheFrameLimitTheConnectionEnforces() throws {
        let client = try EmbeddedConnection(maxFrameBytes: 100, hello: false)
        try client.send(#"{"id":0,"op":"hello","protocol":1}"# + "\n")
        #expect(field(try client.written()[0], "result.maxFrameBytes") == "100")
    }

    @Test(arguments: [0, 1], [1, 3, 10, 100])
    func theFrameLimitAcrossReads(over: Int, chunkSize: Int) throws {
        let limit = 64
        var long = #"{"id":1,"op":"ping""#
        long += String(repeating: " ", count: limit + over - long.utf8.count - 1) + "}"
        #expect(long.utf8.count == limit + over)
        let client = try EmbeddedConnection(maxFrameBytes: limit)
        let bytes = Array((long + "\n" + Self.ping(2)).utf8)
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            try client.send(bytes: bytes[start..<min(start + chunkSize, bytes.count)])
        }
        let frames = try client.written()
        #expect(frames.count == 2)
        if over == 0 {
            #expect(field(frames[0], "id") == "1")
            #expect(field(frames[0], "ok") == "true")
        } else {
            #expect(errorCode(frames[0]) == "frame_too_large")
            #expect(field(frames[0], "id") == "null")
        }
        #expect(field(frames[1], "id") == "2")
    }

    /// A read whose lines are parsed ahead is answered in two writes once the first half's answers are worth
    /// one (``ConnectionHandler/Configuration/halfReadBytes``): the first write holds exactly the first half's
    /// answers. A read handled without parsing ahead, or whose first half's answers are short, in one.
    @Test(arguments: [(true, 100, 2), (false, 100, 1), (true, 5, 1)])
    func aReadParsedAheadIsAnsweredHalfwayThrough(parsedAhead: Bool, idBytes: Int, writes: Int) throws {
        let client = try EmbeddedConnection(
            // Two helpers: the hello's read is parsed ahead too, and its helper may still be running.
            parseAhead: ParseAheadPool(helpers: parsedAhead ? 2 : 0, minimumBytes: 0, minimumLines: 1)
        )
        let ids = (1...40).map { "\($0)-" + String(repeating: "x", count: idBytes) }
        try client.send(ids.map { #"{"id":"\#($0)","op":"ping"}"# + "\n" }.joined())
        let written = try client.writes()
        #expect(written.count == writes)
        if writes == 2 { #expect(written[0].map { field($0, "id") } == ids.prefix(20).map { "\"\($0)\"" }) }
        #expect(written.flatMap { $0 }.map { field($0, "id") } == ids.map { "\"\($0)\"" })
    }

    // MARK: Backpressure

    /// Backpressure on: the handler stops after the answer that found the channel unwritable, keeps the rest
    /// (and any later read), holds the read; off again: the rest is answered in order, then the read goes on.
    @Test func backpressurePausesAndResumes() throws {
        let client = try EmbeddedConnection(outputChunkBytes: 1)
        client.channel.isWritable = false
        try client.send((1...3).map(Self.ping).joined())
        #expect(try client.answeredIDs() == ["1"])
        client.channel.read()
        #expect(client.socket.reads == 0)
        try client.send(Self.ping(4))
        #expect(try client.answeredIDs() == [])
        client.setWritable(true)
        #expect(try client.answeredIDs() == ["2", "3", "4"])
        #expect(client.socket.reads == 1)
    }

    /// Backpressure off: every line is answered and reads go on.
    @Test func noBackpressureNoPause() throws {
        let client = try EmbeddedConnection(outputChunkBytes: 1)
        try client.send((1...3).map(Self.ping).joined())
        #expect(try client.answeredIDs() == ["1", "2", "3"])
        client.channel.read()
        #expect(client.socket.reads == 1)
    }

    /// Unwritable after a read's answers (not mid-read): reads are held until it is writable again.
    @Test func aReadIsHeldWhileNotWritable() throws {
        let client = try EmbeddedConnection()
        try client.send(Self.ping(1))
        client.channel.isWritable = false
        client.channel.read()
        client.channel.read()
        #expect(client.socket.reads == 0)
        client.setWritable(true)
        #expect(client.socket.reads == 1)
        #expect(try client.answeredIDs() == ["1"])
    }

    // MARK: Quiescing and closing

    /// Where a connection can be when the server quiesces.
    enum Situation: String, CaseIterable, Sendable {
        case reading, readHeld, paused, pausedWithReadHeld, draining, discarding
    }

    /// Brings `client` to `situation` with requests 1…3 sent; returns the ids answered on the way.
    static func bring(_ client: EmbeddedConnection, to situation: Situation) throws -> [String] {
        switch situation {
        case .reading:
            try client.send((1...3).map(ping).joined())
            return try client.answeredIDs()
        case .readHeld:
            try client.send((1...3).map(ping).joined())
            client.channel.isWritable = false
            client.channel.read()
            return try client.answeredIDs()
        case .paused, .pausedWithReadHeld:
            client.channel.isWritable = false
            try client.send((1...3).map(ping).joined())
            if situation == .pausedWithReadHeld { client.channel.read() }
            return try client.answeredIDs()
        case .draining:
            client.channel.isWritable = false
            try client.send((1...3).map(ping).joined())
            client.quiesce()
            return try client.answeredIDs()
        case .discarding:
            try client.send((1...3).map(ping).joined())
            client.quiesce()
            #expect(client.socket.outputClosed)
            return try client.answeredIDs()
        }
    }

    /// Quiescing in every situation: every complete line read is answered (once the client reads), the
    /// answers are flushed, our side is shut down, and the client's later bytes are read and dropped until
    /// it closes; then the connection closes.
    @Test(arguments: Situation.allCases)
    func quiesceAnswersWhatWasReadThenCloses(situation: Situation) throws {
        let client = try EmbeddedConnection(outputChunkBytes: 1)
        var answered = try Self.bring(client, to: situation)
        client.quiesce()
        #expect(client.channel.isActive)
        // Paused: nothing more is answered until the client reads; otherwise everything goes out at once.
        if [.paused, .pausedWithReadHeld, .draining].contains(situation) {
            #expect(!client.socket.outputClosed)
            #expect(try client.answeredIDs() == [])
            client.setWritable(true)
        }
        answered += try client.answeredIDs()
        #expect(answered == ["1", "2", "3"])
        #expect(client.socket.outputClosed)
        // Discarding: reads go on, and what arrives is dropped.
        let reads = client.socket.reads
        client.channel.read()
        #expect(client.socket.reads == reads + 1)
        try client.send(Self.ping(4))
        #expect(try client.written() == [])
        #expect(client.channel.isActive)
        client.closeInput()
        #expect(!client.channel.isActive)
    }

    /// A client that never reads cannot keep a quiescing connection open past the drain timeout.
    @Test(arguments: [Situation.paused, .pausedWithReadHeld, .readHeld])
    func theDrainTimeoutClosesAConnectionThatNeverReads(situation: Situation) throws {
        let client = try EmbeddedConnection(outputChunkBytes: 1, drainTimeout: .seconds(5))
        _ = try Self.bring(client, to: situation)
        client.channel.isWritable = false
        client.quiesce()
        client.channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(client.channel.isActive)
        client.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!client.channel.isActive)
    }

    /// The client closing its side: the complete lines are answered, the line it cut short is dropped, and
    /// the connection closes once the answers are flushed (no drain timeout, no discarding).
    @Test func theClientClosingItsSideEndsTheConnectionAfterTheAnswers() throws {
        let client = try EmbeddedConnection()
        try client.send(Self.ping(1) + Self.ping(2) + #"{"id":3,"op":"pi"#)
        client.closeInput()
        #expect(try client.answeredIDs() == ["1", "2"])
        #expect(!client.socket.outputClosed)
        #expect(!client.channel.isActive)
    }

    /// The client closing its side while paused: what was read is still answered as it reads.
    @Test func theClientClosingItsSideWhilePaused() throws {
        let client = try EmbeddedConnection(outputChunkBytes: 1)
        client.channel.isWritable = false
        try client.send((1...3).map(Self.ping).joined())
        client.closeInput()
        #expect(try client.answeredIDs() == ["1"])
        #expect(client.channel.isActive)
        client.setWritable(true)
        #expect(try client.answeredIDs() == ["2", "3"])
        #expect(!client.channel.isActive)
    }

    // MARK: Takeover

    /// Another connection resuming this one's session: this one is told after its answers so far, then closed.
    @Test func aTakenOverConnectionIsToldThenClosed() throws {
        let engine = Engine()
        let first = try EmbeddedConnection(engine: engine)
        let session = first.connection.session
        try first.send(Self.ping(1))
        #expect(try first.answeredIDs() == ["1"])

        let second = try EmbeddedConnection(engine: engine)
        try second.send(resumeLine(session, ack: 0, id: 7) + "\n")
        let hello = try second.written()
        #expect(field(hello[0], "result.resumed") == "true")
        #expect(first.connection.isTakenOver)
        first.channel.pipeline.fireUserInboundEventTriggered(SessionTakenOver())

        let frames = try first.written()
        #expect(frames.count == 1)
        #expect(errorCode(frames[0]) == "session_taken_over")
        // The taken-over connection's later lines are not handled.
        try first.send(Self.ping(2))
        #expect(try first.written() == [])
        #expect(first.socket.outputClosed)
        first.closeInput()
        #expect(!first.channel.isActive)
    }

    // MARK: bye

    /// `bye` is answered, the lines after it are dropped unanswered, then our side is shut down.
    @Test func byeIsAnsweredThenTheConnectionCloses() throws {
        let client = try EmbeddedConnection()
        try client.send(Self.ping(1) + #"{"id":2,"op":"bye"}"# + "\n" + Self.ping(3))
        #expect(try client.answeredIDs() == ["1", "2"])
        #expect(client.connection.hasEnded)
        #expect(client.socket.outputClosed)
        try client.send(Self.ping(4))
        #expect(try client.written() == [])
        client.closeInput()
        #expect(!client.channel.isActive)
    }

    /// A `bye` among lines kept by backpressure: answered once the client reads, then the connection closes.
    @Test func byeWaitingBehindBackpressure() throws {
        let client = try EmbeddedConnection(outputChunkBytes: 1)
        client.channel.isWritable = false
        try client.send(Self.ping(1) + #"{"id":2,"op":"bye"}"# + "\n" + Self.ping(3))
        #expect(try client.answeredIDs() == ["1"])
        #expect(!client.socket.outputClosed)
        client.setWritable(true)
        #expect(try client.answeredIDs() == ["2"])
        #expect(client.socket.outputClosed)
        client.closeInput()
        #expect(!client.channel.isActive)
    }

    // MARK: Recording

    /// `--record`: a connection that never says hello leaves no file, whatever it sent.
    @Test func noFileWithoutHello() throws {
        let directory = TemporaryDirectory()
        let client = try EmbeddedConnection(recordDirectory: directory.path, hello: false)
        try client.send(Self.ping(1) + "not json\n")
        #expect(try client.written().map(errorCode) == ["hello_required", "bad_json"])
        client.closeInput()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    /// Lines before a late hello are in the file, after the meta record: the recording replays whole.
    @Test func aLateHelloRecordsWhatCameBefore() throws {
        let directory = TemporaryDirectory()
        let client = try EmbeddedConnection(recordDirectory: directory.path, hello: false)
        try client.send(Self.ping(1))
        _ = try client.written()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
        try client.send(#"{"id":2,"op":"hello","protocol":1}"# + "\n" + Self.ping(3))
        _ = try client.written()
        client.closeInput()
        let file = directory.file(client.connection.session.id + ".jsonl")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let records = text.split(separator: "\n").map(String.init)
        let inOut = Array(repeating: [#""in""#, #""out""#], count: 3).flatMap { $0 }
        #expect(records.map { field($0, "dir") } == [#""meta""#] + inOut + [#""meta""#])
        #expect(field(records[2], "frame.error.code") == #""hello_required""#)
        #expect(Replayer().replay(text).difference == nil)
    }

    /// `--record`: every line and its answer go to the session's file, which ends with the connection.
    @Test func recordsTheSession() throws {
        let directory = TemporaryDirectory()
        let client = try EmbeddedConnection(recordDirectory: directory.path)
        let session = client.connection.session.id
        try client.send(Self.ping(1) + "not json\n")
        _ = try client.written()
        client.closeInput()
        let text = try String(contentsOfFile: directory.file(session + ".jsonl"), encoding: .utf8)
        let records = text.split(separator: "\n").map(String.init)
        #expect(records.count == 8)
        #expect(field(records[0], "dir") == #""meta""#)
        #expect(field(records[3], "frame") == canonical(#"{"id":1,"op":"ping"}"#))
        #expect(field(records[4], "frame.id") == "1")
        #expect(field(records[5], "raw") == #""not json""#)
        #expect(field(records[6], "frame.error.code") == #""bad_json""#)
        #expect(field(records[7], "connection") == #""closed""#)
    }
}

/// The socket's side of the pipeline, at its head: counts the reads the handler passes on, and takes the
/// shutdown of our output (which `EmbeddedChannel` would treat as a full close).
final class SocketSide: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer

    private(set) var reads = 0
    private(set) var outputClosed = false

    func read(context: ChannelHandlerContext) {
        reads += 1
        context.read()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .output {
            outputClosed = true
            promise?.succeed()
        } else {
            context.close(mode: mode, promise: promise)
        }
    }
}

/// A ``ConnectionHandler`` for a fresh engine connection, greeted, on an active `EmbeddedChannel`.
final class EmbeddedConnection {
    let channel = EmbeddedChannel()
    let socket = SocketSide()
    let connection: Connection

    /// `maxFrameBytes`, when given, makes an engine with it (the handler reads the engine's); else `engine`.
    init(
        engine: Engine = Engine(),
        maxFrameBytes: Int? = nil,
        outputChunkBytes: Int = 256 * 1024,
        drainTimeout: TimeAmount = .seconds(10),
        recordDirectory: String? = nil,
        parseAhead: ParseAheadPool = ParseAheadPool(helpers: 0),
        hello: Bool = true
    ) throws {
        var engine = engine
        if let maxFrameBytes {
            var limits = Engine.Configuration()
            limits.maxFrameBytes = maxFrameBytes
            engine = Engine(configuration: limits)
        }
        connection = engine.connect()
        var configuration = ConnectionHandler.Configuration(
            drainTimeout: drainTimeout,
            recordDirectory: recordDirectory
        )
        configuration.outputChunkBytes = outputChunkBytes
        configuration.parseAhead = parseAhead
        let handler = ConnectionHandler(
            connection: connection,
            configuration: configuration,
            logger: Logger(label: "test")
        )
        try channel.pipeline.syncOperations.addHandlers([socket, handler])
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/bridged-test")).wait()
        guard hello else { return }
        try send(#"{"id":0,"op":"hello","protocol":1}"# + "\n")
        let hello = try written()
        #expect(hello.count == 1 && field(hello[0], "ok") == "true")
    }

    /// One read of the socket.
    func send(_ text: String) throws { try send(bytes: Array(text.utf8)[...]) }

    func send(bytes: ArraySlice<UInt8>) throws {
        try channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    /// Every frame written (and flushed) since the last call.
    func written() throws -> [String] {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            text += String(buffer: buffer)
        }
        #expect(text.isEmpty || text.hasSuffix("\n"))
        return text.split(separator: "\n").map(String.init)
    }

    /// The frames of each write since the last call.
    func writes() throws -> [[String]] {
        var writes: [[String]] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            writes.append(String(buffer: buffer).split(separator: "\n").map(String.init))
        }
        return writes
    }

    /// The ids of the frames written since the last call.
    func answeredIDs() throws -> [String] { try written().map { field($0, "id") } }

    /// The client read enough: the channel is writable again.
    func setWritable(_ writable: Bool) {
        channel.isWritable = writable
        channel.pipeline.fireChannelWritabilityChanged()
    }

    /// The server shuts down.
    func quiesce() { channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }

    /// The client closes its side (half-closure).
    func closeInput() { channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }

    deinit { _ = try? channel.finish() }
}
