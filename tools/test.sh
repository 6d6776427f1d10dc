#!/usr/bin/env bash
# Every test: installs what is missing, starts PostgreSQL and Redis if they are down, then
# lint (with Nx module boundaries), type-check, unit, integration (real Postgres + Redis, a
# fresh database and key prefix per run) and end-to-end (the four services as processes).
# CI runs exactly this (.ci/run). Set KAFKA_BROKERS to also run the bus contract on Kafka.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/lib/services.sh
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false TZ=UTC
ensure_postgres
ensure_redis
ensure_docker_compose
ensure_built

step() { printf '\n== %s\n' "$1"; }
step "lint";       npm run --silent lint
step "typecheck";  npm run --silent typecheck
mkdir -p tmp
step "unit";        npx jest -c jest.unit.config.js --ci --json --outputFile=tmp/jest-unit.json
step "integration"; npx jest -c jest.int.config.js --ci --json --outputFile=tmp/jest-int.json
step "end-to-end";  npx jest -c jest.e2e.config.js --ci --json --outputFile=tmp/jest-e2e.json

# One closing line over all three suites.
node -e '
  const runs = ["unit", "int", "e2e"].map((s) => require(`./tmp/jest-${s}.json`));
  const sum = (k) => runs.reduce((n, r) => n + r[k], 0);
  console.log(`\ntests: ${sum("numPassedTests")} passed, ${sum("numFailedTests")} failed`);
'
