#!/usr/bin/env bash
# Times the whole nightly job on a fresh embedded database, in a scratch working directory:
# the default sizes and storage levels, then --sizes 1-16 with a 256 MB heap.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[ -f "$root/target/nqueens.jar" ] || (cd "$root" && ./mvnw -B -q -DskipTests package)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "== run (defaults from the jar), fresh database"
/usr/bin/time -f "wall %e s, max RSS %M KB" java -jar "$root/target/nqueens.jar" run
rm -rf data output
echo "== run --sizes 1-16 with -Xmx256m, fresh database"
/usr/bin/time -f "wall %e s, max RSS %M KB" java -Xmx256m -jar "$root/target/nqueens.jar" run --sizes 1-16
