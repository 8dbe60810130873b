#!/usr/bin/env bash
# Times `./nqueens count N --threads T` (no database), whole process, with the launcher's default
# JVM options for count, for n = 14..18 on 1 and 2 threads:
#   bench/count.sh            bench/count.sh "16 17" "1 2"
# Each run prints its wall time (from the shell), CPU time (user + sys), peak resident memory and
# solutions per CPU-second of the whole process (JVM start and JIT included).
#   NQUEENS_JAVA_OPTS  more JVM options, passed on by the launcher
#   NQUEENS_PEER       a peer counter's launcher, called as `$NQUEENS_PEER N T`, that prints
#                      `total=<solutions>`: each of our runs is followed by the peer's on the same
#                      n and threads (alternating, so both see the same machine), with the ratio
#                      of wall times. Only for measuring: nothing in the product uses it.
#   NQUEENS_BENCH_REPEAT  how many times to repeat each pair of runs (default 1)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sizes="${1:-14 15 16 17 18}"
threads="${2:-1 2}"
repeat="${NQUEENS_BENCH_REPEAT:-1}"
peer="${NQUEENS_PEER:-}"
"$root/nqueens" --help >/dev/null   # builds the jar first if it is missing or stale, outside the timings
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (GNU time) for CPU and memory" >&2; exit 1; }
out="$(mktemp)"
times="$(mktemp)"
trap 'rm -f "$out" "$times"' EXIT

# run LABEL CMD...: runs CMD, leaves its output in $out and sets wall, cpu, rss_mb
run() {
  /usr/bin/time -o "$times" -f "%e %U %S %M" "$@" >"$out" 2>&1 || { cat "$out" >&2; echo "bench: $* failed" >&2; exit 1; }
  read -r wall user sys rss_kb <"$times"
  cpu=$(awk "BEGIN{printf \"%.2f\", $user + $sys}")
  rss_mb=$((rss_kb / 1024))
}

printf '%4s %3s %-10s %9s %9s %8s %16s %8s\n' n T program "wall (s)" "CPU (s)" "RSS (MB)" "M sol per CPU-s" "ours/peer"
for r in $(seq "$repeat"); do
  for n in $sizes; do
    for t in $threads; do
      run "$root/nqueens" count "$n" --threads "$t"
      grep -q "matches the known values" "$out" || { cat "$out"; echo "bench: n=$n is wrong" >&2; exit 1; }
      total=$(sed -n 's/^n=[0-9]*: \([0-9,]*\) solutions.*/\1/p' "$out" | tr -d ,)
      ours_wall=$wall
      printf '%4s %3s %-10s %9.2f %9.2f %8s %16.2f\n' "$n" "$t" nqueens "$wall" "$cpu" "$rss_mb" \
        "$(awk "BEGIN{print $total / $cpu / 1e6}")"
      if [ -n "$peer" ]; then
        # shellcheck disable=SC2086 # the launcher may carry its own arguments
        run $peer "$n" "$t"
        peer_total=$(sed -n 's/.*total=\([0-9]*\).*/\1/p' "$out")
        [ "$peer_total" = "$total" ] || { cat "$out"; echo "bench: the peer counts $peer_total for n=$n, not $total" >&2; exit 1; }
        printf '%4s %3s %-10s %9.2f %9.2f %8s %16.2f %8.2f\n' "$n" "$t" peer "$wall" "$cpu" "$rss_mb" \
          "$(awk "BEGIN{print $total / $cpu / 1e6}")" "$(awk "BEGIN{print $ours_wall / $wall}")"
      fi
    done
  done
done
