import BridgeServer

// `bridged` with the built-in components and Chart: every subcommand and flag of bridged.
var registry = ComponentRegistry.builtin
try registry.register(Chart.self)
await BridgedCommand.main(registry: registry)
