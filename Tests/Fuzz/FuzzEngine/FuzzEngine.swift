import BridgeCore

#if FUZZING
import Glibc

/// libFuzzer's entry: one input, checked by ``EngineInput/check(_:)``, which traps when an invariant breaks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    EngineInput.check(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer's driver (`libclang_rt.fuzzer`), which parses the libFuzzer flags and runs the inputs.
@_extern(c, "LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Built with `make fuzz` (`-sanitize=fuzzer,address -DFUZZING -enable-experimental-feature Extern`): SwiftPM
/// links an executable's `main` to this type's, so it hands over to libFuzzer's driver with the usual flags.
@main
struct FuzzEngine {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzz))
    }
}
#else
import Foundation

/// Without libFuzzer: checks the files named on the command line (a corpus, a crash input) the same way.
///
/// `swift run FuzzEngine Tests/Fuzz/corpus/*` runs the seed corpus through every invariant and says what each
/// input is; `swift run FuzzEngine --save-state FILE` prints the state file the engine saves after FILE's lines
/// (how the `state-*` seeds were made).
@main
struct FuzzEngine {
    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "--save-state", let path = arguments.dropFirst().first {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let summary = data.withUnsafeBytes { EngineInput.check($0) }
            FileHandle.standardOutput.write(Data(summary.saved))
            return
        }
        arguments = arguments.drop { $0 == "--" }
        for path in arguments {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let summary = data.withUnsafeBytes { EngineInput.check($0) }
            let state = summary.loaded.map { "state of \($0) sessions" } ?? "not a state"
            print("ok \(path): \(data.count) bytes, \(state), \(summary.replayed ? "replays" : "does not replay")")
        }
        print("\(arguments.count) inputs checked")
    }
}
#endif
