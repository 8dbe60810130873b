#!/usr/bin/env bash
# JMH benchmark of the counting engine (one thread, whole size), n = 12..16 unless sizes are given:
#   bench/jmh.sh            bench/jmh.sh 15 16
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" dev.nqueens.bench.CountingEngineBenchmark "$@"
