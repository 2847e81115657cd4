import CJansson

#if canImport(Glibc)
import Glibc
#endif

/// Memory for the trees jansson builds while a read is parsed ahead (``ParseAhead``): taken by bumping a
/// pointer, given back all at once when the arena goes away. A tree built in an arena is never freed node by
/// node (its ``JSONDocument`` does not own it), so no node is freed on another thread than the one that
/// allocated it, and parsing calls no `malloc` per node.
///
/// Used by one thread at a time (the one parsing with it, ``JanssonMemory/parse(_:in:)``).
final class JSONArena {
    private var chunks: [UnsafeMutableRawPointer] = []
    private var cursor: UnsafeMutableRawPointer?
    private var remaining = 0
    static let chunkBytes = 64 << 10

    init() {}

    func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        let needed = (size + 15) & ~15
        if needed > remaining {
            let bytes = max(Self.chunkBytes, needed)
            guard let chunk = malloc(bytes) else { return nil }
            chunks.append(chunk)
            cursor = chunk
            remaining = bytes
        }
        let pointer = cursor!
        cursor = pointer + needed
        remaining -= needed
        return pointer
    }

    deinit { for chunk in chunks { free(chunk) } }
}

/// jansson's allocator, routed through an arena while the current thread parses into one.
///
/// Outside ``parse(_:in:)`` the functions are `malloc` and `free`, so memory allocated before they were installed
/// is freed as before. Inside it, every allocation comes from the arena and every free (jansson's temporaries,
/// a refused line's partial tree) is nothing: during one `json_loadb` jansson frees only what it allocated in it.
enum JanssonMemory {
    /// Installs the functions (once; before the first parse into an arena).
    static let installed: Void = {
        pthread_key_create(&currentArenaKey, nil)
        json_set_alloc_funcs(janssonAllocate, janssonFree)
    }()

    /// Parses `line` with the tree's memory in `arena`; returns the tree (owned by the arena) or `nil`.
    static func parse(_ line: UnsafeRawBufferPointer, in arena: JSONArena) -> UnsafeMutablePointer<json_t>? {
        _ = installed
        pthread_setspecific(currentArenaKey, Unmanaged.passUnretained(arena).toOpaque())
        defer { pthread_setspecific(currentArenaKey, nil) }
        guard let document = try? JSONDocument(parsing: line) else { return nil }
        return document.release()
    }
}

/// The key of the arena of the thread parsing into one (`pthread_getspecific`), else none: created once by
/// ``JanssonMemory/installed``, before the functions that read it are installed, and never changed after.
/// A plain global (no lazy initialiser), so reading it on every jansson allocation costs a load.
nonisolated(unsafe) private var currentArenaKey = pthread_key_t()

private let janssonAllocate: @convention(c) (Int) -> UnsafeMutableRawPointer? = { size in
    if let arena = pthread_getspecific(currentArenaKey) {
        return Unmanaged<JSONArena>.fromOpaque(arena)._withUnsafeGuaranteedRef { $0.allocate(size) }
    }
    return malloc(size)
}

private let janssonFree: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    guard pthread_getspecific(currentArenaKey) == nil else { return }
    free(pointer)
}
