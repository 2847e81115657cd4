@_exported import PropStore
import ArgumentParser
import BridgeCore
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
        subcommands: [Serve.self, Replay.self, Record.self, SocketPath.self],
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
        await main()
    }
}
