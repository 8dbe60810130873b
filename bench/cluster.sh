#!/usr/bin/env bash
# The cluster path against the local pool, on the same PostgreSQL and the same machine: the job's
# wall time of `run --sizes N` with 2 workers × 1 thread (the workers already running), against
# `run --sizes N --threads 2` without a cluster, alternately, REPS times each, each on a fresh
# database. Also the idle tail of each cluster run: from the moment the first worker ran out of
# partitions to the end of the last one. Starts its own throw-away PostgreSQL and RabbitMQ.
#   bench/cluster.sh            (n = 18, 3 times)      bench/cluster.sh 17 5
# The workers start once and stay up for every repetition, as a cluster's workers do from one night
# to the next (the first repetition is their first run: their JIT compiles the engine in it); the
# cluster runs use `--force` on one database, the local runs a fresh database each.
# NQUEENS_BENCH_WORKERS=1x2 runs one worker of 2 threads instead of 2 × 1 (any COUNTxTHREADS).
# NQUEENS_BENCH_DETAIL=1 adds, per worker, its count partitions, their summed time and its span,
# and the CPU seconds each process took during each run (manager, workers, PostgreSQL, RabbitMQ).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-18}"
reps="${2:-3}"
workers_spec="${NQUEENS_BENCH_WORKERS:-2x1}"
worker_count="${workers_spec%x*}" worker_threads="${workers_spec#*x}"
. "$root/.ci/services.sh"
[ -f "$root/target/nqueens.jar" ] || (cd "$root" && ./mvnw -B -q -DskipTests package)
work="$(mktemp -d)"
workers=()
cleanup() {
  for pid in "${workers[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  stop_services
  rm -rf "$work"
}
install_services
trap cleanup EXIT
start_postgres 55440 >/dev/null
start_rabbitmq 5690 >/dev/null
base="${NQUEENS_TEST_POSTGRES_URL%%/postgres?*}"
broker="${NQUEENS_TEST_RABBITMQ_URI#amqp://}"
export SPRING_DATASOURCE_USERNAME=postgres SPRING_DATASOURCE_PASSWORD=postgres
export SPRING_RABBITMQ_HOST=127.0.0.1 SPRING_RABBITMQ_PORT="${broker##*:}" SPRING_RABBITMQ_USERNAME=nqueens
export SPRING_RABBITMQ_PASSWORD="${broker#nqueens:}"; SPRING_RABBITMQ_PASSWORD="${SPRING_RABBITMQ_PASSWORD%@*}"
cd "$work"
psql_() { psql -h 127.0.0.1 -p 55440 -U postgres -qAt "$@"; }
fresh() { psql_ -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1";
          echo "$base/$1?reWriteBatchedInserts=true"; }
