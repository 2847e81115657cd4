import ArgumentParser

/// `bridged`: the native side of a React Native-style bridge, as a local daemon.
@main
struct Bridged: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridged",
        abstract: "The native side of a React Native-style bridge, served on a Unix socket.",
        version: "0.1.0",
        subcommands: [Serve.self, Replay.self, Record.self],
        defaultSubcommand: Serve.self
    )
}
