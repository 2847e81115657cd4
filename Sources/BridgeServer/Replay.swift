import ArgumentParser
import BridgeCore

/// `bridged replay FILE...`: replays recorded sessions against a fresh engine.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay recorded sessions (JSONL) against a fresh engine and compare every frame.",
        discussion: "Ends with a line 'N passed, N failed' (one case per file); exits 1 if any failed."
    )

    @Argument(help: "Recorded session files (.jsonl).")
    var files: [String]

    @OptionGroup var components: ComponentsOption

    func run() throws {
        let registry = try components.registry { printError("bridged replay: \($0)") }
        let replayer = Replayer(registry: registry)
        var passed = 0
        var failed = 0
        for file in files {
            guard let text = readFile(file) else {
                print("\(file): cannot read the file")
                failed += 1
                continue
            }
            let outcome = replayer.replay(text)
            if let difference = outcome.difference {
                print("\(file): FAIL at \(difference.line)")
                print("  expected: \(difference.expected)")
                print("  got:      \(difference.got)")
                failed += 1
            } else {
                print("\(file): ok (\(outcome.framesMatched) frames)")
                passed += 1
            }
        }
        print("\(passed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode(1) }
    }
}
