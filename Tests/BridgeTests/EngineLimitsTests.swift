import ArgumentParser
import BridgeCore
import Testing

@testable import BridgeServer

/// Every limit flag of `serve` (``EngineLimits``, with the ``RecordedLimits`` it embeds) reaches the engine's
/// configuration: a flag declared and not applied in `EngineLimits.configuration` fails here, named.
@Suite("Daemon: every limit flag is applied")
struct EngineLimitsTests {
    /// The flags of EngineLimits's own options and of its recorded ones, as ArgumentParser spells them.
    static let flags: [String] = {
        var names: [String] = []
        for child in Mirror(reflecting: EngineLimits()).children {
            guard let label = child.label, label.hasPrefix("_"), label != "_recorded" else { continue }
            names.append(flag(ofProperty: String(label.dropFirst())))
        }
        return names + SessionLimit.all.map(\.flag)
    }()

    /// `maxSessions` → `--max-sessions`.
    static func flag(ofProperty name: String) -> String {
        "--" + name.map { $0.isUppercase ? "-\($0.lowercased())" : "\($0)" }.joined()
    }

    @Test func theFlagsAreFound() {
        #expect(Self.flags.count >= 6, "\(Self.flags)")
        #expect(Self.flags.contains("--max-sessions") && Self.flags.contains("--max-views"))
    }

    @Test(arguments: flags)
    func theFlagChangesTheConfiguration(flag: String) throws {
        let defaults = String(describing: try EngineLimits.parse([]).configuration)
        // A value above every limit's minimum and unlike every default.
        let changed = String(describing: try EngineLimits.parse([flag, "12345"]).configuration)
        #expect(
            changed != defaults,
            "\(flag) is declared but not applied: set its field in EngineLimits.configuration (Sources/BridgeServer/EngineLimits.swift), or RecordedLimits.apply for a recorded limit"
        )
    }
}
