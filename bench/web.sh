#!/usr/bin/env bash
# Measures `./nqueens serve` over loopback: time to first byte of the report page `/` with the
# default sizes (1-18) stored, one page of 1,000 solutions from the API, and the download rate of
# the largest export file compared with `cat` of the same file. Each figure is the median of RUNS
# requests after WARMUP unmeasured ones.
#
#   bench/web.sh [WORKDIR]   # WORKDIR with data/ and output/ of a run; default: a scratch folder
#                            # where the default run (sizes 1-18) is made first (~40 s)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/target/nqueens.jar"
[ -f "$jar" ] || (cd "$root" && ./mvnw -B -q -DskipTests package)
RUNS="${RUNS:-21}"
WARMUP="${WARMUP:-5}"

own_work=0
if [ $# -ge 1 ]; then
  work="$(cd "$1" && pwd)"
else
  work="$(mktemp -d)"
  own_work=1
  trap 'rm -rf "$work"' EXIT
  echo "== run (defaults: sizes 1-18) in $work"
  (cd "$work" && java -jar "$jar" run | tail -n 1)
fi
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
cd "$work"
NQUEENS_SCHEDULE_ENABLED=false java ${NQUEENS_JAVA_OPTS:-} -jar "$jar" serve --port "$port" > serve.log 2>&1 &
serve_pid=$!
stop() { kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; }
trap 'stop; [ "$own_work" = 0 ] || rm -rf "$work"' EXIT
for _ in $(seq 1 240); do grep -q '^Serving' serve.log && break; sleep 0.5; done
grep '^Serving' serve.log
base="http://127.0.0.1:$port"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
measure() { # measure CURL_FORMAT URL: prints the median of RUNS values of the curl write-out
  local format="$1" url="$2"
  for _ in $(seq 1 "$WARMUP"); do curl -s -o /dev/null "$url"; done
  for _ in $(seq 1 "$RUNS"); do curl -s -o /dev/null -w "$format\n" "$url"; done | median
}

sizes="$(curl -s "$base/api/sizes" | grep -o '"n":[0-9]*' | wc -l)"
ttfb="$(measure '%{time_starttransfer}' "$base/")"
echo "/ (report, $sizes sizes published): time to first byte, median of $RUNS: $(awk "BEGIN { printf \"%.1f ms\", $ttfb * 1000 }")"

largest_all="$(curl -s "$base/api/sizes" | grep -o '"n":[0-9]*,[^}]*"stored":"ALL"' | grep -o '^"n":[0-9]*' | tail -n 1 | cut -d: -f2)"
page="$base/api/sizes/$largest_all/solutions?offset=50000&limit=1000"
total="$(measure '%{time_total}' "$page")"
echo "API page of 1,000 solutions (n = $largest_all, offset 50,000): total time, median of $RUNS: $(awk "BEGIN { printf \"%.1f ms\", $total * 1000 }")"

largest="$(ls -S output | grep -v '^\.' | head -n 1)"
bytes="$(stat -c %s "output/$largest")"
curl_s="$(measure '%{time_total}' "$base/files/$largest")"
cat_s="$(for _ in $(seq 1 "$RUNS"); do
  start=$(date +%s%N); cat "output/$largest" > /dev/null; end=$(date +%s%N); echo "$(( end - start ))e-9"
done | median)"
curl_cat_s="$(for _ in $(seq 1 "$RUNS"); do
  start=$(date +%s%N); curl -s "$base/files/$largest" > /dev/null; end=$(date +%s%N); echo "$(( end - start ))e-9"
done | median)"
awk -v name="$largest" -v bytes="$bytes" -v c="$curl_s" -v k="$cat_s" -v w="$curl_cat_s" 'BEGIN {
  mb = bytes / 1e6
  printf "largest export %s (%.1f MB):\n", name, mb
  printf "  curl over loopback (curl'"'"'s own time): %.1f ms, %.0f MB/s\n", c * 1000, mb / c
  printf "  curl process, wall:                     %.1f ms, %.0f MB/s\n", w * 1000, mb / w
  printf "  cat > /dev/null, wall:                  %.1f ms, %.0f MB/s\n", k * 1000, mb / k
  printf "  ratio of the transfer (curl'"'"'s own time) to cat: %.2f; of the curl process (its start included): %.2f\n", c / k, w / k
}'
