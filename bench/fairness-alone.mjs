// The long requests of fairness.mjs alone, nothing else running: their own time, binary against binary.
//
//   node bench/fairness-alone.mjs BIN...     (e.g. main's release build, then this tree's)
//
// Three daemons of each binary, alternating; in each, three times: a batch of 100,000 creates, a setChildren of
// 50,000 children (reversed each time), the bye of a session of 100,000 views. Prints the medians of the nine
// of each (ms) and every figure. Nothing is asserted; the spread is the machine's.
import net from 'node:net';
import { spawn } from 'node:child_process';
import os from 'node:os';
const now = () => Number(process.hrtime.bigint()) / 1e6;
async function daemon(bin, sock) {
  const d = spawn(bin, ['--socket', sock, '--max-frame-bytes', String(64<<20), '--session-ttl', '0'], { stdio: 'ignore' });
  for (;;) { try { await new Promise((res, rej) => { const c = net.createConnection(sock); c.on('connect', () => { c.destroy(); res(); }); c.on('error', rej); }); break; } catch { await new Promise(r => setTimeout(r, 20)); } }
  return d;
}
function client(sock) {
  const c = net.createConnection(sock); let buf = ''; const waiters = [];
  c.setEncoding('utf8');
  c.on('data', d => { buf += d; let i; while ((i = buf.indexOf('\n')) >= 0) { buf = buf.slice(i + 1); waiters.shift()(now()); } });
  return { send(parts) { return new Promise(r => { waiters.push(r); for (const p of parts) c.write(p); }); }, c };
}
const ops = (from, n) => { const a = []; for (let t = from; t < from + n; t++) a.push(`{"op":"create","tag":${t},"component":"View","props":{"testID":"v${t}"}}`); return a.join(','); };
const bins = process.argv.slice(2);
const res = Object.fromEntries(bins.map(b => [b, { batch: [], set: [], bye: [] }]));
for (let run = 0; run < 3; run++) for (const bin of bins) {
  const sock = `${os.tmpdir()}/bridged-alone-${process.pid}-${run}-${bins.indexOf(bin)}.sock`;
  const d = await daemon(bin, sock);
  const L = client(sock); await L.send(['{"id":1,"op":"hello","protocol":1}\n']);
  await L.send([`{"id":2,"op":"batch","ops":[${ops(1, 50001)}]}\n`]);
  const kids = Array.from({ length: 50000 }, (_, i) => i + 2);
  let next = 100000;
  for (let k = 0; k < 3; k++) {
    const body = Buffer.from(`"op":"batch","ops":[${ops(next, 100000)}]}\n`); next += 100000;
    let t0 = now(); let t1 = await L.send([`{"id":9,`, body]); res[bin].batch.push(t1 - t0);
    kids.reverse(); const sc = Buffer.from(`{"id":9,"op":"setChildren","tag":1,"children":[${kids.join(',')}]}\n`);
    t0 = now(); t1 = await L.send([sc]); res[bin].set.push(t1 - t0);
    const B = client(sock); await B.send(['{"id":1,"op":"hello","protocol":1}\n']);
    for (let i = 0; i < 10; i++) await B.send([`{"id":2,"op":"batch","ops":[${ops(1 + i * 10000, 10000)}]}\n`]);
    t0 = now(); t1 = await B.send(['{"id":3,"op":"bye"}\n']); res[bin].bye.push(t1 - t0); B.c.destroy();
  }
  L.c.destroy(); d.kill(); await new Promise(r => d.once('exit', r));
}
const med = a => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)].toFixed(1); };
for (const b of bins) console.log(b, 'batch', med(res[b].batch), 'setChildren', med(res[b].set), 'bye', med(res[b].bye), JSON.stringify(Object.fromEntries(Object.entries(res[b]).map(([k, v]) => [k, v.map(x => Math.round(x))]))));
