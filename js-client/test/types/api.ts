// Every part of the API, as a TypeScript program would use it; checked with tsc --strict (types.test.mjs).
import {
  Bridge,
  BridgeError,
  ClientErrorCodes,
  ErrorCodes,
  SyntheticEvent,
  Transaction,
  VERSION,
  View,
  connect,
  defaultSocketPath,
} from '../../index.js';
import type {
  CloseInfo,
  ErrorCode,
  EventFrame,
  HelloResult,
  InspectResult,
  JsonValue,
  ResetInfo,
  SessionRecord,
  StatsResult,
  ValueIssue,
} from '../../index.js';

const records: SessionRecord[] = [];
const bridge: Bridge = await connect({
  socket: defaultSocketPath({ XDG_RUNTIME_DIR: '/run/user/1000' }),
  spawn: true,
  bin: '/usr/local/bin/bridged',
  timeoutMs: 5_000,
  signal: AbortSignal.timeout(10_000),
  record: (record) => records.push(record),
  reconnect: { initialDelayMs: 50, maxDelayMs: 1_000, maxAttempts: 5, requestTimeoutMs: 2_000 },
  ack: { everyEvents: 10, delayMs: 5 },
  maxQueuedBytes: 1 << 20,
  requestTimeoutMs: 0,
  maxFrameBytes: 64 << 20,
});
const version: string = VERSION;
const session: string = bridge.session;
const state: 'open' | 'reconnecting' | 'closed' = bridge.state;
const counters: number = bridge.lastSeq + bridge.ackedSeq;
const pid: number | null = bridge.daemonPid;
const described = bridge.components['SwiftUIButton'].events['countChange'];
if (described.bubbles) console.log(described.registrationNames.captured);

// Payloads of the built-in events are typed: count is a number.
const button = await bridge.create('SwiftUIButton', {
  title: 'Tap me',
  count: null,
  onCountChange: (event) => {
    const next: number = event.payload.count + 1;
    return next; // a handler may return anything
  },
  onCountChangeCapture: async (event) => {
    event.stopPropagation();
    return event.isPropagationStopped();
  },
});
const list: View<'View'> = await bridge.create('View', { testID: 'list', onValueChange: (e) => e.payload.value * 2 });
const field = await bridge.create(
  'TextField',
  {
    color: 0xff0000ff,
    clearButtonMode: 'always',
    onCommit: (e) => console.log(e.payload.text.length),
    onEditingChange: (e) => e.payload.editing,
  },
  { parent: list, index: 0, signal: AbortSignal.timeout(1_000) },
);
const slider = await bridge.create('Slider', { step: 0.5 }, { parent: list.tag });
const custom = await bridge.create('MyCustomThing', { anything: { nested: [1, 'two', null] }, onWhatever: () => {} });

const changed: string[] = (await button.update({ count: 3 }, { signal: AbortSignal.timeout(500) })).changed;
await field.update({ text: undefined, onCommit: null });
await custom.update({ whatever: true });
const children: number[] = (await list.setChildren([button, field.tag, slider])).children;
await button.command('press');
await field.command('type', 'hello', { signal: AbortSignal.timeout(500) });
await slider.command('slide', 0.25);
await custom.command('anything', 1, 'two', [3]);
await button.touch('start', { identifier: 2, pageX: 10, pageY: 20, timestamp: 1 });
await button.touch('end');
const inspected: InspectResult<'SwiftUIButton'> = await button.inspect();
const render: string = inspected.render;
const off = await list.on('countChange', (e: SyntheticEvent<{ count: number }>) => e.payload.count + 1, {
  capture: true,
  signal: AbortSignal.timeout(500),
});
await off({ signal: AbortSignal.timeout(500) });
await field.on('commit', async (e) => e.payload.text.toUpperCase());
await custom.on('somethingElse', (e) => e.payload['x']);
const deleted: number[] = (await slider.delete()).deleted;
console.log(button.tag, button.component, button.state, button.toJSON().component, bridge.view(button.tag)?.tag);

