// The one builder of `command` requests: a View's command(), a transaction's, and React Native's attachment
// (paper's dispatchViewManagerCommand, Fabric's dispatchCommand, the native input an app's screen sends).

/** `{op: 'command', tag, name, args?}`: `args` only when there are some, as every caller sends it. */
export function commandOp(tag, name, args) {
  const op = { op: 'command', tag, name };
  if (args && args.length > 0) op.args = args;
  return op;
}
