#!/usr/bin/env bash
# JMH benchmark of the counting engine (one thread, whole size), n = 12..16 unless sizes are given:
#   bench/jmh.sh            bench/jmh.sh 15 16
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
./mvnw -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test \
  >target/jmh-build.log 2>&1 || { cat target/jmh-build.log; echo "jmh: the build failed (output above)" >&2; exit 1; }
java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" dev.nqueens.bench.CountingEngineBenchmark "$@"