// Transactions.
const tx: Transaction = bridge.transaction();
const row = tx.create('View', { onCountChangeCapture: (e) => e.payload.count });
const go = tx.create('SwiftUIButton', { title: 'Go' }, { parent: row });
tx.update(go, { count: 1 }).command(go, 'press').setChildren(row, [go]).update(row.tag, { testID: 'row' });
tx.command(7, 'press').emit(go, 'countChange', { count: 2 }).touch(go, 'start', { pageX: 1 }).delete(row);
const size: number = tx.size;
const { results } = await tx.commit({ signal: AbortSignal.timeout(1_000) });
console.log(results.length, tx.state, size);

// The daemon's own ops, as methods.
const pong: Record<string, never> = await bridge.ping({ signal: AbortSignal.timeout(1_000) });
const daemonStats: StatsResult = await bridge.stats();
const listed: boolean = (await bridge.sessions()).sessions.some((s) => s.session === bridge.session && s.connected);
console.log(pong, daemonStats.sessionViews, listed);

// Raw requests: typed results for the protocol's ops, unknown for others.
const stats: StatsResult = await bridge.request({ op: 'stats' });
const hello: HelloResult = await bridge.request({ op: 'hello', protocol: 1 });
const created: number = (await bridge.request({ op: 'create', tag: 100, component: 'View' })).tag;
const other: unknown = await bridge.request({ op: 'somethingNew', field: [1, 2] }, { signal: AbortSignal.timeout(100) });
console.log(stats.views, hello.components, created, other);
const { sessions } = await bridge.request({ op: 'sessions' });
const watched = sessions.find((s) => s.connected && s.session !== bridge.session && s.observers >= 0);
if (watched) {
  const snapshot = await bridge.request({ op: 'observe', session: watched.session });
  const phases: string[] = snapshot.views.flatMap((v) => Object.values(v.listeners).flat());
  console.log(snapshot.seq, snapshot.events[0]?.seq, snapshot.views[0]?.stale, phases);
  const none: Record<string, never> = await bridge.request({ op: 'unobserve', session: watched.session });
  console.log(none);
}

// Errors: code is one of ErrorCode, details are typed.
try {
  await button.update({ count: 1 });
} catch (err) {
  if (err instanceof BridgeError) {
    const code: ErrorCode = err.code;
    if (err.code === ErrorCodes.INVALID_PROPS && Array.isArray(err.details)) {
      const issues: ValueIssue[] = err.details;
      console.log(issues.map((issue) => `${issue.prop ?? issue.arg}: ${issue.path} ${issue.expected}`));
    }
    if (err.code === 'batch_failed' && err.details && !Array.isArray(err.details) && 'code' in err.details) {
      console.log(err.index, err.details.code);
    }
    if (code === ClientErrorCodes.ABORTED || code === 'queue_full' || code === 'session_reset') console.log(err.cause);
    if (code === ClientErrorCodes.TIMEOUT || code === 'protocol_error') console.log(err.message);
    if (err.code === ClientErrorCodes.UNSAFE_SOCKET_DIR && err.details && 'path' in err.details) {
      const folder: string = err.details.path;
      console.log(folder);
    }
  }
}
const made = new BridgeError('connection_closed', 'made by hand', { details: [], cause: new Error('x') });
const parsed = BridgeError.fromProtocol({ code: 'unknown_tag', message: 'no view 5' });
console.log(made.code, parsed.message);

// Events of the Bridge: listeners get typed arguments and may return anything.
bridge.on('error', (error) => error.code);
bridge.on('event', (frame: EventFrame) => frame.payload);
bridge.once('close', (info: CloseInfo) => info.error?.code);
bridge.on('reconnecting', ({ attempt, delayMs, error }) => console.log(attempt, delayMs, error.message));
bridge.on('resumed', ({ session: resumed, replayed }) => console.log(resumed, replayed));
bridge.on('reset', async (info: ResetInfo) => info.reason === 'expired');
const listening: number = bridge.listenerCount('error');
bridge.removeAllListeners('reset');

// The events iterator.
for await (const e of bridge.events({ signal: AbortSignal.timeout(1_000) })) {
  const payload: { [key: string]: JsonValue } = e.payload;
  if (e.event === 'countChange') break;
  console.log(payload, e.path[0]?.phase, e.seq, e.target);
}
const stream = bridge.events();
const first = await stream.next();
if (!first.done) console.log(first.value.event);
await stream.return();

await bridge.close({ keepSession: true, signal: AbortSignal.timeout(1_000) });
await bridge.close();
console.log(version, session, state, counters, pid, changed, children, render, deleted, listening, records.length);
