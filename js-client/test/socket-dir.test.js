// The default socket's folder must be the user's own, mode 0700, before the client connects to it: another
// user who made /tmp/bridged-<uid> first could otherwise serve a daemon of their own there. A real daemon
// listens in the folder; $XDG_RUNTIME_DIR points the default location at it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, chown, mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, defaultSocketPath } from '../index.js';
import { execFile, spawn } from 'node:child_process';
import { BRIDGED_BIN, CLI, tempDir, waitForSocket } from '../test-support/daemon.js';

const LIMIT = { timeout: 30_000 };
let runtime;
let folder;
let daemon;
const saved = { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR, BRIDGED_SOCKET: process.env.BRIDGED_SOCKET };

before(async () => {
  runtime = await tempDir();
  folder = join(runtime, 'bridged');
  await mkdir(folder, { mode: 0o700 });
  process.env.XDG_RUNTIME_DIR = runtime;
  delete process.env.BRIDGED_SOCKET;
  daemon = spawn(BRIDGED_BIN, ['--socket', join(folder, 'bridged.sock')], { stdio: 'ignore' });
  await waitForSocket(join(folder, 'bridged.sock'), daemon);
});

after(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (daemon && daemon.exitCode === null) {
    daemon.kill('SIGTERM');
    await new Promise((resolve) => daemon.once('exit', resolve));
  }
  await rm(runtime, { recursive: true, force: true });
});

async function connectsByDefault() {
  const bridge = await connect();
  await bridge.close();
  return bridge.socketPath;
}

describe('the default socket folder', () => {
  test('of mode 0700, the user\'s own: connect() uses it', LIMIT, async () => {
    assert.equal(defaultSocketPath(), join(folder, 'bridged.sock'));
    assert.equal(await connectsByDefault(), join(folder, 'bridged.sock'));
  });

  test('with group or other bits: unsafe_socket_dir, before connecting', LIMIT, async () => {
    for (const mode of [0o755, 0o710, 0o701, 0o770]) {
      await chmod(folder, mode);
      try {
        const err = await connect().catch((e) => e);
        assert.equal(err?.code, 'unsafe_socket_dir', `mode ${mode.toString(8)}`);
        assert.equal(err.name, 'BridgeError');
        assert.match(err.message, new RegExp(`${folder}.*0${mode.toString(8)}.*chmod 700`));
        assert.equal(err.details.path, folder);
      } finally {
        await chmod(folder, 0o700);
      }
    }
    assert.equal(await connectsByDefault(), join(folder, 'bridged.sock'));
  });

  test('bridged-client without --socket checks it too', LIMIT, async () => {
    const run = (...args) =>
      new Promise((resolve) => {
        execFile(process.execPath, [CLI, ...args], { env: { ...process.env } }, (error, stdout, stderr) => {
          resolve({ code: error ? error.code : 0, stdout, stderr });
        });
      });
    assert.equal((await run('ping')).code, 0);
    await chmod(folder, 0o750);
    try {
      const refused = await run('ping');
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /^bridged-client: unsafe_socket_dir: .*chmod 700/);
      assert.equal((await run('ping', '--socket', join(folder, 'bridged.sock'))).code, 0);
    } finally {
      await chmod(folder, 0o700);
    }
  });

  test('an explicit socket is the caller\'s choice: not checked', LIMIT, async () => {
    await chmod(folder, 0o755);
    try {
      const bridge = await connect({ socket: join(folder, 'bridged.sock') });
      await bridge.close();
    } finally {
      await chmod(folder, 0o700);
    }
  });

  test('owned by another user: unsafe_socket_dir', { ...LIMIT, skip: process.getuid() !== 0 && 'needs root to chown' }, async () => {
    await chown(folder, 65534, 65534);
    try {
      const err = await connect().catch((e) => e);
      assert.equal(err?.code, 'unsafe_socket_dir');
      assert.match(err.message, /uid 65534/);
    } finally {
      await chown(folder, 0, 0);
    }
  });

  test('a symbolic link in its place: unsafe_socket_dir', LIMIT, async () => {
    const elsewhere = join(runtime, 'elsewhere');
    await rm(elsewhere, { recursive: true, force: true });
    await mkdir(elsewhere, { mode: 0o700 });
    process.env.XDG_RUNTIME_DIR = join(runtime, 'linked');
    await mkdir(process.env.XDG_RUNTIME_DIR, { mode: 0o700 });
    await symlink(folder, join(process.env.XDG_RUNTIME_DIR, 'bridged'));
    try {
      const err = await connect().catch((e) => e);
      assert.equal(err?.code, 'unsafe_socket_dir');
      assert.match(err.message, /not a directory/);
    } finally {
      process.env.XDG_RUNTIME_DIR = runtime;
    }
  });

  test('missing: connect_failed as before (spawn creates it 0700)', LIMIT, async () => {
    process.env.XDG_RUNTIME_DIR = join(runtime, 'nothing-here');
    try {
      const err = await connect().catch((e) => e);
      assert.equal(err?.code, 'connect_failed');
    } finally {
      process.env.XDG_RUNTIME_DIR = runtime;
    }
  });
});
