// A daemon that connect({spawn: true}) started ends with the process that started it, a crash included (SIGKILL,
// an unhandled rejection), and never while another process still uses it: it is never left behind. Each case runs
// a real Node process that spawns a real daemon (`--exit-with-parent`, a pipe as its standard input), ends it as
// the case says, and polls for the daemon's pid in a bounded loop.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn as spawnProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from '../index.js';
import { connectWhenAccepting, launchDaemon } from '../lib/spawn.js';
import { BRIDGED_BIN, exited, tempDir } from '../test-support/daemon.js';

const INDEX = fileURLToPath(new URL('../index.js', import.meta.url));
const LIMIT = { timeout: 120_000 };
const cleanup = [];

after(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Whether `pid` is a live process (a zombie is not). */
async function alive(pid) {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** Polls until `pid` is gone: at most `rounds` rounds of 20 ms (a safety net for a broken daemon, no assertion on time). */
async function gone(pid, rounds = 1500) {
  for (let round = 0; round < rounds; round++) {
    if (!(await alive(pid))) return true;
    await sleep(20);
  }
  return false;
}

/** A temporary folder with a socket path in it; a daemon left behind is stopped (SIGKILL) when the file ends. */
async function place(t) {
  const dir = await tempDir();
  const pids = [];
  cleanup.push(async () => {
    for (const pid of pids) {
      if (await alive(pid)) process.kill(pid, 'SIGKILL');
      await exited(pid);
    }
    await rm(dir, { recursive: true, force: true });
  });
  return { dir, socket: join(dir, 'life.sock'), daemons: pids };
}

/**
 * Runs a Node process that connects with `spawn: true` to `socket`, creates a view, prints
 * `{"daemonPid": N}` and then does `then` (JavaScript run in the process, with `bridge` in scope).
 */
function spawner(socket, then) {
  const source = `
    import { connect } from ${JSON.stringify(INDEX)};
    const bridge = await connect({ spawn: true, bin: ${JSON.stringify(BRIDGED_BIN)}, socket: ${JSON.stringify(socket)}, timeoutMs: 60000 });
    await bridge.create('View', { testID: 'spawner' });
    process.stdout.write(JSON.stringify({ daemonPid: bridge.daemonPid }) + '\\n');
    ${then}
  `;
  const child = spawnProcess(process.execPath, ['--input-type=module', '-e', source], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text) => (stderr += text));
  const exit = once(child, 'exit').then(([code, signal]) => ({ code, signal, stderr }));
  const daemonPid = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      out += text;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line).daemonPid);
    });
    exit.then(({ code, signal }) => reject(new Error(`the spawning process ended first (${signal ?? code}): ${stderr}`)));
  });
  return { child, daemonPid, exit };
}

/** The daemon stopped as on SIGTERM: its socket and lock file removed, and no state file (nobody is left to resume). */
function assertCleanEnd(socket) {
  assert.equal(existsSync(socket), false, 'the socket is removed');
  assert.equal(existsSync(`${socket}.lock`), false, 'the lock file is removed');
  assert.equal(existsSync(`${socket}.state`), false, 'no sessions are saved for a parent that is gone');
}

describe('a daemon started by connect({spawn: true}) ends with the process that started it', () => {
  test('SIGKILL of the spawning process (no exit handler runs)', LIMIT, async (t) => {
    const { socket, daemons } = await place(t);
    const run = spawner(socket, 'setInterval(() => {}, 1000); // lives until killed');
    const pid = await run.daemonPid;
    daemons.push(pid);
    assert.equal(typeof pid, 'number');
    assert.ok(await alive(pid), 'the daemon runs while its parent lives');
    run.child.kill('SIGKILL');
    assert.equal((await run.exit).signal, 'SIGKILL');
    assert.ok(await gone(pid), `the daemon (pid ${pid}) outlived the process that started it`);
    assertCleanEnd(socket);
    const log = await readFile(`${socket}.log`, 'utf8');
    assert.match(log, /the process that started this daemon ended and no connection is open: stopping/);
  });

  test('a normal exit, with the bridge closed and nothing left to do', LIMIT, async (t) => {
    const { socket, daemons } = await place(t);
    const run = spawner(socket, 'await bridge.close();');
    const pid = await run.daemonPid;
    daemons.push(pid);
    const end = await run.exit;
    assert.equal(end.code, 0, end.stderr);
    assert.ok(await gone(pid), `the daemon (pid ${pid}) outlived the process that started it`);
    assertCleanEnd(socket);
  });

  test('process.exit() with the bridge still open', LIMIT, async (t) => {
    const { socket, daemons } = await place(t);
    const run = spawner(socket, 'process.exit(3);');
    const pid = await run.daemonPid;
    daemons.push(pid);
    assert.equal((await run.exit).code, 3);
    assert.ok(await gone(pid), `the daemon (pid ${pid}) outlived the process that started it`);
    assertCleanEnd(socket);
  });

  test('a crash: an unhandled rejection ends the process', LIMIT, async (t) => {
    const { socket, daemons } = await place(t);
    const run = spawner(socket, "Promise.reject(new Error('boom')); setInterval(() => {}, 1000);");
    const pid = await run.daemonPid;
    daemons.push(pid);
    const end = await run.exit;
    assert.notEqual(end.code, 0);
    assert.match(end.stderr, /boom/);
    assert.ok(await gone(pid), `the daemon (pid ${pid}) outlived the process that started it`);
    assertCleanEnd(socket);
  });
});

