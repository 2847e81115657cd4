import PropStore
import Synchronization

/// What a `define` made for a session that had defined nothing, kept by the engine for the next session that
/// sends the same schema: a test runner opens the same app for each test file, each a new session, and reading a
/// schema's components is most of a `define` (8–13 ms for react-native-screens', -svg's and -safe-area's 32
/// components, 116 KB; about 1 ms with this).
///
/// Only a fresh session's result is kept, and only a success: it then depends on nothing but the schema, the
/// `untyped` names and the engine's registry, which never changes. Bounded: at most ``limit`` entries, whose keys
/// hold at most ``maxKeyBytes`` in all (the oldest entry goes first).
final class DefineCache: Sendable {
    /// A `define`'s request as the cache tells them apart: its schema's compact text and its `untyped` names.
    struct Key: Hashable, Sendable {
        let schema: String
        let untyped: [String]

        var bytes: Int { schema.utf8.count + untyped.reduce(0) { $0 + $1.utf8.count } }
    }

    /// What `define` adds to a fresh session, and what it answers.
    struct Entry: Sendable {
        /// The engine's registry with the components added.
        let registry: ComponentRegistry
        let added: [ComponentType]
        /// `Engine.describe(added)`: the answer's `components`.
        let description: [UInt8]
        let unchanged: [String]
        let skipped: [String]
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// The keys, oldest first.
        var order: [Key] = []
        var keyBytes = 0
        var hits = 0
    }

    let limit: Int
    let maxKeyBytes: Int
    private let state = Mutex(State())

    init(limit: Int = 8, maxKeyBytes: Int = 16 << 20) {
        self.limit = limit
        self.maxKeyBytes = maxKeyBytes
    }

    func entry(for key: Key) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            state.hits += 1
            return entry
        }
    }

    /// Keeps `entry` for `key`, forgetting the oldest entries past the bounds (a key alone over them is not kept).
    func keep(_ entry: Entry, for key: Key) {
        let size = key.bytes
        guard size <= maxKeyBytes, limit > 0 else { return }
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            while !state.order.isEmpty && (state.order.count >= limit || state.keyBytes + size > maxKeyBytes) {
                let oldest = state.order.removeFirst()
                state.entries[oldest] = nil
                state.keyBytes -= oldest.bytes
            }
            state.entries[key] = entry
            state.order.append(key)
            state.keyBytes += size
        }
    }

    /// How many entries are kept, and how many times one was used (tests).
    var counts: (entries: Int, hits: Int) { state.withLock { ($0.entries.count, $0.hits) } }
}
