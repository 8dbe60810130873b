# Throw-away PostgreSQL and RabbitMQ servers on 127.0.0.1, for the tests (.ci/run) and the cluster
# benchmark (bench/cluster.sh). Source it, then: install_services; start_postgres PORT;
# start_rabbitmq PORT; ...; stop_services (in an EXIT trap). Exports NQUEENS_TEST_POSTGRES_URL and
# NQUEENS_TEST_RABBITMQ_URI for what runs next, and the means for the tests that restart servers:
# NQUEENS_TEST_PG_BIN (PostgreSQL's initdb and pg_ctl: such a test runs a server of its own, as the
# postgres user through runuser, so that the other tests' connections survive) and
# NQUEENS_TEST_RABBITMQ_CTL (rabbitmqctl naming the broker's node, for stop_app and start_app).

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# Installs from Debian's packages whatever is missing (the browser and curl too, for the tests of `serve`).
install_services() {
  local missing=()
  [ -n "$(pg_bin)" ] || missing+=(postgresql)
  command -v rabbitmq-server >/dev/null 2>&1 || missing+=(rabbitmq-server)
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; } || missing+=(chromium chromium-driver)
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "services: installing ${missing[*]} from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

start_postgres() {
  local port="$1"
  PGBIN="$(pg_bin)"
  PGDIR="$(mktemp -d)"
  chown postgres "$PGDIR"
  runuser -u postgres -- "$PGBIN/initdb" -D "$PGDIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $PGDIR" -w start >/dev/null
  echo "services: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
  export NQUEENS_TEST_POSTGRES_URL="jdbc:postgresql://127.0.0.1:$port/postgres?user=postgres&password=postgres"
  export NQUEENS_TEST_PG_BIN="$PGBIN"
}

# A broker with its state in a temporary folder, listening on loopback only, with a login of its own
# (RabbitMQ's guest login is not used).
start_rabbitmq() {
  local port="$1"
  RABBITDIR="$(mktemp -d)"
  chown rabbitmq "$RABBITDIR"
  export RABBITMQ_NODENAME="nq$port@localhost" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$port" \
         RABBITMQ_DIST_PORT="$((port + 20000))" ERL_EPMD_ADDRESS=127.0.0.1 \
         RABBITMQ_MNESIA_BASE="$RABBITDIR/mnesia" RABBITMQ_LOG_BASE="$RABBITDIR/log" \
         RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
  rabbitmq-server -detached >/dev/null 2>&1
  for _ in $(seq 1 60); do
    (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 1
  done
  rabbitmqctl -n "$RABBITMQ_NODENAME" await_startup >/dev/null
  local password
  password="ci-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  rabbitmqctl -n "$RABBITMQ_NODENAME" add_user nqueens "$password" >/dev/null
  rabbitmqctl -n "$RABBITMQ_NODENAME" set_permissions -p / nqueens ".*" ".*" ".*" >/dev/null
  echo "services: RabbitMQ $(rabbitmqctl -n "$RABBITMQ_NODENAME" version 2>/dev/null) on 127.0.0.1:$port"
  export NQUEENS_TEST_RABBITMQ_URI="amqp://nqueens:$password@127.0.0.1:$port"
  export NQUEENS_TEST_RABBITMQ_CTL="rabbitmqctl -n $RABBITMQ_NODENAME"
}

stop_services() {
  if [ -n "${PGDIR:-}" ]; then
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$PGDIR"
  fi
  if [ -n "${RABBITDIR:-}" ]; then
    rabbitmqctl -n "$RABBITMQ_NODENAME" stop >/dev/null 2>&1 || true
    # Erlang's port mapper outlives the broker; it stops itself once no node is registered with it.
    epmd -kill >/dev/null 2>&1 || true
    rm -rf "$RABBITDIR"
  fi
}
