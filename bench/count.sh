#!/usr/bin/env bash
# Times `nqueens count N --threads T` (no database) for n = 14..18 on 1 and 2 threads, with -Xmx256m:
#   bench/count.sh            bench/count.sh "16 17" "1 2"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sizes="${1:-14 15 16 17 18}"
threads="${2:-1 2}"
[ -f "$root/target/nqueens.jar" ] || (cd "$root" && ./mvnw -B -q -DskipTests package)
printf '%4s %8s %12s %22s\n' n threads "wall (s)" "solutions per second"
for n in $sizes; do
  for t in $threads; do
    start=$(date +%s.%N)
    out=$(java -Xmx256m -jar "$root/target/nqueens.jar" count "$n" --threads "$t")
    end=$(date +%s.%N)
    rate=$(echo "$out" | sed -n 's/.*s, \([0-9,]*\) solutions per second.*/\1/p')
    echo "$out" | grep -q "matches the known values" || { echo "$out"; echo "bench: n=$n is wrong" >&2; exit 1; }
    printf '%4s %8s %12.2f %22s\n' "$n" "$t" "$(awk "BEGIN{print $end - $start}")" "$rate"
  done
done
