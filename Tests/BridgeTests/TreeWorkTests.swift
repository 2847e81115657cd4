import BridgeCore
import PropStore
import Testing

/// How much work the tree's ops do, counted in steps (``ViewTree/steps``: views visited, list entries
/// compared) rather than timed: each op is linear in what it touches, so n moves of one kind stay within a
/// small multiple of n steps where a quadratic algorithm takes n²/2.
@Suite("Tree work")
struct TreeWorkTests {
    let n = 3_000

    /// Steps counted while `body` runs on this task.
    func steps(_ body: () -> Void) -> Int {
        let counter = ViewTree.StepCounter()
        ViewTree.$steps.withValue(counter) { body() }
        return counter.count
    }

    func createRoots(_ client: Client, _ tags: ClosedRange<Int>) {
        let ops = tags.map { #"{"op":"create","tag":\#($0),"component":"View"}"# }
        #expect(field(client.send(#"{"op":"batch","ops":[\#(ops.joined(separator: ","))]}"#).response, "ok") == "true")
    }

    func list(_ tags: some Sequence<Int>) -> String { tags.map(String.init).joined(separator: ",") }

    @Test(arguments: [false, true])
    func movingEveryChildToAnotherParentIsLinear(reversed: Bool) {
        let client = Client()
        createRoots(client, 1...(n + 2))
        let children = Array(3...(n + 2))
        client.send(#"{"op":"setChildren","tag":1,"children":[\#(list(children))]}"#)
        let moved = reversed ? children.reversed() : children
        let work = steps {
            let response = client.send(#"{"op":"setChildren","tag":2,"children":[\#(list(moved))]}"#).response
            #expect(field(response, "ok") == "true")
        }
        #expect(work <= 4 * n, "\(work) steps to move \(n) children")
        #expect(field(client.inspect(1), "result.children") == "[]")
        #expect(field(client.inspect(2), "result.children") == "[\(list(moved))]")
    }

    @Test(arguments: [false, true])
    func buildingAChainOneMoveAtATimeIsLinear(fromTheTop: Bool) {
        let client = Client()
        createRoots(client, 1...n)
        let work = steps {
            for tag in 1..<n {
                let (parent, child) = fromTheTop ? (tag, tag + 1) : (tag + 1, tag)
                #expect(client.result(#"{"op":"setChildren","tag":\#(parent),"children":[\#(child)]}"#) != #""cycle""#)
            }
        }
        #expect(work <= 8 * n, "\(work) steps for \(n - 1) moves")
        let (top, bottom) = fromTheTop ? (1, n) : (n, 1)
        #expect(client.result(#"{"op":"setChildren","tag":\#(bottom),"children":[\#(top)]}"#) == #""cycle""#)
    }

    /// A cycle deep down is still found, whichever side of the check is shorter.
    @Test func aCycleAtTheBottomOfADeepChainIsFound() {
        let client = Client()
        createRoots(client, 1...n)
        for tag in 1..<n { client.send(#"{"op":"setChildren","tag":\#(tag),"children":[\#(tag + 1)]}"#) }
        #expect(client.result(#"{"op":"setChildren","tag":\#(n),"children":[\#(n - 1)]}"#) == #""cycle""#)
        #expect(client.result(#"{"op":"setChildren","tag":\#(n),"children":[2]}"#) == #""cycle""#)
        #expect(client.result(#"{"op":"setChildren","tag":2,"children":[\#(n)]}"#) == #"{"children":[\#(n)]}"#)
        #expect(field(client.inspect(n - 1), "result.children") == "[]")
    }

    @Test func rollingBackABatchOfCreatesIsLinear() {
        let client = Client()
        client.send(#"{"op":"create","tag":1,"component":"View"}"#)
        var ops = (2...(n + 1)).map { #"{"op":"create","tag":\#($0),"component":"View","parent":1}"# }
        ops.append(#"{"op":"nope"}"#)
        let work = steps {
            #expect(client.result(#"{"op":"batch","ops":[\#(ops.joined(separator: ","))]}"#) == #""batch_failed""#)
        }
        #expect(work <= 4 * n, "\(work) steps to create and roll back \(n) children")
        #expect(field(client.inspect(1), "result.children") == "[]")
    }

    @Test func loadingADeepChainIsLinear() throws {
        let client = Client()
        createRoots(client, 1...n)
        for tag in 1..<n { client.send(#"{"op":"setChildren","tag":\#(tag + 1),"children":[\#(tag)]}"#) }
        let saved = client.engine.saveState()
        let engine = Engine()
        var loaded = 0
        let work = steps { loaded = (try? engine.loadState(saved)) ?? -1 }
        #expect(loaded == 1)
        #expect(work <= 4 * n, "\(work) steps to load a chain of \(n)")
        #expect(engine.saveState() == saved, "and it saves back the same")
        engine.closeAllSessions()
    }
}
