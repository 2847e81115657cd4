#!/bin/bash
# The hot path, binary against binary: pipelined updates (window 64) and 100-update batches (window 8) to 1,000
# buttons, five alternating daemons of each, the daemon's CPU per update from /proc/PID/stat (10 ms ticks).
#   make -C bench build; bench/hot-path-ab.sh BIN...
D="$(dirname "$0")/out/driver"
S="${TMPDIR:-/tmp}/hot-path-setup.jsonl"
rm -f $S; for t in $(seq 1 1000); do echo "{\"id\":$t,\"op\":\"create\",\"tag\":$t,\"component\":\"SwiftUIButton\",\"props\":{\"title\":\"b$t\"}}" >> $S; done
INNER='{"op":"update","tag":%t,"props":{"count":%c}}'
ticks() { awk '{print $14+$15}' /proc/$1/stat; }
for run in 1 2 3 4 5; do for bin in "$@"; do
  sock="${TMPDIR:-/tmp}"/hot-path-$$-$run.sock; rm -f $sock
  $bin --socket $sock --session-ttl 0 >/dev/null 2>&1 & pid=$!
  for i in $(seq 1 100); do [ -S $sock ] && break; sleep 0.05; done
  t0=$(ticks $pid)
  u=$($D --socket $sock --setup $S --frames 400000 --window 64 --template '{"id":%i,"op":"update","tag":%t,"props":{"count":%c}}' --tags 1-1000 2>&1 | grep -o '"frames_per_s":[0-9.]*' | cut -d: -f2)
  t1=$(ticks $pid)
  b=$($D --socket $sock --setup $S --frames 4000 --window 8 --template '{"id":%i,"op":"batch","ops":[%B]}' --batch 100 --inner "$INNER" --tags 1-1000 2>&1 | grep -o '"ops_per_s":[0-9.]*' | cut -d: -f2)
  t2=$(ticks $pid)
  echo "$run $bin updates/s $u cpu_us/update $(echo "($t1-$t0)*10000/400000" | bc -l | cut -c1-5) | batched ops/s $b cpu_us/op $(echo "($t2-$t1)*10000/400000" | bc -l | cut -c1-5)"
  kill $pid; wait $pid 2>/dev/null
done; done
