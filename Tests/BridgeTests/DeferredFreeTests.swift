import PropStore
import Testing

@testable import BridgeCore

/// What a request leaves to free once it is answered (``Session/freeDeferred()``): the views it deleted and a large
/// batch's undo steps, freed after the answer is written rather than before, and never left waiting for long.
@Suite("What a request leaves to free")
struct DeferredFreeTests {
    /// A parent (tag 1) with a child (tag 2), and their proxies.
    static func parentAndChild(_ client: Client) throws -> (parent: ViewProxy, child: ViewProxy) {
        client.send(#"{"op":"create","tag":1,"component":"View"}"#)
        client.send(#"{"op":"create","tag":2,"component":"View","parent":1}"#)
        let key = client.session.storageKey
        let parent = try #require(ViewStorage.proxy(session: key, tag: 1))
        let child = try #require(ViewStorage.proxy(session: key, tag: 2))
        return (parent, child)
    }

    @Test func aDeletedSubtreeIsGoneAtOnceAndTornDownOnceAnswered() throws {
        let client = Client()
        let (parent, child) = try Self.parentAndChild(client)
        #expect(client.result(#"{"op":"delete","tag":1}"#) == #"{"deleted":[1,2]}"#)
        // Gone for every request from the answer on.
        #expect(client.result(#"{"op":"inspect","tag":2}"#) == #""unknown_tag""#)
        #expect(!child.isMounted && !parent.isMounted)
        client.send(#"{"op":"create","tag":3,"component":"View"}"#)
        #expect(child.parent == nil, "what the request before left, the next one's commit tore down")
        #expect(client.result(#"{"op":"delete","tag":3}"#) == #"{"deleted":[3]}"#)
        let (again, againChild) = try Self.parentAndChild(client)
        #expect(client.result(#"{"op":"delete","tag":1}"#) == #"{"deleted":[1,2]}"#)
        #expect(againChild.parent === again, "not yet torn down: the answer went first")
        client.connection.freeDeferred()
        #expect(againChild.parent == nil)
        #expect(again.children.isEmpty)
    }

    @Test func aDeletedSubtreeIsTornDownWhenItsSessionEnds() throws {
        let client = Client()
        let (parent, child) = try Self.parentAndChild(client)
        #expect(client.result(#"{"op":"delete","tag":1}"#) == #"{"deleted":[1,2]}"#)
        #expect(child.parent === parent)
        client.session.close()
        #expect(child.parent == nil)
        #expect(parent.children.isEmpty)
    }

    @Test func aRolledBackDeleteLeavesTheSubtreeWhole() throws {
        let client = Client()
        let (parent, child) = try Self.parentAndChild(client)
        let batch = #"{"op":"batch","ops":[{"op":"delete","tag":1},{"op":"delete","tag":99}]}"#
        #expect(client.result(batch) == #""batch_failed""#)
        client.connection.freeDeferred()
        client.send(#"{"op":"ping"}"#)
        #expect(child.parent === parent)
        #expect(parent.isMounted && child.isMounted)
        #expect(client.result(#"{"op":"inspect","tag":2}"#) != #""unknown_tag""#)
    }

    @Test func aLargeBatchsUndoStepsAreFreedOnceAnswered() {
        let client = Client()
        let count = BatchUndo.retiringSteps + 10
        let creates = (1...count).map { #"{"op":"create","tag":\#($0),"component":"View"}"# }
        let response = client.send(#"{"op":"batch","ops":["# + creates.joined(separator: ",") + "]}").response
        #expect(field(response, "ok") == "true")
        #expect(client.session.undo.retiredCount >= count, "kept for after the answer")
        client.connection.freeDeferred()
        #expect(client.session.undo.retiredCount == 0)
        // A small batch's steps are freed at its commit.
        client.send(#"{"op":"batch","ops":[{"op":"delete","tag":1}]}"#)
        #expect(client.session.undo.retiredCount == 0)
    }
}
