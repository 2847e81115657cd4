// The `bridged-client` command: ping, send, replay, demo, types, screenshot, devtools.
import { spawn as spawnProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { connect } from '../index.js';
import { counterDemo } from './demo.js';
import { startDevtools } from './devtools.js';
import { parseLossless, stringifyLossless } from './json.js';
import { exchange, replay } from './replay.js';
import { checkSocketFolder, componentPaths, componentsSocketPath, defaultSocketFolder, defaultSocketPath } from './socket-path.js';
import { builtinDeclarationsFor, declarationsFor } from './types.js';
import { writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { connectOrSpawn } from './spawn.js';
import { CLIENT_NAME } from './version.js';

const USAGE = `usage: bridged-client <command> [options]

commands:
  ping                     hello, then ping; prints the server and session
  send '<json>' ...        hello, then each frame (JSON is sent compact, anything else verbatim);
                           prints the responses and events as NDJSON; exit 1 if a response is not ok
  replay FILE.jsonl ...    replays recorded sessions, one connection each; prints the first
                           difference per failing file and "N passed, N failed"; exit 1 on failure
  demo                     the counter: a SwiftUIButton whose onCountChange updates count
  types [--out FILE] [--module SPEC]
                           TypeScript declarations for the daemon's components (from hello): a props
                           interface per component, handler props typed by payload, commands; they
                           augment the module SPEC (default 'bridged-client'), so create/update/command
                           are checked; written to FILE, else stdout
  types --builtins [--out FILE]
                           the client's own declarations of the built-in components (js-client/
                           builtins.d.ts), from a daemon started without --components
  screenshot --out FILE [--app ROOT] [--screen MODULE] [--architecture paper|fabric] [--scale N]
                           a picture of an app's screen: opens the React Native app at ROOT (default: the
                           current folder) with openApp in a session of its own, renders the default export
                           of MODULE (default ./App, resolved as Metro does), and writes the window as the
                           daemon draws it (a PNG) to FILE
  devtools [--port N] [--open]
                           serves the DevTools page (the daemon's sessions, live) on 127.0.0.1;
                           prints its URL, which holds a random token; runs until interrupted

options:
  --socket PATH            socket path (default: $BRIDGED_SOCKET, $XDG_RUNTIME_DIR/bridged/bridged.sock,
                           /tmp/bridged-<uid>/bridged.sock)
  --spawn                  start bridged when nothing listens (--bin, else this checkout's
                           .build/release or .build/debug, else PATH); it keeps running, and its pid is
                           printed on stderr
  --bin PATH               the bridged binary for --spawn
  --components PATH        with --spawn: codegen schemas the daemon loads (repeatable; a file or a folder)
  --timeout MS             limit for spawning and connecting (default 10000)
  -h, --help               this text`;

/** Runs the CLI; resolves the exit code. */
export async function main(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        socket: { type: 'string' },
        spawn: { type: 'boolean', default: false },
        bin: { type: 'string' },
        timeout: { type: 'string' },
        port: { type: 'string' },
        out: { type: 'string' },
        module: { type: 'string' },
        builtins: { type: 'boolean', default: false },
        components: { type: 'string', multiple: true },
        open: { type: 'boolean', default: false },
        app: { type: 'string' },
        screen: { type: 'string' },
        architecture: { type: 'string' },
        scale: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    stderr.write(`${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;
  if (values.help || !command) {
    (values.help ? stdout : stderr).write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const timeoutMs = values.timeout === undefined ? 10_000 : Number(values.timeout);
  if (!(timeoutMs > 0)) {
    stderr.write(`--timeout takes a number of milliseconds\n`);
    return 2;
  }
  const components = componentPaths(values.components);
  const options = {
    socket: values.socket ?? (components.length ? componentsSocketPath(components) : defaultSocketPath()),
    spawn: values.spawn && 'detached',
    bin: values.bin,
    components,
    timeoutMs,
  };
  const print = (line) => stdout.write(`${line}\n`);
  options.onSpawn = (pid) => stderr.write(`bridged-client: started bridged (pid ${pid}) on ${options.socket}\n`);
  try {
    // As connect() without `socket`: the default location's folder must be the user's own, mode 0700.
    if (values.socket === undefined) {
      const folder = defaultSocketFolder();
      if (folder) checkSocketFolder(folder);
    }
    switch (command) {
      case 'ping':
        return await ping(options, print);
      case 'send':
        return await send(options, args, print);
      case 'replay':
        return await replayCommand(options, args, print, stderr);
      case 'demo':
        return await demo(options, print);
      case 'devtools':
        return await devtools(options, values, print, stderr);
      case 'types':
        return await types(options, values, stdout, stderr);
      case 'screenshot':
        return await screenshot(options, values, stderr);
      default:
        stderr.write(`unknown command '${command}'\n\n${USAGE}\n`);
        return 2;
    }
  } catch (err) {
    stderr.write(`bridged-client: ${err.code ? `${err.code}: ` : ''}${err.message}\n`);
    return 1;
  }
}

/** Writes the declarations of the daemon's components. */
async function types(options, values, stdout, stderr) {
  if (values.builtins && options.components.length > 0) {
    stderr.write('bridged-client: --builtins declares the built-in components: a daemon without --components\n');
    return 2;
  }
  const bridge = await connectReporting(options);
  let text;
  try {
    text = values.builtins
      ? builtinDeclarationsFor(bridge.components, bridge.propTypes)
      : declarationsFor(bridge.components, { propTypes: bridge.propTypes, moduleName: values.module ?? 'bridged-client', server: bridge.server });
  } finally {
    await bridge.close();
  }
  if (values.out) {
    await writeFile(values.out, text);
    stderr.write(`bridged-client: wrote ${Object.keys(bridge.components).length} components to ${values.out}\n`);
  } else {
    stdout.write(text);
  }
  return 0;
}

/** Opens the app, renders its screen and writes the daemon's picture of it. */
async function screenshot(options, values, stderr) {
  if (!values.out) {
    stderr.write('bridged-client: screenshot needs --out FILE (where the PNG is written)\n');
    return 2;
  }
  const scale = values.scale === undefined ? undefined : Number(values.scale);
  if (scale !== undefined && !(scale > 0)) {
    stderr.write('bridged-client: --scale takes a number above 0\n');
    return 2;
  }
  const { openApp } = await import('./react-native.js');
  const bridge = await connectReporting(options);
  let app;
  try {
    app = await openApp(bridge, { root: resolvePath(values.app ?? '.'), architecture: values.architecture ?? 'paper' });
    const React = app.require('react');
    const module = app.require(values.screen ?? './App');
    const Screen = module?.default ?? module;
    if (typeof Screen !== 'function') throw new Error(`${values.screen ?? './App'} exports no component (its default export)`);
    await app.render(React.createElement(Screen));
    const png = await app.screenshot({ scale });
    await writeFile(values.out, png);
    stderr.write(`bridged-client: wrote ${values.out} (${png.length} bytes)\n`);
    return 0;
  } finally {
    await app?.close();
    await bridge.close();
  }
}

/** connect() that reports a daemon it started. */
async function connectReporting(options) {
  const bridge = await connect(options);
  if (bridge.daemonPid !== null) options.onSpawn(bridge.daemonPid);
  return bridge;
}

/** Makes sure a daemon listens (starting one with --spawn). */
async function ensureListening(options) {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const { socket, daemonPid } = await connectOrSpawn({ ...options, socketPath: options.socket, signal });
  socket.destroy();
  if (daemonPid !== null) options.onSpawn(daemonPid);
}

async function ping(options, print) {
  const bridge = await connectReporting(options);
  try {
    await bridge.request({ op: 'ping' });
    print(`pong from ${bridge.server} (session ${bridge.session}) on ${bridge.socketPath}`);
    return 0;
  } finally {
    await bridge.close();
  }
}

/** Prints the daemon's lines verbatim, apart from hello's response. */
async function send(options, args, print) {
  await ensureListening(options); // exchange() opens its own connection
  const hello = { text: JSON.stringify({ id: 0, op: 'hello', protocol: 1, client: CLIENT_NAME }), op: 'hello' };
  const inputs = [hello, ...args.map((arg) => ({ text: compact(arg) }))];
  const received = await exchange(options.socket, inputs);
  let ok = true;
  let skippedHello = false;
  for (const { line, frame } of received) {
    const isResponse = typeof frame === 'object' && frame.has?.('ok');
    if (isResponse && !skippedHello) {
      skippedHello = true;
      continue;
    }
    if (isResponse && frame.get('ok') !== true) ok = false;
    print(line);
  }
  return ok ? 0 : 1;
}

/** JSON is sent compact (one line); anything else as typed, so bad input can be tried. */
function compact(arg) {
  try {
    return stringifyLossless(parseLossless(arg));
  } catch {
    return arg;
  }
}

async function replayCommand(options, files, print, stderr) {
  if (files.length === 0) {
    stderr.write('replay needs at least one FILE.jsonl\n');
    return 2;
  }
  await ensureListening(options);
  const { failed } = await replay(files, { socketPath: options.socket, print });
  return failed > 0 ? 1 : 0;
}

async function demo(options, print) {
  const bridge = await connectReporting(options);
  try {
    await counterDemo(bridge, { print });
    return 0;
  } finally {
    await bridge.close();
  }
}

/** Serves the DevTools page until SIGINT or SIGTERM. */
async function devtools(options, values, print, stderr) {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    stderr.write('--port takes a port number (0: any free port)\n');
    return 2;
  }
  const server = await startDevtools({ socket: options.socket, port, log: (line) => stderr.write(`${line}\n`) });
  print(`bridged DevTools: ${server.url}`);
  if (values.open) openBrowser(server.url, stderr);
  await new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}

/** Opens `url` in the desktop's browser (xdg-open, or open on macOS); a failure is only reported. */
function openBrowser(url, stderr) {
  const command = process.platform === 'darwin' ? 'open' : 'xdg-open';
  const child = spawnProcess(command, [url], { detached: true, stdio: 'ignore' });
  child.on('error', (err) => stderr.write(`bridged-client: cannot open a browser (${command}): ${err.message}\n`));
  child.unref();
}
