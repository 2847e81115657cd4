import ArgumentParser
import BridgeCore

/// `bridged` / `bridged serve`: the daemon on a Unix socket (being written).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the bridge on a Unix socket (the default).")

    func run() async throws {
        print("bridged: the socket server is not built yet")
        throw ExitCode(2)
    }
}