job_seconds() { sed -n 's/^Job COMPLETED in \([0-9.]*\) s.*/\1/p'; }
# steps DB: the seconds each step of the job took, e.g. "solve 0.4 count 15.2 publish 0.0 export 0.3"
steps() { psql_ -d "$1" -F ' ' -c "SELECT step_name, ROUND(EXTRACT(EPOCH FROM end_time - start_time)::numeric, 1)
    FROM batch_step_execution WHERE step_name NOT LIKE '%:%'
    AND job_execution_id = (SELECT MAX(job_execution_id) FROM batch_job_execution) ORDER BY start_time" | paste -sd ' ' -; }

# cpu PID...: CPU seconds (user + sys) the processes have used, with the children they reaped
cpu() { local ticks=0 f; for pid in "$@"; do
          [ -r "/proc/$pid/stat" ] || continue
          read -r -a f <"/proc/$pid/stat"; ticks=$((ticks + f[13] + f[14] + f[15] + f[16])); done
        awk "BEGIN{printf \"%.1f\", $ticks / $(getconf CLK_TCK)}"; }
others() { echo "$(cpu $(pgrep -u postgres postgres)) $(cpu $(pgrep -f beam.smp))"; }
# each_worker: the CPU seconds of each worker, "W1 W2 ..."
each_worker() { local w; for w in "${workers[@]}"; do printf '%s ' "$(cpu "$w")"; done; }
# delta "A B" "C D": "C-A/D-B"
delta() { awk -v a="$1" -v b="$2" 'BEGIN{ n = split(a, x, " "); split(b, y, " ")
          for (i = 1; i <= n; i++) printf "%s%.1f", (i > 1 ? "/" : ""), y[i] - x[i]; }'; }

export SPRING_DATASOURCE_URL; SPRING_DATASOURCE_URL="$(fresh bench_cluster)"
java -jar "$root/target/nqueens.jar" run --sizes 1 >/dev/null   # the schema: only a manager migrates
for w in $(seq 1 "$worker_count"); do
  java ${NQUEENS_BENCH_WORKER_OPTS:-} -jar "$root/target/nqueens.jar" worker --threads "$worker_threads" >"worker$w.txt" 2>&1 &
  workers+=($!)
done
until [ "$(grep -l ' started: ' worker*.txt 2>/dev/null | wc -l)" = "$worker_count" ]; do sleep 0.5; done
cluster_url="$SPRING_DATASOURCE_URL"
unset SPRING_DATASOURCE_URL

printf '%4s %-8s %10s %14s  %s\n' rep path "job (s)" "idle tail (s)" "steps (s)"
for rep in $(seq 1 "$reps"); do
  before="$(others)"; workers_before="$(each_worker)"
  SPRING_DATASOURCE_URL="$(fresh bench_local)" /usr/bin/time -o local-time.txt \
    -f "  local process %e s wall, %U s user, %S s sys" java -jar "$root/target/nqueens.jar" run --sizes "$n" \
    --threads 2 >local.txt
  after="$(others)"; workers_after="$(each_worker)"
  printf '%4s %-8s %10s %14s  %s\n' "$rep" local "$(job_seconds <local.txt)" - "$(steps bench_local)"
  if [ -n "${NQUEENS_BENCH_DETAIL:-}" ]; then
    cat local-time.txt
    echo "  CPU s during it: idle workers $(delta "$workers_before" "$workers_after"), postgres/rabbitmq $(delta "$before" "$after")"
  fi

  before="$(others)"; workers_before="$(each_worker)"
  SPRING_DATASOURCE_URL="$cluster_url" NQUEENS_CLUSTER_ENABLED=true /usr/bin/time -o manager-time.txt \
    -f "  manager process %e s wall, %U s user, %S s sys" \
    java ${NQUEENS_BENCH_MANAGER_OPTS:-} -jar "$root/target/nqueens.jar" run --sizes "$n" --force >cluster.txt
  after="$(others)"; workers_after="$(each_worker)"
  tail=$(psql_ -d bench_cluster -c "SELECT ROUND(EXTRACT(EPOCH FROM MAX(last) - MIN(last))::numeric, 1) FROM
    (SELECT worker_id, MAX(ended_at) AS last FROM partition_execution WHERE outcome = 'COMPLETED'
     AND partition_name LIKE 'countPart:%' AND job_execution_id = (SELECT MAX(job_execution_id)
     FROM batch_job_execution) GROUP BY worker_id) w")
  printf '%4s %-8s %10s %14s  %s\n' "$rep" cluster "$(job_seconds <cluster.txt)" "$tail" \
    "$(steps bench_cluster)"
  if [ -n "${NQUEENS_BENCH_DETAIL:-}" ]; then
    cat manager-time.txt
    echo "  CPU s during it: workers $(delta "$workers_before" "$workers_after"), postgres/rabbitmq $(delta "$before" "$after")"
    psql_ -d bench_cluster -F ' ' -c "SELECT '  worker', worker_id, COUNT(*) AS partitions,
      ROUND(SUM(EXTRACT(EPOCH FROM ended_at - started_at))::numeric, 1) AS busy,
      ROUND(EXTRACT(EPOCH FROM MAX(ended_at) - MIN(started_at))::numeric, 1) AS span
      FROM partition_execution WHERE partition_name LIKE 'countPart:%'
      AND job_execution_id = (SELECT MAX(job_execution_id) FROM batch_job_execution) GROUP BY worker_id"
  fi
done
