import CJansson
import CJanssonArena

/// Memory for the trees jansson builds while a read is parsed ahead (``ParseAhead``): taken by bumping a
/// pointer, given back all at once when the arena goes away. A tree built in an arena is never freed node by
/// node (its ``JSONDocument`` does not own it), so no node is freed on another thread than the one that
/// allocated it, and parsing calls no `malloc` per node.
///
/// The allocator itself is C (`CJanssonArena`): jansson calls it for every node of every parse, arena or not,
/// and there the current thread's arena is a plain thread-local, read without Swift's runtime (no exclusivity
/// bookkeeping, no `pthread_getspecific`).
///
/// Used by one thread at a time (the one parsing with it, ``JanssonMemory/parse(_:in:)``).
final class JSONArena {
    fileprivate let arena: OpaquePointer

    init() {
        guard let arena = cja_arena_create() else { fatalError("out of memory creating a JSON arena") }
        self.arena = arena
    }

    deinit { cja_arena_destroy(arena) }

    /// Chunks of memory the arenas gave back and keep for the next ones (at most ``maximumCachedChunks``): a read
    /// parsed ahead builds megabytes of trees and drops them all, and memory freed to glibc went back to the
    /// kernel, to be faulted in (and zeroed) again by the next read.
    static var cachedChunks: Int { cja_cached_chunks() }
    /// How many chunks arenas have taken from that cache since the process started.
    static var reusedChunks: Int { cja_reused_chunks() }
    /// The most chunks (64 KiB each) kept for reuse.
    static var maximumCachedChunks: Int { Int(CJA_CACHE_CHUNKS) }

    /// How many allocations have been made in it so far; read from any thread, it shows that a parse into it on
    /// another thread is moving.
    var progress: Int { cja_arena_progress(arena) }
}

/// jansson's allocator, routed through an arena while the current thread parses into one.
///
/// Outside ``parse(_:in:)`` the functions are `malloc` and `free`, so memory allocated before they were installed
/// is freed as before. Inside it, every allocation comes from the arena and every free (jansson's temporaries,
/// a refused line's partial tree) is nothing: during one `json_loadb` jansson frees only what it allocated in it.
enum JanssonMemory {
    /// Parses `line` with the tree's memory in `arena`; returns the tree (owned by the arena) or `nil`.
    static func parse(_ line: UnsafeRawBufferPointer, in arena: JSONArena) -> UnsafeMutablePointer<json_t>? {
        parse(line, into: arena.arena)
    }

    /// The same, into a C arena (``claimScratch()``).
    static func parse(_ line: UnsafeRawBufferPointer, into arena: OpaquePointer) -> UnsafeMutablePointer<json_t>? {
        try? parseOrThrow(line, into: arena)
    }

    /// Parses `bytes` with the tree's memory in `arena`, as ``parse(_:in:)``, or says why jansson refused them.
    static func document(_ bytes: [UInt8], in arena: JSONArena) throws(JSONParseError) -> JSONDocument {
        let tree = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) in try parseOrThrow(raw, into: arena.arena) }
        }
        return JSONDocument(inArena: JSONRef(try tree.get()))
    }

    private static func parseOrThrow(
        _ bytes: UnsafeRawBufferPointer,
        into arena: OpaquePointer
    ) throws(JSONParseError) -> UnsafeMutablePointer<json_t> {
        cja_install()
        cja_enter(arena)
        defer { cja_leave() }
        return try JSONDocument(parsing: bytes).release()
    }

    /// The thread's scratch arena (C), for the tree of the request being handled: `nil` while a tree parsed into
    /// it is still in use (a request parsed while another is handled on this thread), then parse as usual. What
    /// is parsed into it lives until ``releaseScratch()``.
    static func claimScratch() -> OpaquePointer? { cja_scratch_claim() }

    /// Gives back the scratch arena's memory: every tree parsed into it since ``claimScratch()`` is gone.
    static func releaseScratch() { cja_scratch_release() }

    /// The claimed scratch arena, when `node` is in it, taken from the thread: it and every tree in it are the
    /// caller's from then on (``cja_arena_destroy``), and ``releaseScratch()`` gives back nothing. `nil` when the
    /// node is elsewhere (a tree parsed ahead, or parsed outside the scratch).
    static func takeScratch(holding node: UnsafeMutablePointer<json_t>) -> OpaquePointer? {
        cja_scratch_take_holding(node)
    }
}
