#!/usr/bin/env bash
# Our store of one size beside the database's own bulk load of the same rows, in one sitting:
#   bench/store.sh N                      the embedded H2 file
#   NQUEENS_BENCH_POSTGRES_URL='jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres&password=...' bench/store.sh N
#                                         PostgreSQL too (the URL of a maintenance database: the bench
#                                         creates and drops nqueens_bench_store on that server)
# Ours: `./nqueens run --sizes N --store-all-up-to N` in a fresh folder (a fresh database), timed from
# the size's first solve to its publication (board_summary.elapsed_ms: its partition, then the indexes
# built after the load, the counts checked, the summary written), and the whole process.
# The database's own: the rows ours wrote, read back from the exported CSV files (solutions and
# classes), loaded the way the database loads fastest into tables with the same keys and indexes
# (dev.nqueens.bench.StoreYardstick): H2, JDBC batches of 10,000 rows in key order into tables
# whose unique keys exist from the start, then the class index; PostgreSQL, COPY of the CSV into
# tables without indexes, then the same indexes built after, and VACUUM (ANALYZE). Prints both and the ratio.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:?usage: bench/store.sh N}"
nn=$(printf '%02d' "$n")
(cd "$root" && ./mvnw -B -q -DskipTests package && ./mvnw -B -q dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test) >/dev/null
classpath="$root/target/test-classes:$root/target/classes:$(cat "$root/target/bench.classpath")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# store ENVIRONMENT...: ours in a fresh folder; prints the seconds to publication and the whole run's.
store() {
  local folder="$work/ours" start end ms
  rm -rf "$folder" && mkdir -p "$folder"
  start=$(date +%s.%N)
  (cd "$folder" && env "$@" "$root/nqueens" run --sizes "$n" --store-all-up-to "$n" --store-fundamental-up-to "$n" \
    >run.txt 2>&1) || { cat "$folder/run.txt"; echo "store: the run failed" >&2; exit 1; }
  end=$(date +%s.%N)
  ms=$(cd "$folder" && env "$@" "$root/nqueens" sql "SELECT elapsed_ms FROM board_summary WHERE n = $n" --format csv \
    | tail -n 1)
  ours=$(awk "BEGIN{printf \"%.2f\", $ms / 1000}")
  whole=$(awk "BEGIN{printf \"%.2f\", $end - $start}")
}

report() {
  local name="$1" rows="$2" theirs="$3"
  printf '%-11s n=%s: ours %6.2f s (first solve to publication; whole run %s s), its own load of the same %s rows %6.2f s: %.2f x\n' \
    "$name" "$n" "$ours" "$whole" "$rows" "$theirs" "$(awk "BEGIN{print $ours / $theirs}")"
}

echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; $(date -u +%FT%TZ)"

store
load=$(java -cp "$classpath" dev.nqueens.bench.StoreYardstick h2 "$work" "$work/ours/output")
report "H2" "$(echo "$load" | sed 's/.*rows=//')" "$(echo "$load" | sed 's/seconds=\([0-9.]*\).*/\1/')"

if [ -n "${NQUEENS_BENCH_POSTGRES_URL:-}" ]; then
  maintenance="$NQUEENS_BENCH_POSTGRES_URL"
  database="$(echo "$maintenance" | sed -E 's#/[^/?]+(\?|$)#/nqueens_bench_store\1#')"
  java -cp "$classpath" dev.nqueens.bench.StoreYardstick create "$maintenance" nqueens_bench_store
  user="$(echo "$maintenance" | sed -nE 's/.*[?&]user=([^&]*).*/\1/p')"
  password="$(echo "$maintenance" | sed -nE 's/.*[?&]password=([^&]*).*/\1/p')"
  store SPRING_DATASOURCE_URL="$database" SPRING_DATASOURCE_USERNAME="${user:-postgres}" \
    SPRING_DATASOURCE_PASSWORD="${password:-}"
  load=$(java -cp "$classpath" dev.nqueens.bench.StoreYardstick postgresql "$database" "$work/ours/output")
  report "PostgreSQL" "$(echo "$load" | sed 's/.*rows=//')" "$(echo "$load" | sed 's/seconds=\([0-9.]*\).*/\1/')"
  java -cp "$classpath" dev.nqueens.bench.StoreYardstick drop "$maintenance" nqueens_bench_store
fi
