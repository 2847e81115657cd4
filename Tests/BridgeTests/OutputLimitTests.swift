import BridgeCore
import Testing

/// What one request may write (`--max-request-output-bytes`) and what a session keeps for a resume
/// (`--event-buffer-bytes`): bounded in bytes, not only in frames.
@Suite("Output and retained events, bounded in bytes")
struct OutputLimitTests {
    func engine(maxOutput: Int = Engine.Configuration().maxRequestOutputBytes, bufferBytes: Int? = nil) -> Engine {
        var configuration = Engine.Configuration()
        configuration.maxRequestOutputBytes = maxOutput
        if let bufferBytes { configuration.eventBufferBytes = bufferBytes }
        return Engine(configuration: configuration)
    }

    /// A chain of `depth` views, a button at its end, every view listening in both phases: each press writes a
    /// frame whose path has 2 × (depth + 1) entries.
    func chain(_ client: Client, depth: Int) {
        var ops: [String] = []
        for tag in 1...depth {
            ops.append(#"{"op":"create","tag":\#(tag),"component":"View"\#(tag > 1 ? #","parent":\#(tag - 1)"# : "")}"#)
        }
        ops.append(#"{"op":"create","tag":\#(depth + 1),"component":"SwiftUIButton","parent":\#(depth)}"#)
        for tag in 1...(depth + 1) {
            ops.append(#"{"op":"subscribe","tag":\#(tag),"event":"countChange","phase":"capture"}"#)
            ops.append(#"{"op":"subscribe","tag":\#(tag),"event":"countChange"}"#)
        }
        #expect(field(client.send(#"{"op":"batch","ops":[\#(ops.joined(separator: ","))]}"#).response, "ok") == "true")
    }

    func presses(_ count: Int, tag: Int) -> String {
        let press = #"{"op":"command","tag":\#(tag),"name":"press"}"#
        return #"{"id":9,"op":"batch","ops":[\#(Array(repeating: press, count: count).joined(separator: ","))]}"#
    }

    /// The report's case, scaled down: a batch of presses on a deep chain would write far more than the bound.
    /// It is refused as a whole, naming the bound: no event, nothing applied, and the session goes on.
    @Test func aBatchWhoseEventsExceedTheBoundIsRefusedWhole() {
        let client = Client(engine: engine(maxOutput: 64 * 1024))
        chain(client, depth: 50)
        let batch = presses(200, tag: 51).replacingOccurrences(
            of: #"{"id":9,"op":"batch","ops":["#,
            with: #"{"id":9,"op":"batch","ops":[{"op":"update","tag":51,"props":{"title":"changed"}},"#
        )
        let (events, response) = client.send(batch)
        #expect(events.count == 0, "no event of a refused request is written")
        #expect(field(response, "id") == "9")
        #expect(field(response, "error.code") == #""limit_exceeded""#)
        #expect(field(response, "error.message").contains("65536"), "the message names the bound")
        #expect(field(response, "error.message").contains("--max-request-output-bytes"))
        let inspect = client.inspect(51)
        #expect(field(inspect, "result.props.title") == #""""#, "nothing applied")
        #expect(field(inspect, "result.commands") == "[]", "no command logged")
        // The session goes on, its sequence untouched.
        let next = client.send(#"{"op":"command","tag":51,"name":"press"}"#)
        #expect(next.events.count == 1)
        #expect(field(next.events[0], "seq") == "1")
        #expect(field(client.send(#"{"op":"ack","seq":0}"#).response, "result.retained") == "1")
    }

    /// Within the bound the same batch is answered as always: every event, then the response.
    @Test func aBatchWithinTheBoundIsAnsweredWhole() {
        let client = Client(engine: engine(maxOutput: 64 * 1024))
        chain(client, depth: 5)
        let (events, response) = client.send(presses(20, tag: 6))
        #expect(events.count == 20)
        #expect(field(response, "ok") == "true")
        #expect(field(events[19], "seq") == "20")
    }

    /// A single command whose event alone exceeds the bound is refused, and takes nothing with it.
    @Test func aSingleCommandIsBoundedToo() {
        let client = Client(engine: engine(maxOutput: 1024))
        chain(client, depth: 40)
        let (events, response) = client.send(#"{"id":3,"op":"command","tag":41,"name":"press"}"#)
        #expect(events.count == 0)
        #expect(field(response, "id") == "3")
        #expect(field(response, "error.code") == #""limit_exceeded""#)
        #expect(field(client.inspect(41), "result.commands") == "[]", "the command is not logged")
        #expect(field(client.send(#"{"op":"stats"}"#).response, "result.seq") == "0")
    }

    /// Responses count too: a batch of inspects of a view with a large prop.
    @Test func aBatchOfLargeResponsesIsBounded() {
        let client = Client(engine: engine(maxOutput: 64 * 1024))
        let title = String(repeating: "t", count: 10_000)
        _ = client.send(#"{"op":"create","tag":1,"component":"SwiftUIButton","props":{"title":"\#(title)"}}"#)
        let inspect = #"{"op":"inspect","tag":1}"#
        let small = client.send(
            #"{"id":1,"op":"batch","ops":[\#(Array(repeating: inspect, count: 3).joined(separator: ","))]}"#
        )
        #expect(field(small.response, "ok") == "true")
        let large = client.send(
            #"{"id":2,"op":"batch","ops":[\#(Array(repeating: inspect, count: 10).joined(separator: ","))]}"#
        )
        #expect(field(large.response, "error.code") == #""limit_exceeded""#)
    }

    /// The events kept for a resume are bounded in bytes: past the bound the oldest go, and a resume from before
    /// them is `overflow`, as with `--event-buffer`.
    @Test func retainedEventsAreBoundedInBytes() throws {
        let engine = engine(bufferBytes: 1000)
        let first = engine.connect()
        _ = first.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        _ = first.handle(line: #"{"op":"create","tag":1,"component":"SwiftUIButton"}"#)
        _ = first.handle(line: #"{"op":"subscribe","tag":1,"event":"countChange"}"#)
        var frameBytes = 0
        for _ in 0..<50 {
            let frames = first.handle(line: #"{"op":"command","tag":1,"name":"press"}"#)
            frameBytes = frames[0].utf8.count + 1
        }
        let ack = first.handle(line: #"{"op":"ack","seq":0}"#)[0]
        let retained = try #require(Int(field(ack, "result.retained")))
        #expect(retained > 0)
        #expect(retained * frameBytes <= 1000, "at most 1000 bytes of frames kept")
        #expect(retained >= 1000 / frameBytes - 1)
        first.close()
        let late = engine.connect()
        #expect(field(late.handle(line: resumeLine(first.session, ack: 0))[0], "result.reason") == #""overflow""#)
    }

    @Test func aResumeWithinTheByteBoundGetsEveryEvent() {
        let engine = engine(bufferBytes: 1000)
        let first = engine.connect()
        _ = first.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
        _ = first.handle(line: #"{"op":"create","tag":1,"component":"SwiftUIButton"}"#)
        _ = first.handle(line: #"{"op":"subscribe","tag":1,"event":"countChange"}"#)
        for _ in 0..<50 { _ = first.handle(line: #"{"op":"command","tag":1,"name":"press"}"#) }
        first.close()
        let frames = engine.connect().handle(line: resumeLine(first.session, ack: 48))
        #expect(field(frames[0], "result.resumed") == "true")
        #expect(frames.dropFirst().map { field($0, "seq") } == ["49", "50"])
    }
}
