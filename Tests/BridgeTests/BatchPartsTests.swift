import BridgeCore
import Testing

/// A batch sent over several lines (`more`, `at`): held unapplied until its last part, then all or nothing.
@Suite("Batches in parts")
struct BatchPartsTests {
    @Test func partsAreHeldUntilTheLastThenRunAsOneBatch() {
        let client = Client()
        #expect(client.result(#"{"op":"batch","more":true,"ops":[{"op":"create","tag":1,"component":"View"}]}"#) == #"{"staged":1}"#)
        #expect(client.result(#"{"op":"inspect","tag":1}"#) == #""unknown_tag""#, "a part changes nothing")
        // Other requests go on meanwhile, and are not part of the batch.
        #expect(client.result(#"{"op":"create","tag":5,"component":"View"}"#) == #"{"tag":5}"#)
        let second = #"{"op":"batch","more":true,"at":1,"ops":[{"op":"create","tag":2,"component":"SwiftUIButton","parent":1},"#
            + #"{"op":"subscribe","tag":1,"event":"countChange"}]}"#
        #expect(client.result(second) == #"{"staged":3}"#)
        let (events, response) = client.send(
            #"{"id":4,"op":"batch","at":3,"ops":[{"op":"command","tag":2,"name":"press"}]}"#
        )
        #expect(field(response, "result.results") == #"[{"tag":1},{"tag":2},{},{}]"#)
        #expect(events.count == 1, "the batch's event, written once it committed")
        #expect(field(events[0], "target") == "2")
        #expect(client.result(#"{"op":"inspect","tag":1}"#) != #""unknown_tag""#)
        #expect(client.connection.stagedBatchBytes == 0)
    }

    @Test func aFailingOpOfAnyPartUndoesTheWholeBatchAndIsNamedByItsPlaceInIt() {
        let client = Client()
        client.send(#"{"op":"create","tag":9,"component":"View"}"#)
        let before = client.inspect(9)
        #expect(client.result(#"{"op":"batch","more":true,"ops":[{"op":"create","tag":1,"component":"View"},{"op":"setChildren","tag":9,"children":[1]}]}"#) == #"{"staged":2}"#)
        let response = client.send(#"{"id":3,"op":"batch","at":2,"ops":[{"op":"create","tag":2,"component":"View"},{"op":"update","tag":1,"props":{"bogus":1}}]}"#).response
        #expect(field(response, "error.code") == #""batch_failed""#)
        #expect(field(response, "error.index") == "3")
        #expect(field(response, "error.error.code") == #""invalid_props""#)
        #expect(client.inspect(9) == before)
        #expect(client.result(#"{"op":"inspect","tag":1}"#) == #""unknown_tag""#)
        #expect(client.connection.stagedBatchBytes == 0)
    }

    @Test func aMissingOrRefusedPartRefusesTheRestAndAppliesNothing() {
        let client = Client()
        #expect(client.result(#"{"op":"batch","more":true,"ops":[{"op":"create","tag":1,"component":"View"}]}"#) == #"{"staged":1}"#)
        // The client's next part was lost (a frame too large): the one after it says where it starts.
        let skipped = client.send(#"{"id":5,"op":"batch","more":true,"at":2,"ops":[{"op":"create","tag":3,"component":"View"}]}"#).response
        #expect(field(skipped, "error.code") == #""bad_request""#)
        #expect(field(skipped, "error.message").contains("hold 1 ops"))
        // The last part finds nothing held: refused too, and nothing was applied.
        #expect(client.result(#"{"op":"batch","at":3,"ops":[{"op":"create","tag":4,"component":"View"}]}"#) == #""bad_request""#)
        for tag in [1, 3, 4] { #expect(client.result(#"{"op":"inspect","tag":\#(tag)}"#) == #""unknown_tag""#) }
        // A part whose op has no shape fails at once, named by its place in the whole batch.
        #expect(client.result(#"{"op":"batch","more":true,"ops":[{"op":"ping"}]}"#) == #"{"staged":1}"#)
        let malformed = client.send(#"{"op":"batch","more":true,"at":1,"ops":[{"op":"ping"},7]}"#).response
        #expect(field(malformed, "error.code") == #""batch_failed""#)
        #expect(field(malformed, "error.index") == "2")
        #expect(client.connection.stagedBatchBytes == 0)
        #expect(client.result(#"{"op":"batch","more":"yes","ops":[]}"#) == #""bad_request""#)
        #expect(client.result(#"{"op":"batch","more":true,"at":-1,"ops":[]}"#) == #""bad_request""#)
    }

    @Test func aNewFirstPartDropsAnUnfinishedOne() {
        let client = Client()
        client.send(#"{"op":"batch","more":true,"ops":[{"op":"create","tag":1,"component":"View"}]}"#)
        #expect(client.result(#"{"op":"batch","more":true,"at":0,"ops":[{"op":"create","tag":2,"component":"View"}]}"#) == #"{"staged":1}"#)
        #expect(client.result(#"{"op":"batch","at":1,"ops":[]}"#) == #"{"results":[{"tag":2}]}"#)
        #expect(client.result(#"{"op":"inspect","tag":1}"#) == #""unknown_tag""#)
    }

    @Test func thePartsTogetherKeepTheBatchLimits() {
        var configuration = Engine.Configuration()
        configuration.maxOpsPerBatch = 3
        configuration.maxBatchBytes = 300
        let client = Client(engine: Engine(configuration: configuration))
        #expect(client.result(#"{"op":"batch","more":true,"ops":[{"op":"ping"},{"op":"ping"}]}"#) == #"{"staged":2}"#)
        let over = client.send(#"{"op":"batch","at":2,"ops":[{"op":"ping"},{"op":"ping"}]}"#).response
        #expect(field(over, "error.code") == #""limit_exceeded""#)
        #expect(field(over, "error.message").contains("4 ops exceed the limit of 3"))
        #expect(client.connection.stagedBatchBytes == 0)
        let long = #"{"op":"batch","more":true,"ops":[{"op":"ping","pad":""# + String(repeating: "x", count: 150) + #""}]}"#
        #expect(client.result(long) == #"{"staged":1}"#)
        let bytes = client.send(long.replacingOccurrences(of: #""more":true"#, with: #""more":true,"at":1"#)).response
        #expect(field(bytes, "error.code") == #""limit_exceeded""#)
        #expect(field(bytes, "error.message").contains("--max-batch-bytes"))
    }

    @Test func aClosedConnectionDropsItsParts() {
        let engine = Engine()
        let client = Client(engine: engine)
        client.send(#"{"op":"batch","more":true,"ops":[{"op":"create","tag":1,"component":"View"}]}"#)
        #expect(client.connection.stagedBatchBytes > 0)
        let resume = resumeLine(client.session, ack: 0)
        client.connection.close()
        let other = Client(engine: engine, hello: false)
        #expect(field(other.send(resume).response, "result.resumed") == "true")
        #expect(other.result(#"{"op":"batch","at":1,"ops":[]}"#) == #""bad_request""#)
        #expect(other.connection.stagedBatchBytes == 0)
    }
}
