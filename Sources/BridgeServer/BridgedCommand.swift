import ArgumentParser
import BridgeCore
@_exported import PropStore
import Synchronization

/// `bridged`: the native side of a React Native-style bridge, as a local daemon.
///
/// The whole command line (serve, replay, record, every flag) with the components it is given. A program of
/// your own runs it with your registry:
///
/// ```swift
/// import BridgeServer
/// var registry = ComponentRegistry.builtin
/// try registry.register(Gauge.self)
/// await BridgedCommand.main(registry: registry)
/// ```
public struct BridgedCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bridged",
        abstract: "The native side of a React Native-style bridge, served on a Unix socket.",
        version: Engine.version,
        subcommands: [Serve.self, Replay.self, Record.self, SocketPath.self, DescribeOps.self],
        defaultSubcommand: Serve.self
    )

    public init() {}

    /// The components this process serves, set once by ``main(registry:)`` before the command line is parsed.
    static let registryBox = Mutex<ComponentRegistry>(.builtin)

    /// The registry every subcommand builds its engine with.
    static var registry: ComponentRegistry { registryBox.withLock { $0 } }

    /// Parses the process's arguments and runs `bridged` with `registry`'s components; exits when done.
    public static func main(registry: ComponentRegistry) async {
        registryBox.withLock { $0 = registry }
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.count == 1, let only = arguments.first, ["--help", "-h", "help"].contains(only) {
            print(helpWithDefaultCommand())
            return
        }
        await main()
    }

    /// The help of `bridged` alone: ArgumentParser's, which lists only the subcommands, with the options of the
    /// default command (`serve`) too, since `bridged --record DIR` is `bridged serve --record DIR`.
    static func helpWithDefaultCommand() -> String {
        let serve = helpMessage(for: Serve.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let optionsAt = serve.firstIndex(of: "OPTIONS:") else { return helpMessage() }
        var options = serve[(optionsAt + 1)...].filter { !$0.hasPrefix("  --version") && !$0.hasPrefix("  -h, --help") }
        while options.last?.isEmpty == true { options.removeLast() }
        var lines: [Substring] = []
        for line in helpMessage().split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "USAGE: bridged <subcommand>" {
                lines += ["USAGE: bridged [<serve options>]", "       bridged <subcommand>"]
                continue
            }
            if line == "SUBCOMMANDS:" {
                lines += ["SERVE OPTIONS (bridged with no subcommand is bridged serve):"] + options + [""]
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