describe('a daemon another process still uses is not ended with its parent', () => {
  test('it serves the other client after its parent was killed, and ends when that client leaves', LIMIT, async (t) => {
    const { socket, daemons } = await place(t);
    const run = spawner(socket, 'setInterval(() => {}, 1000);');
    const pid = await run.daemonPid;
    daemons.push(pid);

    // This process finds the daemon listening (spawn starts nothing) and uses it.
    const other = await connect({ spawn: true, bin: BRIDGED_BIN, socket, timeoutMs: 60_000 });
    assert.equal(other.daemonPid, null, 'the daemon listening was reused');
    const view = await other.create('View', { testID: 'before' });

    run.child.kill('SIGKILL');
    await run.exit;
    // The parent's end is seen (its log says so) while this client's connection holds the daemon.
    for (let round = 0; round < 1500; round++) {
      const log = await readFile(`${socket}.log`, 'utf8');
      if (log.includes('the process that started this daemon ended: stopping once no connection is open')) break;
      assert.ok(round < 1499, `the daemon never read its parent's end:\n${log}`);
      await sleep(20);
    }
    assert.ok(await alive(pid), 'the daemon still serves the other client');
    await view.update({ testID: 'after' });
    assert.equal((await view.inspect()).props.testID, 'after');
    const second = await other.create('View');
    assert.equal(second.tag, 2);

    await other.close();
    assert.ok(await gone(pid), `the daemon (pid ${pid}) outlived its last client`);
    assertCleanEnd(socket);
  });

  test('while its parent lives, the daemon outlives its connections: the next spawn reuses it', LIMIT, async (t) => {
    const { socket, daemons } = await place(t);
    const first = await connect({ spawn: true, bin: BRIDGED_BIN, socket, timeoutMs: 60_000 });
    const pid = first.daemonPid;
    daemons.push(pid);
    assert.equal(typeof pid, 'number');
    await first.close();
    const again = await connect({ spawn: true, bin: BRIDGED_BIN, socket, timeoutMs: 60_000 });
    assert.equal(again.daemonPid, null, 'the daemon started first still listens');
    assert.deepEqual(await again.request({ op: 'ping' }), {});
    await again.close();
    assert.ok(await alive(pid));
  });
});

describe('a spawn that races a daemon stopping on the same socket', () => {
  test('is tried again until the old daemon let go of the socket, then starts the new one', LIMIT, async (t) => {
    const { socket, daemons } = await place(t);
    // The old daemon, held (SIGSTOP) with its lock taken and its socket file gone, as it is between removing the
    // file and releasing the lock when it stops: a spawn finds nothing listening, and its daemon cannot take over.
    const old = spawnProcess(BRIDGED_BIN, ['--socket', socket], { stdio: ['ignore', 'pipe', 'ignore'] });
    daemons.push(old.pid);
    await once(old.stdout, 'data'); // bridged listening on …
    process.kill(old.pid, 'SIGSTOP');
    await rm(socket);
    const connecting = connect({ spawn: true, bin: BRIDGED_BIN, socket, timeoutMs: 60_000 });
    let settled = false;
    connecting.then(
      () => (settled = true),
      () => (settled = true),
    );
    // A spawn was refused by the old daemon's lock (its log says so), and connect() is still trying.
    for (let round = 0; ; round++) {
      const log = existsSync(`${socket}.log`) ? await readFile(`${socket}.log`, 'utf8') : '';
      if (log.includes('is already serving on')) break;
      assert.ok(round < 1500, `no spawn was refused by the lock:\n${log}`);
      await sleep(20);
    }
    assert.equal(settled, false, 'connect() gave up while the old daemon was still stopping');
    process.kill(old.pid, 'SIGCONT');
    process.kill(old.pid, 'SIGTERM');
    const bridge = await connecting;
    assert.equal(typeof bridge.daemonPid, 'number');
    assert.notEqual(bridge.daemonPid, old.pid);
    daemons.push(bridge.daemonPid);
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
    await bridge.close();
  });
});

