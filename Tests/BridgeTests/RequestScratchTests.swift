import PropStore
import Testing

@testable import BridgeCore

/// A session's per-request buffers on their own: reused without allocating, emptied between requests, and
/// what becomes of the views a request deleted.
@Suite("RequestScratch")
struct RequestScratchTests {
    let type = ComponentType(SwiftUIButton.self)

    @Test func convertedPropsReuseTheSameStorage() {
        var scratch = RequestScratch()
        var converted = scratch.takeConverted()
        #expect(converted.isEmpty)
        converted.reserveCapacity(64)
        converted.append((type.prop(named: "count")!, .int(1)))
        let storage = converted.withUnsafeBufferPointer { $0.baseAddress }
        scratch.giveBack(converted: &converted)
        #expect(converted.isEmpty)
        #expect(converted.capacity == 0, "the storage went back to the scratch")
        let again = scratch.takeConverted()
        #expect(again.isEmpty, "given back empty")
        #expect(again.capacity >= 64)
        #expect(again.withUnsafeBufferPointer { $0.baseAddress } == storage, "no new allocation")
    }

    @Test func listenersReuseTheSameStorage() {
        var scratch = RequestScratch()
        var listeners = scratch.takeListeners()
        listeners.append((tag: 1, phases: .bubble))
        listeners.append((tag: 2, phases: .capture))
        let storage = listeners.withUnsafeBufferPointer { $0.baseAddress }
        scratch.giveBack(listeners: &listeners)
        let again = scratch.takeListeners()
        #expect(again.isEmpty)
        #expect(again.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }

    @Test func beginEmptiesTheResultAndKeepsItsCapacity() {
        var scratch = RequestScratch()
        scratch.result.raw(#"{"changed":["count"]}"#)
        let capacity = scratch.result.capacity
        scratch.begin()
        #expect(scratch.result.count == 0)
        #expect(scratch.result.capacity == capacity)
        scratch.result.raw("{}")
        #expect(String(decoding: scratch.result.bytes, as: UTF8.self) == "{}")
    }

    func subtree() -> (root: ViewProxy, child: ViewProxy) {
        let root = ViewProxy(tag: 1, type: type)
        let child = ViewProxy(tag: 2, type: type)
        _ = ViewTree.insert(child, into: root)
        return (root, child)
    }

    @Test func discardDropsEventsAndKeepsDeletedViewsWhole() {
        var scratch = RequestScratch()
        let (root, child) = subtree()
        scratch.deletedRoots.append(root)
        scratch.events.append(Session.PendingEvent(view: root, event: SwiftUIButton.events[0], payload: [:]))
        scratch.discard()
        #expect(scratch.events.isEmpty)
        #expect(scratch.deletedRoots.isEmpty)
        // A rollback put the subtree back: it must not have been torn down.
        #expect(root.children.map(\.tag) == [2])
        #expect(child.parent === root)
        #expect(child.isMounted)
        scratch.deferDeleted()
        #expect(scratch.takeDeferredDeleted().isEmpty, "discarded roots are not torn down later")
        #expect(child.parent === root)
    }

    @Test func aSucceededRequestsDeletedViewsAreTornDownWhenTaken() {
        var scratch = RequestScratch()
        let (root, child) = subtree()
        scratch.deletedRoots.append(root)
        scratch.deferDeleted()
        #expect(scratch.deletedRoots.isEmpty)
        // Not yet: the request's answer goes first.
        #expect(root.children.map(\.tag) == [2])
        let taken = scratch.takeDeferredDeleted()
        #expect(taken.map(\.tag) == [1])
        #expect(scratch.takeDeferredDeleted().isEmpty, "taken once")
        for view in taken { view.tearDown() }
        #expect(root.children.isEmpty)
        #expect(child.parent == nil)
        #expect(!child.isMounted && !root.isMounted)
    }

    @Test func whatNoOneTookIsTornDownByTheNextRequestThatSucceeds() {
        var scratch = RequestScratch()
        let (first, firstChild) = subtree()
        scratch.deletedRoots.append(first)
        scratch.deferDeleted()
        let (second, _) = subtree()
        scratch.deletedRoots.append(second)
        scratch.deferDeleted()
        // At most one request's deleted views wait.
        #expect(first.children.isEmpty)
        #expect(firstChild.parent == nil)
        #expect(second.children.map(\.tag) == [2])
        #expect(scratch.takeDeferredDeleted().map { ObjectIdentifier($0) } == [ObjectIdentifier(second)])
    }
}
