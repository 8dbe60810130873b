#!/bin/bash
# The embedded H2 file's size against what SHUTDOWN COMPACT makes of it (docs/h2.md, "Figures").
# usage: bench/h2-file-size.sh JAR DIR night   default run, three `run --force`, raise n = 14 to ALL
#        bench/h2-file-size.sh JAR DIR fresh   a fresh store of n = 14 with every solution
#        bench/h2-file-size.sh JAR DIR all N   a fresh store of n = N with every solution
# Prints per step: exit code, wall seconds, the file's bytes, the compacted copy's bytes, the ratio,
# and the largest size the file had while the step ran (sampled every 0.1 s) against the same copy.
# JAR: a jar, run with `java -jar`, or a launcher such as ./nqueens (run as it is, as a user runs it).
set -uo pipefail
JAR=$(readlink -f "$1"); W=$2; MODE=$3
if [[ "$JAR" == *.jar ]]; then NQ=(java -jar "$JAR"); else NQ=("$JAR"); fi
H2=$(ls ~/.m2/repository/com/h2database/h2/2.3.232/h2-2.3.232.jar)
mkdir -p "$W"; cd "$W"
compacted() {
  local d; d=$(mktemp -d); cp data/nqueens.mv.db "$d/"
  java -cp "$H2" org.h2.tools.Shell -url "jdbc:h2:file:$d/nqueens;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;MAX_COMPACT_TIME=0;COMPRESS=TRUE" \
       -user sa -password "$(cat data/nqueens.password 2>/dev/null)" -sql "SHUTDOWN COMPACT" >/dev/null
  stat -c %s "$d/nqueens.mv.db"; rm -rf "$d"
}
# sample FILE: the largest size of data/nqueens.mv.db, every 0.1 s, written to FILE until killed.
sample() {
  local peak=0 s
  while true; do
    s=$(stat -c %s data/nqueens.mv.db 2>/dev/null || echo 0)
    if [ "$s" -gt "$peak" ]; then peak=$s; echo "$peak" > "$1"; fi
    sleep 0.1
  done
}
step() {
  local label=$1; shift
  local t0 t1 rc f c p sampler
  echo 0 > "peak-$label"; sample "peak-$label" & sampler=$!
  t0=$(date +%s.%N); "${NQ[@]}" "$@" > "log-$label.txt" 2>&1; rc=$?; t1=$(date +%s.%N)
  kill "$sampler"; wait "$sampler" 2>/dev/null
  f=$(stat -c %s data/nqueens.mv.db); c=$(compacted); p=$(cat "peak-$label")
  printf '%s rc=%s secs=%.1f file=%d compacted=%d ratio=%.2f peak=%d peak/compacted=%.2f\n' "$label" "$rc" \
    "$(echo "$t1 - $t0" | bc)" "$f" "$c" "$(echo "$f / $c" | bc -l)" "$p" "$(echo "$p / $c" | bc -l)"
}
case "$MODE" in
  night)
    step night run
    for i in 1 2 3; do step "rerun$i" run --force; done
    step raise14 run --sizes 14 --store-all-up-to 14 ;;
  fresh) step fresh14 run --sizes 14 --store-all-up-to 14 ;;
  all) step "all$4" run --sizes "$4" --store-all-up-to "$4" --store-fundamental-up-to "$4" ;;
  *) echo "usage: $0 JAR DIR night|fresh|all N" >&2; exit 2 ;;
esac