describe("spawn: 'detached', and a bridged that cannot be tied to its parent", () => {
  test('starts a daemon that outlives the process that started it', LIMIT, async (t) => {
    const { socket, daemons } = await place(t);
    const source = `
      import { connect } from ${JSON.stringify(INDEX)};
      const bridge = await connect({ spawn: 'detached', bin: ${JSON.stringify(BRIDGED_BIN)}, socket: ${JSON.stringify(socket)}, timeoutMs: 60000 });
      process.stdout.write(JSON.stringify({ daemonPid: bridge.daemonPid }) + '\\n');
      process.exit(0);
    `;
    const child = spawnProcess(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text) => (out += text));
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
    const pid = JSON.parse(out).daemonPid;
    daemons.push(pid);
    assert.ok(await alive(pid), 'a detached daemon runs on');
    const bridge = await connect({ socket });
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
    await bridge.close();
    process.kill(pid, 'SIGTERM');
    await exited(pid);
  });

  test('a bridged older than --exit-with-parent is started as before, with a warning that it will outlive the process', LIMIT, async (t) => {
    const { dir, socket, daemons } = await place(t);
    // The daemon under test, refusing the flag as a build from before it does (ArgumentParser's message, exit 64).
    const older = join(dir, 'older-bridged');
    await writeFile(
      older,
      `#!/bin/sh
for arg in "$@"; do
  if [ "$arg" = --exit-with-parent ]; then echo "Error: Unknown option '--exit-with-parent'" >&2; exit 64; fi
done
exec ${JSON.stringify(BRIDGED_BIN)} "$@"
`,
      { mode: 0o755 },
    );
    const warnings = [];
    const onWarning = (warning) => warnings.push(warning);
    process.on('warning', onWarning);
    t.after(() => process.off('warning', onWarning));
    const bridge = await connect({ spawn: true, bin: older, socket, timeoutMs: 60_000 });
    daemons.push(bridge.daemonPid);
    assert.deepEqual(await bridge.request({ op: 'ping' }), {});
    await bridge.close();
    await new Promise((resolve) => setImmediate(resolve)); // emitWarning is delivered on the next tick
    const warning = warnings.find((w) => w.code === 'BRIDGED_OLD_DAEMON');
    assert.ok(warning, 'a warning says the daemon will outlive this process');
    assert.match(warning.message, /does not know --exit-with-parent .*will outlive this process/);
  });

  test('any other value of spawn is refused, naming it', async () => {
    await assert.rejects(connect({ spawn: 'yes', socket: '/nonexistent/bridged.sock' }), {
      code: 'connect_failed',
      message: "spawn must be true, false or 'detached', got 'yes'",
    });
  });
});

describe("a daemon launched without waiting for it (the jest preset's global setup)", () => {
  test('a connection from elsewhere waits until it accepts, while it lives', LIMIT, async () => {
    const dir = await tempDir();
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const socketPath = join(dir, 'b.sock');
    const { child } = launchDaemon({ socketPath, spawn: 'detached', bin: BRIDGED_BIN });
    child.ref(); // launchDaemon unrefs it; this test waits for its exit
    cleanup.push(() => child.kill('SIGTERM'));
    await once(child, 'spawn');
    assert.equal(existsSync(socketPath), false, 'not accepting yet when launchDaemon returns');
    const socket = await connectWhenAccepting({ socketPath, pid: child.pid });
    socket.destroy();
    child.kill('SIGTERM');
    await once(child, 'exit');
  });

  test('one that exits before it accepts: the error says so, with the reason from its log', LIMIT, async () => {
    const dir = await tempDir();
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const socketPath = join(dir, 'b.sock');
    const missing = join(dir, 'no-such-schema.json');
    const { child } = launchDaemon({ socketPath, spawn: 'detached', bin: BRIDGED_BIN, components: [missing] });
    child.ref();
    await assert.rejects(connectWhenAccepting({ socketPath, pid: child.pid }), (error) => {
      assert.equal(error.code, 'connect_failed');
      assert.match(error.message, new RegExp(`bridged \\(pid ${child.pid}\\) exited before it accepted`));
      assert.match(error.message, /no-such-schema\.json/);
      return true;
    });
  });
});
