// Debian's jest (apt-get install jest) under a Node that is not Debian's: jest-config reads
// process.config.variables.node_relative_path, which only Debian's Node build sets. Preloaded with
// NODE_OPTIONS="--require bridged-client/lib/jest/debian-node.cjs" (with NODE_PATH=/usr/share/nodejs:/usr/lib/nodejs).
const variables = process.config?.variables ?? {};
if (typeof variables.node_relative_path !== 'string') {
  const patched = { ...variables, node_prefix: variables.node_prefix ?? '/usr', node_relative_path: 'lib/x86_64-linux-gnu/nodejs:share/nodejs:lib/nodejs' };
  Object.defineProperty(process, 'config', { value: Object.freeze({ ...process.config, variables: patched }), configurable: true });
}
