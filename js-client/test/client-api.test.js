// The client's API is one list kept true in three places: what index.js exports and the methods of Bridge, View
// and Transaction (the code), index.d.ts (the declarations), and, for every op of lib/ops.js, the method that
// sends it (OP_METHODS below). Each test names the op, method or declaration that is missing, and the file to
// edit. The methods are called against a real daemon, and the frames they write are read back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as client from '../index.js';
import { Bridge, Transaction, View, connect } from '../index.js';
import { OPS } from '../lib/ops.js';
import { startDaemon } from '../test-support/daemon.js';
import { declaredExports, declaredMembers, markedInternal, ownMembers } from '../test-support/declarations.js';

const read = (path) => readFile(new URL(path, new URL('../', import.meta.url)), 'utf8');

/**
 * How the client sends each op of lib/ops.js. `bridge`, `view`, `transaction`: the method of that class that
 * sends it (lib/bridge.js, lib/view.js, lib/transaction.js); `none`: why the op deliberately has no method of its
 * own (`bridge.request({op})` sends any op). An op that acts on a view has its View method and, when the daemon
 * takes it in a batch (protocol.md's Operations table, `in a batch`), its Transaction method too, or `noTransaction`: why not.
 */
const OP_METHODS = {
  hello: { none: 'connect() says hello, and each reconnection again (with `resume`): a Bridge is past it' },
  create: { bridge: 'create', transaction: 'create' },
  update: { view: 'update', transaction: 'update' },
  setChildren: { view: 'setChildren', transaction: 'setChildren' },
  delete: { view: 'delete', transaction: 'delete' },
  // Handler props subscribe and unsubscribe (in create and update, so in a transaction's too).
  subscribe: { view: 'on', transaction: 'update' },
  unsubscribe: { view: 'on', transaction: 'update' },
  command: { view: 'command', transaction: 'command' },
  emit: { view: 'emit', transaction: 'emit' },
  touch: { view: 'touch', transaction: 'touch' },
  define: { bridge: 'define' },
  components: { none: '`bridge.components` is its answer, from hello and kept by define() and resumes' },
  // A read, in a batch only to see a view between the batch's changes: `view.inspect()` after commit() reads it.
  inspect: { view: 'inspect', noTransaction: 'a transaction collects changes, and inspect changes nothing' },
  layout: { bridge: 'layout' },
  screenshot: { bridge: 'screenshot' },
  batch: { transaction: 'commit' },
  ack: { none: 'the client acknowledges by itself (client/acker.js, the `ack` option of connect())' },
  ping: { bridge: 'ping' },
  stats: { bridge: 'stats' },
  sessions: { bridge: 'sessions' },
  observe: { none: 'its change frames are no frames a Bridge reads: the DevTools server observes (lib/devtools.js)' },
  unobserve: { none: 'ends an observe, which has no method' },
  bye: { bridge: 'close' },
};

