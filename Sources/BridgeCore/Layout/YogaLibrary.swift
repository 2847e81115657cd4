import CYoga
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Yoga, compiled from an app's own `react-native` package (`ReactCommon/yoga`) and loaded: the functions of its C
/// API that the shadow tree calls.
///
/// The daemon loads only what it built itself: ``load(sources:)`` compiles the sources it is shown into its own
/// cache folder (mode 0700, checked), keyed by their content hash, and opens that file; a client never names a
/// library. Each React Native version's Yoga is built and held once per process (``loaded``), so a daemon serving
/// apps of several versions holds each one's.
///
/// Safety of `@unchecked Sendable`: every stored property is set once, at load, and never changed; the function
/// pointers it holds are those of a library that stays loaded for the life of the process.
public final class YogaLibrary: @unchecked Sendable {
    /// The sources' content hash (hex), the key of the cache folder.
    public let hash: String
    /// The library the daemon built and loaded: `<cache>/yoga/<hash>/libyoga.so`.
    public let path: String
    /// Whether this process compiled it (false: it was in the cache).
    public let compiled: Bool
    /// The compiler that built it in this process, if it did.
    public let compiler: String?
    let api: cyoga_api
    /// Held while a tree of this library is changed or laid out: Yoga keeps process-wide counters that every pass
    /// and every node's birth and death change (`gCurrentGenerationCount`, which decides whether a node was laid
    /// out in this pass, and its instance counts), not meant for two threads at once; React Native runs Yoga on one
    /// queue. Sessions on different event loops take turns, a pass at a time.
    let lock = Mutex<Void>(())

    init(hash: String, path: String, compiled: Bool, compiler: String?, api: cyoga_api) {
        self.hash = hash
        self.path = path
        self.compiled = compiled
        self.compiler = compiler
        self.api = api
    }

    /// The libraries loaded so far, by hash.
    private static let loaded = Mutex<[String: YogaLibrary]>([:])

    /// The most source files, and bytes of one, that a Yoga folder may hold (React Native 0.72's has 27 files, the
    /// largest 150 KB).
    static let maxFiles = 400
    static let maxFileBytes = 4 << 20

    /// Yoga from `sources` (React Native's `ReactCommon/yoga`, or the `yoga` folder inside it): the one loaded for
    /// sources with the same content, else the one in the cache, else compiled now (a few seconds) and cached.
    ///
    /// Throws `layout_unavailable` naming what is missing: the sources, a C++ compiler (`$BRIDGED_CXX`, else the
    /// Swift toolchain's `clang++`, else `clang++`, `g++` or `c++` on `PATH`), a usable cache folder, or what the
    /// compiler said.
    public static func load(sources: String) throws(BridgeError) -> YogaLibrary {
        let root = try sourceRoot(sources)
        let files = try sourceFiles(root)
        let hash = try contentHash(root: root, files: files)
        if let library = loaded.withLock({ $0[hash] }) { return library }
        // Built under a lock of its hash alone: a session building one React Native version's Yoga (seconds) holds up
        // only the sessions that wait for the same one, not those loading another.
        let building = buildLocks.withLock { locks in
            if let lock = locks[hash] { return lock }
            let lock = BuildLock()
            locks[hash] = lock
            return lock
        }
        return try building.mutex.withLock { _ throws(BridgeError) -> YogaLibrary in
            if let library = loaded.withLock({ $0[hash] }) { return library }
            let folder = try cacheFolder() + "/" + hash
            try makePrivateFolder(folder)
            let path = folder + "/libyoga.so"
            var compiler: String?
            if !isOwnRegularFile(path) {
                let cxx = try findCompiler()
                try compile(root: root, files: files.filter { $0.hasSuffix(".cpp") }, with: cxx, into: folder)
                compiler = cxx
            }
            var error = [CChar](repeating: 0, count: 512)
            guard let api = cyoga_load(path, &error, error.count)?.pointee else {
                let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw unavailable("the Yoga library \(path) does not load: \(reason)")
            }
            let library = YogaLibrary(hash: hash, path: path, compiled: compiler != nil, compiler: compiler, api: api)
            loaded.withLock { $0[hash] = library }
            return library
        }
    }

