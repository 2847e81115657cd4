import ArgumentParser

/// `bridged socket-path`: prints the socket path `bridged` would listen on (as `watchman get-sockname` does), so
/// that a script or `socat` finds the daemon whatever the environment.
struct SocketPath: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "socket-path",
        abstract: "Print the path of the socket the daemon listens on, e.g. for socat.",
        discussion: """
            The same rules as serve: --socket, else $BRIDGED_SOCKET, else $XDG_RUNTIME_DIR/bridged/bridged.sock, \
            else /tmp/bridged-<uid>/bridged.sock. Prints the path alone on one line; does not check that a daemon \
            listens there. Example: socat - UNIX-CONNECT:"$(bridged socket-path)"
            """
    )

    @Option(help: ArgumentHelp("The socket, as given to serve.", valueName: "path"))
    var socket: String?

    func run() throws {
        print(try SocketLocation.resolve(option: socket).path)
    }
}