/** The ops protocol.md's Operations table says a batch takes (its `in a batch` column). */
async function opsABatchTakes() {
  const protocol = await read('../protocol.md');
  const section = protocol.slice(protocol.indexOf('## Operations'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| op |')));
  const rows = [...table.matchAll(/^\| `([A-Za-z]+)` \|.*\| (yes|no) \|$/gm)];
  assert.ok(rows.length >= 18, `protocol.md's Operations table: ${rows.length} rows with an 'in a batch' column`);
  return new Set(rows.filter((m) => m[2] === 'yes').map((m) => m[1]));
}

const CLASSES = { bridge: Bridge, view: View, transaction: Transaction };
const FILES = { bridge: 'lib/bridge.js', view: 'lib/view.js', transaction: 'lib/transaction.js' };
const NAMES = { bridge: 'Bridge', view: 'View', transaction: 'Transaction' };

/** `op`'s sample request (lib/ops.js, from the daemon's op table): the calls below send its fields. */
const sample = (op) => OPS[op].sample;
/** The touch fields of the touch sample: what `touch(phase, touch)` takes. */
const { op: _touchOp, tag: _touchTag, phase: touchPhase, ...touchFields } = sample('touch');

/**
 * A call of each method, on a Bridge with one View (a SwiftUIButton under a View), that sends its op, with the
 * fields of the op's sample where the method takes them. A method named in OP_METHODS needs one here: the test
 * runs it and reads the frames it wrote.
 */
const CALLS = {
  bridge: {
    create: ({ bridge }) => bridge.create(sample('create').component, sample('create').props),
    define: ({ bridge }) => bridge.define(sample('define').schema, { untyped: sample('define').untyped }),
    ping: ({ bridge }) => bridge.ping(),
    stats: ({ bridge }) => bridge.stats(),
    layout: ({ bridge }) => bridge.layout(),
    // Layout is off in the fixture's session: the op is sent and refused.
    screenshot: ({ bridge }) =>
      bridge.screenshot({ scale: sample('screenshot').scale }).catch((error) => assert.equal(error.code, 'bad_request')),
    sessions: ({ bridge }) => bridge.sessions(),
    close: ({ bridge }) => bridge.close(),
  },
  view: {
    update: ({ button }) => button.update(sample('update').props),
    setChildren: ({ parent, button }) => parent.setChildren([button]),
    delete: ({ button }) => button.delete(),
    on: async ({ button }) => {
      const off = await button.on('countChange', () => {});
      await off();
    },
    command: ({ button }) => button.command(sample('command').name, ...sample('command').args),
    emit: ({ button }) => button.emit(sample('emit').event, sample('emit').payload),
    inspect: ({ button }) => button.inspect(),
    touch: ({ button }) => button.touch(touchPhase, touchFields),
  },
  transaction: {
    create: ({ bridge }) => {
      const tx = bridge.transaction();
      tx.create(sample('create').component, sample('create').props);
      return tx.commit();
    },
    update: async ({ bridge, button }) => {
      await bridge.transaction().update(button, { onCountChange: () => {} }).commit();
      await bridge.transaction().update(button, { onCountChange: null, title: 'in a batch' }).commit();
    },
    setChildren: ({ bridge, parent, button }) => bridge.transaction().setChildren(parent, [button]).commit(),
    delete: ({ bridge, button }) => bridge.transaction().delete(button).commit(),
    command: ({ bridge, button }) => bridge.transaction().command(button, sample('command').name).commit(),
    emit: ({ bridge, button }) =>
      bridge.transaction().emit(button, sample('emit').event, sample('emit').payload).commit(),
    touch: ({ bridge, button }) => bridge.transaction().touch(button, touchPhase, touchFields).commit(),
    commit: ({ bridge, button }) => bridge.transaction().command(button, 'press').commit(),
  },
};

/** The code (inline spans and blocks) of the section of js-client/README.md whose heading is `heading`. */
function readmeCode(readme, heading) {
  const start = readme.indexOf(`\n${heading}\n`);
  assert.notEqual(start, -1, `js-client/README.md has no section ${heading}`);
  const end = readme.indexOf('\n#', start + heading.length + 2);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```[^]*?```|`[^`\n]+`/g)].map((m) => m[0]).join('\n');
}

const README_SECTIONS = { bridge: '### `Bridge` (an `EventEmitter`)', view: '### `View`', transaction: '### Transactions' };

// ---------- a daemon for the calls ----------

let daemon;
before(async () => {
  daemon = await startDaemon();
});
after(() => daemon?.stop());

/** A Bridge whose written frames are recorded, with a View and a SwiftUIButton under it. */
async function fixture() {
  const written = [];
  const bridge = await connect({ socket: daemon.socket, record: (r) => r.dir === 'in' && written.push(r.frame) });
  const parent = await bridge.create('View');
  const button = await bridge.create('SwiftUIButton', { title: 'b' }, { parent });
  written.length = 0;
  return { bridge, parent, button, written };
}

/** The ops of frames, a batch's own ops after it. */
function opsOf(frames) {
  return frames.flatMap((frame) => [frame.op, ...(frame.op === 'batch' ? frame.ops.map((op) => op.op) : [])]);
}

describe('index.d.ts against index.js', () => {
  test('every value index.js exports is declared, and every declared value is exported', async () => {
    const declared = declaredExports(await read('index.d.ts'));
    const exported = new Set(Object.keys(client));
    for (const name of exported) assert.ok(declared.has(name), `index.js exports ${name}: declare it in index.d.ts`);
    for (const name of declared) assert.ok(exported.has(name), `index.d.ts declares ${name}: index.js does not export it`);
  });

  test('the methods and getters of Bridge, View and Transaction are declared, and nothing more', async () => {
    const text = await read('index.d.ts');
    const fx = await fixture();
    const instances = { bridge: fx.bridge, view: fx.button, transaction: fx.bridge.transaction() };
    try {
      for (const [kind, cls] of Object.entries(CLASSES)) {
        const source = await read(FILES[kind]);
        const declared = declaredMembers(text, NAMES[kind], 'index.d.ts');
        const own = ownMembers(cls);
        for (const method of own.methods) {
          if (declared.methods.has(method) || markedInternal(source, method)) continue;
          assert.fail(`${NAMES[kind]}.${method}() (${FILES[kind]}) is not declared in index.d.ts's class ${NAMES[kind]}, nor marked @internal`);
        }
        for (const getter of own.getters) {
          if (declared.properties.has(getter) || markedInternal(source, getter)) continue;
          assert.fail(`${NAMES[kind]}'s getter ${getter} (${FILES[kind]}) is not declared in index.d.ts's class ${NAMES[kind]}`);
        }
        for (const method of declared.methods) {
          assert.equal(typeof instances[kind][method], 'function', `index.d.ts declares ${NAMES[kind]}.${method}(): ${FILES[kind]} has no such method`);
        }
        for (const property of declared.properties) {
          assert.ok(property in instances[kind], `index.d.ts declares ${NAMES[kind]}.${property}: a ${NAMES[kind]} has no such member (${FILES[kind]})`);
          assert.notEqual(typeof instances[kind][property], 'function', `${NAMES[kind]}.${property} is a method: declare it as one`);
        }
      }
    } finally {
      await fx.bridge.close();
    }
  });
});