    /// The lock a Yoga of one hash is built under.
    private final class BuildLock: Sendable {
        let mutex = Mutex<Void>(())
    }

    /// The build locks, by hash (one per Yoga this process was asked for).
    private static let buildLocks = Mutex<[String: BuildLock]>([:])

    /// The Yoga this process or an earlier daemon built from sources of content `hash` (a state file's session's:
    /// ``ShadowTree/restore(_:in:)``): the one loaded, else the one in the daemon's own cache folder; never compiled
    /// (the sources' path is not kept). `hash` must be one ``load(sources:)`` makes (32 hex digits): no other path
    /// is opened.
    static func load(hash: String) throws(BridgeError) -> YogaLibrary {
        guard hash.utf8.count == 32, hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { throw unavailable("'\(hash)' is not the hash of a Yoga this daemon builds") }
        return try loaded.withLock { (libraries: inout [String: YogaLibrary]) throws(BridgeError) -> YogaLibrary in
            if let library = libraries[hash] { return library }
            let path = try cacheFolder() + "/" + hash + "/libyoga.so"
            guard isOwnRegularFile(path) else { throw unavailable("no Yoga of hash \(hash) in the cache (\(path))") }
            var error = [CChar](repeating: 0, count: 512)
            guard let api = cyoga_load(path, &error, error.count)?.pointee else {
                let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw unavailable("the Yoga library \(path) does not load: \(reason)")
            }
            let library = YogaLibrary(hash: hash, path: path, compiled: false, compiler: nil, api: api)
            libraries[hash] = library
            return library
        }
    }

    static func unavailable(_ message: String) -> BridgeError {
        BridgeError(.layoutUnavailable, "layout: " + message + "; layout stays off")
    }

    // MARK: - Sources

