import Synchronization

/// The static view-to-proxy storage: every live view of every session, by session key and tag.
///
/// The article's `SwiftUIButtonProxy.storage`, made safe: guarded by a `Mutex`, keyed per session so
/// that two sessions may use the same tags, and emptied when views are deleted or the session ends. The
/// storage is split in shards by session, so that sessions served on different threads rarely wait for
/// each other's lock.
public enum ViewStorage {
    /// Session key → tag → proxy, for the sessions whose key falls in this shard.
    final class Shard: Sendable {
        let storage = Mutex<[UInt64: [Int: ViewProxy]]>([:])
    }

    private static let shardCount = 16
    private static let shards: [Shard] = (0..<shardCount).map { _ in Shard() }
    private static let sessionKeys = Atomic<UInt64>(0)

    @inline(__always)
    private static func shard(_ session: UInt64) -> Shard { shards[Int(session % UInt64(shardCount))] }

    /// A key no other session has used in this process.
    public static func makeSessionKey() -> UInt64 {
        sessionKeys.wrappingAdd(1, ordering: .relaxed).newValue
    }

    public static func proxy(session: UInt64, tag: Int) -> ViewProxy? {
        shard(session).storage.withLock { $0[session]?[tag] }
    }

    public static func insert(_ proxy: ViewProxy, session: UInt64) {
        shard(session).storage.withLock { $0[session, default: [:]][proxy.tag] = proxy }
    }

    public static func insert(_ proxies: [ViewProxy], session: UInt64) {
        shard(session).storage.withLock { storage in
            for proxy in proxies { storage[session, default: [:]][proxy.tag] = proxy }
        }
    }

    public static func remove(tags: [Int], session: UInt64) {
        shard(session).storage.withLock { storage in
            for tag in tags { storage[session]?.removeValue(forKey: tag) }
        }
    }

    /// Removes and returns every view of a session.
    public static func removeSession(_ session: UInt64) -> [ViewProxy] {
        let views = shard(session).storage.withLock { $0.removeValue(forKey: session) }
        return views.map { Array($0.values) } ?? []
    }

    /// How many views a session has.
    public static func count(session: UInt64) -> Int {
        shard(session).storage.withLock { $0[session]?.count ?? 0 }
    }

    /// Every view of a session, in no particular order.
    public static func views(session: UInt64) -> [ViewProxy] {
        shard(session).storage.withLock { $0[session].map { Array($0.values) } ?? [] }
    }
}
