import BridgeCore
import CYieldPoint
import Foundation
import NIOPosix
import Testing

@testable import BridgeServer

/// Long work gives its core away as it goes (`cyield_point.h`, issue 30, item 6): a long request's thread yields
/// every ``LongRequests/yieldEvery`` units of work, wherever the work is (a batch's ops, a `setChildren`'s children,
/// the parse of its line), and any other thread never does. Counted, not timed: each test reads the thread's yields.
@Suite("Yield points")
struct YieldPointTests {
    /// The yields of the calling thread while `body` runs.
    static func yields(_ body: () -> Void) -> UInt64 {
        let before = cyield_point_yields()
        body()
        return cyield_point_yields() - before
    }

    /// A session holding a parent (tag 1) and `count` views (tags 2…).
    static func session(views count: Int) -> Client {
        let client = Client()
        let creates = (0...count).map { #"{"op":"create","tag":\#($0 + 1),"component":"View"}"# }
        #expect(
            field(client.send(#"{"op":"batch","ops":[\#(creates.joined(separator: ","))]}"#).response, "ok") == "true"
        )
        return client
    }

    static func setChildren(_ children: [Int]) -> String {
        #"{"op":"setChildren","tag":1,"children":[\#(children.map(String.init).joined(separator: ","))]}"#
    }

    @Test func aThreadThatDidNotBeginNeverYields() {
        let client = Self.session(views: 2_000)
        let yields = Self.yields {
            #expect(field(client.send(Self.setChildren(Array(2...2_001))).response, "ok") == "true")
        }
        #expect(yields == 0)
    }

    @Test func aSetChildrenYieldsAtLeastOnceForEachBudgetOfChildren() {
        let client = Self.session(views: 2_000)
        let children = Array((2...2_001).reversed())
        cyield_point_begin(64)
        defer { cyield_point_end() }
        // Its line's parse (a value per child), the children's lookup, and their moves: three units a child at least.
        let yields = Self.yields { #expect(field(client.send(Self.setChildren(children)).response, "ok") == "true") }
        #expect(yields >= UInt64(3 * children.count / 64))
        #expect(field(client.inspect(1), "result.children.0") == "2001", "and it did its work")
    }

    @Test func aBatchYieldsAsItGoes() {
        let client = Client()
        let creates = (1...1_000).map { #"{"op":"create","tag":\#($0),"component":"View"}"# }
        cyield_point_begin(64)
        defer { cyield_point_end() }
        let yields = Self.yields {
            #expect(
                field(client.send(#"{"op":"batch","ops":[\#(creates.joined(separator: ","))]}"#).response, "ok")
                    == "true"
            )
        }
        // Eight units an op, at the least.
        #expect(yields >= UInt64(8 * creates.count / 64))
    }

    @Test func afterTheEndTheThreadYieldsNoMore() {
        let client = Self.session(views: 1_000)
        cyield_point_begin(64)
        cyield_point_end()
        let yields = Self.yields {
            #expect(field(client.send(Self.setChildren(Array(2...1_001))).response, "ok") == "true")
        }
        #expect(yields == 0)
    }

    @Test func aLongRequestsThreadYieldsWhileItsWorkRunsAndNotAfter() async {
        let during: UInt64 = await withCheckedContinuation { continuation in
            LongRequests().run {
                let client = Self.session(views: 5_000)
                let yields = Self.yields { _ = client.send(Self.setChildren(Array((2...5_001).reversed()))) }
                continuation.resume(returning: yields)
            }
        }
        #expect(during >= UInt64(3 * 5_000) / UInt64(LongRequests.yieldEvery))
        // The pool's threads are given back as they were: work submitted to them directly never yields.
        for _ in 0..<4 {
            let after: UInt64 = await withCheckedContinuation { continuation in
                NIOThreadPool.singleton.submit { _ in
                    let client = Self.session(views: 2_000)
                    continuation.resume(returning: Self.yields { _ = client.send(Self.setChildren(Array(2...2_001))) })
                }
            }
            #expect(after == 0)
        }
    }
}
