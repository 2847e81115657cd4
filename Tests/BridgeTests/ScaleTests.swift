import BridgeCore
import PropStore
import Testing

/// A tree of 1,000,000 views, created and updated through frames in-process. Not timed: the benchmark in
/// `bench/` measures speed; this shows it works and that an update touches one view, not the tree.
@Suite("Scale")
struct ScaleTests {
    @Test func millionViewTree() {
        let client = Client()
        let total = 1_000_000
        let perBatch = 10_000
        client.send(#"{"op":"create","tag":1,"component":"View"}"#)
        var tag = 2
        while tag <= total {
            var ops: [String] = []
            ops.reserveCapacity(perBatch)
            let end = min(tag + perBatch - 1, total)
            for t in tag...end {
                ops.append(
                    #"{"op":"create","tag":\#(t),"component":"SwiftUIButton","parent":\#(t % 1000 + 1 < t ? t % 1000 + 1 : 1)}"#
                )
            }
            let response = client.send(#"{"op":"batch","ops":[\#(ops.joined(separator: ","))]}"#).response
            #expect(field(response, "ok") == "true")
            tag = end + 1
        }
        #expect(ViewStorage.count(session: client.session.storageKey) == total)
        #expect(field(client.inspect(999_999), "result.renders") == "1")
        for t in stride(from: 2, through: total, by: 99_991) {
            #expect(field(client.inspect(t), "result.renders") == "1")
            #expect(client.result(#"{"op":"update","tag":\#(t),"props":{"count":\#(t)}}"#) == #"{"changed":["count"]}"#)
            #expect(field(client.inspect(t), "result.renders") == "2", "the updated view rendered again")
        }
        #expect(field(client.inspect(999_999), "result.renders") == "1", "and no other")
        let deleted = client.send(#"{"op":"delete","tag":1}"#).response
        #expect(field(deleted, "ok") == "true")
        #expect(deleted.hasPrefix(#"{"id":null,"ok":true,"result":{"deleted":[1,2,"#), "the root first, pre-order")
        #expect(ViewStorage.count(session: client.session.storageKey) == 0, "the whole tree left storage")
        #expect(field(client.send(#"{"op":"stats"}"#).response, "result.sessionViews") == "0")
    }
}
