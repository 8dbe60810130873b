#!/usr/bin/env bash
# The ALL pipeline for one size (solve + reduce + insert, from the job's own timing) against
# H2 bulk-loading the very same rows (solutions, classes, representative cells) into the same
# schema with INSERT ... SELECT FROM CSVREAD.
#   bench/h2-bulkload.sh        (n = 14)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-14}"
nn=$(printf '%02d' "$n")
[ -f "$root/target/nqueens.jar" ] || (cd "$root" && ./mvnw -B -q -DskipTests package)
h2="$(find ~/.m2/repository/com/h2database/h2 -name 'h2-*.jar' | sort -V | grep -v sources | tail -n 1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
java -jar "$root/target/nqueens.jar" run --sizes "$n" --store-all-up-to "$n" --store-fundamental-up-to "$n" >run.txt
pipeline_ms=$(grep -E "^ +$n " run.txt | awk '{print $5}')
echo "pipeline (solve + reduce + insert) n=$n: ${pipeline_ms} s (board_summary.elapsed_ms)"
# The rows the pipeline stored, written out by H2 itself, then loaded into a fresh database.
url="jdbc:h2:file:./data/nqueens;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;MAX_COMPACT_TIME=0"
mkdir -p load
java -cp "$h2" org.h2.tools.Shell -url "$url" -user sa -password "" -sql "
CALL CSVWRITE('load/fundamental.csv', 'SELECT * FROM fundamental_solution WHERE n = $n');
CALL CSVWRITE('load/solutions.csv', 'SELECT * FROM stored_solution WHERE n = $n');
CALL CSVWRITE('load/cells.csv', 'SELECT * FROM fundamental_cell WHERE n = $n');" >/dev/null
cd load
java -jar "$root/target/nqueens.jar" run --sizes 1 >/dev/null   # a fresh database with the schema (only runs migrate)
start=$(date +%s.%N)
java -cp "$h2" org.h2.tools.Shell -url "$url" -user sa -password "" -sql "
INSERT INTO fundamental_solution SELECT * FROM CSVREAD('fundamental.csv');
INSERT INTO stored_solution SELECT * FROM CSVREAD('solutions.csv');
INSERT INTO fundamental_cell SELECT * FROM CSVREAD('cells.csv');
SELECT COUNT(*) FROM stored_solution;
" | grep -E "Update count|^[0-9]+$"
end=$(date +%s.%N)
echo "H2 bulk load of the same rows (INSERT ... SELECT FROM CSVREAD, incl. JVM start): $(awk "BEGIN{print $end - $start}") s"
