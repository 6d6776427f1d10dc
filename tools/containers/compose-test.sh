#!/usr/bin/env bash
# The container stage of the test command: the production shape, for real
# (docs/operations/containers.md).
#
#   bash tools/containers/compose-test.sh        # build, up, journeys + faults, browser, verify, down
#   KEEP=1 bash tools/containers/compose-test.sh # leave the stack up afterwards (prints how to stop it)
#   IMAGES=official bash tools/containers/compose-test.sh   # a laptop with Docker Hub: the official
#                                                # infrastructure images, the project's on node:24.21.0-bookworm-slim
#
# 1. builds every image (build-images.sh; cached layers make a re-run quick);
# 2. brings docker-compose.yml up under a project name of its own, with new secrets and free
#    host ports, and waits for every service's healthcheck;
# 3. runs the merchant journeys (e2e/journeys, the webhook journey included) in their container
#    (docker-compose.e2e.yml), then again while the ledger and payout processes crash (SIGKILL;
#    their restart policy brings them back) and Postgres and Kafka are restarted;
# 4. a browser smoke of the dashboard through the compose gateway's published port;
# 5. `ledger verify` as a one-off container: clean, or the stage fails;
# 6. the image facts (size, user, read-only root, healthchecks), printed; then tears it all down.
# Exit code: 0 when every step passed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lib/node.sh
ensure_node >/dev/null
source tools/lib/services.sh
ensure_docker_engine

STATE=tmp/containers
mkdir -p "$STATE"
started=$SECONDS
step() { echo "[compose $((SECONDS - started))s] $*" >&2; }

[ -n "${CONTAINERS_SKIP_BUILD:-}" ] || bash tools/containers/build-images.sh

# --- the stack's own name, secrets and ports -------------------------------------------------
project="pay$(date +%s)$$"
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
env_file="$STATE/$project.env"
{
  grep -v '^#' .env.compose | grep -v '^$'
  grep -v '^#' "$STATE/images.env"
  echo "ACQUIRER_SECRET=$(openssl rand -hex 32)"
  echo "ADMIN_TOKEN=$(openssl rand -hex 32)"
  echo "MINIO_ROOT_USER=recon-$(openssl rand -hex 6)"
  echo "MINIO_ROOT_PASSWORD=$(openssl rand -hex 32)"
  for p in GATEWAY_PUBLISHED_PORT GATEWAY_INTERNAL_PUBLISHED_PORT KAFKA_PUBLISHED_PORT MINIO_PUBLISHED_PORT MINIO_CONSOLE_PUBLISHED_PORT; do
    echo "$p=$(free_port)"
  done
} > "$env_file"
chmod 600 "$env_file"
# shellcheck disable=SC1090
set -a && source "$env_file" && set +a
# Compose v1 (Debian's docker-compose) where it is installed, else the v2 plugin (`docker compose`).
if command -v docker-compose > /dev/null 2>&1; then compose_cli=(docker-compose); else compose_cli=(docker compose); fi
compose() { "${compose_cli[@]}" -p "$project" -f docker-compose.yml -f docker-compose.e2e.yml --env-file "$env_file" "$@"; }
logs="$STATE/$project-logs.txt"
down() {
  local rc=$?
  # A fault still under way (the suite failed early) must not restart a container after the stack is gone.
  if [ -n "${faults_pid:-}" ]; then kill "$faults_pid" 2> /dev/null || true; wait "$faults_pid" 2> /dev/null || true; fi
  compose logs --no-color --timestamps > "$logs" 2>&1 || true
  if [ -n "${KEEP:-}" ]; then
    echo "stack left up: docker-compose -p $project -f docker-compose.yml -f docker-compose.e2e.yml --env-file $env_file down -v" >&2
  else
    compose down -v --remove-orphans > /dev/null 2>&1 || true
    rm -f "$env_file"
  fi
  [ "$rc" -eq 0 ] || echo "compose stage failed (exit $rc); the stack's logs: $logs" >&2
  exit "$rc"
}
trap down EXIT

