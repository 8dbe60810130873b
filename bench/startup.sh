#!/usr/bin/env bash
# How long each command takes to answer, whole process through the launcher: median wall time,
# CPU time (user + sys) and peak resident memory of NQUEENS_BENCH_REPEAT runs (default 5), with the
# class-data archive (CDS on JDK 17-24, the AOT cache on 25+) and without it (NQUEENS_CDS=off).
#   bench/startup.sh [FOLDER]   FOLDER: a working directory where `./nqueens run` has stored sizes
#                               1-18 (made there first if it has no database; about a minute)
#   JAVA_HOME                   the JDK to measure (run it once per JDK)
#   NQUEENS_BENCH_BEFORE_JAR    an older build's jar, timed beside ours as `java -jar` (how the
#                               launcher ran it before it had archives), for a before/after table
#   NQUEENS_BENCH_BEFORE_FOLDER where that jar has stored sizes 1-18 itself (an older build cannot
#                               read a newer schema; default FOLDER)
#   NQUEENS_BENCH_REPEAT        runs per command and mode (default 5)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
folder="${1:-$(mktemp -d)}"
repeat="${NQUEENS_BENCH_REPEAT:-5}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
before="${NQUEENS_BENCH_BEFORE_JAR:-}"
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (GNU time)" >&2; exit 1; }
mkdir -p "$folder"
cd "$folder"
if [ ! -f data/nqueens.mv.db ]; then
  echo "bench: storing sizes 1-18 in $folder first ..." >&2
  "$root/nqueens" run >/dev/null
fi
"$root/nqueens" --version >/dev/null   # builds, unpacks and trains outside the timings
empty="$(mktemp -d)"
times="$(mktemp)"
trap 'rm -rf "$empty" "$times"' EXIT

# one MODE LABEL DIR CMD...: runs CMD NQUEENS_BENCH_REPEAT times in DIR, prints the medians
one() {
  local mode="$1" label="$2" dir="$3"; shift 3
  local walls=() cpus=() rsss=()
  for _ in $(seq "$repeat"); do
    (cd "$dir" && /usr/bin/time -o "$times" -f "%e %U %S %M" "$@" >/dev/null 2>&1) || true
    read -r wall user sys rss < <(tail -n 1 "$times")  # GNU time puts "Command exited with non-zero status" first
    walls+=("$wall"); cpus+=("$(awk "BEGIN{print $user + $sys}")"); rsss+=("$((rss / 1024))")
  done
  printf '%-8s %-44s %8s %8s %8s\n' "$mode" "$label" "$(median "${walls[@]}")" "$(median "${cpus[@]}")" \
    "$(median "${rsss[@]}")"
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# serve_once PORT CMD...: the seconds from starting `serve` until / answers
serve_once() {
  local port="$1"; shift
  local start end pid
  start=$(date +%s.%N)
  "$@" serve --port "$port" >/dev/null 2>&1 &
  pid=$!
  until curl -s -o /dev/null "http://127.0.0.1:$port/"; do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.02
  done
  end=$(date +%s.%N)
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
  awk "BEGIN{printf \"%.2f\", $end - $start}"
}

# serve_up MODE CMD...: medians of the seconds until / answers: started with a new command line
# (a new port), and started again with the same one (builds before c4202fa handed serve over to a
# JVM sized for its nights: a new command line asked a quick JVM first; now serve starts one JVM)
serve_up() {
  local mode="$1"; shift
  local port first=() again=()
  for _ in $(seq "$repeat"); do
    port=$(( (RANDOM % 20000) + 30000 ))
    first+=("$(serve_once "$port" "$@")")
    again+=("$(serve_once "$port" "$@")")
  done
  printf '%-8s %-44s %8s %8s %8s\n' "$mode" "serve until / answers, first start" "$(median "${first[@]}")" "-" "-"
  printf '%-8s %-44s %8s %8s %8s\n' "$mode" "serve until / answers, started again" "$(median "${again[@]}")" "-" "-"
}

# commands MODE DIR CMD...: every command, in DIR (a folder with sizes 1-18 stored)
commands() {
  local mode="$1" dir="$2"; shift 2
  one "$mode" "show 8 --limit 1" "$dir" "$@" show 8 --limit 1
  one "$mode" "sql (one row)" "$dir" "$@" sql "SELECT n, total_solutions FROM board_summary WHERE n = 8"
  one "$mode" "history --limit 3" "$dir" "$@" history --limit 3
  one "$mode" "cluster" "$dir" "$@" cluster
  one "$mode" "--help" "$dir" "$@" --help
  one "$mode" "run --help" "$dir" "$@" run --help
  one "$mode" "show 99 (bad input)" "$dir" "$@" show 99
  one "$mode" "history, no database yet" "$empty" "$@" history
  one "$mode" "count 8" "$dir" "$@" count 8
  one "$mode" "run, nothing to compute" "$dir" "$@" run
  (cd "$dir" && serve_up "$mode" "$@")
}

echo "$("$java" -version 2>&1 | head -n 1); $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores;" \
  "$(date -u +%Y-%m-%dT%H:%MZ); load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-44s %8s %8s %8s\n' mode command "wall (s)" "CPU (s)" "RSS (MB)"
commands archive "$folder" env "JAVA_HOME=${JAVA_HOME:-}" "$root/nqueens"
commands none "$folder" env NQUEENS_CDS=off "JAVA_HOME=${JAVA_HOME:-}" "$root/nqueens"
if [ -n "$before" ]; then
  commands before "${NQUEENS_BENCH_BEFORE_FOLDER:-$folder}" "$java" -jar "$before"
fi