    /// The folder that holds `yoga/Yoga.h`: `path` itself, or its parent when `path` is that `yoga` folder.
    private static func sourceRoot(_ path: String) throws(BridgeError) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        if isReadableFile(path + "/yoga/Yoga.h") && isReadableFile(path + "/yoga/Yoga.cpp") { return path }
        if path.hasSuffix("/yoga"), isReadableFile(path + "/Yoga.h"), isReadableFile(path + "/Yoga.cpp") {
            return String(path.dropLast("/yoga".count))
        }
        throw unavailable(
            "no Yoga sources at \(path) (expected React Native's ReactCommon/yoga, holding yoga/Yoga.cpp and "
                + "yoga/Yoga.h)"
        )
    }

    /// The `.cpp` and `.h` files under `root/yoga`, relative to `root`, sorted.
    private static func sourceFiles(_ root: String) throws(BridgeError) -> [String] {
        var files: [String] = []
        var folders = ["yoga"]
        while let folder = folders.popLast() {
            guard let directory = opendir(root + "/" + folder) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix(".") { continue }
                let relative = folder + "/" + name
                if entry.pointee.d_type == UInt8(DT_DIR) {
                    if folders.count + files.count < maxFiles { folders.append(relative) }
                } else if name.hasSuffix(".cpp") || name.hasSuffix(".h") {
                    files.append(relative)
                }
                if files.count > maxFiles {
                    throw unavailable("\(root)/yoga holds more than \(maxFiles) source files; is it Yoga?")
                }
            }
        }
        return files.sorted()
    }

    /// A 128-bit hash (two FNV-1a 64) of each file's name and content.
    private static func contentHash(root: String, files: [String]) throws(BridgeError) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x6c62_272e_07bb_0142
        func mix(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 &+ 0x9e37
            }
        }
        for file in files {
            guard let content = readFile(root + "/" + file, limit: maxFileBytes) else {
                throw unavailable("cannot read \(root)/\(file) (or it is over \(maxFileBytes) bytes)")
            }
            Array((file + "\0").utf8).withUnsafeBytes(mix)
            content.withUnsafeBytes(mix)
        }
        return hex(a) + hex(b)
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    // MARK: - The cache

    /// `$BRIDGED_CACHE_DIR/yoga`, else `$XDG_CACHE_HOME/bridged/yoga`, else `~/.cache/bridged/yoga`, made mode
    /// 0700; refused when another user owns it or others may write to it.
    static func cacheFolder() throws(BridgeError) -> String {
        let base: String
        if let dir = environment("BRIDGED_CACHE_DIR") {
            base = dir
        } else if let xdg = environment("XDG_CACHE_HOME") {
            base = xdg + "/bridged"
        } else if let home = environment("HOME") {
            base = home + "/.cache/bridged"
        } else {
            throw unavailable("no cache folder: none of BRIDGED_CACHE_DIR, XDG_CACHE_HOME and HOME is set")
        }
        var path = ""
        for part in base.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + part
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw unavailable("cannot make the cache folder \(path): \(String(cString: strerror(errno)))")
            }
        }
        let folder = base + "/yoga"
        try makePrivateFolder(folder)
        return folder
    }

    /// Makes `path` a folder of this user's that only this user can enter (0700), or says why it is not one.
    private static func makePrivateFolder(_ path: String) throws(BridgeError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw unavailable("cannot make the cache folder \(path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw unavailable("the cache folder \(path) is not a folder")
        }
        guard info.st_uid == getuid() else {
            throw unavailable("the cache folder \(path) belongs to another user; the daemon loads only what it built")
        }
        if info.st_mode & 0o077 != 0 && chmod(path, 0o700) != 0 {
            throw unavailable("the cache folder \(path) is open to others and cannot be made 0700")
        }
    }

    private static func isOwnRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_uid == getuid()
    }

    private static func isReadableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }

    // MARK: - The compiler

    /// `$BRIDGED_CXX` (exactly), else the Swift toolchain's `clang++`, else `clang++`, `g++` or `c++` on `PATH`.
    static func findCompiler() throws(BridgeError) -> String {
        if let named = environment("BRIDGED_CXX") {
            guard access(named, X_OK) == 0 else {
                throw unavailable("no C++ compiler: BRIDGED_CXX names \(named), which is not an executable")
            }
            return named
        }
        if access("/opt/swift/usr/bin/clang++", X_OK) == 0 { return "/opt/swift/usr/bin/clang++" }
        let path = environment("PATH") ?? "/usr/bin:/bin"
        for name in ["clang++", "g++", "c++"] {
            for folder in path.split(separator: ":") where !folder.isEmpty {
                let candidate = folder + "/" + name
                if access(candidate, X_OK) == 0 { return String(candidate) }
            }
        }
        throw unavailable(
            "no C++ compiler to build Yoga (looked for BRIDGED_CXX, /opt/swift/usr/bin/clang++, and clang++, g++ "
                + "and c++ on PATH)"
        )
    }

    /// Compiles `files` into `folder/libyoga.so` (written aside and renamed, so that a half-written library is
    /// never loaded); the compiler's output goes to `folder/build.log`.
    private static func compile(
        root: String,
        files: [String],
        with cxx: String,
        into folder: String
    )
        throws(BridgeError)
    {
        let temporary = folder + "/libyoga.so.\(getpid()).tmp"
        let log = folder + "/build.log"
        var arguments = [cxx, "-std=c++17", "-O2", "-shared", "-fPIC", "-DNDEBUG", "-I", root]
        arguments += files.map { root + "/" + $0 }
        arguments += ["-o", temporary]
        let status = run(arguments, output: log)
        guard status == 0, rename(temporary, folder + "/libyoga.so") == 0 else {
            unlink(temporary)
            let said = readFile(log, limit: 1 << 20).map { String(decoding: $0.suffix(600), as: UTF8.self) } ?? ""
            throw unavailable(
                "\(cxx) could not build Yoga from \(root) (exit status \(status)): \(said.isEmpty ? "no output" : said)"
            )
        }
    }

    /// Runs `arguments` with its output and errors to the file `output`; its exit status (-1 if it did not start).
    private static func run(_ arguments: [String], output: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    // MARK: - Files and the environment

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// The bytes of the file at `path`, or `nil` when it cannot be read or is over `limit` bytes.
    static func readFile(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
            if bytes.count > limit { return nil }
        }
    }
}
