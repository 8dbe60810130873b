#!/usr/bin/env bash
# The cluster path against the local pool, on the same PostgreSQL and the same machine: the job's
# wall time of `run --sizes N` with 2 workers × 1 thread (the workers already running), against
# `run --sizes N --threads 2` without a cluster, alternately, REPS times each, each on a fresh
# database. Also the idle tail of each cluster run: from the moment the first worker ran out of
# partitions to the end of the last one. Starts its own throw-away PostgreSQL and RabbitMQ.
#   bench/cluster.sh            (n = 18, 3 times)      bench/cluster.sh 17 5
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-18}"
reps="${2:-3}"
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

# The workers run against a database of their own schema version; each measured run gets a fresh one.
printf '%4s %-8s %10s %14s\n' rep path "job (s)" "idle tail (s)"
for rep in $(seq 1 "$reps"); do
  SPRING_DATASOURCE_URL="$(fresh bench_local)" java -jar "$root/target/nqueens.jar" run --sizes "$n" --threads 2 \
    >local.txt
  printf '%4s %-8s %10s %14s\n' "$rep" local "$(job_seconds <local.txt)" -

  export SPRING_DATASOURCE_URL; SPRING_DATASOURCE_URL="$(fresh bench_cluster)"
  java -jar "$root/target/nqueens.jar" run --sizes 1 >/dev/null   # the schema: only a manager migrates
  for w in 1 2; do
    java -jar "$root/target/nqueens.jar" worker --threads 1 >"worker$w.txt" 2>&1 &
    workers+=($!)
  done
  until [ "$(grep -l ' started: ' worker1.txt worker2.txt 2>/dev/null | wc -l)" = 2 ]; do sleep 0.5; done
  NQUEENS_CLUSTER_ENABLED=true java -jar "$root/target/nqueens.jar" run --sizes "$n" >cluster.txt
  tail=$(psql_ -d bench_cluster -c "SELECT ROUND(EXTRACT(EPOCH FROM MAX(last) - MIN(last))::numeric, 1) FROM
    (SELECT worker_id, MAX(ended_at) AS last FROM partition_execution WHERE outcome = 'COMPLETED'
     AND partition_name LIKE 'countPart:%' GROUP BY worker_id) w")
  printf '%4s %-8s %10s %14s\n' "$rep" cluster "$(job_seconds <cluster.txt)" "$tail"
  for pid in "${workers[@]}"; do kill "$pid"; done
  wait "${workers[@]}" 2>/dev/null || true
  workers=()
  unset SPRING_DATASOURCE_URL
done
