#!/usr/bin/env python3
# Fairness probe of separate processes (issue 30, item 6): while one client runs a long request, how long do the
# other clients wait? The same question as fairness.mjs, asked by processes of their own (no shared event loop or
# interpreter lock in the probe), so that the probe's own latency is small next to the daemon's (idle pings' p99
# 0.22-0.45 ms in eight of nine runs here, 0.85 in one, where fairness.mjs's threads measure 2-3 ms).
#
#   python3 bench/fairness-processes.py [--bin PATH]... [--mode batch|setChildren|bye] [--rounds N] [--requests N]
#
# For each round and each binary in turn (so that the machine's other load falls on all of them alike): a fresh
# daemon (`--max-frame-bytes 64 MiB`, `--session-ttl 0`) on a temporary socket; a long client L; three pingers
# (a `ping`, 1 ms after each answer) and a client that connects and says `hello` every 10 ms ("late hello"), each
# its own process. L runs `--requests` long requests of `--mode`, 0.3 s apart:
#   batch:       a batch of 100,000 creates (7.5 MB), then `bye` and a new connection (outside the window);
#   setChildren: a setChildren of 50,000 children, reversed each time;
#   bye:         the `bye` of a session of 100,000 views (made before the window), then a new connection.
# Reported per binary: the long request's time, and the p50/p99/max of the pings and hellos sent while one ran
# (every pinger together: at least as slow as the busy loop's alone), against the same with nothing long running.
# Nothing is asserted.
import argparse, json, multiprocessing as mp, os, socket, subprocess, tempfile, time

HELLO = b'{"id":0,"op":"hello","protocol":1}\n'


def connect(path):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    f = s.makefile('rb')
    s.sendall(HELLO)
    f.readline()
    return s, f


def pinger(path, ready, stop, out):
    s, f = connect(path)
    ready.release()
    times, i = [], 1
    while not stop.is_set():
        t = time.monotonic()
        s.sendall(b'{"id":%d,"op":"ping"}\n' % i)
        f.readline()
        times.append((t, (time.monotonic() - t) * 1000))
        i += 1
        time.sleep(0.001)
    out.put(('ping', times))


def greeter(path, stop, out):
    times = []
    while not stop.is_set():
        t = time.monotonic()
        s, f = connect(path)
        times.append((t, (time.monotonic() - t) * 1000))
        s.close()
        time.sleep(0.01)
    out.put(('hello', times))


def creates(first, count):
    ops = ','.join('{"op":"create","tag":%d,"component":"View","props":{"testID":"v%d"}}' % (first + i, i) for i in range(count))
    return ('{"id":1,"op":"batch","ops":[%s]}\n' % ops).encode()


def ask(s, f, line):
    t0 = time.monotonic()
    s.sendall(line)
    answer = f.readline()
    t1 = time.monotonic()
    assert b'"ok":true' in answer[:60], answer[:300]
    return t0, t1


def run(binary, mode, requests):
    folder = tempfile.mkdtemp(prefix='bridged-fair-')
    path = os.path.join(folder, 'b.sock')
    daemon = subprocess.Popen([binary, '--socket', path, '--max-frame-bytes', str(64 << 20), '--session-ttl', '0'],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    daemon.stdout.readline()  # "bridged listening on …"
    try:
        batch = creates(10, 100_000)
        children = list(range(1_000_000, 1_050_000))
        s, f = connect(path)
        if mode == 'setChildren':
            ask(s, f, creates(1_000_000, 50_000).replace(b'"ops":[', b'"ops":[{"op":"create","tag":999999,"component":"View"},', 1))
        stop, out, ready = mp.Event(), mp.Queue(), mp.Semaphore(0)
        helpers = [mp.Process(target=pinger, args=(path, ready, stop, out)) for _ in range(3)]
        for p in helpers:
            p.start()
            ready.acquire()
        helpers.append(mp.Process(target=greeter, args=(path, stop, out)))
        helpers[-1].start()
        time.sleep(0.5)
        windows = []
        for _ in range(requests):
            if mode == 'batch':
                windows.append(ask(s, f, batch))
                ask(s, f, b'{"id":2,"op":"bye"}\n')
                s.close()
                s, f = connect(path)
            elif mode == 'bye':
                ask(s, f, batch)
                time.sleep(0.2)
                windows.append(ask(s, f, b'{"id":2,"op":"bye"}\n'))
                s.close()
                s, f = connect(path)
            else:
                children.reverse()
                windows.append(ask(s, f, ('{"id":4,"op":"setChildren","tag":999999,"children":[%s]}\n' % ','.join(map(str, children))).encode()))
            time.sleep(0.3)
        stop.set()
        got = {'ping': [], 'hello': []}
        for _ in helpers:
            kind, times = out.get()
            got[kind] += times
        for p in helpers:
            p.join()
        s.close()
        return windows, got
    finally:
        daemon.terminate()
        daemon.wait()
        subprocess.run(['rm', '-rf', folder])


def summary(values):
    values = sorted(values)
    if not values:
        return {'n': 0}
    return {'n': len(values), 'p50': round(values[len(values) // 2], 3), 'p99': round(values[int(len(values) * 0.99)], 3), 'max': round(values[-1], 3)}


def main():
    parser = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument('--bin', action='append')
    parser.add_argument('--mode', default='batch', choices=['batch', 'setChildren', 'bye'])
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--requests', type=int, default=5)
    parser.add_argument('--json')
    args = parser.parse_args()
    binaries = args.bin or [os.path.join(here, '..', '.build', 'release', 'bridged')]
    results = {b: {'request': [], 'during': {'ping': [], 'hello': []}, 'idle': {'ping': [], 'hello': []}, 'rounds': []} for b in binaries}
    for _ in range(args.rounds):
        for b in binaries:
            windows, got = run(b, args.mode, args.requests)
            r = results[b]
            r['request'] += [(t1 - t0) * 1000 for t0, t1 in windows]
            round_during = {}
            for kind, times in got.items():
                during = [v for t, v in times if any(a <= t <= z for a, z in windows)]
                idle = [v for t, v in times if not any(a - 0.05 <= t <= z + 0.1 for a, z in windows)]
                r['during'][kind] += during
                r['idle'][kind] += idle
                round_during[kind] = summary(during)
            r['rounds'].append(round_during)
    report = {'mode': args.mode, 'rounds': args.rounds, 'requests': args.requests, 'load': os.getloadavg(), 'bins': {}}
    for b, r in results.items():
        report['bins'][b] = {
            'requestMs': summary(r['request']),
            'pingsDuringMs': summary(r['during']['ping']),
            'hellosDuringMs': summary(r['during']['hello']),
            'pingsIdleMs': summary(r['idle']['ping']),
            'hellosIdleMs': summary(r['idle']['hello']),
            'perRound': r['rounds'],
        }
        x = report['bins'][b]
        print(f'{b} ({args.mode})')
        for key in ('requestMs', 'pingsDuringMs', 'hellosDuringMs', 'pingsIdleMs', 'hellosIdleMs'):
            print(f'  {key:15} {x[key]}')
        print('  per round, pings p99 / hellos p99 during:', ', '.join(f"{q['ping'].get('p99')} / {q['hello'].get('p99')}" for q in x['perRound']))
    if args.json:
        with open(args.json, 'w') as out:
            json.dump(report, out, indent=1)


if __name__ == '__main__':
    main()
