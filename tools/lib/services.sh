# Sourced by the local runner, the test script and CI, after tools/lib/node.sh (so npm and the
# build run on the pinned Node.js): makes sure the machine's PostgreSQL and Redis are up,
# starting whichever is down (see ../shared/ENVIRONMENT.md).
ensure_postgres() {
  if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then return 0; fi
  echo "PostgreSQL is down; starting it" >&2
  local version
  version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$version" ]; then echo "PostgreSQL is not installed (no /etc/postgresql)" >&2; return 1; fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && return 0; sleep 1; done
  echo "PostgreSQL did not come up" >&2; return 1
}

ensure_redis() {
  if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then return 0; fi
  echo "Redis is down; starting it" >&2
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && return 0; sleep 1; done
  echo "Redis did not come up" >&2; return 1
}

# Installs dependencies when node_modules is missing or older than the lock file, then
# generates the Prisma client and builds every app into dist/.
ensure_built() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    # Not `npm ci`: this machine's npm writes lock files without other platforms' optional
    # packages (@swc/core-*), and `npm ci` rejects such a lock; `npm install` installs the
    # locked versions all the same.
    npm install --no-audit --no-fund
  fi
  # prebuild generates the Prisma client first.
  npm run --silent build
}

# The deployment checks validate docker-compose.yml with `docker-compose config` (no Docker
# engine needed); install Debian's package when it is missing.
ensure_docker_compose() {
  if command -v docker-compose >/dev/null 2>&1; then return 0; fi
  echo "installing docker-compose (Debian package) for the compose file checks" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
}

# A Docker engine for the container stage (tools/containers): Debian's docker.io (engine 20.10,
# BuildKit with DOCKER_BUILDKIT=1), docker-compose (Compose v1) and debootstrap, installed when
# missing; dockerd started in the background when it does not answer (its log in
# tmp/dockerd.log). Sets DOCKER to the engine's own client (/usr/bin/docker: the newer client
# some machines have first on PATH has no BuildKit). Where an engine and Compose answer already
# (a laptop with Docker), nothing is installed and `docker` is used as it is.
ensure_docker_engine() {
  local sudo=""
  # An engine that answers already (a laptop's Docker Desktop, a CI runner's): use it as it is.
  if [ -z "${DOCKER:-}" ] && docker info > /dev/null 2>&1 && { command -v docker-compose > /dev/null 2>&1 || docker compose version > /dev/null 2>&1; }; then
    # Debian's engine client first: a newer client without buildx cannot build with BuildKit.
    DOCKER=/usr/bin/docker
    [ -x "$DOCKER" ] || DOCKER=$(command -v docker)
    export DOCKER
    return 0
  fi
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker-compose >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
    echo "installing docker.io, docker-compose and debootstrap (Debian packages) for the container stage" >&2
    $sudo apt-get update -qq >/dev/null
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io docker-compose debootstrap >/dev/null
  fi
  DOCKER=/usr/bin/docker
  export DOCKER
  if $DOCKER info >/dev/null 2>&1; then return 0; fi
  echo "starting dockerd (log: tmp/dockerd.log)" >&2
  mkdir -p tmp
  $sudo sh -c 'nohup dockerd > tmp/dockerd.log 2>&1 &'
  local i
  for i in $(seq 1 60); do
    if $DOCKER info >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  echo "dockerd did not answer within 60 s; tmp/dockerd.log:" >&2
  tail -n 20 tmp/dockerd.log >&2
  return 1
}

# The browser test (e2e/dashboard.e2e-spec.ts) drives Debian's Chromium through playwright-core,
# whose own browser download is not available on these machines; install the package when it is
# missing (CHROMIUM_PATH names another browser binary instead).
ensure_chromium() {
  if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then return 0; fi
  echo "installing chromium (Debian package) for the browser test" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
}

# promtool (Debian's prometheus package, its one binary extracted into .local/promtool; nothing
# installed system-wide, no Prometheus server started) for the alert rules' checks and unit tests
# (tools/deploy-checks/alerts.spec.ts); does nothing when it is there or PROMTOOL names another.
ensure_promtool() {
  if [ -n "${PROMTOOL:-}" ] || [ -x .local/promtool/promtool ]; then return 0; fi
  echo "installing promtool (from Debian's prometheus package) for the alert rules' tests" >&2
  local dir sudo=""
  dir=$(mktemp -d)
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  if ! (cd "$dir" && apt-get download prometheus >/dev/null 2>&1); then
    $sudo apt-get update -qq >/dev/null
    (cd "$dir" && apt-get download prometheus >/dev/null 2>&1)
  fi
  dpkg-deb -x "$dir"/prometheus_*.deb "$dir/x"
  mkdir -p .local/promtool
  cp "$dir/x/usr/bin/promtool" .local/promtool/promtool
  rm -rf "$dir"
}

# The Kafka broker's jars (tools/kafka/pom.xml, from Maven Central) into .local/kafka/lib;
# does nothing when they are there already.
ensure_kafka_installed() {
  bash tools/kafka/kafka.sh install
}

# S3Proxy's jar (tools/s3proxy/pom.xml, from Maven Central) into .local/s3proxy/lib, the object
# store of the local runner and the tests; does nothing when it is there already.
ensure_s3proxy_installed() {
  bash tools/s3proxy/s3proxy.sh install
}

# Starts a broker of this run's own (free ports, a temporary data directory), exports
# KAFKA_BROKERS, and stops it when the calling script exits. Needs the build.
start_test_kafka() {
  KAFKA_TEST_DIR=$(mktemp -d "${TMPDIR:-/tmp}/kafka-test.XXXXXX")
  trap 'bash tools/kafka/kafka.sh stop "$KAFKA_TEST_DIR" || true; rm -rf "$KAFKA_TEST_DIR"' EXIT
  local started=$SECONDS
  KAFKA_BROKERS=$(bash tools/kafka/kafka.sh start "$KAFKA_TEST_DIR")
  export KAFKA_BROKERS
  echo "Kafka broker on $KAFKA_BROKERS (started in $((SECONDS - started)) s, data in $KAFKA_TEST_DIR)"
}
