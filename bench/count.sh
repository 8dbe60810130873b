#!/usr/bin/env bash
# Times `./nqueens count N --threads T` (no database), whole process, with the launcher's default
# JVM options for count, for n = 14..18 on 1 and 2 threads:
#   bench/count.sh            bench/count.sh "16 17" "1 2"
# Each run prints its wall time (from the shell), CPU time (user + sys), peak resident memory and
# solutions per CPU-second of the whole process (JVM start and JIT included), with `uptime`'s
# load average before it (other work on the host slows every figure).
#   NQUEENS_JAVA_OPTS  more JVM options, passed on by the launcher
#   NQUEENS_PEER       peer counters' launchers, separated by ';', each called as `LAUNCHER N T` and
#                      printing `total=<solutions>`: each of our runs is followed by each peer's on
#                      the same n and threads (alternating, so all see the same machine), with the
#                      ratio of our wall time to the peer's. Only for measuring: nothing in the
#                      product uses it.
#   NQUEENS_BENCH_REPEAT  how many times to repeat each round of runs (default 1)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sizes="${1:-14 15 16 17 18}"
threads="${2:-1 2}"
repeat="${NQUEENS_BENCH_REPEAT:-1}"
IFS=';' read -r -a peers <<<"${NQUEENS_PEER:-}"
"$root/nqueens" --help >/dev/null   # builds the jar first if it is missing or stale, outside the timings
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (GNU time) for CPU and memory" >&2; exit 1; }
out="$(mktemp)"
times="$(mktemp)"
trap 'rm -f "$out" "$times"' EXIT

# run CMD...: runs CMD, leaves its output in $out and sets wall, cpu, rss_mb, load
run() {
  load=$(awk '{print $1}' /proc/loadavg)
  /usr/bin/time -o "$times" -f "%e %U %S %M" "$@" >"$out" 2>&1 || { cat "$out" >&2; echo "bench: $* failed" >&2; exit 1; }
  read -r wall user sys rss_kb <"$times"
  cpu=$(awk "BEGIN{printf \"%.2f\", $user + $sys}")
  rss_mb=$((rss_kb / 1024))
}

printf '%4s %3s %-12s %9s %9s %8s %16s %6s %9s\n' n T program "wall (s)" "CPU (s)" "RSS (MB)" "M sol per CPU-s" load "ours/peer"
for r in $(seq "$repeat"); do
  for n in $sizes; do
    for t in $threads; do
      run "$root/nqueens" count "$n" --threads "$t"
      grep -q "matches the known values" "$out" || { cat "$out"; echo "bench: n=$n is wrong" >&2; exit 1; }
      total=$(sed -n 's/^n=[0-9]*: \([0-9,]*\) solutions.*/\1/p' "$out" | tr -d ,)
      ours_wall=$wall
      printf '%4s %3s %-12s %9.2f %9.2f %8s %16.2f %6s\n' "$n" "$t" nqueens "$wall" "$cpu" "$rss_mb" \
        "$(awk "BEGIN{print $total / $cpu / 1e6}")" "$load"
      for peer in "${peers[@]}"; do
        [ -n "$peer" ] || continue
        # shellcheck disable=SC2086 # the launcher may carry its own arguments
        run $peer "$n" "$t"
        peer_total=$(sed -n 's/.*total=\([0-9]*\).*/\1/p' "$out")
        [ "$peer_total" = "$total" ] || { cat "$out"; echo "bench: $peer counts $peer_total for n=$n, not $total" >&2; exit 1; }
        printf '%4s %3s %-12s %9.2f %9.2f %8s %16.2f %6s %9.2f\n' "$n" "$t" "$(basename "$(dirname "$peer")")" "$wall" \
          "$cpu" "$rss_mb" "$(awk "BEGIN{print $total / $cpu / 1e6}")" "$load" "$(awk "BEGIN{print $ours_wall / $wall}")"
      done
    done
  done
done
