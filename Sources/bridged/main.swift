import BridgeServer
import PropStore

// `bridged` with the built-in components. A daemon of your own is this file with your registry
// (README, "Your own components").
await BridgedCommand.main(registry: .builtin)
