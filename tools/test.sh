#!/usr/bin/env bash
# Every test: on the Node.js of .nvmrc (installed into .local/node when the machine's node is
# another version), installs what is missing, starts PostgreSQL and Redis if they are down, then
# lint (with Nx module boundaries), type-check, unit, integration (real Postgres + Redis, a
# fresh database and key prefix per run) and end-to-end (the four services as processes), the
# end-to-end suites twice: on Redis Streams, then on Kafka; the browser test of the dashboard and
# the console (Debian's Chromium, installed when missing) on the Redis Streams pass only.
# Recon files go to S3Proxy (Maven Central, once, into .local/s3proxy), which checks signatures
# and presigned-URL expiry: each end-to-end pass starts one for its suites, integration specs
# that store files start their own.
# The alert rules' checks and unit tests run promtool, extracted once from Debian's prometheus
# package into .local/promtool.
# The bus contract runs on Redis Streams and on a real Kafka broker that this script installs
# (Maven Central, once, into .local/kafka) and starts for the run on its own ports and data
# directory, then stops; set KAFKA_BROKERS to use a broker of your own instead (it needs the
# kafka-init topics, and must not be shared: the services use their production group names).
# Last, the container stage (tools/containers/compose-test.sh): Debian's Docker engine, installed and
# started when missing, builds every image and runs docker-compose.yml with the journeys against it.
# CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/lib/node.sh
source tools/lib/services.sh
ensure_node
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false TZ=UTC
ensure_postgres
ensure_redis
ensure_docker_compose
ensure_chromium
ensure_kafka_installed
ensure_s3proxy_installed
ensure_promtool
ensure_built

step() { printf '\n== %s\n' "$1"; }
step "lint";       npm run --silent lint
step "typecheck";  npm run --silent typecheck
# The committed OpenAPI documents (docs/openapi.json, docs/ops-openapi.json), recommended rules (redocly.yaml): 0 errors, 0 warnings.
step "openapi lint"; npx redocly lint docs/openapi.json
step "ops openapi lint"; npx redocly lint docs/ops-openapi.json
# The merchant client's types are what docs/openapi.json gives (npm run openapi:client regenerates
# them), and the package builds and packs on its own (decision 0022).
step "merchant client"
npx openapi-typescript docs/openapi.json --default-non-nullable false -o libs/merchant-client/src/generated/merchant-api.ts --check
npm run --silent client:build
(cd dist/packages/merchant-client && npm pack --dry-run --silent > /dev/null)
mkdir -p tmp
step "unit";        npx jest -c jest.unit.config.js --ci --json --outputFile=tmp/jest-unit.json
# Started here rather than first: its JVM would only sit beside lint and the type-check.
if [ -z "${KAFKA_BROKERS:-}" ]; then
  step "kafka broker"
  start_test_kafka
fi
step "integration"; npx jest -c jest.int.config.js --ci --json --outputFile=tmp/jest-int.json
step "end-to-end";  npx jest -c jest.e2e.config.js --ci --json --outputFile=tmp/jest-e2e.json
# The same suites with every service on Kafka (the kafka-init topics, the services' own groups).
step "end-to-end on Kafka"
E2E_BUS_TRANSPORT=kafka npx jest -c jest.e2e.config.js --ci --json --outputFile=tmp/jest-e2e-kafka.json
# The production shape: every image built, docker-compose.yml up, the journeys in their container
# through crashes and restarts, a browser, a drain, ledger verify (docs/operations/containers.md).
step "containers (docker-compose)"
bash tools/containers/compose-test.sh

# One closing line over all the suites.
node -e '
  const runs = ["unit", "int", "e2e", "e2e-kafka"].map((s) => require(`./tmp/jest-${s}.json`));
  const sum = (k) => runs.reduce((n, r) => n + r[k], 0);
  console.log(`\ntests: ${sum("numPassedTests")} passed, ${sum("numFailedTests")} failed`);
'