describe('js-client/README.md against index.d.ts', () => {
  test('every public member of Bridge, View and Transaction is in its README section', async () => {
    const text = await read('index.d.ts');
    const readme = await read('README.md');
    for (const kind of Object.keys(CLASSES)) {
      const code = readmeCode(readme, README_SECTIONS[kind]);
      const declared = declaredMembers(text, NAMES[kind], 'index.d.ts');
      for (const member of [...declared.methods, ...declared.properties]) {
        if (declared.internal.has(member)) continue;
        assert.match(
          code,
          new RegExp(`\\b${member}\\b`),
          `${NAMES[kind]}.${member} (index.d.ts) is not in js-client/README.md's section ${README_SECTIONS[kind]}: document it there`,
        );
      }
    }
  });
});

describe('every op has its method (OP_METHODS)', () => {
  test('OP_METHODS has exactly the ops of lib/ops.js', () => {
    for (const op of Object.keys(OPS)) {
      assert.ok(
        OP_METHODS[op],
        `op ${op} (lib/ops.js) has no client method: add it to lib/bridge.js (a session op), or lib/view.js and ` +
          `lib/transaction.js (an op on a view), and name it in OP_METHODS of test/client-api.test.js, or say there why it has none`,
      );
    }
    for (const op of Object.keys(OP_METHODS)) assert.ok(OPS[op], `OP_METHODS names op ${op}, which lib/ops.js does not have`);
  });

  test('each op has a method, or says why it has none', () => {
    for (const [op, entry] of Object.entries(OP_METHODS)) {
      const methods = ['bridge', 'view', 'transaction'].filter((kind) => entry[kind]);
      assert.ok(methods.length > 0 || entry.none, `op ${op}: name its method in OP_METHODS, or why it has none`);
      for (const kind of methods) {
        const method = entry[kind];
        assert.equal(typeof CLASSES[kind].prototype[method], 'function', `op ${op}: ${NAMES[kind]}.${method}() is not in ${FILES[kind]}`);
        assert.ok(CALLS[kind][method], `op ${op}: ${NAMES[kind]}.${method}() has no call in CALLS of test/client-api.test.js`);
      }
    }
  });

  test("an op on a view that a batch takes (protocol.md's `in a batch` column) has its Transaction method", async () => {
    const inBatch = await opsABatchTakes();
    for (const [op, entry] of Object.entries(OP_METHODS)) {
      if (!entry.view || !inBatch.has(op) || entry.transaction) continue;
      assert.ok(
        entry.noTransaction,
        `View.${entry.view}() sends ${op}, which a batch takes: add its twin to lib/transaction.js (and index.d.ts), or say in OP_METHODS why it has none`,
      );
    }
  });

  test('every View method is the method of an op (or toJSON), so that the rule above sees it', () => {
    const named = new Set(Object.values(OP_METHODS).map((entry) => entry.view).filter(Boolean));
    for (const method of ownMembers(View).methods) {
      if (method === 'toJSON') continue;
      assert.ok(named.has(method), `View.${method}() (lib/view.js) sends no op named in OP_METHODS of test/client-api.test.js: name it there`);
    }
  });

  for (const kind of ['bridge', 'view', 'transaction']) {
    test(`each ${NAMES[kind]} method of OP_METHODS writes its op`, async () => {
      const expected = new Map();
      for (const [op, entry] of Object.entries(OP_METHODS)) {
        if (!entry[kind]) continue;
        if (!expected.has(entry[kind])) expected.set(entry[kind], []);
        expected.get(entry[kind]).push(op);
      }
      for (const [method, ops] of expected) {
        const fx = await fixture();
        try {
          await CALLS[kind][method](fx);
          const written = opsOf(fx.written);
          for (const op of ops) {
            assert.ok(written.includes(op), `${NAMES[kind]}.${method}() wrote ${JSON.stringify(written)}, not the op ${op} OP_METHODS gives it`);
          }
        } finally {
          await fx.bridge.close();
        }
      }
    });
  }
});
