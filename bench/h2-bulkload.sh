#!/usr/bin/env bash
# The ALL pipeline for one size (solve + reduce + insert, from the job's own timing) against
# H2 bulk-loading the very same rows into the same schema with INSERT ... SELECT FROM CSVREAD.
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
mkdir -p load && cp "output/solutions-n$nn.csv" "output/fundamental-n$nn.csv" load/
cd load
java -jar "$root/target/nqueens.jar" show 1 >/dev/null 2>&1 || true   # a fresh database with the schema
url="jdbc:h2:file:./data/nqueens;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH"
start=$(date +%s.%N)
java -cp "$h2" org.h2.tools.Shell -url "$url" -user sa -password "" -sql "
INSERT INTO fundamental_solution (n, class_ordinal, placement, orbit_size, symmetry)
  SELECT $n, CAST(\"CLASS_ORDINAL\" AS BIGINT), \"PLACEMENT\", CAST(\"ORBIT_SIZE\" AS SMALLINT), \"SYMMETRY\"
  FROM CSVREAD('fundamental-n$nn.csv');
INSERT INTO stored_solution (n, ordinal, placement, representative)
  SELECT $n, CAST(s.\"ORDINAL\" AS BIGINT), s.\"PLACEMENT\", f.placement
  FROM CSVREAD('solutions-n$nn.csv') s
  JOIN fundamental_solution f ON f.n = $n AND f.class_ordinal = CAST(s.\"CLASS_ORDINAL\" AS BIGINT);
SELECT COUNT(*) FROM stored_solution;
" | grep -E "Update count|^[0-9]+$" 
end=$(date +%s.%N)
echo "H2 bulk load of the same rows (INSERT ... SELECT FROM CSVREAD, incl. JVM start): $(awk "BEGIN{print $end - $start}") s"
