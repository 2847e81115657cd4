import ArgumentParser
import BridgeCore
import PropStore

#if canImport(Glibc)
import Glibc
#endif

/// The `--components PATH` option of `serve`, `record` and `replay` (each has it as an `@OptionGroup`).
struct ComponentsOption: ParsableArguments {
    @Option(
        name: .customLong("components"),
        help: ArgumentHelp(
            "A React Native codegen schema (JSON), or a folder of them (*.json), whose components to add; repeatable.",
            valueName: "path"
        )
    )
    var paths: [String] = []

    /// The components this process serves (``BridgedCommand/registry``) and those of the schemas given.
    func registry(log: (String) -> Void) throws(DaemonError) -> ComponentRegistry {
        try Self.registry(BridgedCommand.registry, schemas: paths, log: log)
    }

    /// The registry with the components of every schema in `paths` (files, or folders whose `*.json` files are
    /// all read, in name order) on top of `registry`. `log` is told of each module that was skipped.
    ///
    /// Throws a ``DaemonError`` whose message is the ``SchemaError`` (file, JSON path, problem) of the first
    /// schema that cannot be loaded; then nothing is loaded.
    static func registry(
        _ registry: ComponentRegistry,
        schemas paths: [String],
        log: (String) -> Void
    ) throws(DaemonError) -> ComponentRegistry {
        guard !paths.isEmpty else { return registry }
        var schemas = CodegenSchema(registry: registry)
        do throws(SchemaError) {
            for file in try schemaFiles(paths) {
                guard let bytes = readFileBytes(file) else {
                    throw SchemaError(file: file, path: "", problem: "cannot read the file: \(errnoText())")
                }
                try schemas.load(bytes, file: file)
            }
        } catch {
            throw DaemonError(.schema, "--components: \(error)")
        }
        for skipped in schemas.skippedModules {
            log("skipped module '\(skipped.module)' of \(skipped.file): not a component (NativeModule)")
        }
        return schemas.registry
    }

    /// The files named by `paths`: a file as it is, a folder as its `*.json` files in name order.
    static func schemaFiles(_ paths: [String]) throws(SchemaError) -> [String] {
        var files: [String] = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw SchemaError(file: path, path: "", problem: "cannot read: \(errnoText())")
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                files.append(path)
                continue
            }
            guard let directory = opendir(path) else {
                throw SchemaError(file: path, path: "", problem: "cannot read the folder: \(errnoText())")
            }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasSuffix(".json"), !name.hasPrefix(".") { names.append(name) }
            }
            closedir(directory)
            guard !names.isEmpty else {
                throw SchemaError(file: path, path: "", problem: "the folder has no *.json file")
            }
            let prefix = path.hasSuffix("/") ? path : path + "/"
            files.append(contentsOf: names.sorted().map { prefix + $0 })
        }
        return files
    }
}
