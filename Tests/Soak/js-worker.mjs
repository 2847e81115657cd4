// A soak worker for the bundled js-client: bridges with `reconnect: true`, their connections cut at random
// (`bridge._socket.destroy()`) and the daemon restarted under them. Their cursors live in the process, so
// this worker is not SIGKILLed (worker.mjs covers that with journaled cursors). Per bridge it checks that
// every `press` that resolved brought exactly one event, with count + 1, in seq order without gaps or
// repeats within a session, that nothing was reset, and at the end that every view's props are what the
// client last set.
//
// Environment: SOAK_SOCKET, SOAK_CLIENTS ("first,count"), SOAK_MEAN_MS.
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from '../../js-client/index.js';

const SOCKET = process.env.SOAK_SOCKET;
const [FIRST, COUNT] = process.env.SOAK_CLIENTS.split(',').map(Number);
const MEAN_MS = Number(process.env.SOAK_MEAN_MS ?? 60);
const rnd = Math.random;
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const TITLES = ['', 'Tap', 'héllo', '😀', 'q " \\ b', 'nul \u0000'];
const DEFAULT_BUTTON = { count: 0, title: '', disabled: false };

let stopping = false;
const totals = { frames: 0, owed: 0, received: 0, maybeEmitted: 0, gaps: 0, unexpected: 0, missing: 0, cuts: 0, resumed: 0, resets: 0, closes: 0, lostRequests: 0, inspects: 0, socketErrors: 0, failures: 0 };
const failures = [];
function fail(id, msg) {
  totals.failures++;
  if (failures.length < 30) failures.push(`js client ${id}: ${msg}`);
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const isLoss = (err) => ['connection_closed', 'session_reset'].includes(err?.code);

async function runClient(id) {
  const bridge = await connect({ socket: SOCKET, reconnect: { initialDelayMs: 20, maxDelayMs: 500 }, timeoutMs: 10000 });
  let session = bridge.session;
  let lastSeq = 0;
  let expecting = null; // {tag, count} of the press in flight, when it must emit
  const maybe = []; // presses whose outcome a lost connection hid: their event may still come, once
  // A socket error (connection_closed, its cause the system error) is a connection loss the soak causes on
  // purpose: the reconnect deals with it. Any other 'error' (handler_failed, protocol_error) is a failure.
  bridge.on('error', (err) => {
    if (err.code === 'connection_closed') totals.socketErrors++;
    else fail(id, `error event: ${err.code} ${err.message}`);
  });
  bridge.on('resumed', () => totals.resumed++);
  bridge.on('reset', ({ reason }) => {
    totals.resets++;
    fail(id, `session reset: ${reason}`);
  });
  bridge.on('close', ({ reason }) => {
    if (!stopping) {
      totals.closes++;
      fail(id, `bridge closed: ${reason}`);
    }
  });
  bridge.on('event', (ev) => {
    if (bridge.session !== session) {
      session = bridge.session;
      lastSeq = 0;
    }
    if (ev.seq !== lastSeq + 1) {
      totals.gaps++;
      fail(id, `seq ${ev.seq} after ${lastSeq}`);
    }
    lastSeq = ev.seq;
    const match = (e) => e && ev.target === e.tag && ev.payload.count === e.count;
    if (expecting && !expecting.seen && match(expecting)) expecting.seen = true;
    else {
      const i = maybe.findIndex(match);
      if (i >= 0) {
        maybe.splice(i, 1);
        totals.maybeEmitted++;
      } else {
        totals.unexpected++;
        fail(id, `unexpected event ${JSON.stringify(ev)}`);
      }
    }
  });

  // Each button: its View handle, the props this client last set, and whether its update is in doubt.
  const buttons = new Map();
  const handler = () => {};
  const retry = async (fn) => {
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        if (!isLoss(err)) throw err;
        totals.lostRequests++;
      }
    }
  };

  const create = async () => {
    const props = { title: pick(TITLES), count: Math.floor(rnd() * 1000) };
    try {
      const view = await bridge.create('SwiftUIButton', { ...props, onCountChange: handler });
      buttons.set(view.tag, { view, props: { ...DEFAULT_BUTTON, ...props } });
    } catch (err) {
      if (!isLoss(err)) throw err;
      totals.lostRequests++; // the client never reuses the tag; an orphan view may stay, as README says
    }
  };

  while (!stopping) {
    await sleep(-Math.log(1 - rnd()) * MEAN_MS);
    if (stopping) break;
    totals.frames++;
    if (buttons.size < 3 || rnd() < 0.03) {
      await create();
      continue;
    }
    const [tag, b] = pick([...buttons.entries()]);
    let r = rnd();
    if (r >= 0.93 && r < 0.96) {
      // Cut the connection while a press is in flight (or just before it is written).
      totals.cuts++;
      setTimeout(() => bridge._socket?.destroy(), rnd() < 0.3 ? 0 : rnd() * 3);
      r = 0;
    }
    try {
      if (r < 0.5) {
        expecting = b.props.disabled ? null : { tag, count: b.props.count + 1, seen: false };
        const pending = expecting;
        try {
          await b.view.command('press');
        } catch (err) {
          if (!isLoss(err)) throw err;
          totals.lostRequests++;
          if (pending && !pending.seen) maybe.push(pending);
          else if (pending) totals.maybeEmitted++;
          expecting = null;
          continue;
        }
        expecting = null;
        if (pending) {
          totals.owed++;
          if (pending.seen) totals.received++;
          else {
            totals.missing++;
            fail(id, `press on ${tag} resolved without its event`);
          }
        }
      } else if (r < 0.8) {
        const props = rnd() < 0.5 ? { count: Math.floor(rnd() * 1e6) } : { title: pick(TITLES), disabled: rnd() < 0.2 };
        Object.assign(b.props, props); // an update lost in flight is sent again: it applies or already did
        await retry(() => b.view.update(props));
      } else if (r < 0.9) {
        totals.inspects++;
        const got = await retry(() => b.view.inspect());
        if (!same(got.props, b.props)) fail(id, `inspect ${tag}: ${JSON.stringify(got.props)} != ${JSON.stringify(b.props)}`);
      } else if (r < 0.93) {
        buttons.delete(tag);
        await retry(() => b.view.delete().catch((err) => {
          if (err.code !== 'unknown_tag') throw err; // a first delete that took effect
        }));
      }
    } catch (err) {
      fail(id, `${err.code ?? ''} ${err.message}`);
    }
  }

  // Final pass: every view's props as this client last set them.
  for (const [tag, b] of buttons) {
    totals.inspects++;
    try {
      const got = await retry(() => b.view.inspect());
      if (!same(got.props, b.props)) fail(id, `final inspect ${tag}: ${JSON.stringify(got.props)} != ${JSON.stringify(b.props)}`);
    } catch (err) {
      fail(id, `final inspect ${tag}: ${err.code} ${err.message}`);
    }
  }
  if (maybe.length) totals.maybeNotEmitted = (totals.maybeNotEmitted ?? 0) + maybe.length;
  await bridge.close();
}

let loops;
process.on('message', async (msg) => {
  if (msg.cmd === 'verify') {
    stopping = true;
    await Promise.allSettled(loops);
    process.send({ verified: true, js: { totals, failures } }, () => process.exit(0));
  }
});
loops = Array.from({ length: COUNT }, (_, i) => runClient(FIRST + i).catch((err) => fail(FIRST + i, `crashed: ${err.stack}`)));
process.send({ ready: true });