# --- up, healthy ---------------------------------------------------------------------------
step "up: project $project (gateway on :$GATEWAY_PUBLISHED_PORT, internal :$GATEWAY_INTERNAL_PUBLISHED_PORT)"
compose up -d --no-build gateway ledger payout workers
container() { compose ps -q "$1"; }
wait_healthy() {
  local deadline=$((SECONDS + ${2:-240})) status
  while :; do
    status=$(docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$(container "$1")" 2>/dev/null || echo missing)
    [ "$status" = healthy ] && return 0
    if [ $SECONDS -gt "$deadline" ]; then
      echo "$1 is $status after ${2:-240}s" >&2
      compose logs --no-color --tail 40 "$1" >&2
      return 1
    fi
    sleep 2
  done
}
for s in postgres redis kafka minio snap-simulator gateway ledger payout workers; do wait_healthy "$s"; done
step "every service healthy"

# --- the journeys in their container, clean, then again through container faults -------------
# --no-deps: the stack is up; a one-shot re-run mid-fault (Kafka restarting) must not stop the suite from starting.
journeys() { compose run --rm --no-deps --use-aliases e2e; }
step "journeys (container e2e, webhook journey included)"
journeys
# A crash: SIGKILL to the service's process (node, the child of tini, PID 1 in the container), as
# the kernel's OOM killer would do it; sent from inside the container, so it works wherever the
# engine runs (a laptop's VM too). Not `docker kill`: Docker counts that as a manual stop, which no
# restart policy undoes; a crash is what the policy is for.
crash() {
  docker exec "$(container "$1")" sh -c \
    'for p in /proc/[0-9]*; do [ "$(cut -d" " -f4 "$p/stat")" = 1 ] && kill -KILL "${p#/proc/}"; done; true'
}
# While the suite runs (about 10 s unhindered): each fault lands in it, from 3 s after its
# container is up (a cold machine takes longer to start it). The suite retries a 503 or a refused
# connection meanwhile, as a merchant's client would, and waits longer for outcomes.
faults() {
  until docker ps -q --filter "label=com.docker.compose.project=$project" --filter "label=com.docker.compose.service=e2e" \
    --filter "label=com.docker.compose.oneoff=True" | grep -q .; do
    sleep 0.5
  done
  sleep 3
  step "fault: ledger crashes (SIGKILL; its restart policy brings it back)"
  crash ledger
  sleep 3
  step "fault: payout crashes (SIGKILL)"
  crash payout
  sleep 3
  step "fault: docker restart postgres"
  docker restart "$(container postgres)" > /dev/null
  sleep 3
  step "fault: docker restart kafka"
  docker restart "$(container kafka)" > /dev/null
  step "faults done"
}
step "journeys again, through the faults"
faults &
faults_pid=$!
E2E_EVENTUALLY_MS=120000 E2E_RETRY_UNAVAILABLE_MS=60000 journeys
wait "$faults_pid"
for s in postgres kafka gateway ledger payout workers; do wait_healthy "$s"; done
for s in ledger payout; do
  restarts=$(docker inspect -f '{{.RestartCount}}' "$(container "$s")")
  [ "$restarts" -ge 1 ] || { echo "$s crashed but its restart policy did not restart it" >&2; exit 1; }
done
step "every service healthy again; ledger and payout restarted by their policy"

# --- the dashboard in a browser, through the published gateway ---------------------------------
step "browser smoke (Chromium on this machine -> compose gateway); payout stopped with a transfer in flight"
ensure_chromium
E2E_BASE_URL="http://localhost:$GATEWAY_PUBLISHED_PORT" E2E_INTERNAL_URL="http://127.0.0.1:$GATEWAY_INTERNAL_PUBLISHED_PORT" \
  E2E_ADMIN_TOKEN="$ADMIN_TOKEN" COMPOSE_PAYOUT_CONTAINER="$(container payout)" npx jest -c jest.compose.config.js --ci

# --- the books: ledger verify as a one-off container ------------------------------------------
step "ledger verify (one-off container)"
compose run --rm --no-deps migrate node dist/tools/admin/main.js ledger verify --grace 0

# --- image facts ------------------------------------------------------------------------------
step "image facts"
image=$PAYMENTS_IMAGE
size=$(docker image inspect -f '{{.Size}}' "$image")
user=$(docker image inspect -f '{{.Config.User}}' "$image")
echo "image $image: $((size / 1024 / 1024)) MiB, user '$user'"
[ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] || { echo "the image runs as root" >&2; exit 1; }
for s in gateway ledger payout workers; do
  id=$(container "$s")
  echo "$s: read-only root $(docker inspect -f '{{.HostConfig.ReadonlyRootfs}}' "$id"), user $(docker exec "$id" id -u), health $(docker inspect -f '{{.State.Health.Status}}' "$id")"
done
step "passed"
