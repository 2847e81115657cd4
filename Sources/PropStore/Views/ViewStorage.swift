import Synchronization

/// The static view-to-proxy storage: every live view of every session, by session key and tag.
///
/// The article's `SwiftUIButtonProxy.storage`, made safe: guarded by a `Mutex`, keyed per session so
/// that two sessions may use the same tags, and emptied when views are deleted or the session ends.
public enum ViewStorage {
    /// Session key → tag → proxy.
    public static let storage = Mutex<[UInt64: [Int: ViewProxy]]>([:])
    private static let sessionKeys = Atomic<UInt64>(0)

    /// A key no other session has used in this process.
    public static func makeSessionKey() -> UInt64 {
        sessionKeys.wrappingAdd(1, ordering: .relaxed).newValue
    }

    public static func proxy(session: UInt64, tag: Int) -> ViewProxy? {
        storage.withLock { $0[session]?[tag] }
    }

    public static func insert(_ proxy: ViewProxy, session: UInt64) {
        storage.withLock { $0[session, default: [:]][proxy.tag] = proxy }
    }

    public static func insert(_ proxies: [ViewProxy], session: UInt64) {
        storage.withLock { storage in
            for proxy in proxies { storage[session, default: [:]][proxy.tag] = proxy }
        }
    }

    public static func remove(tags: [Int], session: UInt64) {
        storage.withLock { storage in
            for tag in tags { storage[session]?.removeValue(forKey: tag) }
        }
    }

    /// Removes and returns every view of a session.
    public static func removeSession(_ session: UInt64) -> [ViewProxy] {
        let views = storage.withLock { $0.removeValue(forKey: session) }
        return views.map { Array($0.values) } ?? []
    }

    /// How many views a session has.
    public static func count(session: UInt64) -> Int {
        storage.withLock { $0[session]?.count ?? 0 }
    }

    /// How many views all sessions have.
    public static var totalCount: Int {
        storage.withLock { $0.values.reduce(0) { $0 + $1.count } }
    }
}
